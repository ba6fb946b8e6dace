// Coupled coordinates and the coupling row; the maths is in coupling.h.
#include "joints/coupling.h"

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
