// Ground contact points for the static plane y = 0.
#pragma once

#include "jointlab/body.h"

namespace jl {

/// Maximum contact points one body can have with the ground (a box's 8 corners).
inline constexpr int kMaxGroundContacts = 8;

/// Writes the body's support points that lie below y = margin (world coordinates, on the body's
/// surface) into out and returns how many. Sphere: the lowest point; capsule: the lowest points of
/// its two end spheres; box: its corners.
int groundContactPoints(const BodyDesc& body, const Transform& pose, Real margin, Vec3 out[kMaxGroundContacts]);

}  // namespace jl
