// JointLab engine — solver data shared by PGS (solver/fast/pgs.cpp) and TGS (solver/fast/tgs.cpp).
//
// Equation numbers: physx-1d-constraint-formulation.md ("F") and physx-implicit-spring-drives.md
// ("D").
//
// Solver bodies carry linear velocity and angular MOMOCITY ω⁽ᵐ⁾ = I^½·ω (F 58–59). Rows carry
// the momocity Jacobian J⁽ᵐ⁾ = {μ0, I0^-½ κ0, μ1, I1^-½ κ1} (F 54–56), so applying an impulse
// λ changes momocity by λ·κ⁽ᵐ⁾ (F 60–61) and projecting κ⁽ᵐ⁾·Δω⁽ᵐ⁾ gives κ·Δω (F 62): no 3×3
// inertia product per row visit.
//
// Static bodies and the world share solver body 0 (zero velocity). Kinematic bodies get their own
// solver body with I^-½ = E (so momocity = ω) but zero inverse mass in every row they touch.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jointlab/math.h"
#include "jointlab/row.h"
#include "jointlab/solver_kernel.h"
#include "solver/fast/batch.h"
#include "solver/fast/pipeline.h"
#include "support/worker_pool.h"

namespace jl::solver {

/// Velocity state touched in the inner loop: one 64-byte cache line per body, laid out as
/// {v.x, v.y, v.z, pad, w.x, w.y, w.z, pad} so the batched kernel (solver/fast/batch.h) loads a body's
/// linear or angular part as one 4-wide vector.
struct alignas(64) Body {
    Vec3 linVel{0.0};  ///< PGS: Δv accumulated by the solve; TGS: full linear velocity
    Real pad0 = 0.0;
    Vec3 angVel{0.0};  ///< PGS: Δω⁽ᵐ⁾; TGS: full angular momocity I^½·ω
    Real pad1 = 0.0;
};
static_assert(sizeof(Body) == 64, "Body must be one cache line: the batched kernel relies on the layout");

/// TGS only: motion accumulated over the substeps. Laid out like Body ({x, y, z, pad} twice) so
/// the batched kernel loads it the same way.
struct alignas(64) BodyDelta {
    Vec3 deltaLin{0.0};  ///< linear motion accumulated over the substeps (deltaLinDt) [m]
    Real pad0 = 0.0;
    Vec3 deltaAng{0.0};  ///< integrated momocity over the substeps (deltaAngDt)
    Real pad1 = 0.0;
};
static_assert(sizeof(BodyDelta) == 64, "BodyDelta must be one cache line, laid out as Body");

/// Per-body constants over one step (inertia held constant, as TGS's first approximation).
/// Laid out for the row set-up, which visits bodies in solve order (not memory order): what it
/// reads (invMass, dynamic, I^-½, v_pre, ω_pre) and the pose sit in the first three cache lines,
/// all PGS touches; the last two hold what only TGS uses, and a PGS step does not write them.
struct alignas(64) BodyInfo {
    Real invMass = 0.0;        ///< 0 for static / kinematic
    Mat3 sqrtInvInertia{0.0};  ///< world I^-½ (E for kinematic, 0 for the static body)
    bool dynamic = false;
    Vec3 vPre{0.0};  ///< velocity after external forces, before constraints
    Vec3 wPre{0.0};  ///< angular velocity after external forces (plain ω)
    Transform pose;  ///< pose at the start of the step; the solver advances it
    // TGS only:
    Mat3 sqrtInertia{0.0};        ///< world I^½ (E for kinematic)
    Quat q0{1.0, 0.0, 0.0, 0.0};  ///< orientation at the start of the step
};
static_assert(offsetof(BodyInfo, pose) + sizeof(Transform) <= 3 * 64,
              "PGS's fields in the first three cache lines");

enum SolverRowFlags : uint16_t {
    kSolveSpring = 1 << 0,
    kSolveAccelSpring = 1 << 1,
    kSolveKeepBias = 1 << 2,  ///< hard row keeps its bias in velocity iterations
    kSolveBounce = 1 << 3,    ///< restitution replaced the bias with a bounce target
    kSolveAngular = 1 << 4,   ///< no lever arms: skip the TGS lever update
    kSolveFriction = 1 << 5,  ///< bounds are ±frictionCoef × accumulated impulse of row `normalRow`
    kSolveInactive = 1 << 6,  ///< vanishing unit response: skipped
};

/// One row, prepared for the solver: only what a sweep touches (hot data, kept compact).
struct SolverRow {
    int b0 = 0, b1 = 0;  ///< solver body indices
    int normalRow = -1;  ///< kSolveFriction: the contact's normal row
    uint16_t flags = 0;
    Vec3 lin0{0.0}, angM0{0.0}, lin1{0.0}, angM1{0.0};  ///< J⁽ᵐ⁾ (angular parts premultiplied by I^-½)
    Real linScale0 = 0.0, angScale0 = 0.0;  ///< invMass·invMassScale, invInertiaScale (0 if not dynamic)
    Real linScale1 = 0.0, angScale1 = 0.0;
    Real response = 0.0;       ///< r = J M⁻¹ Jᵀ with the mass scales (F 21)
    Real recipResponse = 0.0;  ///< 1/r
    // PGS (F 63–65, D 20–22): newAccum = constant + vMul·(J⁽ᵐ⁾Δv⁽ᵐ⁾) + impulseMul·accum
    Real constant = 0.0;          ///< position iterations
    Real unbiasedConstant = 0.0;  ///< velocity iterations
    Real vMul = 0.0;
    Real impulseMul = 1.0;
    Real minImpulse = -kInf, maxImpulse = kInf;
    Real accum = 0.0;         ///< accumulated impulse
    Real frictionCoef = 0.0;  ///< kSolveFriction
};

/// The rest of a prepared row: TGS's on-the-fly error update and what telemetry reports.
struct SolverRowExtra {
    Real error0 = 0.0;                    ///< C at the start of the step
    Real velTarget = 0.0;                 ///< v_T (after restitution)
    Real erp = 0.0;                       ///< α (hard rows)
    Real stiffness = 0.0, damping = 0.0;  ///< spring rows
    Vec3 ang0Base{0.0}, ang1Base{0.0};    ///< κ − r × μ: the part of the angular Jacobian with no lever
    Vec3 r0Local{0.0}, r1Local{0.0};      ///< lever arms in the body frames at the start of the step
    Vec3 r0{0.0}, r1{0.0};                ///< lever arms in world at the start of the step
};

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
    std::vector<double>
        jointCouplings;         ///< this step's couplings, joint after joint (PipeJoint::firstCoupling)
    std::vector<double> accum;  ///< per row of the joints, its accumulated impulse; then zeros (padding
                                ///< lanes), scratch (masked lanes)
    std::vector<int32_t> last;  ///< scratch: per solver body, the last quad placed on it
    std::vector<double> visitResidual;                    ///< per sweep and joint, the visit's residual terms
    std::array<std::vector<int32_t>, kLanes> laneJoints;  ///< per batch lane, its joints in batch order
};

/// Everything one solve needs; owned by the World and reused every step (no allocation once
/// capacities are reached).
struct Data {
    std::vector<Body> bodies;
    std::vector<BodyDelta> deltas;  ///< TGS, parallel to bodies
    std::vector<BodyInfo> info;
    /// PGS: the rows in the batched layout (solver/fast/batch.h), in solve order.
    std::vector<Batch> batches;
    std::vector<RowLanes> slots;       ///< the batches' row slots (the vector only grows)
    std::vector<HardLanes> hardSlots;  ///< hard batches' row slots (AVX2 only; the vector only grows)
    std::vector<LockLanes> lockSlots;  ///< lock batches' row slots (AVX2 only; the vector only grows)
    std::vector<CouplingLanes>
        couplings;  ///< PGS: the batches' row couplings (Batch::firstCoupling; only grows)
    /// TGS: the same batches (data.batches) with their own row slots and lever arms, packed from
    /// `rows` (packTgsBatch).
    std::vector<TgsLanes> tgsSlots;
    std::vector<TgsArms> tgsArms;    ///< per batch
    std::vector<int> integrateLeft;  ///< TGS: bodies the AVX2 integration left to the plain code
    /// TGS: the rows in solve order (the same order as PGS's batches, lane after lane), as set up.
    std::vector<SolverRow> rows;        ///< [0, rowCount) in use (the vector only grows)
    std::vector<SolverRowExtra> extra;  ///< parallel to rows
    size_t rowCount = 0;
    /// Convergence of the last solve, one entry per sweep (position iterations, then velocity
    /// iterations): sqrt(Σ (Δλ_i·r_i)²), the velocity change the rows still asked for [m/s].
    /// It falls to zero as the iterations converge.
    std::vector<Real> residuals;
    /// The parallel solve (docs/solvers.md "Threads"): batches [partStart[t], partStart[t + 1]) of
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
    /// The parallel solve's stand-ins for the static body 0, one per part, are the last
    /// `standIns` bodies: static like it (zero velocity, never integrated).
    int standIns = 0;
    int movingEnd() const { return static_cast<int>(bodies.size()) - standIns; }
    /// PGS, one part, joints only: the position sweeps pipelined (solvePGS).
    Pipeline pipeline;
};

/// The constraints (joints or contacts) of one batch, −1 for a padding lane.
using LaneIds = std::array<int, kLanes>;

struct ColourScratch {
    std::vector<uint64_t> mask;
    std::vector<int> colour, order, last, start, fill, stamp;
};

/// Colours kept in scene order before the colouring falls back to the smallest free colour.
inline constexpr int kOrderedColours = 8;

/// Constraints coloured together: the solve goes window by window (in index order), colour by
/// colour within a window, so the per-step passes over joints stay local in memory.
inline constexpr int kColourWindow = 256;

/// Greedy colouring (solver/colour.cpp): constraint c touches keys key0[c] and key1[c] (its
/// dynamic solver bodies; < 0 for a body that is never shared). Constraints with skip[c] != 0
/// are left out. Fills `batches` colour by colour with up to kLanes constraints that share no key,
/// in ascending index within a colour; `sequential` puts every constraint in its own batch in
/// index order instead. Returns the number of colours (batches when sequential). `windows`, if
/// given, receives the first batch of each window (solve order: window by window, each window's
/// constraints a contiguous index range), then the batch count. `orderedColours`: how many colours
/// keep the scene order (0: plain smallest-free-colour greedy colouring, as PhysX and Box2D v3).
int colourBatches(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                  SolverOrder mode, std::vector<LaneIds>& batches, ColourScratch& scratch,
                  std::vector<int>* windows = nullptr, int orderedColours = kOrderedColours);

/// Splits constraints into `parts` groups solved side by side for the parallel solve
/// (docs/solvers.md "Threads"; solver/colour.cpp). The constraints not skipped are cut, in index
/// order, into `parts` runs of equal size (±1). A dynamic body (key) belongs to the first run
/// that touches it; a constraint on a key that belongs to an earlier run goes to the shared group
/// `parts`, solved before the others, so each key is touched by at most one part. group[c]
/// receives its group, 0..parts, or parts + 1 for a skipped constraint. Depends only on the keys,
/// the skips and `parts`. Afterwards scratch.last[k] holds key k's run (the only part that may
/// touch it), or kNoRun if no constraint does.
void partitionConstraints(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                          int parts, std::vector<uint8_t>& group, ColourScratch& scratch);
inline constexpr int kNoRun = -1;

static_assert(kMaxBatchSlots >= kMaxRowsPerJoint, "a batch holds the rows of any joint");

struct Params {
    Real dt = 1.0 / 60.0;
    int posIters = 4;
    int velIters = 1;
    Real erp = 1.0;               ///< Baumgarte α
    Real maxLinearSpeed = kInf;   ///< bodies never move faster than this, in integration too [m/s]
    Real maxAngularSpeed = kInf;  ///< [rad/s]
    bool simd = false;  ///< AVX2 kernels; decided once per step (set-up and solve must agree on the layout)
};

/// v scaled down to length maxLen if it is longer (NaN stays NaN; the world catches it).
/// maxLen/|v| for a finite v whose |v|² overflows (|v| > ~1e154): scaled down by its largest
/// component first. Without it the cap's factor maxLen/√∞ = 0 would stop the body dead instead of
/// capping it (and turn an infinite component into NaN). An infinite or NaN v is left alone (1).
inline Real overflowingSpeedFactor(const Vec3& v, Real maxLen) {
    const Real m = std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z)));
    if (!std::isfinite(m) || !(m > 0.0)) return 1.0;
    return (maxLen / m) / std::sqrt(glm::dot(v / m, v / m));
}

inline Vec3 clampSpeed(const Vec3& v, Real maxLen) {
    const Real l2 = glm::dot(v, v);
    if (!(l2 > maxLen * maxLen)) return v;
    return v * (std::isinf(l2) ? overflowingSpeedFactor(v, maxLen) : maxLen / std::sqrt(l2));
}

// kMinResponse (PhysX's minResponseThreshold): solver/fast/batch.h, shared with the AVX2 kernels.

// kMaxRowVelocityChange (the impulse bound of every row): solver/fast/batch.h, shared with the AVX2 kernel.

/// Prepares one row (F 21, 63–65; D 13–22 for springs). `rowOut` receives the solver row.
/// sub = dt for PGS, dt/posIters for TGS (the step the bias is measured against).
/// r0, r1 are the world lever arms (body centre to the row's anchor) the row's linear part acts
/// through; TGS uses them to refresh κ as the bodies turn (F 66).
struct RowBodies {
    int b0 = 0, b1 = 0;
    Real invMassScale0 = 1.0, invInertiaScale0 = 1.0, invMassScale1 = 1.0, invInertiaScale1 = 1.0;
    Vec3 r0{0.0}, r1{0.0};
};
/// What telemetry and force reporting keep of a prepared row (its impulse stays where the solver
/// left it: World::Impl::impulse).
struct RowReport {
    Real response = 0.0;
    Real minImpulse = 0.0, maxImpulse = 0.0;
    Real erp = 0.0, velTarget = 0.0;
    uint16_t flags = 0;
};
void setupRow(const Row& row, const RowBodies& rb, const Data& data, const Params& p, bool tgs,
              SolverRow& out, SolverRowExtra& extra, RowReport& report);

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

/// invMass·invMassScale and invInertiaScale of one side of a constraint (0 if not dynamic).
inline void bodyScales(const BodyInfo& i, Real invMassScale, Real invInertiaScale, Real& lin, Real& ang) {
    lin = i.dynamic ? i.invMass * invMassScale : 0.0;
    ang = i.dynamic ? invInertiaScale : 0.0;
}

/// PGS: batch bi's row couplings (solver/fast/batch.h CouplingLanes) into data.couplings at its
/// firstCoupling, from its row slots as the set-up left them (AVX2 or plain: the same bits).
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

/// Row velocity J·v with momocity (F 62), for full or delta velocities.
inline Real rowVelocity(const SolverRow& r, const Body& a, const Body& b) {
    return glm::dot(r.lin0, a.linVel) + glm::dot(r.angM0, a.angVel) - glm::dot(r.lin1, b.linVel) -
           glm::dot(r.angM1, b.angVel);
}

/// Applies impulse delta dl to both bodies (F 24, 60–61).
inline void applyImpulse(const SolverRow& r, Real dl, Body& a, Body& b) {
    a.linVel += (dl * r.linScale0) * r.lin0;
    a.angVel += (dl * r.angScale0) * r.angM0;
    b.linVel -= (dl * r.linScale1) * r.lin1;
    b.angVel -= (dl * r.angScale1) * r.angM1;
}

/// Clamps the new accumulated impulse, updates the row and returns the applied delta.
inline Real clampAccumulate(SolverRow& r, Real newAccum, const std::vector<SolverRow>& rows) {
    Real lo = r.minImpulse, hi = r.maxImpulse;
    if (r.flags & kSolveFriction) {
        hi = r.frictionCoef * rows[static_cast<size_t>(r.normalRow)].accum;
        lo = -hi;
    }
    newAccum = newAccum < lo ? lo : (newAccum > hi ? hi : newAccum);
    const Real dl = newAccum - r.accum;
    r.accum = newAccum;
    return dl;
}

}  // namespace jl::solver
