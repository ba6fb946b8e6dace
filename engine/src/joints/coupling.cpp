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
