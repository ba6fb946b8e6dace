#include "joints/row_builder.h"

#include <glm/gtx/norm.hpp>

namespace jl::rows {

namespace {

parts::V3<Real> v3(const Vec3& v) {
    return {v.x, v.y, v.z};
}
Vec3 vec3(const parts::V3<Real>& v) {
    return Vec3(v.x, v.y, v.z);
}
parts::Pose<Real> pose(const Transform& t) {
    return {v3(t.p), {t.q.x, t.q.y, t.q.z, t.q.w}};
}

}  // namespace

parts::Frames<Real> lockFrames(const PrepContext& c) {
    return {pose(c.cA2w), pose(c.cB2w), v3(c.r0), v3(c.r1)};
}

static_assert(sizeof(Row) == 21 * sizeof(Real), "Row gained a field: write it in writeLock too");
Row* writeLock(const parts::Lock<Real>& lock, bool angular, const char* label, RowWriter& out, int blockSize,
               int blockIndex) {
    if (out.count >= out.capacity) return nullptr;
    Row* r = &out.rows[out.count++];
    r->linear0 = vec3(lock.linear);
    r->angular0 = vec3(lock.angular0);
    r->linear1 = vec3(lock.linear);
    r->angular1 = vec3(lock.angular1);
    r->geometricError = lock.error;
    r->velocityTarget = 0.0;
    r->minImpulse = -kInf;
    r->maxImpulse = kInf;
    r->mods.spring.stiffness = 0.0;
    r->mods.spring.damping = 0.0;
    r->flags = angular ? kRowOutputForce | kRowAngular : kRowOutputForce;
    r->solveHint = SolveHint::Equality;
    r->blockSize = static_cast<uint8_t>(blockSize);
    r->blockIndex = static_cast<uint8_t>(blockIndex);
    r->erpOverride = -1.0;
    r->label = label;
    return r;
}

void locks(const PrepContext& c, unsigned lockParts, RowWriter& out) {
    const int block = parts::pointBlockSize(lockParts);
    int inBlock = 0;  // the linear rows come first: rows 0 … block − 1
    parts::lockRows(lockParts, lockFrames(c), [&](const parts::Lock<Real>& lock, int row) {
        const bool angular = row >= parts::kAngularRow;
        writeLock(lock, angular, kLockLabels[row], out, angular ? 0 : block, angular ? 0 : inBlock++);
    });
}

void hingeLock(const PrepContext& c, const char* labelY, const char* labelZ, RowWriter& out) {
    parts::hingeLock(lockFrames(c), [&](const parts::Lock<Real>& lock, int row) {
        writeLock(lock, true, row == parts::kAngularRow + 1 ? labelY : labelZ, out);
    });
}

Row* linearLock(const PrepContext& c, const Vec3& a, const char* label, RowWriter& out) {
    const parts::Frames<Real> f = lockFrames(c);
    const auto d = f.cA2w.p - f.cB2w.p;  // one axis locked, the others free: body 1's anchor's arm
    return writeLock(parts::linearLock(f.r0 - d, f.r1, v3(a), d), false, label, out);
}

Row* angularLock(const Vec3& a, Real error, const char* label, RowWriter& out) {
    return writeLock(parts::angularLock(v3(a), error), true, label, out);
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
