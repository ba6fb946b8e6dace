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

/// How the axis (joint frame X) of a joint made in the viewport is chosen.
enum class JointAxisChoice { Auto, SurfaceNormal, AToB, WorldX, WorldY, WorldZ };
inline constexpr const char* kJointAxisChoiceNames[] = {"auto",    "surface normal", "A to B",
                                                        "world X", "world Y",        "world Z"};
inline constexpr int kJointAxisChoiceCount = 6;

/// The joint axis for a joint of type `typeIndex` picked at `pointA` (surface normal `normalA`) on
/// body A towards `pointB` on body B or the world. Auto: the type's JointPlacementDefaults::axis —
/// along A→B for types that act along the line between the bodies (when B is a body), otherwise
/// the surface normal: the hinge of a wheel clicked on its side, a door clicked on its edge.
Vec3 chooseJointAxis(JointAxisChoice choice, int typeIndex, const Vec3& pointA, const Vec3& normalA,
                     const Vec3& pointB, bool bIsBody);

}  // namespace jl::app
