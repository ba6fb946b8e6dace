// Engine tests of couplings measured relative to a moving carrier (relative_gear_test.cpp,
// parallel_gear_test.cpp, the relative rack in couplings_test.cpp): the carrier's exact rigid
// motion, the velocities of bodies hinged or sliding on it, and the one row a coupling writes with
// its J·v, so that each test can compare J·v with the central difference of C.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <utility>

#include "test_util.h"

namespace jl::test {

/// A carrier at pose H at t = 0 that moves on at V and turns at Omega (world axes) about its
/// origin.
struct Carrier {
    Transform H;
    Vec3 V, Omega;
    /// Its pose at time t.
    Transform at(Real t) const {
        const Real angle = glm::length(Omega) * t;
        return Transform{H.p + V * t, glm::normalize(glm::angleAxis(angle, glm::normalize(Omega)) * H.q)};
    }
};

/// A body's linear and angular velocity.
struct Twist {
    Vec3 v, w;
};

/// A body hinged to the carrier (at pose Ht) at the carrier's point `hinge` about its axis `axis`,
/// turning at qDot, with its centre at `centre` (world): the carrier's rigid motion plus the turn.
inline Twist hingedOn(const Carrier& c, const Transform& Ht, const Vec3& hinge, const Vec3& axis, Real qDot,
                      const Vec3& centre) {
    const Vec3 omega = c.Omega + qDot * (Ht.q * axis);
    const Vec3 hingeWorld = Ht.apply(hinge);
    return {c.V + glm::cross(c.Omega, hingeWorld - Ht.p) + glm::cross(omega, centre - hingeWorld), omega};
}

/// A body sliding on the carrier (at pose Ht) along its axis `axis` at sDot, with its centre at
/// `centre` (world): the carrier's rigid motion plus the slide.
inline Twist slidingOn(const Carrier& c, const Transform& Ht, const Vec3& axis, Real sDot,
                       const Vec3& centre) {
    return {c.V + glm::cross(c.Omega, centre - Ht.p) + sDot * (Ht.q * axis), c.Omega};
}

/// The coupling's memory of its bodies at the start, which a relative coupling measures from:
/// `poses(H, q0, q1, A, B)` places the bodies for carrier pose H and joint coordinates q0, q1; the
/// start is the carrier at the origin and both coordinates 0.
template <class Poses>
JointMemory startMemory(const Poses& poses) {
    JointMemory memory;
    poses(Transform{}, 0.0, 0.0, memory.reference[0], memory.reference[1]);
    memory.hasReference = true;
    return memory;
}

/// The rows the coupling `params` writes for bodies at A and B (j's frames, 60 Hz), with `memory`
/// (updated as a step's prep updates it). Returns how many.
template <class P>
int prepRows(const P& params, const JointDesc& j, const Transform& A, const Transform& B, JointMemory& memory,
             std::array<Row, kMaxRowsPerJoint>& rows) {
    RowWriter out{rows.data(), kMaxRowsPerJoint};
    PrepContext c = PrepContext::make(A, j.frame0, B, j.frame1, 1.0 / 60.0);
    c.memory = &memory;
    prep(params, c, out);
    return out.count;
}

/// The coupling's one row (another count is a failure) for bodies at A and B moving with `a` and
/// `b`: its C and its J·v.
template <class P>
std::pair<Real, Real> rowErrorAndJv(const P& params, const JointDesc& j, const Transform& A,
                                    const Transform& B, JointMemory memory, const Twist& a, const Twist& b) {
    std::array<Row, kMaxRowsPerJoint> rows;
    EXPECT_EQ(prepRows(params, j, A, B, memory, rows), 1);
    const Row& r = rows[0];
    const Real jv = glm::dot(r.linear0, a.v) + glm::dot(r.angular0, a.w) - glm::dot(r.linear1, b.v) -
                    glm::dot(r.angular1, b.w);
    return {r.geometricError, jv};
}

}  // namespace jl::test
