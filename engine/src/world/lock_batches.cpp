// The lock batches (World::Impl::batchLockPrep): batches of joints whose rows are all lock parts
// (joints/lock_only.h), prepared and set up in one AVX2 pass per batch from those parts
// (solver::prepLockBatchAvx2); their rows are written only on request, by the joints' own prep
// (ensureLockRows).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <variant>

#include "world/world_impl.h"

namespace jl {

void World::Impl::markLockPrepBatches(size_t jointCount) {
    batchLockPrep.assign(jointBatches.size(), uint8_t{solver::kLockPrepNone});
    jointInLockBatch.assign(jointCount, 0);
    for (size_t bi = 0; bi < jointBatches.size(); ++bi) {
        const solver::LaneIds& ids = jointBatches[bi];
        const uint8_t kind =
            ids[0] >= 0 ? jointLockPrep[static_cast<size_t>(ids[0])] : uint8_t{solver::kLockPrepNone};
        int lanes = 0;
        bool same = kind != solver::kLockPrepNone;
        for (const int id : ids)
            if (id >= 0) ++lanes, same = same && jointLockPrep[static_cast<size_t>(id)] == kind;
        if (!same || lanes < 2) continue;
        batchLockPrep[bi] = kind;
        for (const int id : ids)
            if (id >= 0) jointInLockBatch[static_cast<size_t>(id)] = 1;
    }
}

static_assert(sizeof(Transform) == 7 * sizeof(Real) && offsetof(Transform, q) == 3 * sizeof(Real) &&
                  offsetof(Quat, x) == 0 && offsetof(Quat, w) == 3 * sizeof(Real),
              "prepLockBatchAvx2 reads a Transform as p.xyz then q.xyzw");

int World::Impl::lockBatch(size_t bi, int kind, const std::vector<BodyState>& poses, bool rowsToo) {
    static const Transform kIdentity{};
    const solver::Batch& bt = data.batches[bi];
    auto pose = [&](int b) { return b >= 0 ? &poses[static_cast<size_t>(b)].pose : &kIdentity; };
    if (!rowsToo) {
        // The step: the slots only, four joints at once, from the joints' lock parts.
        solver::LockPrepIn in;
        in.parts = static_cast<uint32_t>(kind);
        for (int l = 0; l < solver::kLanes; ++l) {
            const int j = bt.constraint[l];
            const solver::BodyInfo& i0 = data.info[static_cast<size_t>(bt.body0[l])];
            const solver::BodyInfo& i1 = data.info[static_cast<size_t>(bt.body1[l])];
            in.invI0[l] = &i0.sqrtInvInertia[0][0];
            in.invI1[l] = &i1.sqrtInvInertia[0][0];
            in.pre0[l] = &i0.vPre.x;
            in.pre1[l] = &i1.vPre.x;
            if (j < 0) {  // padding: both bodies are the static one
                in.pose0[l] = in.pose1[l] = in.frame0[l] = in.frame1[l] = &kIdentity.p.x;
                continue;
            }
            const size_t ju = static_cast<size_t>(j);
            in.pose0[l] = &pose(jointBody0[ju])->p.x;
            in.pose1[l] = &pose(jointBody1[ju])->p.x;
            in.frame0[l] = &jointFrames[ju].frame0.p.x;
            in.frame1[l] = &jointFrames[ju].frame1.p.x;
        }
        // (lock batches are only formed when the AVX2 kernel is compiled in and runs)
        return std::max(0, solver::prepLockBatchAvx2(bt, in, lockErp, lockDt,
                                                     &data.lockSlots[static_cast<size_t>(bt.firstSlot)]));
    }
    // On request: each joint's own prep writes its rows (in the places the step reserved), and
    // setupHardSlot sets them up into a scratch slot for the reports (the solver's slots hold this
    // step's impulses). The same inputs as the step's, so the same rows it solved.
    const solver::BodyInfo *i0[solver::kLanes], *i1[solver::kLanes];
    for (int l = 0; l < solver::kLanes; ++l) {
        i0[l] = &data.info[static_cast<size_t>(bt.body0[l])];
        i1[l] = &data.info[static_cast<size_t>(bt.body1[l])];
        const int j = bt.constraint[l];
        if (j < 0) continue;
        const size_t ju = static_cast<size_t>(j);
        const JointFrames& f = jointFrames[ju];
        const Transform* p1 = pose(jointBody1[ju]);
        PrepContext ctx = PrepContext::make(*pose(jointBody0[ju]), f.frame0, *p1, f.frame1, lockDt);
        ctx.memory = &memory[ju];
        RowWriter out{&rows[static_cast<size_t>(jointRowRange[ju].first)], jointRowRange[ju].count};
        std::visit([&](const auto& params) { prep(params, ctx, out); }, scene->joints[ju].params);
        jointX1[ju] = p1->p;
        jointBodies[ju] = jointRowBodies(ju, ctx.r0, ctx.r1);
    }
    solver::Params params;
    params.dt = lockDt;
    params.erp = lockErp;
    solver::LockLanes scratch;
    solver::SlotOut slot;
    slot.lock = &scratch;
    for (int t = 0; t < solver::kLockPrepRows[static_cast<size_t>(kind)]; ++t) {
        const Row* rs[solver::kLanes] = {};
        RowOut* reps[solver::kLanes] = {};
        for (int l = 0; l < solver::kLanes; ++l)
            if (bt.constraint[l] >= 0) {
                const size_t k =
                    static_cast<size_t>(jointRowRange[static_cast<size_t>(bt.constraint[l])].first + t);
                rs[l] = &rows[k];
                reps[l] = &rowOut[k];
                rowSolver[k] = rowPlace(bt.firstSlot + t, l, solver::kLayoutLock);
            }
        solver::setupHardSlot(rs, i0, i1, bt, params, slot, reps);
    }
    return 0;
}

void World::Impl::ensureLockRows() {
    if (!lockRowsPending) return;
    lockRowsPending = false;
    const size_t n = std::min(batchLockPrep.size(), jointBatches.size());
    // Each batch writes only its own joints' rows, reports and lever arms: with several parts the
    // threads share the batches.
    const int parts = data.parts();
    auto share = [&](int t) {
        for (size_t bi = n * static_cast<size_t>(t) / static_cast<size_t>(parts);
             bi < n * static_cast<size_t>(t + 1) / static_cast<size_t>(parts); ++bi)
            if (batchLockPrep[bi] != solver::kLockPrepNone) lockBatch(bi, batchLockPrep[bi], lastGood, true);
    };
    if (parts > 1)
        data.pool->run(parts, share);
    else
        share(0);
}

}  // namespace jl
