// Projected Gauss-Seidel, as physx-1d-constraint-formulation.md "PGS Implementation".
//
// [SECTION] stages
//   1. position iterations: Δv accumulates from zero (F 23–25); newAccum = constant +
//      vMul·J⁽ᵐ⁾Δv⁽ᵐ⁾ + impulseMul·accum, clamped to [minImpulse, maxImpulse]
//   2. integrate poses once with v_pre + Δv (the "motion" velocities, joints guide vMotion)
//   3. velocity iterations: the same sweep with the unbiased constants (hard rows drop the bias
//      unless they keep it; springs continue as an extra position iteration would, D "PGS
//      Velocity Iteration"), giving the post-step velocities (vNext)
#include "solver.h"

namespace jl::solver {

namespace {

/// One Gauss-Seidel pass; returns the sweep's residual (see Data::residuals).
Real sweep(std::vector<SolverRow>& rows, std::vector<Body>& bodies, bool biased) {
    Real residual2 = 0.0;
    for (SolverRow& r : rows) {
        if (r.flags & kSolveInactive) continue;
        Body& a = bodies[static_cast<size_t>(r.b0)];
        Body& b = bodies[static_cast<size_t>(r.b1)];
        const Real normalVel = rowVelocity(r, a, b);  // F 64
        const Real constant = biased ? r.constant : r.unbiasedConstant;
        const Real newAccum = constant + r.vMul * normalVel + r.impulseMul * r.accum;
        const Real dl = clampAccumulate(r, newAccum, rows);
        applyImpulse(r, dl, a, b);
        residual2 += (dl * r.response) * (dl * r.response);
    }
    return std::sqrt(residual2);
}

/// v = v_pre + Δv, ω = ω_pre + I^-½·Δω⁽ᵐ⁾.
void totalVelocity(const Body& b, const BodyInfo& info, Vec3& v, Vec3& w) {
    v = info.vPre + b.linVel;
    w = info.wPre + info.sqrtInvInertia * b.angVel;
}

}  // namespace

void solvePGS(Data& data, const Params& p) {
    for (Body& b : data.bodies) b = Body{};
    // Rows that start with an accumulated impulse (warm-started contacts) apply it first.
    for (SolverRow& r : data.rows)
        if (r.accum != 0.0) applyImpulse(r, r.accum, data.bodies[static_cast<size_t>(r.b0)], data.bodies[static_cast<size_t>(r.b1)]);

    data.residuals.clear();
    for (int it = 0; it < p.posIters; ++it) data.residuals.push_back(sweep(data.rows, data.bodies, true));

    // Static bodies (index 0 and any with zero velocity) are integrated too: v = 0 keeps them put.
    for (size_t i = 1; i < data.bodies.size(); ++i) {
        BodyInfo& info = data.info[i];
        Vec3 v, w;
        totalVelocity(data.bodies[i], info, v, w);
        v = clampSpeed(v, p.maxLinearSpeed);
        w = clampSpeed(w, p.maxAngularSpeed);
        info.pose.p += v * p.dt;
        info.pose.q = integrateRotation(info.pose.q, w, p.dt);
    }

    for (int it = 0; it < p.velIters; ++it) data.residuals.push_back(sweep(data.rows, data.bodies, false));

    for (size_t i = 0; i < data.bodies.size(); ++i) {
        Vec3 v, w;
        totalVelocity(data.bodies[i], data.info[i], v, w);
        data.bodies[i].linVel = v;
        data.bodies[i].angVel = w;
    }
}

}  // namespace jl::solver
