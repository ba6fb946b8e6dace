// JointLab engine — temporal Gauss-Seidel, the reference kernel (solver/reference/reference.h).
//
// F = physx-1d-constraint-formulation.md, D = physx-implicit-spring-drives.md.
//
// Loops:
//   1. bodies start at v_pre (momocity ω⁽ᵐ⁾ = I^½·ω); the contact rows (kSolveSubstep) are listed,
//      each starting at 1/posIters of its warm start (solver/soft_contact.h)
//   2. posIters substeps of h = dt/posIters (D 40), each:
//        every body: the substep's forces, v += h·(g + F/m), ω⁽ᵐ⁾ += h·I^-½τ, damped (as Box2D v3
//                   integrates velocities per substep)
//        every contact row: its substep impulse applied again, and added to its step's sum
//        every row: refresh its lever arms, Jacobian, response and error from the bodies' motion
//                   so far (F 66), then λ' = λ − (J⁽ᵐ⁾v⁽ᵐ⁾ + α·C/h − v_T)/r (F 65 without v_pre:
//                   TGS carries full velocities), or the spring update (D 44), clamped;
//                   a block of rows (solver/block.h) at once: Δλ = K⁻¹·(−(J⁽ᵐ⁾v⁽ᵐ⁾ + α·C/h − v_T)),
//                   K from the refreshed Jacobians; a soft contact normal: Box2D v3's soft update
//                   (solver/soft_contact.h); a contact row's bounds hold for its substep impulse;
//                   under `soft` (Params::softJoints) a joint's hard rows are Box2D v3's soft
//                   rows, their impulse the substep's (from zero in each), summed for the step
//        every body: moves by h and adds the motion to its deltas
//        relax (Params::relax): one more sweep as a velocity pass, at the bodies' new poses: the
//                   bias moved the bodies, and now the velocity they keep loses it (Box2D v3)
//   3. velIters sweeps: no position bias (keep-bias rows keep α·C/dt), springs frozen (D "TGS
//      Velocity Iteration")
//   4. write back: momocity back to ω; a contact row's impulse is its substeps' sum
#include <algorithm>

#include "solver/block.h"
#include "solver/integrate.h"
#include "solver/reference/reference.h"
#include "solver/reference/visit.h"
#include "solver/soft_contact.h"
#include "solver/tgs_row.h"
#include "solver/tree.h"

namespace jl::solver::reference {

namespace {

/// Row k's new impulse clamped and its change applied with this visit's Jacobian (F 24,
/// 60–61); the observer told. Returns Δλ·r.
Real finishVisit(State& s, size_t k, const Fresh& f, const TgsPass& pass, Real jv, Real bias, Real newAccum,
                 int block = 0, const Real* blockK = nullptr) {
    SolverRow& r = s.rows[k];
    Body& a = s.bodies[static_cast<size_t>(r.b0)];
    Body& b = s.bodies[static_cast<size_t>(r.b1)];
    const Real before = r.accum;
    const Real dl = clampAccumulate(r, newAccum, s.rows);
    // A contact row's bounds hold for this substep's impulse (accum); the observer is shown the
    // step's sum, which is what the step reports.
    const bool substep = r.flags & (kSolveSubstep | kSolveSoftJoint);
    if (substep) r.stepImpulse += dl;
    a.linVel += (dl * r.linScale0) * f.lin0;
    a.angVel += (dl * r.angScale0) * f.angM0;
    b.linVel -= (dl * r.linScale1) * f.lin1;
    b.angVel -= (dl * r.angScale1) * f.angM1;
    if (s.observer.visit) {
        RowVisit v{pass.relax      ? 2
                   : pass.velocity ? 1
                                   : 0,
                   pass.velocity && !pass.relax ? pass.sweep : pass.substep - 1,
                   k,
                   f.C,
                   jv,
                   f.response,
                   bias,
                   substep ? r.stepImpulse - dl : before,
                   substep ? r.stepImpulse : r.accum,
                   r.accum != newAccum,
                   block};
        if (blockK) std::copy(blockK, blockK + 3, v.blockK);
        s.observer.visit(s.observer.user, v);
    }
    return dl * f.response;
}

/// One visit of row k (F 66, D 44); returns Δλ·r.
Real visitRow(State& s, size_t k, const TgsPass& pass) {
    const SolverRow& r = s.rows[k];
    const SolverRowExtra& x = s.extra[k];
    const Fresh f = refresh(s, r, x);
    const Real jv = rowVelocity(f, s.bodies[static_cast<size_t>(r.b0)], s.bodies[static_cast<size_t>(r.b1)]);
    if (r.flags & kSolveSpring)
        return finishVisit(s, k, f, pass, jv, 0.0, r.accum + springImpulse(r, x, f, pass, jv));  // D 44
    if ((r.flags & kSolveSoftContact) && softContactApplies(f.C))
        return finishVisit(s, k, f, pass, jv, softContactBias(f.C, pass.h, !pass.velocity),
                           softContactImpulse(r.accum, jv, f.C, f.recip, pass.h, !pass.velocity));
    if (r.flags & kSolveSoftJoint) {  // Box2D v3's soft joint row (solver/soft_contact.h)
        const bool apart = softJointApart(f.C, r.minImpulse, r.maxImpulse);
        const Real bias = softJointBias(f.C, apart, pass.h, !pass.velocity);
        return finishVisit(
            s, k, f, pass, jv, bias,
            softJointImpulse(r.accum, jv, x.velTarget, bias, f.recip, pass.h, !pass.velocity && !apart));
    }
    const Real bias = hardBias(r, x, f.C, pass);
    return finishVisit(s, k, f, pass, jv, bias, r.accum + hardImpulse(x, f, jv, bias));  // F 65
}

/// One visit of the block of rows k … k + n − 1 (solver/block.h): each row brought up to date
/// (F 66), K = J M⁻¹ Jᵀ from those Jacobians, and Δλ = K⁻¹·(−(J⁽ᵐ⁾v⁽ᵐ⁾ + α·C/h − v_T)), which
/// satisfies every row of the block at once; each row's impulse is then clamped and applied as
/// visitRow does. A singular K: the rows one by one. Returns Σ c_i², c_i = −(J⁽ᵐ⁾v⁽ᵐ⁾ + b − v_T):
/// the velocity change each row asked for (Δλ_i·r_i is no such change in a block).
Real visitBlock(State& s, size_t k, int n, const TgsPass& pass) {
    Fresh f[kMaxBlockRows];
    block::Jacobian<Real> j[kMaxBlockRows];
    Real jv[kMaxBlockRows] = {}, bias[kMaxBlockRows] = {};
    block::V3<Real> c{0.0, 0.0, 0.0};
    Real* ci[kMaxBlockRows] = {&c.x, &c.y, &c.z};
    for (int i = 0; i < n; ++i) {
        const size_t ki = k + static_cast<size_t>(i);
        const SolverRow& r = s.rows[ki];
        f[i] = refresh(s, r, s.extra[ki]);
        j[i] = {{f[i].lin0.x, f[i].lin0.y, f[i].lin0.z},
                {f[i].angM0.x, f[i].angM0.y, f[i].angM0.z},
                {f[i].lin1.x, f[i].lin1.y, f[i].lin1.z},
                {f[i].angM1.x, f[i].angM1.y, f[i].angM1.z}};
        jv[i] = rowVelocity(f[i], s.bodies[static_cast<size_t>(r.b0)], s.bodies[static_cast<size_t>(r.b1)]);
        bias[i] = (r.flags & kSolveSoftJoint) ? softJointBias(f[i].C, false, pass.h, !pass.velocity)
                                              : hardBias(r, s.extra[ki], f[i].C, pass);
        *ci[i] = -(jv[i] + bias[i] - s.extra[ki].velTarget);
    }
    const BlockSystem sys = openBlock(s, k, j, n, [&](size_t ki) { return visitRow(s, ki, pass); });
    if (!sys.inv.ok) return sys.rowByRow;
    const block::Sym3<Real>& K = sys.K;
    const block::V3<Real> dl = block::apply(sys.inv.inv, c);
    Real sum = 0.0;
    const Real blockDl[kMaxBlockRows] = {dl.x, dl.y, dl.z};
    for (int i = 0; i < n; ++i) {
        const size_t ki = k + static_cast<size_t>(i);
        Real kRow[3];
        block::row(K, i, kRow);
        const Real accum = s.rows[ki].accum;
        const Real newAccum = (s.rows[ki].flags & kSolveSoftJoint)
                                  ? softJointBlockImpulse(accum, blockDl[i], pass.h, !pass.velocity)
                                  : accum + blockDl[i];
        finishVisit(s, ki, f[i], pass, jv[i], bias[i], newAccum, n, kRow);
        sum += *ci[i] * *ci[i];
    }
    return sum;
}

/// One Gauss-Seidel pass over every row in solve order; returns the sweep's residual.
Real sweep(State& s, const TgsPass& pass) {
    Real sum = sweepRows(
        s, 0,
        [&](const SolverRow& r) {
            return (r.flags & kSolveInactive) || (pass.velocity && (r.flags & kSolveSpring));
        },
        [&](size_t k, int n) { return visitBlock(s, k, n, pass); },
        [&](size_t k) { return visitRow(s, k, pass); });
    // settings.pointSolve = tree: the forest's rows after the sweep (solver/tree.h)
    if (s.forest && !s.forest->empty()) sum += tree::passTgs(s, *s.forest, pass);
    return std::sqrt(sum);
}

}  // namespace

void solveTGS(State& s, const Params& p) {
    const Real h = p.dt / static_cast<Real>(p.posIters);  // D 40
    for (size_t i = 0; i < s.bodies.size(); ++i) {        // 1.
        const BodyInfo& info = s.info[i];
        s.bodies[i] = Body{info.vPre, 0.0, info.sqrtInertia * info.wPre, 0.0};  // ω⁽ᵐ⁾ = I^½·ω (F 58)
    }
    s.deltas.assign(s.bodies.size(), BodyDelta{});
    const Real n = static_cast<Real>(p.posIters);
    s.warm.clear();
    for (size_t k = 0; k < s.rowCount; ++k)
        if (SolverRow& r = s.rows[k]; r.flags & kSolveSubstep) {
            s.warm.push_back(WarmStart{k, r.accum});
            r.accum = r.accum / n;
            r.stepImpulse = 0.0;
        }

    // Soft joint rows (Params::softJoints): each substep's impulse from zero, the step's summed
    // (solver/soft_contact.h).
    std::vector<size_t> softRows;
    if (p.softJoints)
        for (size_t k = 0; k < s.rowCount; ++k)
            if (SolverRow& r = s.rows[k]; r.flags & kSolveSoftJoint) {
                softRows.push_back(k);
                r.stepImpulse = 0.0;
            }

    if (s.forest && !s.forest->empty()) tree::begin(s, *s.forest, true);

    s.residuals.clear();
    for (int sub = 1; sub <= p.posIters; ++sub) {  // 2.
        for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
            applySubstepForces(s.bodies[i], s.info[i], h);
        for (size_t k : softRows) s.rows[k].accum = 0.0;
        for (const WarmStart& w : s.warm) {
            SolverRow& r = s.rows[w.row];
            reapplySubstepImpulse(r, r.accum, r.stepImpulse, s.bodies);
        }
        s.residuals.push_back(sweep(s, TgsPass{h, p.dt, sub, false}));
        for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
            integrateTgsSubstep(s.bodies[i], s.deltas[i], s.info[i], p, h);
        if (p.relax) sweep(s, TgsPass{h, p.dt, sub, true, 0, true});  // relax: the bias's velocity out
    }

    for (int it = 0; it < p.velIters; ++it)
        s.residuals.push_back(sweep(s, TgsPass{h, p.dt, p.posIters, true, it}));  // 3.

    for (const WarmStart& w : s.warm) s.rows[w.row].accum = s.rows[w.row].stepImpulse;  // 4.
    for (size_t k : softRows) s.rows[k].accum = s.rows[k].stepImpulse;
    for (size_t i = 0; i < s.bodies.size(); ++i)
        s.bodies[i].angVel = s.info[i].sqrtInvInertia * s.bodies[i].angVel;
}

}  // namespace jl::solver::reference
