// JointLab engine — projected Gauss-Seidel, the reference kernel (solver/reference/reference.h).
//
// F = physx-1d-constraint-formulation.md, D = physx-implicit-spring-drives.md.
//
// Loops:
//   1. warm start        every row that starts with an impulse applies it (contacts only)
//   2. posIters sweeps   every row: λ' = constant + vMul·J⁽ᵐ⁾Δv⁽ᵐ⁾ + impulseMul·λ, clamped (F 63–65);
//                        a block of rows (solver/block.h) at once: Δλ = K⁻¹·diag(K)·d
//   3. integrate         every body moves by dt with v_pre + Δv (F 23)
//   4. velIters sweeps   the same with the unbiased constant (F 25; springs continue, D 20–22);
//                        under rattle (Params::contactVelocityOnly) the contact rows only
//   5. write back        Δv becomes the body's total velocity
// Split impulse (Params::split): 2. are posIters unbiased sweeps (the velocity), then posIters
// biased sweeps continue from them (the pseudo-velocity, traced as phase 2); 3. integrates with
// that, and the velocities and impulses of before the biased sweeps come back.
//
// The bodies carry Δv (and Δω⁽ᵐ⁾) only: v_pre, the velocity after external forces, is inside
// each row's constant (setupRow, F 65), which keeps the sweep to one dot product per body side.
#include <algorithm>
#include <vector>

#include "solver/block.h"
#include "solver/integrate.h"
#include "solver/reference/reference.h"
#include "solver/reference/visit.h"
#include "solver/tree.h"

namespace jl::solver::reference {

namespace {

/// What one sweep needs besides the rows.
struct Pass {
    int phase = 0, sweep = 0;  ///< for the observer (RowVisit)
    bool biased = true;        ///< position iterations; velocity iterations drop the bias
    Real dt = 0.0;
    size_t firstRow = 0;  ///< rows before it are skipped (the joints' under Params::contactVelocityOnly)
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

/// One visit of the block of rows k … k + n − 1 (solver/block.h): every row's 1D impulse change
/// d_i = constant + vMul·J⁽ᵐ⁾Δv⁽ᵐ⁾ (what its own visit would ask for, F 63–65), then the block's
/// Δλ = K⁻¹·diag(K)·d, which satisfies all of its rows at once; each row's new impulse is clamped
/// and applied as visitRow does. A singular K: the rows one by one. Returns Σ (r_i·d_i)²: the
/// velocity change each row asked for, −(J·v + b − v_T) (Δλ_i·r_i is no such change in a block).
Real visitBlock(State& s, size_t k, int n, const Pass& pass) {
    block::Jacobian<Real> j[kMaxBlockRows];
    block::V3<Real> d{0.0, 0.0, 0.0};
    Real* di[kMaxBlockRows] = {&d.x, &d.y, &d.z};
    const Body& a = s.bodies[static_cast<size_t>(s.rows[k].b0)];
    const Body& b = s.bodies[static_cast<size_t>(s.rows[k].b1)];
    for (int i = 0; i < n; ++i) {
        const SolverRow& r = s.rows[k + static_cast<size_t>(i)];
        j[i] = {{r.lin0.x, r.lin0.y, r.lin0.z},
                {r.angM0.x, r.angM0.y, r.angM0.z},
                {r.lin1.x, r.lin1.y, r.lin1.z},
                {r.angM1.x, r.angM1.y, r.angM1.z}};
        *di[i] = (pass.biased ? r.constant : r.unbiasedConstant) + r.vMul * rowVelocity(r, a, b);
    }
    const BlockSystem sys = openBlock(s, k, j, n, [&](size_t ki) { return visitRow(s, ki, pass); });
    if (!sys.inv.ok) return sys.rowByRow;
    const block::Sym3<Real>& K = sys.K;
    const block::V3<Real> dl = block::apply(block::gain(sys.inv.inv, K), d);
    Real sum = 0.0;
    const Real blockDl[kMaxBlockRows] = {dl.x, dl.y, dl.z};
    for (int i = 0; i < n; ++i) {
        const size_t ki = k + static_cast<size_t>(i);
        SolverRow& r = s.rows[ki];
        const Real before = r.accum;
        const Real jv =
            rowVelocity(r, s.bodies[static_cast<size_t>(r.b0)], s.bodies[static_cast<size_t>(r.b1)]);
        const Real newAccum = r.accum + blockDl[i];
        const Real applied = clampAccumulate(r, newAccum, s.rows);  // within ±kMaxRowVelocityChange/r
        applyImpulse(r, applied, s.bodies[static_cast<size_t>(r.b0)], s.bodies[static_cast<size_t>(r.b1)]);
        if (s.observer.visit) {
            const SolverRowExtra& x = s.extra[ki];
            const Real bias = pass.biased ? x.erp * x.error0 / pass.dt : 0.0;  // F 11
            RowVisit v{pass.phase, pass.sweep,          ki, x.error0, x.vPre + jv, r.response, bias, before,
                       r.accum,    r.accum != newAccum, n};
            block::row(K, i, v.blockK);
            s.observer.visit(s.observer.user, v);
        }
        const Real asked = *di[i] * r.response;
        sum += asked * asked;
    }
    return sum;
}

/// One Gauss-Seidel pass over every row in solve order; returns the sweep's residual.
Real sweep(State& s, const Pass& pass) {
    // Inactive rows are passed over: response under kMinResponse (or the forest's).
    Real sum = sweepRows(
        s, static_cast<int>(pass.firstRow),
        [](const SolverRow& r) { return (r.flags & kSolveInactive) != 0; },
        [&](size_t k, int n) { return visitBlock(s, k, n, pass); },
        [&](size_t k) { return visitRow(s, k, pass); });
    // settings.pointSolve = tree: the forest's rows after the sweep (solver/tree.h)
    if (s.forest && !s.forest->empty() && pass.firstRow == 0) sum += tree::passPgs(s, *s.forest, pass.biased);
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

    if (s.forest && !s.forest->empty()) tree::begin(s, *s.forest, false);

    s.residuals.clear();
    if (!p.split) {
        for (int it = 0; it < p.posIters; ++it)
            s.residuals.push_back(sweep(s, Pass{0, it, true, p.dt}));  // 2.
        // 3. Static bodies (index 0, the stand-ins) stay put.
        for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
            integratePgsBody(s.bodies[i], s.info[i], p);
    } else {
        for (int it = 0; it < p.posIters; ++it) s.residuals.push_back(sweep(s, Pass{0, it, false, p.dt}));
        const std::vector<Body> velocity(s.bodies.begin(), s.bodies.end());
        std::vector<Real> impulses(s.rowCount);
        for (size_t k = 0; k < s.rowCount; ++k) impulses[k] = s.rows[k].accum;
        if (s.forest) tree::saveImpulses(*s.forest);
        for (int it = 0; it < p.posIters; ++it) sweep(s, Pass{2, it, true, p.dt});  // the pseudo-velocity
        for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
            integratePgsBody(s.bodies[i], s.info[i], p);
        std::copy(velocity.begin(), velocity.end(), s.bodies.begin());
        for (size_t k = 0; k < s.rowCount; ++k) s.rows[k].accum = impulses[k];
        if (s.forest) tree::restoreImpulses(*s.forest);
    }

    // 4. (under rattle the contacts only: the position pass gives the joints their velocity)
    const size_t velocityFrom = p.contactVelocityOnly ? s.jointRowEnd : 0;
    for (int it = 0; it < p.velIters; ++it)
        s.residuals.push_back(sweep(s, Pass{1, it, false, p.dt, velocityFrom}));

    for (size_t i = 0; i < s.bodies.size(); ++i) {  // 5.
        Vec3 v, w;
        totalVelocity(s.bodies[i], s.info[i], v, w);
        s.bodies[i].linVel = v;
        s.bodies[i].angVel = w;
    }
}

}  // namespace jl::solver::reference
