// JointLab app — where a joint's two frames are in the world right now.
#pragma once

#include <span>

#include "jointlab/world.h"
#include "session/scene_index.h"

namespace jl::app {

/// Frame A (frame0 on body 0) and frame B (frame1 on body 1) in world coordinates.
struct JointWorldFrames {
    Transform a;
    Transform b;
};

/// Pose of body `index` among `states`; identity for −1 (the world) or an index out of range.
inline Transform bodyPose(std::span<const BodyState> states, int index) {
    return index >= 0 && static_cast<size_t>(index) < states.size() ? states[static_cast<size_t>(index)].pose
                                                                    : Transform{};
}

/// Joint `j`'s frames, its bodies found through the index (no name lookup).
JointWorldFrames jointWorldFrames(const SceneIndex& index, std::span<const BodyState> states,
                                  const JointDesc& joint, int j);

/// The same with the bodies looked up by name (for one-off uses outside the frame path).
Transform bodyPoseByName(const Scene& scene, std::span<const BodyState> states, const std::string& name);
JointWorldFrames jointWorldFrames(const Scene& scene, std::span<const BodyState> states,
                                  const JointDesc& joint);

}  // namespace jl::app
