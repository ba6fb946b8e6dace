// Ground contact points for the static plane y = 0.
#pragma once

#include "jointlab/body.h"

namespace jl {

/// Maximum contact points one body can have with the ground (a box's 8 corners).
inline constexpr int kMaxGroundContacts = 8;

/// A support point of a body near the ground.
struct GroundPoint {
    Vec3 p;       ///< world position on the body's surface [m]
    int feature;  ///< which corner / cap (0..7), stable from step to step (keys the warm start)
};

/// Writes the body's support points that lie below y = margin into out and returns how many.
/// Sphere: the lowest point; capsule: the lowest points of its two end spheres; box: its corners;
/// other shapes: none (the collider finds theirs, contacts/collide.h).
int groundContactPoints(const BodyDesc& body, const Transform& pose, Real margin,
                        GroundPoint out[kMaxGroundContacts]);

}  // namespace jl
