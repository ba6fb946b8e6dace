// Lock batches: joints whose rows are all equality locks, prepared and set up in one AVX2 pass
// per batch (solver::prepLockBatchAvx2), their rows written on request.
#include <bit>
#include <cstddef>

#include "joints/row_builder.h"
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
static_assert(offsetof(Row, maxImpulse) == 15 * sizeof(Real),
              "prepLockBatchAvx2 writes a Row's first 16 doubles");

int World::Impl::lockBatch(size_t bi, int kind, const std::vector<BodyState>& poses, bool rowsToo) {
    static const Transform kIdentity{};
    const solver::Batch& bt = data.batches[bi];
    const int n = solver::kLockPrepRows[kind];
    solver::LockPrepIn in;
    in.kind = kind;
    in.writeRows = rowsToo;
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
        if (rowsToo)
            for (int t = 0; t < n; ++t)
                in.row[t][l] = &rows[static_cast<size_t>(jointRowRange[ju].first + t)].linear0.x;
        const int b0 = jointBody0[ju], b1 = jointBody1[ju];
        in.pose0[l] = b0 >= 0 ? &poses[static_cast<size_t>(b0)].pose.p.x : &kIdentity.p.x;
        in.pose1[l] = b1 >= 0 ? &poses[static_cast<size_t>(b1)].pose.p.x : &kIdentity.p.x;
        in.frame0[l] = &jointFrames[ju].frame0.p.x;
        in.frame1[l] = &jointFrames[ju].frame1.p.x;
    }
    // (lock batches are only formed when the AVX2 kernel is compiled in and runs)
    solver::LockPrepOut out;
    if (!rowsToo) {
        solver::prepLockBatchAvx2(bt, in, lockErp, lockDt, &data.lockSlots[static_cast<size_t>(bt.firstSlot)],
                                  out);
        int active = 0;
        for (int t = 0; t < n; ++t) active += std::popcount(static_cast<unsigned>(out.active[t]));
        return active;
    }
    // The rows again, from the same inputs: the slots it writes are a copy, thrown away (the
    // solver's hold this step's impulses).
    solver::LockLanes scratch[solver::kMaxLockPrepRows];
    solver::prepLockBatchAvx2(bt, in, lockErp, lockDt, scratch, out);
    // What prepJoint, the joint's prep function and setupHardSlot would have written besides.
    for (int l = 0; l < solver::kLanes; ++l) {
        const int j = bt.constraint[l];
        if (j < 0) continue;
        const size_t ju = static_cast<size_t>(j);
        const int b1 = jointBody1[ju];
        jointX1[ju] = b1 >= 0 ? poses[static_cast<size_t>(b1)].pose.p : Vec3(0.0);
        jointBodies[ju] = jointRowBodies(ju, Vec3(out.r0[0][l], out.r0[1][l], out.r0[2][l]),
                                         Vec3(out.r1[0][l], out.r1[1][l], out.r1[2][l]));
        const int first = jointRowRange[ju].first;
        for (int t = 0; t < n; ++t) {
            // rows 0–2: linear locks; then angular locks about X, Y, Z (fixed) or Y, Z (revolute)
            const bool angular = t >= 3;
            const int axis = solver::kLockPrepFirstAngularAxis[kind] + (t - 3);
            const size_t k = static_cast<size_t>(first + t);
            Row& r = rows[k];  // linear0 to maxImpulse are written
            r.mods.spring.stiffness = 0.0;
            r.mods.spring.damping = 0.0;
            r.flags = angular ? kRowOutputForce | kRowAngular : kRowOutputForce;
            r.solveHint = SolveHint::Equality;
            r.erpOverride = -1.0;
            r.label = angular ? rows::kAngularLockLabels[axis] : rows::kLinearLockLabels[t];
            const bool on = (out.active[t] >> l) & 1;
            RowOut& o = rowOut[k];
            o.response = out.response[t][l];
            o.minImpulse = -kInf;
            o.maxImpulse = kInf;
            o.erp = on ? lockErp : 0.0;
            o.velTarget = 0.0;
            o.flags = static_cast<uint16_t>((angular ? solver::kSolveAngular : 0) |
                                            (on ? 0 : solver::kSolveInactive));
            rowSolver[k] = rowPlace(bt.firstSlot + t, l, solver::kLayoutLock);
        }
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
