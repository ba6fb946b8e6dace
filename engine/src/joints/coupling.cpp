// Coupled coordinates and the coupling row; the maths is in coupling.h.
#include "joints/coupling.h"

#include <cmath>

#include "jointlab/joints/gear.h"
#include "joints/row_builder.h"

namespace jl::rows {

Transform couplingReference(const PrepContext& c, int side) {
    // The body's start pose (identity without memory) times the joint's local frame as it is
    // now: an edit of the local frame changes the axis q is measured about, but does not count
    // as motion.
    Transform bodyRef;
    if (JointMemory* m = c.memory) {
        if (!m->hasReference) {
            m->reference[0] = c.body0;
            m->reference[1] = c.body1;
            m->hasReference = true;
        }
        bodyRef = m->reference[side];
    }
    const Transform local = side == 0 ? c.body0.inverse() * c.cA2w : c.body1.inverse() * c.cB2w;
    return bodyRef * local;
}

BodyCoordinate frameAngle(const PrepContext& c, int side, int slot) {
    const Transform& frame = side == 0 ? c.cA2w : c.cB2w;
    const Transform ref = couplingReference(c, side);
    // frame.q = ref.q · Rot(x̂, q) for a frame turning about its own X axis, so the twist of
    // ref⁻¹·frame.q about X is q (swing-twist split, wrapped to (−π, π]).
    const Real wrapped = swingTwist(glm::conjugate(ref.q) * frame.q).twist;
    BodyCoordinate q;
    q.value = c.memory ? c.memory->unwrap(slot, wrapped) : wrapped;
    q.angular = basisX(frame.q);
    q.isAngle = true;
    return q;
}

BodyCoordinate frameSlide(const PrepContext& c, int side) {
    const Transform& frame = side == 0 ? c.cA2w : c.cB2w;
    const Vec3& r = side == 0 ? c.r0 : c.r1;
    const Transform ref = couplingReference(c, side);
    const Vec3 x = basisX(ref.q);
    BodyCoordinate q;
    q.value = glm::dot(x, frame.p - ref.p);
    q.linear = x;
    q.angular = glm::cross(r, x);
    return q;
}

Row* relativeRackRow(const PrepContext& c, Real ratio, Real offset, Real erp, RowWriter& out) {
    // The start: the two body poses (identity without memory) and frames A and B on them then.
    const Transform refA = couplingReference(c, 0), refB = couplingReference(c, 1);
    const Quat body1Ref = c.memory ? c.memory->reference[1].q : Quat(1, 0, 0, 0);
    // θ: frame A seen from body 1, now against the start (rack_pinion.h).
    const Quat now = glm::conjugate(c.body1.q) * c.cA2w.q;
    const Quat then = glm::conjugate(body1Ref) * refA.q;
    const Real wrapped = swingTwist(glm::conjugate(then) * now).twist;
    const Real theta = c.memory ? c.memory->unwrap(0, wrapped) : wrapped;
    // x: frame B's origin from frame A's origin along B's X, now against the start.
    const Vec3 u = basisX(c.cB2w.q), uRef = basisX(refB.q), w = basisX(c.cA2w.q);
    const Real x = glm::dot(u, c.cB2w.p - c.cA2w.p) - glm::dot(uRef, refB.p - refA.p);
    Row* row = out.add();
    if (!row) return nullptr;
    row->linear0 = -u;
    row->angular0 = -glm::cross(c.r0, u) - ratio * w;
    row->linear1 = -u;
    row->angular1 = -(glm::cross(c.cA2w.p - c.body1.p, u) + ratio * w);
    row->geometricError = x - ratio * theta - offset;
    row->erpOverride = erp;
    row->flags = kRowOutputForce;
    row->solveHint = SolveHint::Equality;
    row->label = "rack and pinion (relative)";
    return row;
}

namespace {

/// The turn about the unit axis n that takes v to v' (both seen in the plane at right angles to n).
Real turnAbout(const Vec3& n, const Vec3& v, const Vec3& vTurned) {
    return std::atan2(glm::dot(n, glm::cross(v, vTurned)),
                      glm::dot(v, vTurned) - glm::dot(v, n) * glm::dot(vTurned, n));
}

/// The relative gear for (nearly) parallel axes, read through positions (gear.h, "Parallel axes"):
/// d = origin B − origin A seen in frame A turns by −q0 about X, seen in frame B by −q1.
Row* parallelGearRow(const PrepContext& c, const Transform& refA, const Transform& refB, Real ratio,
                     Real offset, Real erp, RowWriter& out) {
    const Vec3 xA = basisX(c.cA2w.q), xB = basisX(c.cB2w.q);
    const Vec3 d = c.cB2w.p - c.cA2w.p;
    const Vec3 dA = d - glm::dot(d, xA) * xA, dB = d - glm::dot(d, xB) * xB;  // d⊥ of each axis
    const Real lenA2 = glm::dot(dA, dA), lenB2 = glm::dot(dB, dB);
    const Real min2 = kParallelGearMinDistance * kParallelGearMinDistance;
    if (!(lenA2 >= min2 && lenB2 >= min2)) return nullptr;  // one axis through the other's origin
    // The angles: d in each frame's own coordinates now against the start, about that frame's X.
    const Vec3 d0 = refB.p - refA.p, x(1.0, 0.0, 0.0);
    const Real q0Wrapped = -turnAbout(x, glm::conjugate(refA.q) * d0, glm::conjugate(c.cA2w.q) * d);
    const Real q1Wrapped = -turnAbout(x, glm::conjugate(refB.q) * d0, glm::conjugate(c.cB2w.q) * d);
    const Real q0 = c.memory ? c.memory->unwrap(0, q0Wrapped) : q0Wrapped;
    const Real q1 = c.memory ? c.memory->unwrap(1, q1Wrapped) : q1Wrapped;
    // q̇0 = n_A·(v0 − v_B) + ... (gear.h): n = x × d⊥ / |d⊥|², force n at the anchors plus the
    // torques d × n_A on body 0 and −ratio·d × n_B on body 1.
    const Vec3 nA = glm::cross(xA, dA) / lenA2, nB = glm::cross(xB, dB) / lenB2;
    const Vec3 n = nA + ratio * nB;
    Row* row = out.add();
    if (!row) return nullptr;
    row->linear0 = n;
    row->angular0 = glm::cross(c.r0, n) + glm::cross(d, nA);
    row->linear1 = n;
    row->angular1 = glm::cross(c.r1, n) - ratio * glm::cross(d, nB);
    row->geometricError = q0 + ratio * q1 + offset;
    row->erpOverride = erp;
    row->flags = kRowOutputForce;
    row->solveHint = SolveHint::Equality;
    row->label = "gear (relative, parallel axes)";
    return row;
}

}  // namespace

Row* relativeGearRow(const PrepContext& c, Real ratio, Real offset, Real erp, RowWriter& out) {
    const Transform refA = couplingReference(c, 0), refB = couplingReference(c, 1);
    const Vec3 a = basisX(refA.q), b = basisX(refB.q);
    const Real startCosine = glm::dot(a, b);
    if (1.0 - startCosine * startCosine < kRelativeGearParallelSin2)  // decided once, by the start
        return parallelGearRow(c, refA, refB, ratio, offset, erp, out);
    const Vec3 xA = basisX(c.cA2w.q), xB = basisX(c.cB2w.q);
    const Real cosine = glm::dot(xA, xB), sin2 = 1.0 - cosine * cosine;
    if (!(sin2 >= kRelativeGearMinSin2)) return nullptr;  // the axes closed up: β would blow up
    // D = F_B0·F_B⁻¹·F_A·F_A0⁻¹ = Rot(b, −q1)·Rot(a, q0), a and b the axes at the start (gear.h).
    const Quat d = refB.q * glm::conjugate(c.cB2w.q) * c.cA2w.q * glm::conjugate(refA.q);
    const Real q1Wrapped = -turnAbout(b, a, d * a);
    const Real q0Wrapped = -turnAbout(a, b, glm::conjugate(d) * b);
    const Real q0 = c.memory ? c.memory->unwrap(0, q0Wrapped) : q0Wrapped;
    const Real q1 = c.memory ? c.memory->unwrap(1, q1Wrapped) : q1Wrapped;
    // β·x_A = 1, β·x_B = −ratio: dC/dt = β·(ω0 − ω1), the carrier's ω cancelling.
    const Vec3 beta = ((1.0 + ratio * cosine) * xA - (ratio + cosine) * xB) / sin2;
    Row* row = out.add();
    if (!row) return nullptr;
    row->linear0 = Vec3(0.0);
    row->angular0 = beta;
    row->linear1 = Vec3(0.0);
    row->angular1 = beta;
    row->geometricError = q0 + ratio * q1 + offset;
    row->erpOverride = erp;
    row->flags = kRowOutputForce | kRowAngular;
    row->solveHint = SolveHint::Equality;
    row->label = "gear (relative)";
    return row;
}

Row* couplingRow(const BodyCoordinate& q0, Real g0, const BodyCoordinate& q1, Real g1, Real offset, Real erp,
                 const char* label, RowWriter& out) {
    Row* row = out.add();
    if (!row) return nullptr;
    row->linear0 = g0 * q0.linear;
    row->angular0 = g0 * q0.angular;
    row->linear1 = -g1 * q1.linear;
    row->angular1 = -g1 * q1.angular;
    row->geometricError = g0 * q0.value + g1 * q1.value + offset;  // eq. 3
    row->erpOverride = erp;                                        // bias erp·C/dt, eq. 5, 8
    row->flags = kRowOutputForce | (q0.isAngle && q1.isAngle ? kRowAngular : 0);
    row->solveHint = SolveHint::Equality;
    row->label = label;
    return row;
}

}  // namespace jl::rows
