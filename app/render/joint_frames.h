// JointLab app — where a joint's two frames are in the world right now.
#pragma once

#include <span>

#include "jointlab/world.h"

namespace jl::app {

/// Frame A (frame0 on body 0) and frame B (frame1 on body 1) in world coordinates.
struct JointWorldFrames {
    Transform a;
    Transform b;
};

/// Pose of the body named `name` among `states`; identity for "" (the world) or an unknown name.
Transform bodyPoseByName(const Scene& scene, std::span<const BodyState> states, const std::string& name);

JointWorldFrames jointWorldFrames(const Scene& scene, std::span<const BodyState> states,
                                  const JointDesc& joint);

}  // namespace jl::app
