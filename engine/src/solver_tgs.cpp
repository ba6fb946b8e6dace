// Temporal Gauss-Seidel, as physx-1d-constraint-formulation.md "TGS" and the TGS sections of
// physx-implicit-spring-drives.md.
//
// [SECTION] stages
//   1. bodies start at v_pre in momocity (ω⁽ᵐ⁾ = I^½ω); deltaLin = deltaAng = 0
//   2. posIters substeps of h = dt/posIters (D 40), each: one sweep over the rows, then every
//      body integrates its pose by h and accumulates deltaLinDt += v·h, deltaAngDt += ω⁽ᵐ⁾·h
//   3. velIters sweeps with no position bias (keep-bias rows excepted) and springs frozen
//      (D "TGS Velocity Iteration": their delta impulse is zero)
//
// Per row visit (F 66): the lever arms r0, r1 are rotated to the bodies' current orientation,
// κ = κ_base + r × μ is refreshed and premultiplied by I^-½ (inertia held constant over the step),
// the unit response is recomputed from it, the linear Jacobian stays constant, and the geometric error is advanced from the start of the
// step by the bodies' motion: C = C0 + μ0·(Δx0 + r0' − r0) + κ_base0·Δθ0 − (same for body 1).
// Because TGS tracks the full velocity v rather than Δv, the constant is recomputed each visit
// without J·v_pre: λ' = −(J⁽ᵐ⁾v⁽ᵐ⁾ + α·C/h − v_T)/r.
// Springs follow D 44: λ_i = x(h·c·v_T − h·k·(C + (dt − i·h)·v_T) − a·v) + λ_{i−1}.
#include "solver.h"

namespace jl::solver {

namespace {

struct CurrentJacobian {
    Vec3 angM0, angM1;
    Real error;
    Real response, recipResponse;
};

/// The row's momocity Jacobian and geometric error at the bodies' current poses (F 66).
CurrentJacobian current(const SolverRow& r, const SolverRowExtra& x, const BodyDelta& a, const BodyDelta& b,
                        const BodyInfo& ia, const BodyInfo& ib) {
    CurrentJacobian j{r.angM0, r.angM1, x.error0, r.response, r.recipResponse};
    if (r.flags & kSolveAngular) {
        // κ⁽ᵐ⁾·Δθ⁽ᵐ⁾ = κ·∫ω dt (F 62 applied to the integrated momocity).
        j.error += glm::dot(r.angM0, a.deltaAng) - glm::dot(r.angM1, b.deltaAng);
        return j;
    }
    const Vec3 r0 = ia.pose.q * x.r0Local;
    const Vec3 r1 = ib.pose.q * x.r1Local;
    j.angM0 = ia.sqrtInvInertia * (x.ang0Base + glm::cross(r0, r.lin0));
    j.angM1 = ib.sqrtInvInertia * (x.ang1Base + glm::cross(r1, r.lin1));
    j.error += glm::dot(r.lin0, a.deltaLin + (r0 - x.r0)) - glm::dot(r.lin1, b.deltaLin + (r1 - x.r1));
    j.error += glm::dot(ia.sqrtInvInertia * x.ang0Base, a.deltaAng) - glm::dot(ib.sqrtInvInertia * x.ang1Base, b.deltaAng);
    // The unit response follows the refreshed Jacobian. Keeping the start-of-step value is not
    // safe: a lever arm that turns towards the row axis can raise r several-fold within one step
    // (a light bob far from its pivot), and an impulse computed with a stale, too small r then
    // overshoots by that factor and diverges.
    j.response = r.linScale0 * glm::dot(r.lin0, r.lin0) + r.angScale0 * glm::dot(j.angM0, j.angM0) +
                 r.linScale1 * glm::dot(r.lin1, r.lin1) + r.angScale1 * glm::dot(j.angM1, j.angM1);
    j.recipResponse = j.response > kMinResponse ? 1.0 / j.response : 0.0;
    return j;
}

/// Solves one row and returns (Δλ·r)², its share of the sweep's residual.
Real visitRow(size_t k, Data& data, Real h, Real dt, int substep, bool velocityPass) {
    SolverRow& r = data.rows[k];
    const SolverRowExtra& x = data.extra[k];
    std::vector<SolverRow>& rows = data.rows;
    Body& a = data.bodies[static_cast<size_t>(r.b0)];
    Body& b = data.bodies[static_cast<size_t>(r.b1)];
    const CurrentJacobian j = current(r, x, data.deltas[static_cast<size_t>(r.b0)], data.deltas[static_cast<size_t>(r.b1)],
                                      data.info[static_cast<size_t>(r.b0)], data.info[static_cast<size_t>(r.b1)]);
    const Real normalVel = glm::dot(r.lin0, a.linVel) + glm::dot(j.angM0, a.angVel) - glm::dot(r.lin1, b.linVel) -
                           glm::dot(j.angM1, b.angVel);
    Real newAccum;
    if (r.flags & kSolveSpring) {
        const Real k = x.stiffness, c = x.damping, vT = x.velTarget;
        const Real aa = h * (h * k + c);                                   // D 13 with ρ for τ
        const Real cSub = j.error + (dt - static_cast<Real>(substep) * h) * vT;  // D 41: interpolated target
        const Real bracket = h * c * vT - h * k * cSub - aa * normalVel;  // D 44
        const Real dl = (r.flags & kSolveAccelSpring) ? bracket / (aa + 1.0) * j.recipResponse
                                                      : bracket / (aa * j.response + 1.0);
        newAccum = r.accum + dl;  // impulse multiplier 1 in TGS
    } else {
        Real bias = 0.0;
        if (!velocityPass)
            bias = x.erp * j.error / h;
        else if (r.flags & kSolveKeepBias)
            bias = x.erp * j.error / dt;
        newAccum = r.accum - j.recipResponse * (normalVel + bias - x.velTarget);
    }
    const Real dl = clampAccumulate(r, newAccum, rows);
    a.linVel += (dl * r.linScale0) * r.lin0;
    a.angVel += (dl * r.angScale0) * j.angM0;
    b.linVel -= (dl * r.linScale1) * r.lin1;
    b.angVel -= (dl * r.angScale1) * j.angM1;
    return (dl * j.response) * (dl * j.response);
}

}  // namespace

void solveTGS(Data& data, const Params& p) {
    const Real h = p.dt / static_cast<Real>(p.posIters);
    for (size_t i = 0; i < data.bodies.size(); ++i) {
        const BodyInfo& info = data.info[i];
        data.bodies[i] = Body{info.vPre, 0.0, info.sqrtInertia * info.wPre, 0.0};
    }
    data.deltas.assign(data.bodies.size(), BodyDelta{});
    // Rows that start with an accumulated impulse (warm-started contacts) apply it first.
    for (size_t k = 0; k < data.rowCount; ++k)
        if (SolverRow& r = data.rows[k]; r.accum != 0.0) applyImpulse(r, r.accum, data.bodies[static_cast<size_t>(r.b0)], data.bodies[static_cast<size_t>(r.b1)]);

    data.residuals.clear();
    for (int sub = 1; sub <= p.posIters; ++sub) {
        Real residual2 = 0.0;
        for (size_t k = 0; k < data.rowCount; ++k)
            if (!(data.rows[k].flags & kSolveInactive)) residual2 += visitRow(k, data, h, p.dt, sub, false);
        data.residuals.push_back(std::sqrt(residual2));
        for (size_t i = 1; i < data.bodies.size(); ++i) {
            Body& b = data.bodies[i];
            BodyInfo& info = data.info[i];
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
            data.deltas[i].deltaLin += b.linVel * h;
            data.deltas[i].deltaAng += b.angVel * h;
        }
    }

    for (int it = 0; it < p.velIters; ++it) {
        Real residual2 = 0.0;
        for (size_t k = 0; k < data.rowCount; ++k)
            if (!(data.rows[k].flags & (kSolveInactive | kSolveSpring)))
                residual2 += visitRow(k, data, h, p.dt, p.posIters, true);
        data.residuals.push_back(std::sqrt(residual2));
    }

    for (size_t i = 0; i < data.bodies.size(); ++i) data.bodies[i].angVel = data.info[i].sqrtInvInertia * data.bodies[i].angVel;
}

}  // namespace jl::solver
