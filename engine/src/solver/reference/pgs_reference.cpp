// JointLab engine — projected Gauss-Seidel, the reference kernel (solver/reference/reference.h).
//
// F = physx-1d-constraint-formulation.md, D = physx-implicit-spring-drives.md.
//
// Loops:
//   1. warm start        every row that starts with an impulse applies it (contacts only)
//   2. posIters sweeps   every row: λ' = constant + vMul·J⁽ᵐ⁾Δv⁽ᵐ⁾ + impulseMul·λ, clamped (F 63–65)
//   3. integrate         every body moves by dt with v_pre + Δv (F 23)
//   4. velIters sweeps   the same with the unbiased constant (F 25; springs continue, D 20–22)
//   5. write back        Δv becomes the body's total velocity
//
// The bodies carry Δv (and Δω⁽ᵐ⁾) only: v_pre, the velocity after external forces, is inside
// each row's constant (setupRow, F 65), which keeps the sweep to one dot product per body side.
#include "solver/integrate.h"
#include "solver/reference/reference.h"

namespace jl::solver::reference {

namespace {

/// What one sweep needs besides the rows.
struct Pass {
    int phase = 0, sweep = 0;  ///< for the observer (RowVisit)
    bool biased = true;        ///< position iterations; velocity iterations drop the bias
    Real dt = 0.0;
};

/// One visit of row k: the new accumulated impulse from the row's velocity, clamped, and its
/// change applied to both bodies. Returns Δλ·r, the velocity change the row asked for.
Real visitRow(State& s, size_t k, const Pass& pass) {
    SolverRow& r = s.rows[k];
    Body& a = s.bodies[static_cast<size_t>(r.b0)];
    Body& b = s.bodies[static_cast<size_t>(r.b1)];
    const Real before = r.accum;
    const Real jv = rowVelocity(r, a, b);                          // J⁽ᵐ⁾·Δv⁽ᵐ⁾ (F 62)
    const Real c = pass.biased ? r.constant : r.unbiasedConstant;  // −(α·C/h − v_T + J·v_pre)/r (F 65)
    const Real newAccum = c + r.vMul * jv + r.impulseMul * r.accum;  // F 63–64; D 20–22 for springs
    const Real dl = clampAccumulate(r, newAccum, s.rows);            // [minImpulse, maxImpulse]
    applyImpulse(r, dl, a, b);                                       // F 24, 60–61
    if (s.observer.visit) {
        const SolverRowExtra& x = s.extra[k];
        const bool spring = r.flags & kSolveSpring, keep = r.flags & kSolveKeepBias;
        const Real bias = !spring && (pass.biased || keep) ? x.erp * x.error0 / pass.dt : 0.0;  // F 11
        s.observer.visit(s.observer.user, RowVisit{pass.phase, pass.sweep, k, x.error0, x.vPre + jv,
                                                   r.response, bias, before, r.accum, r.accum != newAccum});
    }
    return dl * r.response;
}

/// One Gauss-Seidel pass over every row in solve order; returns the sweep's residual.
Real sweep(State& s, const Pass& pass) {
    Real sum = 0.0;
    for (size_t span = 0; span + 1 < s.sweepSpans.size(); span += 2)
        for (int k = s.sweepSpans[span]; k < s.sweepSpans[span + 1]; ++k) {
            if (s.rows[static_cast<size_t>(k)].flags & kSolveInactive)
                continue;  // response under kMinResponse
            const Real asked = visitRow(s, static_cast<size_t>(k), pass);
            sum += asked * asked;
        }
    return std::sqrt(sum);
}

}  // namespace

void solvePGS(State& s, const Params& p) {
    for (Body& b : s.bodies) b = Body{};       // Δv = 0
    for (size_t k = 0; k < s.rowCount; ++k) {  // 1. warm start (F 24)
        SolverRow& r = s.rows[k];
        if (r.accum != 0.0)
            applyImpulse(r, r.accum, s.bodies[static_cast<size_t>(r.b0)],
                         s.bodies[static_cast<size_t>(r.b1)]);
    }

    s.residuals.clear();
    for (int it = 0; it < p.posIters; ++it) s.residuals.push_back(sweep(s, Pass{0, it, true, p.dt}));  // 2.

    // 3. Static bodies (index 0, the stand-ins) stay put.
    for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
        integratePgsBody(s.bodies[i], s.info[i], p);

    for (int it = 0; it < p.velIters; ++it) s.residuals.push_back(sweep(s, Pass{1, it, false, p.dt}));  // 4.

    for (size_t i = 0; i < s.bodies.size(); ++i) {  // 5.
        Vec3 v, w;
        totalVelocity(s.bodies[i], s.info[i], v, w);
        s.bodies[i].linVel = v;
        s.bodies[i].angVel = w;
    }
}

}  // namespace jl::solver::reference
