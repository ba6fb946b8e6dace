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
