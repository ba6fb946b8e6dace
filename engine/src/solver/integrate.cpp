// JointLab engine — moving a solver body (solver/integrate.h).
#include "solver/integrate.h"

namespace jl::solver {

void totalVelocity(const Body& b, const BodyInfo& info, Vec3& v, Vec3& w) {
    v = info.vPre + b.linVel;
    w = info.wPre + info.sqrtInvInertia * b.angVel;
}

void integratePgsBody(const Body& b, BodyInfo& info, const Params& p) {
    Vec3 v, w;
    totalVelocity(b, info, v, w);
    v = clampSpeed(v, p.maxLinearSpeed);
    w = clampSpeed(w, p.maxAngularSpeed);
    info.pose.p += v * p.dt;
    info.pose.q = integrateRotation(info.pose.q, w, p.dt);
}

namespace {

/// Solves M·x = f for a 3×3 M by Cramer's rule (M⁻¹'s rows are cross products of M's columns
/// over det M). False, with x untouched, when det M is zero or not finite.
bool solve3(const Mat3& M, const Vec3& f, Vec3& x) {
    const Vec3 r0 = glm::cross(M[1], M[2]), r1 = glm::cross(M[2], M[0]), r2 = glm::cross(M[0], M[1]);
    const Real det = glm::dot(M[0], r0);
    if (!(std::abs(det) > 0.0) || !std::isfinite(det)) return false;
    x = Vec3(glm::dot(r0, f), glm::dot(r1, f), glm::dot(r2, f)) / det;
    return true;
}

/// [a]×: the matrix of the cross product, [a]×·b = a × b (glm: column-major).
Mat3 crossMatrix(const Vec3& a) {
    return Mat3(0.0, a.z, -a.y, -a.z, 0.0, a.x, a.y, -a.x, 0.0);
}

}  // namespace

Vec3 gyroscopicStep(const Vec3& w, const Quat& q, const Vec3& inertia, Real tau) {
    if (inertia.x == inertia.y && inertia.y == inertia.z) return w;  // ω × (I·ω) = 0 for every ω
    const Vec3 wb = glm::conjugate(q) * w;                           // body frame
    const Vec3 L = inertia * wb;                                     // I·ω: angular momentum
    const Vec3 f = tau * glm::cross(wb, L);                          // the residual at ω' = ω
    if (f == Vec3(0.0)) return w;                                    // about a principal axis
    // The residual's derivative at ω' = ω: I + ½τ·([ω]×·I − [I·ω]×)
    const Mat3 I(inertia.x, 0.0, 0.0, 0.0, inertia.y, 0.0, 0.0, 0.0, inertia.z);
    const Mat3 J = I + (0.5 * tau) * (crossMatrix(wb) * I - crossMatrix(L));
    Vec3 step;
    if (!solve3(J, f, step)) return w;
    Vec3 next = wb - step;
    // The torque ω × Iω does no work: back onto the energy ½·ω·Iω it started with.
    const Real before = glm::dot(wb, L), after = glm::dot(next, inertia * next);
    if (after != before && after > 0.0) next *= std::sqrt(before / after);
    return q * next;
}

void applySubstepForces(Body& b, const BodyInfo& info, Real h) {
    b.linVel = (b.linVel + h * info.accel) * info.linDamping;
    b.angVel = (b.angVel + h * info.torqueM) * info.angDamping;
}

void integrateTgsSubstep(Body& b, BodyDelta& d, BodyInfo& info, const Params& p, Real h) {
    // Speed caps apply to the motion of every substep (the momocity is scaled with ω).
    b.linVel = clampSpeed(b.linVel, p.maxLinearSpeed);
    Vec3 w = info.sqrtInvInertia * b.angVel;
    const Real wl = glm::length(w);
    if (wl > p.maxAngularSpeed) {
        const Real f = std::isinf(wl) ? overflowingSpeedFactor(w, p.maxAngularSpeed) : p.maxAngularSpeed / wl;
        b.angVel *= f;
        w *= f;
    }
    info.pose.p += b.linVel * h;
    info.pose.q = integrateRotation(info.pose.q, w, h);
    d.deltaLin += b.linVel * h;
    d.deltaAng += b.angVel * h;
}

}  // namespace jl::solver
