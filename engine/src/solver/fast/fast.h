// JointLab engine — the fast kernel: the rows of solver/solver.h packed into batches of 4
// independent constraints (solver/fast/batch.h), swept by AVX2 or lane by lane, pipelined or
// split into parts on several threads. Same maths as solver/reference/, same rows, same order.
#pragma once

#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jointlab/solver_kernel.h"
#include "solver/colour.h"
#include "solver/fast/batch.h"
#include "solver/fast/pipeline.h"
#include "solver/solver.h"
#include "support/worker_pool.h"

namespace jl::solver {

/// One task's residual lane sums, on a cache line of its own (the tasks write them at once).
struct alignas(64) PartSums {
    LaneSums lanes;
};

/// A sweep number one task publishes (release) and others wait for (WorkerPool::waitFor), on a
/// cache line of its own.
struct alignas(64) SweepFlag {
    std::atomic<uint32_t> v{0};
};
/// Parts a solve may have (WorldSettings::threads is at most kMaxSolverThreads = 16).
inline constexpr int kMaxSweepTasks = 16;

/// PGS's position sweeps as one pipelined plan (solver/fast/pipeline.h, solver/fast/pipeline.cpp), kept
/// while the batches and the iteration count stay the same.
struct Pipeline {
    /// What the plan was built for: per joint batch its lane count, slot count and lanes' bodies
    /// (negated when not dynamic); and the sweep count. A plan is rebuilt when either changes.
    std::vector<int32_t> signature;
    std::vector<int32_t> check;  ///< scratch: this step's signature
    int sweeps = 0;
    uint64_t solves = 0;            ///< sweepPipelined calls that got past the first tests
    uint64_t builtAt = 0;           ///< `solves` when the plan was last built (0: never)
    bool use = false;               ///< the plan solves the sweeps in fewer batch solves than the batches do
    std::vector<PipeJoint> joints;  ///< the joint batches' real lanes, in sweep order
    std::vector<PipeQuad> quads;
    std::vector<PipeRow> rows;        ///< this step's rows, refreshed from the batches' slots
    std::vector<Batch> comps;         ///< the quads' compositions as batches (this step's scales)
    std::vector<RowLanes> compSlots;  ///< the compositions' row slots (this step's rows)
    std::vector<HardLanes>
        compHardSlots;  ///< the same as hard slots, when every row is one (PipeSource::hard)
    std::vector<CouplingLanes> compCouplings;  ///< their couplings
    std::vector<BlockLanes> compBlocks;        ///< their blocks' gains (one per composition)
    std::vector<double>
        jointCouplings;         ///< this step's couplings, joint after joint (PipeJoint::firstCoupling)
    std::vector<double> accum;  ///< per row of the joints, its accumulated impulse; then zeros (padding
                                ///< lanes), scratch (masked lanes)
    std::vector<int32_t> last;  ///< scratch: per solver body, the last quad placed on it
    std::vector<double> visitResidual;                    ///< per sweep and joint, the visit's residual terms
    std::array<std::vector<int32_t>, kLanes> laneJoints;  ///< per batch lane, its joints in batch order
};

/// The fast kernel's data: the shared State plus its batches, slots, pipeline and threads.
struct Data : State {
    /// PGS: the rows in the batched layout (solver/fast/batch.h), in solve order.
    std::vector<Batch> batches;
    std::vector<RowLanes> slots;       ///< the batches' row slots (the vector only grows)
    std::vector<HardLanes> hardSlots;  ///< hard batches' row slots (AVX2 only; the vector only grows)
    std::vector<LockLanes> lockSlots;  ///< lock batches' row slots (AVX2 only; the vector only grows)
    std::vector<CouplingLanes>
        couplings;                   ///< PGS: the batches' row couplings (Batch::firstCoupling; only grows)
    std::vector<BlockLanes> blocks;  ///< PGS: the batches' blocks' gains (Batch::firstBlock; only grows)
    /// TGS: the same batches (data.batches) with their own row slots and lever arms, packed from
    /// `rows` (packTgsBatch).
    std::vector<TgsLanes> tgsSlots;
    std::vector<TgsArms> tgsArms;    ///< per batch
    std::vector<int> integrateLeft;  ///< TGS: bodies the AVX2 integration left to the plain code
    /// The parallel solve (docs/performance.md "Threads"): batches [partStart[t], partStart[t + 1]) of
    /// part t < parts share no dynamic body with another part's, so the parts are swept at once,
    /// one task each on `pool`; batches [partStart[parts], batches.size()) (joints between parts,
    /// then contacts) follow in order. Empty (one part): the sweep is one plain pass.
    std::vector<int> partStart;
    /// Per part: its first batch that touches a body of a joint between parts (partStart[t + 1]
    /// if none). Task t > 0 sweeps its batches before that one while task 0 sweeps the joints
    /// between parts, then waits for task 0 (sharedDone) before going on. Task 0 sweeps those
    /// joints first itself, so partWait[0] = partStart[0].
    std::vector<int> partWait;
    /// The end of the joint batches; contact batches follow (they go with the joints between
    /// parts; with any contact every part waits for them before its first batch).
    int jointBatchEnd = 0;
    /// Sweeps so far (every parallel sweep takes the next number).
    uint32_t sweepTicket = 0;
    /// The last sweep whose joints between parts task 0 has finished.
    SweepFlag sharedDone;
    /// Per task t > 0: the last sweep it has finished, in sweepPartsTogether only (which sets them
    /// all to the sweep before its first when it starts: outside it they go stale).
    std::array<SweepFlag, kMaxSweepTasks> partDone;
    WorkerPool* pool = nullptr;
    /// Per task: residual lane sums of the running sweep.
    std::vector<PartSums> partSums;
    /// TGS, parallel solve: the solver bodies task t integrates after sweeping its part, as
    /// [begin, end) ranges integrateSpans[2i], integrateSpans[2i + 1] for i in
    /// [integrateSpanStart[t], integrateSpanStart[t + 1]): the bodies of its part, and for task 0
    /// also those no part touches.
    std::vector<int> integrateSpans, integrateSpanStart;
    int parts() const { return partStart.empty() ? 1 : static_cast<int>(partStart.size()) - 1; }
    /// PGS, one part, joints only: the position sweeps pipelined (solvePGS).
    Pipeline pipeline;
};

static_assert(kMaxBatchSlots >= kMaxRowsPerJoint, "a batch holds the rows of any joint");

/// PGS: the same set-up written straight into lane l of a batch's row slot (solver/fast/batch.h), with
/// the batch's mass scales. Accumulated impulse 0.
void setupRowLane(const Row& row, const BodyInfo& i0, const BodyInfo& i1, const Batch& bt, int l,
                  const Params& p, RowLanes& slot, RowReport& report);

/// PGS with the AVX2 kernel: sets up the row slot `out` points at (a compact layout only for rows
/// that fit it, see slotLayoutFor) of a joint batch whose 4 lanes are all plain hard rows (flags
/// at most kRowOutputForce, kRowAngular, kRowKeepBias, kRowVelocityOnly) at once, bit-identical to
/// setupRowLane lane after lane. rows[l] == nullptr: a padding lane (stored as padLane does: all
/// zeros; i0[l] must still point at a body, e.g. the static one, and reports[l] is not written).
/// Returns false, having written nothing, when a lane is not such a row or the AVX2 kernel is not
/// compiled in.
bool setupHardSlot(const Row* const rows[kLanes], const BodyInfo* const i0[kLanes],
                   const BodyInfo* const i1[kLanes], const Batch& bt, const Params& p, const SlotOut& out,
                   RowReport* const reports[kLanes]);

/// The most compact slot layout (SlotLayout) row fits: kLayoutLock for an equality lock (a plain
/// hard row, as setupHardSlot takes, with both impulse bounds infinite and linear1 = linear0 bit
/// for bit), kLayoutHard for other plain hard rows with linear1 = linear0, else kLayoutFull. A
/// batch takes the smallest over its rows.
int slotLayoutFor(const Row& row);

/// Stores one prepared row in lane l of a row slot; an inactive row stores zeros for its
/// Jacobian, response and impulse multiplier.
void storeLane(RowLanes& slot, int l, bool active, const Vec3& lin0, const Vec3& angM0, const Vec3& lin1,
               const Vec3& angM1, Real constant, Real unbiasedConstant, Real vMul, Real impulseMul,
               Real minImpulse, Real maxImpulse, Real accum, Real response);

/// PGS: batch bi's row couplings (solver/fast/batch.h CouplingLanes) into data.couplings at its
/// firstCoupling, from its row slots as the set-up left them, and if it has blocks their gains
/// into data.blocks at its firstBlock (BlockLanes; a lane whose K is singular or has an inactive
/// row gets block size 0). AVX2 or plain: the same bits.
void computeBatchCouplings(Data& data, size_t bi, bool simd);

/// After either solve: Body::linVel / angVel hold the final linear and (plain) angular velocity
/// and BodyInfo::pose the final pose of every body.
///
/// PGS: position iterations on Δv, integration, velocity iterations (F 23–25, D 17–22).
void solvePGS(Data& data, const Params& p);

/// TGS: substeps of dt/posIters with on-the-fly error updates (F 66, D 40–45), then velocity
/// iterations without position bias and with drives frozen.
void solveTGS(Data& data, const Params& p);

/// TGS: packs batch `bi` (its header in data.batches already filled) into its row slots
/// data.tgsSlots[firstSlot, firstSlot + slotCount) and lever arms data.tgsArms[bi]. Lane l's rows
/// are data.rows[first[l], first[l] + count[l]), as setupRow prepared them.
void packTgsBatch(Data& data, size_t bi, const int first[kLanes], const int count[kLanes]);

/// One TGS row as its lane of a slot needs it, in the order both TGS set-ups derive it (packTgsBatch
/// from a prepared row, setupTgsJointBatch straight from a joint's row).
struct TgsLaneRow {
    Vec3 lin0{0.0}, lin1{0.0};          ///< μ0 and linear1 = −μ1
    Vec3 ang0Base{0.0}, ang1Base{0.0};  ///< κ − r × μ: the angular part without lever arm
    Vec3 baseM0{0.0}, baseM1{0.0};      ///< I^-½·ang*Base; angular rows: their J⁽ᵐ⁾
    Real error0 = 0.0, velTarget = 0.0, erp = 0.0, stiffness = 0.0, damping = 0.0;
    Real minImpulse = 0.0, maxImpulse = 0.0;
    uint16_t flags = 0;  ///< SolverRowFlags
};

/// Lane l of a TGS slot: padding, never solved (every value 0, kind 0).
void clearTgsLane(TgsLanes& L, int l);

/// Writes lane l of a TGS slot from `row`, with the batch's linear mass scales, and returns its
/// kind bits (TgsKind, 0 for an inactive row). Accumulated and step impulse start at 0 and
/// length0 at 0; a separation row's bt.separation and a soft joint's bt.softJoints are set.
int64_t writeTgsLane(TgsLanes& L, int l, const TgsLaneRow& row, Batch& bt);

/// TGS, a joint batch (no warm starts): setupRow and packTgsBatch in one pass, from the joints'
/// rows (lane l's count[l] rows from rows[l]) straight into the batch's row slots and lever arms,
/// without the list of rows (data.rows, data.extra) in between: the same arithmetic in the same
/// order, so the same bits. Writes each row's report, and drops a lane's block when one of its
/// rows is inactive (as World::Impl::markBlockRows). The replay of a history (History::seek) is
/// mostly this and the sweeps.
void setupTgsJointBatch(Data& data, size_t bi, const Row* const rows[kLanes], const int count[kLanes],
                        const RowBodies* const rbs[kLanes], const Params& p,
                        RowReport* const reports[kLanes]);

/// Writes a body's linear and angular parts back into its record (8 doubles, laid out as Body),
/// as the plain batch kernels (solver/fast/pgs.cpp, solver/fast/tgs.cpp) do after a lane's rows.
inline void storeBodyRecord(double* rec, const double* v, const double* w) {
    for (int k = 0; k < 3; ++k) {
        rec[k] = v[k];
        rec[4 + k] = w[k];
    }
}

/// Task t's share of one sweep of the parallel solve, sweep number `ticket`, its residual lanes
/// added to sums[t] (and sums[parts] for the joints between parts). Task 0 first sweeps the
/// joints between parts and the contacts, in order, then publishes the ticket; task t > 0 first
/// sweeps its batches before partWait[t] (they share no body with those; with any contact, none)
/// and waits for the ticket. Then each sweeps the rest of its part.
template <class SweepRange>
void sweepTask(Data& data, int t, uint32_t ticket, PartSums* sums, SweepRange& sweepRange) {
    const int n = static_cast<int>(data.batches.size());
    const size_t u = static_cast<size_t>(t), parts = static_cast<size_t>(data.parts());
    int begin = data.partStart[u];
    if (t == 0) {
        sweepRange(data.partStart[parts], n, sums[parts].lanes);
        data.sharedDone.v.store(ticket, std::memory_order_release);
    } else {
        // Any order of these batches against the joints between parts gives the same bits: they
        // share no body. Task 0 runs on the calling thread, which runs it before anything else
        // and waits for no task before it is done, so this wait always ends.
        const int wait = n > data.jointBatchEnd ? begin : data.partWait[u];
        sweepRange(begin, wait, sums[u].lanes);
        WorkerPool::waitFor(data.sharedDone.v, ticket);
        begin = wait;
    }
    sweepRange(begin, data.partStart[u + 1], sums[u].lanes);
}

/// Residual of one sweep from its per-task sums (sums[0..parts]), added task after task, the
/// joints between parts last.
inline Real sweepResidual(const PartSums* sums, int groups) {
    Real sum = 0.0;
    for (int g = 0; g < groups; ++g) {
        const LaneSums& l = sums[g].lanes;
        sum += (l.v[0] + l.v[1]) + (l.v[2] + l.v[3]);
    }
    return std::sqrt(sum);
}

/// One sweep over every batch of `data`, with sweepRange(begin, end, lanes) sweeping batches
/// [begin, end) and adding their residual terms to `lanes`; returns the sweep's residual (see
/// Data::residuals): sqrt of the lane sums. Parallel solve: the parts at once, one task each
/// (sweepTask), task t calling afterPart(t) when its part is done (TGS integrates its bodies
/// there).
template <class SweepRange, class AfterPart>
Real sweepParts(Data& data, SweepRange&& sweepRange, AfterPart&& afterPart) {
    const int parts = data.parts();
    if (parts == 1) {
        LaneSums lanes;
        sweepRange(0, static_cast<int>(data.batches.size()), lanes);
        return std::sqrt((lanes.v[0] + lanes.v[1]) + (lanes.v[2] + lanes.v[3]));
    }
    data.partSums.assign(static_cast<size_t>(parts) + 1, PartSums{});
    const uint32_t ticket = ++data.sweepTicket;
    auto part = [&](int t) {
        sweepTask(data, t, ticket, data.partSums.data(), sweepRange);
        afterPart(t);
    };
    data.pool->run(parts, part);
    return sweepResidual(data.partSums.data(), parts + 1);
}

/// Off: the pipelined position sweeps always decline (tests compare them with plain sweeps).
inline std::atomic<bool> gPipeline{true};
/// Solves whose position sweeps ran pipelined, in every World (tests check that a scene did).
inline std::atomic<uint64_t> gPipelinedSolves{0};
/// Plans built, in every World (tests check that a changing scene does not rebuild every step).
inline std::atomic<uint64_t> gPipelinePlansBuilt{0};
/// Pipelined solves whose compositions were hard batches (PipeSource::hard), in every World (tests).
inline std::atomic<uint64_t> gPipelinedHardSolves{0};
/// The last plan built (in any World): its quads, compositions and masked quads (tests).
inline std::atomic<int> gPipelinePlanQuads{0}, gPipelinePlanComps{0}, gPipelinePlanMasked{0};

/// PGS: `count` position sweeps (biased) of a scene of one part without contacts as one pipelined
/// plan (solver/fast/pipeline.h), appending the sweeps' residuals to `residuals`. The bodies and the
/// impulses in the batches' slots end bit for bit as after `count` plain sweeps. Returns false,
/// having done nothing, when the scene does not qualify or the plan would not save batch solves.
bool sweepPipelined(Data& data, int count, bool simd, std::vector<Real>& residuals);

/// Off: sweepPartsTogether always declines (tests compare it with a fork per sweep).
inline std::atomic<bool> gSweepTogether{true};

/// `count` sweeps of the parallel solve in one fork (TGS's position substeps, PGS's position
/// iterations), each as sweepParts does it, sweep k calling sweepRange(k, begin, end, lanes) and
/// afterPart(k, t); appends the sweeps' residuals to `residuals`. Instead of a fork and a join per
/// sweep, the tasks wait on each other only where they share bodies: task 0 sweeps the joints
/// between parts of sweep k once every other task has finished sweep k − 1, and task t > 0 sweeps
/// its batches from partWait[t] on once task 0 has swept those joints. Every body meets the same
/// batches in the same order as with a fork per sweep, so the bits are those of sweepParts called
/// `count` times. Needs every task on a thread of its own at once (WorkerPool::runTogether);
/// returns false, having done nothing, if the pool cannot give that, and the caller forks per
/// sweep.
template <class SweepRange, class AfterPart>
bool sweepPartsTogether(Data& data, int count, SweepRange&& sweepRange, AfterPart&& afterPart,
                        std::vector<Real>& residuals) {
    if (!gSweepTogether.load(std::memory_order_relaxed)) return false;
    const int parts = data.parts();
    const size_t groups = static_cast<size_t>(parts) + 1;
    data.partSums.assign(static_cast<size_t>(count) * groups, PartSums{});
    const uint32_t base = data.sweepTicket;
    // Every other task has "finished" the sweep before the first: a flag left from long ago (a
    // part that is new, or 2^31 sweeps on the other path) would otherwise count as reached. The
    // pool's start of the run orders these stores before the tasks.
    for (int o = 1; o < parts; ++o)
        data.partDone[static_cast<size_t>(o)].v.store(base, std::memory_order_relaxed);
    auto task = [&](int t) {
        for (int k = 0; k < count; ++k) {
            const uint32_t ticket = base + static_cast<uint32_t>(k) + 1;
            // the other parts' bodies are done with sweep k − 1 (their integration included)
            for (int o = 1; t == 0 && o < parts && k > 0; ++o)
                WorkerPool::waitFor(data.partDone[static_cast<size_t>(o)].v, ticket - 1);
            auto range = [&](int begin, int end, LaneSums& lanes) { sweepRange(k, begin, end, lanes); };
            sweepTask(data, t, ticket, data.partSums.data() + static_cast<size_t>(k) * groups, range);
            afterPart(k, t);
            if (t > 0) data.partDone[static_cast<size_t>(t)].v.store(ticket, std::memory_order_release);
        }
    };
    if (!data.pool->runTogether(parts, task)) return false;
    data.sweepTicket = base + static_cast<uint32_t>(count);
    for (int k = 0; k < count; ++k)
        residuals.push_back(sweepResidual(data.partSums.data() + static_cast<size_t>(k) * groups, parts + 1));
    return true;
}

template <class SweepRange>
Real sweepParts(Data& data, SweepRange&& sweepRange) {
    return sweepParts(data, sweepRange, [](int) {});
}

}  // namespace jl::solver
