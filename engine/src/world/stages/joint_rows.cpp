// Stage 3 of the step: the joints' rows. Window after window of the solve order, each joint
// writes its rows (its prep function in joints/, PxConstraintShaderTable::solverPrep) and its
// batches are set up for the solver right away, while the rows are in cache (world/batch_setup.cpp).
// Reads the poses before the step and the joints' frames; writes rows, jointRowRange,
// jointBodies and the solver's batches or row list.
#include <algorithm>
#include <cstdint>

#include "world/world_impl.h"

namespace jl {

void World::Impl::prepJoint(StepContext& step, size_t j) {
    Impl& m = *this;
    const std::vector<BodyState>& before = *step.before;
    const Real dt = step.params.dt;
    const Scene& scene_ = step.world.scene_;
    Impl::RowRange& range = m.jointRowRange[j];
    range.first = static_cast<int>(m.rowCount);
    const JointFrames& f = m.jointFrames[j];
    const int b0 = m.jointBody0[j], b1 = m.jointBody1[j];
    const Transform pose0 = b0 >= 0 ? before[static_cast<size_t>(b0)].pose : Transform{};
    const Transform pose1 = b1 >= 0 ? before[static_cast<size_t>(b1)].pose : Transform{};
    PrepContext ctx = PrepContext::make(pose0, f.frame0, pose1, f.frame1, dt);
    ctx.memory = &m.memory[j];
    RowWriter out{m.reserveRows(kMaxRowsPerJoint), kMaxRowsPerJoint};
    std::visit([&](const auto& params) { prep(params, ctx, out); }, scene_.joints[j].params);
    m.jointX1[j] = pose1.p;
    m.jointBodies[j] = m.jointRowBodies(j, ctx.r0, ctx.r1);
    m.jointBodies[j].separation = ctx.cB2w.p - ctx.cA2w.p;
    if (m.forestStep && m.jointInForest[j])  // solved by the forest (solver/tree.h), not the sweeps
        for (int t = 0; t < out.count; ++t) out.rows[t].flags |= kRowTree;
    m.rowCount += static_cast<size_t>(out.count);
    range.count = out.count;
}

void World::Impl::reserveLockRows(size_t j) {
    Impl& m = *this;
    const int n = solver::kLockPrepRows[m.jointLockPrep[j]];
    m.reserveRows(static_cast<size_t>(n));
    m.jointRowRange[j] = {static_cast<int>(m.rowCount), n};
    m.rowCount += static_cast<size_t>(n);
}

void World::Impl::buildJointRows(StepContext& step) {
    Impl& m = *this;
    solver::Data& data = m.data;
    const solver::Params& params = step.params;
    const bool simdSetup = step.simdSetup;
    const bool tgs = step.tgs;
    const std::vector<BodyState>& before = *step.before;
    const std::vector<JointState>& joints_ = step.world.joints_;
    const size_t nj = joints_.size();
    m.lockRowsPending = false;
    m.lockActiveRows = 0;
    m.lockErp = params.erp;
    m.lockDt = params.dt;
    m.rowCount = 0;
    for (size_t j = 0; j < nj; ++j)  // broken joints have no rows; prep places the others
        if (m.colouredSkip[j]) m.jointRowRange[j] = {};
    // With several parts, the lock batches' fused prep and set-up (each writes its own slots
    // only) runs after the loop below, the batches split between the threads.
    step.deferLocks = data.parts() > 1;
    m.deferredLocks.clear();
    m.batchRowStart.clear();
    const size_t nJointBatches = m.jointBatches.size();
    data.batches.resize(nJointBatches);
    if (tgs) data.tgsArms.resize(nJointBatches);
    // Window after window (solver/colour.cpp): prep its joints in scene order, which streams
    // through the joint descriptions, then set up its batches in solve order from the rows just
    // written (in cache).
    for (size_t w = 0; w + 1 < m.jointWindows.size(); ++w) {
        const int b0 = m.jointWindows[w], b1 = m.jointWindows[w + 1];
        int lo = INT32_MAX, hi = -1;
        for (int bi = b0; bi < b1; ++bi)
            for (int id : m.jointBatches[static_cast<size_t>(bi)])
                if (id >= 0) lo = std::min(lo, id), hi = std::max(hi, id);
        const uint8_t group = m.windowGroup[w];
        for (int j = lo; j <= hi; ++j) {
            if (joints_[static_cast<size_t>(j)].broken || m.jointGroup[static_cast<size_t>(j)] != group)
                continue;
            if (simdSetup && m.jointInLockBatch[static_cast<size_t>(j)])
                m.reserveLockRows(static_cast<size_t>(j));  // rows written by its batch's set-up
            else
                m.prepJoint(step, static_cast<size_t>(j));
        }
        for (int bi = b0; bi < b1; ++bi)
            m.setUpBatch(step, static_cast<size_t>(bi), m.jointBatches[static_cast<size_t>(bi)], false);
    }
    if (!m.deferredLocks.empty()) {
        const int parts = data.parts();
        int active[kMaxSolverThreads] = {};
        auto lockShare = [&](int t) {
            const int64_t n = static_cast<int64_t>(m.deferredLocks.size());
            for (int64_t k = n * t / parts; k < n * (t + 1) / parts; ++k) {
                const size_t bi = static_cast<size_t>(m.deferredLocks[static_cast<size_t>(k)]);
                active[t] += m.lockBatch(bi, m.batchLockPrep[bi], before, false);
                solver::computeBatchCouplings(data, bi, params.simd);
            }
        };
        data.pool->run(parts, lockShare);
        for (int t = 0; t < parts; ++t) m.lockActiveRows += active[t];
    }
    m.jointRowCount = static_cast<int>(m.rowCount);
    m.lockRowsPending = simdSetup;  // the lock batches' rows: on request (Impl::ensureLockRows)
}

}  // namespace jl
