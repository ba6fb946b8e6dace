// JointLab engine — the runtime state of a World, as plain data.
//
// A WorldSnapshot is everything a World needs, on top of its Scene, to continue a run bit for bit:
// used for reset and time travel (World::snapshot / restore) and saved in scenario files as the
// optional "state" section (Scene::state), so a file saved mid-run continues exactly where it was.
// It lives in its own header because the Scene holds one and the World makes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "jointlab/fields.h"
#include "jointlab/math.h"

namespace jl {

/// The highest step count JointLab runs to, saves or reads: 10^12 (11.6 days at a million steps a
/// second; t = 10^11 s at the largest dt). A saved state's `step`, an input log's `startStep` and
/// `endStep`, and the end of a `jointlab run` (the start step plus --steps) beyond it are refused,
/// naming the field, so no run is endless and no count comes near INT64_MAX.
inline constexpr int64_t kMaxStepCount = 1'000'000'000'000;

/// Pose and velocity of a body.
struct BodyState {
    Transform pose;             ///< centre of mass pose
    Vec3 linearVelocity{0.0};   ///< [m/s]
    Vec3 angularVelocity{0.0};  ///< world axes [rad/s]

    /// Field list (the "state" section of scenario files).
    template <class V>
    void visit(V& v) {
        v("position", pose.p, anyReal("m", "centre of mass position"));
        v("orientation", pose.q, Field{"", 0, 0, "unit quaternion (w, x, y, z), body to world"});
        v("linearVelocity", linearVelocity, anyReal("m/s", "linear velocity"));
        v("angularVelocity", angularVelocity, anyReal("rad/s", "angular velocity, world axes"));
    }
};

/// One body–body contact point of the last step with the impulses the solver gave it: what the
/// next step warm-starts the matching point from (world/stages/contact_rows.cpp). Also the
/// contacts of cylinders, hulls and compounds with the ground (body1 = −1).
struct BodyContactState {
    int body0 = 0, body1 = -1;  ///< scene indices, body0 < body1; −1: the ground
    int feature = 0;            ///< which child shapes touch (compounds), else 0
    Vec3 local0{0.0};           ///< the point on body 0, in body 0's frame [m]
    Real normalImpulse = 0.0;   ///< [N·s]
    Vec3 frictionImpulse{0.0};  ///< the two friction rows' impulses as one vector, world axes [N·s]
};

/// Everything needed to continue a run bit-identically (reset, time travel, save mid-run).
/// Sizes follow the scene it was taken from: one entry per body / joint, kSlots angles per joint
/// (JointMemory::kSlots), kMaxGroundContacts × 3 warm-start impulses per body.
struct WorldSnapshot {
    int64_t stepCount = 0;
    Real time = 0.0;
    std::vector<BodyState> bodies;
    std::vector<bool> broken;
    std::vector<Real> jointAngles;  ///< JointMemory: kSlots per joint
    std::vector<bool> jointAngleValid;
    std::vector<Real> contactImpulses;           ///< warm-start cache
    std::vector<BodyContactState> bodyContacts;  ///< the last step's body contacts, canonical order
    size_t breakEventCount = 0;  ///< break events of the world it was taken from (not saved in files)
};

}  // namespace jl
