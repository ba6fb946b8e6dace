#include "render/joint_frames.h"

namespace jl::app {

Transform bodyPoseByName(const Scene& scene, std::span<const BodyState> states, const std::string& name) {
    if (name.empty()) return Transform{};
    const int i = scene.findBody(name);
    return (i >= 0 && static_cast<size_t>(i) < states.size()) ? states[static_cast<size_t>(i)].pose
                                                              : Transform{};
}

JointWorldFrames jointWorldFrames(const SceneIndex& index, std::span<const BodyState> states,
                                  const JointDesc& joint, int j) {
    return {bodyPose(states, index.jointBody0(j)) * joint.frame0,
            bodyPose(states, index.jointBody1(j)) * joint.frame1};
}

JointWorldFrames jointWorldFrames(const Scene& scene, std::span<const BodyState> states,
                                  const JointDesc& joint) {
    return {bodyPoseByName(scene, states, joint.body0) * joint.frame0,
            bodyPoseByName(scene, states, joint.body1) * joint.frame1};
}

}  // namespace jl::app
