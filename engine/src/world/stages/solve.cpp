// Stage 5 of the step: the solver. The kernel the settings choose (WorldSettings::kernel)
// solves the rows the stages before prepared: the reference kernel (solver/reference/) sweeps
// the list of rows in solve order; the fast kernel (solver/fast/) its batches. Both integrate
// the bodies. Then the contacts' impulses are kept to warm-start the next step.
// Reads the prepared rows; writes data.bodies (final velocities), data.info (final poses) and
// every row's accumulated impulse.
#include <algorithm>

#include "solver/integrate.h"
#include "solver/reference/reference.h"
#include "world/world_impl.h"

namespace jl {

void World::Impl::solveConstraints(StepContext& step) {
    solver::Params& params = step.params;
    if (step.tgs || step.reference) data.rowCount = step.tgsCursor;
    if (step.reference) {
        setReferenceSweep();
        traceStep = step.world.stepCount_ + 1;
        traceTgs = step.tgs;
        if (trace) {  // solver body -> scene body, for the velocities each visit reports
            traceBody.assign(data.bodies.size(), -1);
            for (size_t i = 0; i < solverIndex.size(); ++i)
                if (solverIndex[i] > 0) traceBody[static_cast<size_t>(solverIndex[i])] = static_cast<int>(i);
        }
        data.observer = trace ? solver::RowObserver{&Impl::traceVisit, this} : solver::RowObserver{};
        if (step.tgs)
            solver::reference::solveTGS(data, params);
        else
            solver::reference::solvePGS(data, params);
    } else if (step.tgs) {
        solver::solveTGS(data, params);
    } else {
        solver::solvePGS(data, params);
    }
    lastStepTgs = step.tgs;
    lastParams = params;
    haveLastParams = true;

    // The row results now describe this step (also when it diverges below: they show the rows
    // and impulses that did); computed from these rows and solver bodies when first asked for.
    resultsPending = true;
    forcesPending = true;
    resultsDt = params.dt;
    resultsH = step.tgs ? params.dt / params.posIters : params.dt;
    resultsBlocks = params.blocks;
}

void World::Impl::traceVisit(void* impl, const solver::RowVisit& v) {
    Impl& m = *static_cast<Impl*>(impl);
    RowTrace t{m.traceStep, v.phase, v.sweep, m.listRowJoint[v.row], m.listRowIndex[v.row], v.C,
               v.jv,        v.K,     v.bias,  v.lambdaBefore,        v.lambdaAfter,         v.clamped,
               v.block};
    std::copy(v.blockK, v.blockK + 3, t.blockK);
    t.contactRow = m.listRowContact[v.row];
    const solver::SolverRow& r = m.data.rows[v.row];
    // The bodies' velocities now: TGS holds v and ω⁽ᵐ⁾ = I^½·ω (F 58), PGS v_pre + Δv (F 23, 59).
    auto velocity = [&](int b, int& scene, Vec3& lin, Vec3& ang) {
        const size_t i = static_cast<size_t>(b);
        scene = i < m.traceBody.size() ? m.traceBody[i] : -1;
        if (m.traceTgs) {
            lin = m.data.bodies[i].linVel;
            ang = m.data.info[i].sqrtInvInertia * m.data.bodies[i].angVel;
        } else {
            solver::totalVelocity(m.data.bodies[i], m.data.info[i], lin, ang);
        }
    };
    velocity(r.b0, t.body0, t.v0, t.w0);
    velocity(r.b1, t.body1, t.v1, t.w1);
    m.trace(t);
}

void World::Impl::setReferenceSweep() {
    // The fast kernel's sweep, as each body meets its rows: with several parts the joints between
    // parts and the contacts first (task 0 sweeps them before any part touches their bodies),
    // then the parts, whose bodies are their own (solver/fast/fast.h sweepTask).
    const size_t n = data.batches.size();
    batchRowStart.resize(n + 1);
    batchRowStart[n] = static_cast<int>(data.rowCount);
    const size_t between = data.partStart.empty() ? 0 : static_cast<size_t>(data.partStart.back());
    data.sweepSpans.clear();
    auto span = [&](size_t from, size_t to) {
        if (from >= to) return;
        data.sweepSpans.push_back(batchRowStart[from]);
        data.sweepSpans.push_back(batchRowStart[to]);
    };
    span(between, n);
    span(0, between);
    data.jointRowEnd = static_cast<size_t>(batchRowStart[static_cast<size_t>(data.jointBatchEnd)]);
}

void World::Impl::storeContactImpulses() {
    // Body contacts: this step's impulses into this step's stored contacts (the friction rows'
    // two impulses as one world vector), which become the list the next step matches against.
    for (const ContactRef& c : contacts) {
        if (c.stored < 0) continue;
        const size_t f = static_cast<size_t>(c.firstRow);
        BodyContactState& st = nextBodyContacts[static_cast<size_t>(c.stored)];
        st.normalImpulse = impulse(f);
        st.frictionImpulse = impulse(f + 1) * rows[f + 1].linear0 + impulse(f + 2) * rows[f + 2].linear0;
    }
    std::swap(bodyContacts, nextBodyContacts);
    // Ground warm-start impulses for the next step (all zero, and left alone, without contacts).
    if (contacts.empty() && !contactImpulseDirty) return;
    std::fill(nextContactImpulse.begin(), nextContactImpulse.end(), 0.0);
    bool any = false;
    for (const ContactRef& c : contacts) {
        if (c.key < 0) continue;
        any = true;
        for (size_t t = 0; t < 3; ++t)
            nextContactImpulse[static_cast<size_t>(c.key) * 3 + t] =
                impulse(static_cast<size_t>(c.firstRow) + t);
    }
    std::swap(contactImpulse, nextContactImpulse);
    contactImpulseDirty = any;
}

}  // namespace jl
