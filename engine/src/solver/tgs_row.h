// JointLab engine — TGS's row visit, the parts every TGS visit shares: the row brought up to date
// with the bodies' motion so far (F 66), its velocity, its bias and its impulse change. The
// reference kernel (solver/reference/tgs_reference.cpp) visits its rows with them; the tree solve
// (solver/tree.h) visits the rows it owns with them, only with the tree's constrained response in
// place of the row's own.
//
// F = physx-1d-constraint-formulation.md, D = physx-implicit-spring-drives.md.
#pragma once

#include "solver/solver.h"

namespace jl::solver {

/// What one sweep needs besides the rows: the substep length, which substep, which pass.
struct TgsPass {
    Real h = 0.0, dt = 0.0;
    int substep = 0;        ///< 1..posIters; posIters in the velocity pass
    bool velocity = false;  ///< no position bias (keep-bias rows excepted), springs frozen
    int sweep = 0;          ///< the velocity pass's sweep (for the observer)
    bool relax = false;     ///< a velocity pass right after substep `substep`'s motion (Params::relax)
};

/// A row brought up to date for this visit (F 66): its Jacobian, error and unit response.
struct Fresh {
    Vec3 lin0, lin1;    ///< J⁽ᵐ⁾'s linear parts (turned with the anchors for a kSolveSeparation row)
    Vec3 angM0, angM1;  ///< J⁽ᵐ⁾'s angular parts, from the lever arms at the bodies' orientation
    Real C = 0.0;       ///< the error advanced by the bodies' motion so far
    Real response = 0.0, recip = 0.0;
};
/// F 66: the lever arms turned with the bodies, κ = κ_base + r × μ (premultiplied by the frozen
/// I^-½), and the error advanced by each anchor's motion Δx + (r' − r) along the row's linear
/// axis, plus κ_base·∫ω dt. A kSolveSeparation row's axis follows the anchors instead:
/// d = d0 + Δa1 − Δa0, μ = ±d/|d|, C = C0 − (±|d| − length0) (Box2D v3's distance joint).
inline Fresh refresh(const State& s, const SolverRow& r, const SolverRowExtra& x) {
    const BodyDelta& da = s.deltas[static_cast<size_t>(r.b0)];
    const BodyDelta& db = s.deltas[static_cast<size_t>(r.b1)];
    const BodyInfo& ia = s.info[static_cast<size_t>(r.b0)];
    const BodyInfo& ib = s.info[static_cast<size_t>(r.b1)];
    const bool angular = r.flags & kSolveAngular;

    // The angular Jacobian's lever-free part, premultiplied by I^-½ (inertia frozen over the step).
    const Vec3 baseM0 = angular ? r.angM0 : ia.sqrtInvInertia * x.ang0Base;
    const Vec3 baseM1 = angular ? r.angM1 : ib.sqrtInvInertia * x.ang1Base;
    Fresh f{r.lin0, r.lin1, baseM0, baseM1, x.error0};
    bool turned = false;
    if (!angular) {
        const Vec3 r0 = ia.pose.q * x.r0Local, r1 = ib.pose.q * x.r1Local;
        const Vec3 move0 = da.deltaLin + (r0 - x.r0), move1 = db.deltaLin + (r1 - x.r1);  // Δa
        if (r.flags & kSolveSeparation) {
            const Vec3 d = x.length0 * r.lin0 + (move1 - move0);
            const Real len = glm::length(d);
            if (len > kMinSeparation) {
                const Real sign = x.length0 < 0.0 ? -1.0 : 1.0;
                f.lin0 = f.lin1 = (sign / len) * d;
                f.C = x.error0 - (sign * len - x.length0);
                turned = true;
            }
        }
        f.angM0 = ia.sqrtInvInertia * (x.ang0Base + glm::cross(r0, f.lin0));
        f.angM1 = ib.sqrtInvInertia * (x.ang1Base + glm::cross(r1, f.lin1));
        if (!turned) f.C = f.C + (glm::dot(r.lin0, move0) - glm::dot(r.lin1, move1));
    }
    if (!turned)
        f.C = f.C + (glm::dot(baseM0, da.deltaAng) - glm::dot(baseM1, db.deltaAng));  // κ·∫ω dt (F 62)

    // r = J M⁻¹ Jᵀ from the refreshed Jacobian (F 21): a lever arm that turns towards the row's
    // axis can raise it several-fold within one step.
    f.response = ((r.linScale0 * glm::dot(f.lin0, f.lin0) + r.angScale0 * glm::dot(f.angM0, f.angM0)) +
                  r.linScale1 * glm::dot(f.lin1, f.lin1)) +
                 r.angScale1 * glm::dot(f.angM1, f.angM1);
    f.recip = f.response > kMinResponse ? 1.0 / f.response : 0.0;
    return f;
}

/// J⁽ᵐ⁾v⁽ᵐ⁾ of row r with this visit's Jacobian (F 62).
inline Real rowVelocity(const Fresh& f, const Body& a, const Body& b) {
    return ((glm::dot(f.lin0, a.linVel) + glm::dot(f.angM0, a.angVel)) - glm::dot(f.lin1, b.linVel)) -
           glm::dot(f.angM1, b.angVel);
}

/// A hard row's position bias b = α·C/h (F 11): none in velocity iterations unless it keeps it.
inline Real hardBias(const SolverRow& r, const SolverRowExtra& x, Real C, const TgsPass& pass) {
    if (!pass.velocity) return x.erp * C / pass.h;
    return (r.flags & kSolveKeepBias) ? x.erp * C / pass.dt : 0.0;
}

/// A spring row's impulse change (D 44): D 15 for a force spring, D 32 and 35 for an acceleration
/// spring, with f.response (and f.recip) the response the visit solves with.
inline Real springImpulse(const SolverRow& r, const SolverRowExtra& x, const Fresh& f, const TgsPass& pass,
                          Real jv) {
    const Real kk = x.stiffness, c = x.damping, vT = x.velTarget, h = pass.h;
    const Real aa = h * (h * kk + c);                                              // D 13
    const Real cSub = f.C + (pass.dt - static_cast<Real>(pass.substep) * h) * vT;  // D 41
    const Real bracket = h * c * vT - h * kk * cSub - aa * jv;                     // D 44
    return (r.flags & kSolveAccelSpring) ? bracket / (aa + 1.0) * f.recip          // D 32, 35
                                         : bracket / (aa * f.response + 1.0);      // D 15
}

/// A hard row's impulse change −(J⁽ᵐ⁾v⁽ᵐ⁾ + b − v_T)/r (F 65 without v_pre: TGS carries full
/// velocities), with r = f.response.
inline Real hardImpulse(const SolverRowExtra& x, const Fresh& f, Real jv, Real bias) {
    return -f.recip * (jv + bias - x.velTarget);
}

}  // namespace jl::solver
