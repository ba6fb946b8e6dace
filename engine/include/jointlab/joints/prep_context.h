// JointLab engine — what a joint's prep function receives.
#pragma once

#include "jointlab/math.h"

namespace jl {

/// What a joint remembers between steps: angles tracked through full turns (no wrap at ±π).
/// Owned by the world, one per joint; reset when the joint is rebuilt.
struct JointMemory {
    static constexpr int kSlots = 4;
    Real angle[kSlots] = {};
    bool valid[kSlots] = {};
    /// Coupling joints (gear, rack-and-pinion): the two body poses their angles and slides are
    /// measured from — the poses the World was built with (captured at the first prep if unset).
    Transform reference[2];
    bool hasReference = false;

    /// The continuous angle nearest to the last one for `wrapped` in (−π, π]; stores it.
    Real unwrap(int slot, Real wrapped) {
        Real a = wrapped;
        if (valid[slot]) {
            const Real prev = angle[slot];
            a = wrapped + 2.0 * kPi * std::round((prev - wrapped) / (2.0 * kPi));
        }
        angle[slot] = a;
        valid[slot] = true;
        return a;
    }
};

/// The state a joint's rows are built from: the two body poses (identity for the world or a
/// static body) and the two local joint frames, plus the derived world joint frames and lever arms.
/// Built once per joint per step by the world; joint prep functions only read it.
struct PrepContext {
    Transform body0;                ///< body 0 centre-of-mass pose in world
    Transform body1;                ///< body 1 centre-of-mass pose in world
    Transform cA2w;                 ///< body 0's joint frame in world (body0 * frame0)
    Transform cB2w;                 ///< body 1's joint frame in world (body1 * frame1)
    Vec3 r0{0.0};                   ///< cA2w.p − body0.p: lever arm of body 0 [m]
    Vec3 r1{0.0};                   ///< cB2w.p − body1.p: lever arm of body 1 [m]
    Real dt = 1.0 / 60.0;           ///< the step [s]
    JointMemory* memory = nullptr;  ///< per-joint memory across steps (null: angles are not unwrapped)

    /// The frames and lever arms above from the two poses and joint frames (joints/prep_context.cpp:
    /// the lock parts' parts::frames, the one place they are worked out).
    static PrepContext make(const Transform& body0, const Transform& frame0, const Transform& body1,
                            const Transform& frame1, Real dt);
};

}  // namespace jl
