#include "joints/row_builder.h"

#include <glm/gtx/norm.hpp>

namespace jl::rows {

namespace {

/// A linear lock along a with d = cA2w.p − cB2w.p, every field of the row written once (the
/// hottest prep path: a row of the 3D joint grid), as add() followed by linearLock's assignments.
static_assert(sizeof(Row) == 21 * sizeof(Real), "Row gained a field: write it in linearLockAt too");
Row* linearLockAt(const PrepContext& c, const Vec3& a, const Vec3& d, const char* label, RowWriter& out) {
    if (out.count >= out.capacity) return nullptr;
    Row* r = &out.rows[out.count++];
    r->linear0 = a;
    r->angular0 = glm::cross(c.r0, a);
    r->linear1 = a;
    r->angular1 = glm::cross(c.r1, a);
    r->geometricError = glm::dot(a, d);
    r->velocityTarget = 0.0;
    r->minImpulse = -kInf;
    r->maxImpulse = kInf;
    r->mods.spring.stiffness = 0.0;
    r->mods.spring.damping = 0.0;
    r->flags = kRowOutputForce;
    r->solveHint = SolveHint::Equality;
    r->erpOverride = -1.0;
    r->label = label;
    return r;
}

}  // namespace

Row* linearLock(const PrepContext& c, const Vec3& a, const char* label, RowWriter& out) {
    return linearLockAt(c, a, c.cA2w.p - c.cB2w.p, label, out);
}

Row* angularLock(const Vec3& a, Real error, const char* label, RowWriter& out) {
    Row* r = out.add();
    if (!r) return nullptr;
    r->angular0 = a;
    r->angular1 = a;
    r->geometricError = error;
    r->flags = kRowOutputForce | kRowAngular;
    r->solveHint = SolveHint::Equality;
    r->label = label;
    return r;
}

void lockRotation(const PrepContext& c, RowWriter& out) {
    // For q = qA⁻¹·qB with w >= 0, 2·q.vec ≈ θ·axis (in frame A) for small angles, and its rate
    // is ≈ (ω1 − ω0) in frame A; so C_k = −2·q.vec_k has dC/dt ≈ a_k·(ω0 − ω1).
    const Quat q = relativeRotation(c);
    angularLock(basisX(c.cA2w.q), -2.0 * q.x, kAngularLockLabels[0], out);
    angularLock(basisY(c.cA2w.q), -2.0 * q.y, kAngularLockLabels[1], out);
    angularLock(basisZ(c.cA2w.q), -2.0 * q.z, kAngularLockLabels[2], out);
}

void lockLinearAxes(const PrepContext& c, bool x, bool y, bool z, RowWriter& out) {
    const Vec3 d = c.cA2w.p - c.cB2w.p;  // C = a·d for each axis a
    if (x) linearLockAt(c, basisX(c.cA2w.q), d, kLinearLockLabels[0], out);
    if (y) linearLockAt(c, basisY(c.cA2w.q), d, kLinearLockLabels[1], out);
    if (z) linearLockAt(c, basisZ(c.cA2w.q), d, kLinearLockLabels[2], out);
}

}  // namespace jl::rows

namespace jl::rows {

Coordinate linearCoordinate(const PrepContext& c, const Vec3& a) {
    const Vec3 d = c.cB2w.p - c.cA2w.p;
    Coordinate x;
    // Row velocity = linear0·v0 + angular0·ω0 − linear1·v1 − angular1·ω1 must equal ẋ.
    x.linear0 = -a;
    x.angular0 = -glm::cross(c.r0 + d, a);
    x.linear1 = -a;
    x.angular1 = -glm::cross(c.r1, a);
    x.value = glm::dot(a, d);
    return x;
}

Coordinate angularCoordinate(const Vec3& a, Real angle) {
    Coordinate x;
    x.angular0 = -a;
    x.angular1 = -a;
    x.value = angle;
    x.angular = true;
    return x;
}

Row* boundRow(const Coordinate& x, Real sign, Real bound, Real contactDistance, Real restitution,
              Real bounceThreshold, Real stiffness, Real damping, const char* label, RowWriter& out) {
    const Real C = sign * (x.value - bound);  // >= 0 inside the allowed range
    const bool soft = stiffness > 0 || damping > 0;
    if (soft ? C >= 0 : C >= contactDistance) return nullptr;
    Row* r = out.add();
    if (!r) return nullptr;
    r->linear0 = sign * x.linear0;
    r->angular0 = sign * x.angular0;
    r->linear1 = sign * x.linear1;
    r->angular1 = sign * x.angular1;
    r->geometricError = C;
    r->minImpulse = 0.0;
    r->maxImpulse = kInf;
    r->label = label;
    if (soft) {
        r->flags = kRowSpring | kRowOutputForce;
        r->mods.spring.stiffness = stiffness;
        r->mods.spring.damping = damping;
        r->solveHint = SolveHint::None;
    } else {
        r->flags = kRowOutputForce | kRowKeepBias;
        if (restitution > 0) {
            r->flags |= kRowRestitution;
            r->mods.bounce.restitution = restitution;
            r->mods.bounce.velocityThreshold = bounceThreshold;
        }
        r->solveHint = SolveHint::Inequality;
    }
    if (x.angular) r->flags |= kRowAngular;
    return r;
}

void limitRows(const Coordinate& x, const LimitPair& l, const char* lowerLabel, const char* upperLabel,
               RowWriter& out) {
    if (!l.enabled) return;
    boundRow(x, 1.0, l.lower, l.contactDistance, l.restitution, l.bounceThreshold, l.stiffness, l.damping,
             lowerLabel, out);
    boundRow(x, -1.0, l.upper, l.contactDistance, l.restitution, l.bounceThreshold, l.stiffness, l.damping,
             upperLabel, out);
}

Row* driveRow(const Coordinate& x, const Drive& d, Real target, Real targetVelocity, const char* label,
              RowWriter& out) {
    if (!d.enabled) return nullptr;
    Row* r = out.add();
    if (!r) return nullptr;
    r->linear0 = x.linear0;
    r->angular0 = x.angular0;
    r->linear1 = x.linear1;
    r->angular1 = x.angular1;
    r->geometricError = x.value - target;  // C = x − x_T, so the spring force is k·(x_T − x) (D 9)
    r->velocityTarget = targetVelocity;
    r->mods.spring.stiffness = d.stiffness;
    r->mods.spring.damping = d.damping;
    r->minImpulse = -d.forceLimit;
    r->maxImpulse = d.forceLimit;
    r->flags = kRowSpring | kRowHasDriveLimit | (d.limitIsImpulse ? 0 : kRowDriveLimitsAreForces) |
               (d.acceleration ? kRowAccelerationSpring : 0) | (x.angular ? kRowAngular : 0);
    r->solveHint = SolveHint::None;
    r->label = label;
    return r;
}

SwingTwist swingTwist(const Quat& qIn) {
    const Quat q = positiveW(qIn);
    SwingTwist st;
    const Real tl = std::sqrt(q.w * q.w + q.x * q.x);
    Quat twist(1.0, 0.0, 0.0, 0.0);
    if (tl > 1e-12) {
        twist = Quat(q.w / tl, q.x / tl, 0.0, 0.0);
        st.twist = 2.0 * std::atan2(twist.x, twist.w);
    }
    const Quat swing = positiveW(q * glm::conjugate(twist));
    const Real s = std::sqrt(swing.y * swing.y + swing.z * swing.z);
    st.swing = 2.0 * std::atan2(s, swing.w);
    if (s > 1e-12) {
        st.swingAxis = Vec3(0.0, swing.y / s, swing.z / s);
        st.swingY = st.swing * st.swingAxis.y;
        st.swingZ = st.swing * st.swingAxis.z;
    }
    return st;
}

void coneRow(const PrepContext& c, const SwingTwist& st, const ConeLimit& cone, RowWriter& out) {
    if (!cone.enabled || st.swing < 1e-9) return;
    const Real ey = st.swingAxis.y / cone.yAngle, ez = st.swingAxis.z / cone.zAngle;
    const Real maxSwing = 1.0 / std::sqrt(ey * ey + ez * ez);
    // The coordinate is the swing angle about the world swing axis s; the cone is its upper bound.
    const Vec3 s = c.cA2w.q * st.swingAxis;
    boundRow(angularCoordinate(s, st.swing), -1.0, maxSwing, cone.contactDistance, cone.restitution,
             cone.bounceThreshold, cone.stiffness, cone.damping, "swing cone limit", out);
}

Real trackedTwist(const PrepContext& c, const Quat& qRel, int slot) {
    const Real t = swingTwist(qRel).twist;
    return c.memory ? c.memory->unwrap(slot, t) : t;
}

}  // namespace jl::rows
