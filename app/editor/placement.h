// JointLab editor — geometry for placing things: joint axes, surface normals, resting positions.
#pragma once

#include "jointlab/scene.h"

namespace jl::app {

/// The shortest rotation taking +X to `axis` (any length > 0). For −X it turns 180° about Y.
Quat rotationFromXTo(const Vec3& axis);

/// Outward normal of the body's surface nearest to `worldPoint` (a point on or near it), world axes.
Vec3 surfaceNormal(const BodyDesc& body, const Transform& pose, const Vec3& worldPoint);

/// Half the body's extent along the world direction `n` (unit): how far its surface reaches from
/// the centre that way. A body dropped on a surface with normal n sits at point + n·supportDistance.
Real supportDistance(const BodyDesc& body, const Quat& orientation, const Vec3& n);

/// How the axis (joint frame X) of a joint made in the viewport is chosen (editor/joint_tool.h).
enum class JointAxisChoice { Auto, SurfaceNormal, AToB, WorldX, WorldY, WorldZ, PlaneNormal };
inline constexpr const char* kJointAxisChoiceNames[] = {
    "auto axis", "surface normal", "along the line", "world X", "world Y", "world Z", "work plane normal"};
inline constexpr int kJointAxisChoiceCount = 7;

}  // namespace jl::app
