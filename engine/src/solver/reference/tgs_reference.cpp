// JointLab engine — temporal Gauss-Seidel, the reference kernel (solver/reference/reference.h).
//
// F = physx-1d-constraint-formulation.md, D = physx-implicit-spring-drives.md.
//
// Loops:
//   1. bodies start at v_pre (momocity ω⁽ᵐ⁾ = I^½·ω); warm-started rows (contacts) are listed,
//      their impulse not yet applied
//   2. posIters substeps of h = dt/posIters (D 40), each:
//        every body: the substep's forces, v += h·(g + F/m), ω⁽ᵐ⁾ += h·I^-½τ, damped (as Box2D v3
//                   integrates velocities per substep)
//        every warm-started row: 1/posIters of its impulse, as its share of the forces it balances
//        every row: refresh its lever arms, Jacobian, response and error from the bodies' motion
//                   so far (F 66), then λ' = λ − (J⁽ᵐ⁾v⁽ᵐ⁾ + α·C/h − v_T)/r (F 65 without v_pre:
//                   TGS carries full velocities), or the spring update (D 44), clamped
//        every body: moves by h and adds the motion to its deltas
//   3. velIters sweeps: no position bias (keep-bias rows keep α·C/dt), springs frozen (D "TGS
//      Velocity Iteration")
//   4. write back: momocity back to ω
#include "solver/integrate.h"
#include "solver/reference/reference.h"

namespace jl::solver::reference {

namespace {

/// What one sweep needs besides the rows: the substep length, which substep, which pass.
struct Pass {
    Real h = 0.0, dt = 0.0;
    int substep = 0;  ///< 1..posIters; posIters in the velocity pass
    bool velocity = false;
    int sweep = 0;  ///< the velocity pass's sweep (for the observer)
};

/// A row brought up to date with the bodies' motion so far in the step (F 66).
struct Current {
    Vec3 lin0, lin1, angM0, angM1;  ///< J⁽ᵐ⁾
    Real C;                         ///< geometric error
};

/// F 66: the lever arms turned with the bodies, κ = κ_base + r × μ (premultiplied by the frozen
/// I^-½), and the error advanced by each anchor's motion Δx + (r' − r) along the row's linear
/// axis, plus κ_base·∫ω dt. A kSolveSeparation row's axis follows the anchors instead:
/// d = d0 + Δa1 − Δa0, μ = ±d/|d|, C = C0 − (±|d| − length0) (Box2D v3's distance joint).
Current refresh(const State& s, size_t k) {
    const SolverRow& r = s.rows[k];
    const SolverRowExtra& x = s.extra[k];
    const BodyDelta& da = s.deltas[static_cast<size_t>(r.b0)];
    const BodyDelta& db = s.deltas[static_cast<size_t>(r.b1)];
    const BodyInfo& ia = s.info[static_cast<size_t>(r.b0)];
    const BodyInfo& ib = s.info[static_cast<size_t>(r.b1)];
    if (r.flags & kSolveAngular) {  // constant Jacobian; C advanced by κ⁽ᵐ⁾·Δθ⁽ᵐ⁾ = κ·∫ω dt (F 62)
        return {r.lin0, r.lin1, r.angM0, r.angM1,
                x.error0 + (glm::dot(r.angM0, da.deltaAng) - glm::dot(r.angM1, db.deltaAng))};
    }
    const Vec3 r0 = ia.pose.q * x.r0Local, r1 = ib.pose.q * x.r1Local;
    const Vec3 move0 = da.deltaLin + (r0 - x.r0), move1 = db.deltaLin + (r1 - x.r1);  // Δa
    Current c{r.lin0, r.lin1, Vec3(0.0), Vec3(0.0), x.error0};
    bool turned = false;
    if (r.flags & kSolveSeparation) {
        const Vec3 d = x.length0 * r.lin0 + (move1 - move0);
        const Real len = glm::length(d);
        if (len > kMinSeparation) {
            const Real sign = x.length0 < 0.0 ? -1.0 : 1.0;
            c.lin0 = c.lin1 = (sign / len) * d;
            c.C = x.error0 - (sign * len - x.length0);
            turned = true;
        }
    }
    c.angM0 = ia.sqrtInvInertia * (x.ang0Base + glm::cross(r0, c.lin0));
    c.angM1 = ib.sqrtInvInertia * (x.ang1Base + glm::cross(r1, c.lin1));
    if (!turned) {
        const Vec3 baseM0 = ia.sqrtInvInertia * x.ang0Base, baseM1 = ib.sqrtInvInertia * x.ang1Base;
        c.C = c.C + (glm::dot(r.lin0, move0) - glm::dot(r.lin1, move1));
        c.C = c.C + (glm::dot(baseM0, da.deltaAng) - glm::dot(baseM1, db.deltaAng));  // κ_base·∫ω dt
    }
    return c;
}

/// One visit of row k (F 66, D 44); returns Δλ·r.
Real visitRow(State& s, size_t k, const Pass& pass) {
    SolverRow& r = s.rows[k];
    const SolverRowExtra& x = s.extra[k];
    Body& a = s.bodies[static_cast<size_t>(r.b0)];
    Body& b = s.bodies[static_cast<size_t>(r.b1)];
    const Current cur = refresh(s, k);
    const Vec3 &lin0 = cur.lin0, &lin1 = cur.lin1, &angM0 = cur.angM0, &angM1 = cur.angM1;
    const Real C = cur.C;

    // r = J M⁻¹ Jᵀ from the refreshed Jacobian (F 21): a lever arm that turns towards the row's
    // axis can raise it several-fold within one step.
    const Real response = ((r.linScale0 * glm::dot(lin0, lin0) + r.angScale0 * glm::dot(angM0, angM0)) +
                           r.linScale1 * glm::dot(lin1, lin1)) +
                          r.angScale1 * glm::dot(angM1, angM1);
    const Real recip = response > kMinResponse ? 1.0 / response : 0.0;
    const Real jv = ((glm::dot(lin0, a.linVel) + glm::dot(angM0, a.angVel)) - glm::dot(lin1, b.linVel)) -
                    glm::dot(angM1, b.angVel);  // F 62

    const Real before = r.accum;
    Real newAccum, bias = 0.0;
    if (r.flags & kSolveSpring) {
        const Real k = x.stiffness, c = x.damping, vT = x.velTarget, h = pass.h;
        const Real aa = h * (h * k + c);                                                         // D 13
        const Real cSub = C + (pass.dt - static_cast<Real>(pass.substep) * h) * vT;              // D 41
        const Real bracket = h * c * vT - h * k * cSub - aa * jv;                                // D 44
        newAccum = r.accum + ((r.flags & kSolveAccelSpring) ? bracket / (aa + 1.0) * recip       // D 32, 35
                                                            : bracket / (aa * response + 1.0));  // D 15
    } else {
        Real bias = 0.0;  // F 11: b = α·C/h
        if (!pass.velocity)
            bias = x.erp * C / pass.h;
        else if (r.flags & kSolveKeepBias)
            bias = x.erp * C / pass.dt;
        newAccum = r.accum - recip * (jv + bias - x.velTarget);  // F 65 with full velocities
    }
    const Real dl = clampAccumulate(r, newAccum, s.rows);
    // applyImpulse with this visit's Jacobian (F 24, 60–61)
    a.linVel += (dl * r.linScale0) * lin0;
    a.angVel += (dl * r.angScale0) * angM0;
    b.linVel -= (dl * r.linScale1) * lin1;
    b.angVel -= (dl * r.angScale1) * angM1;
    if (s.observer.visit)
        s.observer.visit(s.observer.user,
                         RowVisit{pass.velocity ? 1 : 0, pass.velocity ? pass.sweep : pass.substep - 1, k, C,
                                  jv, response, bias, before, r.accum, r.accum != newAccum});
    return dl * response;
}

Real sweep(State& s, const Pass& pass) {
    Real sum = 0.0;
    for (size_t span = 0; span + 1 < s.sweepSpans.size(); span += 2)
        for (int k = s.sweepSpans[span]; k < s.sweepSpans[span + 1]; ++k) {
            const SolverRow& r = s.rows[static_cast<size_t>(k)];
            if ((r.flags & kSolveInactive) || (pass.velocity && (r.flags & kSolveSpring))) continue;
            const Real asked = visitRow(s, static_cast<size_t>(k), pass);
            sum += asked * asked;
        }
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
    s.warm.clear();
    for (size_t k = 0; k < s.rowCount; ++k)
        if (SolverRow& r = s.rows[k]; r.accum != 0.0) {
            s.warm.push_back(WarmStart{k, r.accum});
            r.accum = 0.0;
        }

    s.residuals.clear();
    const Real n = static_cast<Real>(p.posIters);
    for (int sub = 1; sub <= p.posIters; ++sub) {  // 2.
        for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
            applySubstepForces(s.bodies[i], s.info[i], h);
        for (const WarmStart& w : s.warm) applyWarmSlice(w, s.rows[w.row], s.rows[w.row].accum, n, s.bodies);
        s.residuals.push_back(sweep(s, Pass{h, p.dt, sub, false}));
        for (size_t i = 1; i < static_cast<size_t>(s.movingEnd()); ++i)
            integrateTgsSubstep(s.bodies[i], s.deltas[i], s.info[i], p, h);
    }

    for (int it = 0; it < p.velIters; ++it)
        s.residuals.push_back(sweep(s, Pass{h, p.dt, p.posIters, true, it}));  // 3.

    for (size_t i = 0; i < s.bodies.size(); ++i)
        s.bodies[i].angVel = s.info[i].sqrtInvInertia * s.bodies[i].angVel;
}

}  // namespace jl::solver::reference
