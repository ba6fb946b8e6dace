// JointLab engine — the batched row layout PGS sweeps (structure of arrays, 4 lanes).
//
// Joints are greedily coloured so that no two joints of one colour share a dynamic body
// (solver/colour.cpp); a colour is cut into batches of kLanes joints. Row slot s of a batch holds
// row s of each of its 4 joints side by side, one double per lane, so a sweep solves 4 rows of 4
// independent joints at once: with AVX2 (solver/fast/pgs_avx2.cpp) as one __m256d per quantity, or
// lane after lane in plain C++ (solver/fast/pgs.cpp). Both do the same operations in the same order
// per lane — explicit multiplies and adds, no fused multiply-add (-ffp-contract=off) — so they
// give bit-identical results and the solve does not depend on which one ran.
//
// Lanes of a batch whose joint has fewer rows than the batch's slot count, and the lanes after
// the last joint of a colour, are padding: zero Jacobian, zero response, both bodies the static
// body 0. A row with zero response is inactive: its impulse change is masked to zero.
//
// This header is plain data without glm (and so is joints/parts/lock_parts.h, which it includes
// for the lock batches), so that the AVX2 translation units, compiled with -mavx2, instantiate no
// inline function shared with the rest of the engine (which must run on any x86-64).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "joints/parts/lock_parts.h"
#include "solver/limits.h"

namespace jl::solver {

inline constexpr int kLanes = 4;

/// Row slot s of a batch: for each lane, one prepared row (F 63–65 for hard rows, D 20–22 for
/// springs): newAccum = constant + vMul·(J⁽ᵐ⁾v⁽ᵐ⁾) + impulseMul·accum, clamped to
/// [minImpulse, maxImpulse].
struct alignas(32) RowLanes {
    double lin0[3][kLanes];           ///< μ0 (x, y, z; one value per lane)
    double ang0[3][kLanes];           ///< I0^-½ κ0 (F 55)
    double lin1[3][kLanes];           ///< linear1 = −μ1
    double ang1[3][kLanes];           ///< I1^-½ angular1 (F 56)
    double constant[kLanes];          ///< position iterations
    double unbiasedConstant[kLanes];  ///< velocity iterations
    double vMul[kLanes];
    double impulseMul[kLanes];
    double minImpulse[kLanes];
    double maxImpulse[kLanes];
    double accum[kLanes];     ///< accumulated impulse
    double response[kLanes];  ///< r = J M⁻¹ Jᵀ (F 21); 0 = inactive or padding
};
static_assert(sizeof(RowLanes) == 20 * 4 * sizeof(double), "RowLanes is 20 vectors of 4 doubles");

/// Row slot s of a *lock batch*: the same rows as RowLanes when every lane is an equality lock
/// (a plain hard row with both impulse bounds infinite and linear1 = linear0), in 14 vectors
/// instead of 20. What it leaves out is implied: linear1 = lin, impulseMul = 1 on active lanes,
/// bounds ±kMaxRowVelocityChange/r with 1/r = −vMul. The AVX2 kernel rebuilds them with the same
/// operations as the set-up, so a lock batch gives the same bits as the full layout; sweeps read
/// 30% fewer bytes. Only the AVX2 set-up writes lock batches (never for contacts or single-lane
/// batches, which the plain kernel solves).
struct alignas(32) LockLanes {
    double lin[3][kLanes];   ///< μ0 = linear1
    double ang0[3][kLanes];  ///< I0^-½ κ0 (F 55)
    double ang1[3][kLanes];  ///< I1^-½ angular1 (F 56)
    double constant[kLanes];
    double unbiasedConstant[kLanes];
    double vMul[kLanes];  ///< −1/r (F 63); 0 on inactive lanes
    double accum[kLanes];
    double response[kLanes];  ///< 0 = inactive or padding
};
static_assert(sizeof(LockLanes) == 14 * 4 * sizeof(double), "LockLanes is 14 vectors of 4 doubles");

/// Row slot s of a *hard batch*: LockLanes plus the impulse bounds, for plain hard rows with
/// linear1 = linear0 whose bounds are not both infinite (limits, one-sided rows): 16 vectors
/// instead of 20 (linear1 = lin and impulseMul = 1 on active lanes are implied).
struct alignas(32) HardLanes {
    double lin[3][kLanes];
    double ang0[3][kLanes];
    double ang1[3][kLanes];
    double constant[kLanes];
    double unbiasedConstant[kLanes];
    double vMul[kLanes];
    double minImpulse[kLanes], maxImpulse[kLanes];  ///< as RowLanes stores them
    double accum[kLanes];
    double response[kLanes];
};
static_assert(sizeof(HardLanes) == 16 * 4 * sizeof(double), "HardLanes is 16 vectors of 4 doubles");

/// A PGS row slot in any of its layouts (RowLanes, HardLanes, LockLanes).
template <class Lanes>
concept SlotLanes =
    std::is_same_v<Lanes, RowLanes> || std::is_same_v<Lanes, HardLanes> || std::is_same_v<Lanes, LockLanes>;

/// The linear parts of a row slot: RowLanes keeps both sides' (lin0, lin1), the compact layouts one
/// for both (lin: their rows have linear1 = linear0). What differs between the layouts for the sweep
/// (pgs_avx2.cpp, one kernel for all three) and for the couplings and blocks (pgs.cpp's plain kernel
/// and couplings_avx2.cpp).
template <int Side, SlotLanes Lanes>
inline const double (&linearPart(const Lanes& r))[3][kLanes] {
    if constexpr (!std::is_same_v<Lanes, RowLanes>)
        return r.lin;
    else if constexpr (Side == 0)
        return r.lin0;
    else
        return r.lin1;
}
template <SlotLanes Lanes>
inline const double (&linear0(const Lanes& r))[3][kLanes] {
    return linearPart<0>(r);
}
template <SlotLanes Lanes>
inline const double (&linear1(const Lanes& r))[3][kLanes] {
    return linearPart<1>(r);
}

/// How a PGS batch's row slots are stored (Batch::layout). Only the AVX2 set-up writes the compact
/// ones, and never for contact or single-lane batches (the plain kernel solves those).
enum SlotLayout : int32_t {
    kLayoutFull = 0,  ///< RowLanes (data.slots)
    kLayoutHard = 1,  ///< HardLanes (data.hardSlots)
    kLayoutLock = 2,  ///< LockLanes (data.lockSlots)
};

/// Calls f with the row slots of a batch's layout (Batch::layout): `lock` for kLayoutLock, `hard`
/// for kLayoutHard, else `full`; returns what f returns. f is generic over the slot type (the
/// kernels' templates over RowLanes, HardLanes and LockLanes), so each layout runs its own
/// instantiation and this switch is the only place that picks one.
template <class Full, class Hard, class Lock, class F>
inline decltype(auto) withSlotLayout(int layout, Full* full, Hard* hard, Lock* lock, F&& f) {
    switch (layout) {
        case kLayoutLock:
            return f(lock);
        case kLayoutHard:
            return f(hard);
        default:
            return f(full);
    }
}

/// Where the AVX2 set-up writes one row slot: exactly one of the three is set.
struct SlotOut {
    RowLanes* full = nullptr;
    HardLanes* hard = nullptr;
    LockLanes* lock = nullptr;
};

/// A batch: up to kLanes constraints (joints or ground contacts) that share no dynamic body.
/// What a joint batch's sweep reads comes first, in three cache lines (the batches are read once
/// per sweep, like the slots); the constraint ids and friction coefficients come after.
struct alignas(32) Batch {
    double linScale0[kLanes];  ///< invMass·invMassScale of body 0 (0 if not dynamic)
    double angScale0[kLanes];  ///< invInertiaScale of body 0 (0 if not dynamic)
    double linScale1[kLanes];
    double angScale1[kLanes];
    int32_t body0[kLanes];  ///< solver body indices (0: the static body, also for padding lanes)
    int32_t body1[kLanes];
    int32_t firstSlot = 0;  ///< index of the batch's first slot in the array of its `layout`
    int32_t slotCount = 0;
    int32_t contact = 0;           ///< 1: ground contact batch (slot 0 normal, slots 1, 2 friction)
    int32_t laneCount = kLanes;    ///< lanes in use; the rest (at the end) are padding
    int32_t layout = kLayoutFull;  ///< PGS: how its slots are stored (SlotLayout)
    int32_t firstCoupling =
        0;  ///< PGS: its rows' couplings, Data::couplings[firstCoupling, + couplingCount(slotCount))
    /// Per lane, its joint's block of rows solved jointly (Row::blockSize, solver/block.h): its
    /// first slot and its size (2 or 3; 0: no block, or one solved row by row). At most one per lane.
    int8_t blockStart[kLanes] = {0, 0, 0, 0};
    int8_t blockSize[kLanes] = {0, 0, 0, 0};
    /// Read only when a lane has a block (hasBlocks): bit s set when a lane's block starts at slot s,
    int32_t blockSlots = 0;
    /// and PGS: the lanes' gains, Data::blocks[firstBlock] (BlockLanes).
    int32_t firstBlock = 0;
    /// TGS: a row follows its anchors (kTgsSeparation): the plain kernel sweeps the batch.
    int32_t separation = 0;
    /// TGS: a row is a soft joint row (kTgsSoftJoint): the plain kernel sweeps the batch.
    int32_t softJoints = 0;  ///< (and frictionCoef stays 32-byte aligned, as the lanes above)
    int32_t
        constraint[kLanes];  ///< the constraint (joint, or contact after the joints) per lane, −1 = padding
    double frictionCoef[kLanes];  ///< contact batches: friction rows are bounded by ±coef·accum(slot 0)
};
static_assert(offsetof(Batch, blockSize) + sizeof(Batch::blockSize) <= 3 * 64,
              "a joint batch's sweep reads three cache lines (a fourth if it has blocks)");
/// True when some lane of the batch solves a block (Batch::blockSize).
inline bool hasBlocks(const Batch& bt) {
    return (bt.blockSize[0] | bt.blockSize[1] | bt.blockSize[2] | bt.blockSize[3]) != 0;
}
/// Sets bt.blockSlots from its lanes' blocks.
inline void markBlockSlots(Batch& bt) {
    bt.blockSlots = 0;
    for (int l = 0; l < kLanes; ++l)
        if (bt.blockSize[l] > 0) bt.blockSlots |= 1 << bt.blockStart[l];
}

/// PGS: a batch's blocks (solver/block.h), at most one per lane: the gain G = K⁻¹·diag(K) of
/// lane l's block, G_ik at gain[3i + k][l] (the block's rows i, k from Batch::blockStart), with
/// which a sweep turns the rows' 1D impulse changes d into the block's, Δλ = G·d. Zeros in lanes
/// without one. The couplings (CouplingLanes) between two rows of a block are 0: its rows'
/// impulses come from the block, not one from another.
struct alignas(32) BlockLanes {
    double gain[9][kLanes];
};
static_assert(offsetof(Batch, frictionCoef) % 32 == 0 && sizeof(Batch) == 256,
              "lanes of doubles are 32-byte aligned");

/// The coupling of two rows of one batch lane, per lane: vMul_s·K(s, t), with K(s, t) = J_s M⁻¹ J_tᵀ
/// and the lane's mass scales (F 21's r for s ≠ t), the change of row s's velocity per unit
/// impulse of row t; times row s's vMul (F 63), it is the change of row s's unclamped impulse.
/// The kernels solve a batch's rows one after another as Gauss-Seidel does, but find row s's
/// unclamped impulse from J_s·v (v: the velocities the batch started from) plus
/// Σ_{t<s} vMul_s·K(s, t)·Δλ_t instead of from J_s·v after each earlier row's update: the same
/// number in exact arithmetic, and the chain of dependent operations from one row's impulse to the
/// next is a multiply and an add, then the clamp (not a velocity update, four dot products and
/// the impulse formula). The velocities are updated row by row as before.
struct alignas(32) CouplingLanes {
    double k[kLanes];
};
/// Row slots a batch may have (kMaxRowsPerJoint; a contact has 3).
inline constexpr int kMaxBatchSlots = 16;
/// Couplings a batch of `slots` row slots has: one per pair t < s.
inline constexpr int couplingCount(int slots) {
    return slots * (slots - 1) / 2;
}
/// Index of K(s, t), t < s, within its batch's couplings.
inline constexpr int couplingIndex(int s, int t) {
    return s * (s - 1) / 2 + t;
}

/// Per-lane partial sums of (Δλ·r)² over a sweep (summed lane 0 + lane 1 + lane 2 + lane 3 at
/// the end, so the residual does not depend on the kernel either).
struct alignas(32) LaneSums {
    double v[kLanes] = {0.0, 0.0, 0.0, 0.0};
};

/// One sweep over batches [begin, end) with the plain C++ kernel (solver/fast/pgs.cpp), which never
/// sees a lock batch. `bodies` points at solver::Body records (8 doubles each). `biased`:
/// position iteration.
void sweepBatchesScalar(const Batch* batches, int begin, int end, RowLanes* slots,
                        const CouplingLanes* couplings, const BlockLanes* blocks, double* bodies, bool biased,
                        LaneSums& residual);

/// The same with AVX2 (solver/fast/pgs_avx2.cpp), hard and lock batches' slots in `hardSlots` and
/// `lockSlots`; contact batches and single joints fall back to the scalar kernel.
void sweepBatchesAvx2(const Batch* batches, int begin, int end, RowLanes* slots, HardLanes* hardSlots,
                      LockLanes* lockSlots, const CouplingLanes* couplings, const BlockLanes* blocks,
                      double* bodies, bool biased, LaneSums& residual);

/// Writes batch bt's couplings (CouplingLanes) to out[bt.firstCoupling, + couplingCount(bt.slotCount))
/// from its row slots in `slots`, `hardSlots` or `lockSlots` (its layout). Per lane:
/// vMul_s·(((ls0·(μ0_s·μ0_t) + as0·(κ0_s·κ0_t)) + ls1·(μ1_s·μ1_t)) + as1·(κ1_s·κ1_t)), each dot
/// in glm's order.
void computeCouplings(const Batch& bt, const RowLanes* slots, const HardLanes* hardSlots,
                      const LockLanes* lockSlots, CouplingLanes* out);
/// The same for batches [0, count) with AVX2 (the same bits).
void computeCouplingsAvx2(const Batch* batches, int count, const RowLanes* slots, const HardLanes* hardSlots,
                          const LockLanes* lockSlots, CouplingLanes* out);

/// The gains of batch bt's blocks (BlockLanes, at blocks[bt.firstBlock]) from its row slots and
/// mass scales (solver/block.h: K, K⁻¹, G = K⁻¹·diag(K)), after its couplings: the couplings
/// between rows of one block are set to 0. A lane whose K is singular (or has an inactive row,
/// whose slot holds a zero Jacobian) gets blockSize 0 and its rows are solved one by one; then
/// bt.blockSlots is set.
void computeBlocks(Batch& bt, const RowLanes* slots, const HardLanes* hardSlots, const LockLanes* lockSlots,
                   CouplingLanes* couplings, BlockLanes* blocks);
/// The same with AVX2 (the same bits).
void computeBlocksAvx2(Batch& bt, const RowLanes* slots, const HardLanes* hardSlots,
                       const LockLanes* lockSlots, CouplingLanes* couplings, BlockLanes* blocks);

/// True when the AVX2 kernel is compiled in and the CPU runs it (checked once).
bool avx2Available();

/// One row slot of joint rows, all 4 lanes plain hard rows (no spring, restitution, drive limit
/// or override of the bias other than erp), as the AVX2 set-up reads them: pointers into the
/// joints' rows and the bodies' per-step constants, per lane.
struct HardRowsIn {
    const double* row[kLanes];    ///< jl::Row: linear0, angular0, linear1, angular1, C, v_T, minImpulse,
                                  ///< maxImpulse (16 doubles)
    const double* invI0[kLanes];  ///< BodyInfo::sqrtInvInertia of body 0 (9 doubles, column after column)
    const double* invI1[kLanes];
    const double*
        pre0[kLanes];  ///< BodyInfo::vPre then wPre of body 0 (6 doubles, 2 more readable after them)
    const double* pre1[kLanes];
    alignas(32) double erp[kLanes];       ///< α per lane (0 for a velocity-only row)
    alignas(32) double keepBias[kLanes];  ///< 1: the row keeps its bias in velocity iterations
};

/// The set-up of such a slot (solver/row_setup.cpp computeSetup and storeLane: the same operations in
/// the same order per lane, so bit-identical results) with AVX2, 4 rows at once, for PGS (h = dt).
/// Writes the 4 lanes of the slot `out` points at (a compact one only for rows that fit it;
/// accumulated impulse 0) and each lane's unit response (before the inactive test) to
/// `response`. Returns the lanes that are active as bits 0–3, or −1 when the AVX2 kernel is not
/// compiled in (nothing written: set the rows up one by one).
int setupHardRowsAvx2(const Batch& bt, const HardRowsIn& in, double h, const SlotOut& out, double* response);

/// Joints whose rows are all lock parts (joints/lock_only.h: lockOnlyParts) are prepared and set up
/// by the AVX2 set-up itself (prepLockBatchAvx2), four at a time, when every lane of a batch has the
/// same parts: a batch's LockPrepKind is those parts::LockPart bits (kLockPrepNone: not such a batch).
inline constexpr int kLockPrepNone = 0;
/// The rows (row slots) of each LockPrepKind.
inline constexpr auto kLockPrepRows = [] {
    std::array<int, parts::kLockPartMask + 1> n{};
    for (unsigned k = 0; k <= parts::kLockPartMask; ++k) n[k] = parts::lockRowCount(k);
    return n;
}();
inline constexpr int kMaxLockPrepRows = 6;

/// A joint batch of one such kind, prepared and set up at once: per lane, pointers to the two
/// body poses and joint frames (jl::Transform: p then q as x, y, z, w, 7 doubles; the identity for
/// the world or a padding lane) and to the bodies' set-up constants (as HardRowsIn).
struct LockPrepIn {
    uint32_t parts = 0;  ///< the joints' lock parts (parts::LockPart bits), the same for every lane
    const double* pose0[kLanes];
    const double* pose1[kLanes];
    const double* frame0[kLanes];
    const double* frame1[kLanes];
    const double* invI0[kLanes];
    const double* invI1[kLanes];
    const double* pre0[kLanes];
    const double* pre1[kLanes];
};

/// Prep and PGS set-up of such a batch, fused, with AVX2 (solver/fast/setup_avx2.cpp): the lanes'
/// frames (parts::frames, as PrepContext::make) and rows (parts::lockRows, as rows::locks in the
/// joints' prep), built by the joints' own lock parts on 4 lanes at once, set up as
/// setupHardSlot sets up a Row into the batch's lock slots at `out` (kLockPrepRows[parts] of
/// them), without writing the rows (World::Impl::ensureLockRows runs the joints' prep for those).
/// Per lane the same operations in the same order as that scalar path: bit-identical slots.
/// `erp` is the world's α (these rows have no override). Returns the rows that are active, or
/// −1, having written nothing, when the AVX2 kernel is not compiled in.
int prepLockBatchAvx2(const Batch& bt, const LockPrepIn& in, double erp, double h, LockLanes* out);

// [SECTION] TGS

/// What a TGS row lane is (bits of TgsLanes::kind).
enum TgsKind : int64_t {
    kTgsActive = 1,         ///< unit response above the threshold at set-up (otherwise never solved)
    kTgsAngular = 2,        ///< no lever arm: constant Jacobian and response
    kTgsSpring = 4,         ///< soft row (D 44); frozen in velocity iterations
    kTgsAccelSpring = 8,    ///< acceleration spring (D 35–37)
    kTgsKeepBias = 16,      ///< hard row keeps its bias in velocity iterations
    kTgsSeparation = 32,    ///< the axis follows the anchors (kSolveSeparation); plain kernel only
    kTgsSubstep = 64,       ///< contact: substep impulses (kSolveSubstep); plain kernel only
    kTgsSoftContact = 128,  ///< contact normal: soft (kSolveSoftContact); plain kernel only
    kTgsSoftJoint = 256,    ///< joint row: Box2D v3's soft row (kSolveSoftJoint); plain kernel only
};

/// TGS row slot s of a batch (the same batches as PGS): what a visit needs to bring the row up
/// to date from the bodies' motion (F 66, solver/fast/tgs.cpp) and solve it, one double per lane.
struct alignas(32) TgsLanes {
    double lin0[3][kLanes];      ///< μ0 (constant over the step)
    double lin1[3][kLanes];      ///< linear1 = −μ1
    double ang0Base[3][kLanes];  ///< κ0 − r0 × μ0: the part of κ0 without lever arm
    double ang1Base[3][kLanes];
    double baseM0[3]
                 [kLanes];  ///< I0^-½·ang0Base (the error's angular term); angular rows: their J⁽ᵐ⁾ I0^-½·κ0
    double baseM1[3][kLanes];
    double linResponse0[kLanes];  ///< linScale0·|μ0|² and linScale1·|linear1|²: the response's constant
    double linResponse1[kLanes];  ///< terms (the linear Jacobian does not change over the step)
    double error0[kLanes];        ///< C at the start of the step
    double velTarget[kLanes];
    double erp[kLanes];
    double stiffness[kLanes], damping[kLanes];
    double minImpulse[kLanes], maxImpulse[kLanes];  ///< solver bounds (within ±kMaxRowVelocityChange/r)
    double accum[kLanes];
    int64_t kind[kLanes];    ///< TgsKind bits; 0 for padding and inactive rows
    double length0[kLanes];  ///< kTgsSeparation: the anchors' distance signed by the axis (SolverRowExtra)
    double stepImpulse[kLanes];  ///< kTgsSubstep: the substeps' impulses so far (SolverRow::stepImpulse)
};
static_assert(sizeof(TgsLanes) == 31 * 4 * sizeof(double), "TgsLanes is 31 vectors of 4 doubles or int64");

/// Per batch, for TGS: each lane's lever arms, the same for all of its rows (a joint's anchors,
/// or a contact point), in the bodies' frames and in world at the start of the step.
struct alignas(32) TgsArms {
    double r0Local[3][kLanes], r1Local[3][kLanes];
    double r0[3][kLanes], r1[3][kLanes];
    /// The lanes' bodies' I^-½ (frozen over the step), element 3c + r = M[c][r]: the AVX2 kernel
    /// reads them here instead of gathering and transposing them from BodyInfo on every visit.
    double invI0[9][kLanes], invI1[9][kLanes];
};

/// Writes lane l of `arm`: the lane's lever arms in the bodies' frames (r0L, r1L) and in world
/// (r0, r1), and its bodies' I^-½ (i0, i1) as element 3c + r = M[c][r]. Both TGS set-ups call it
/// (solver/row_setup.cpp for joints, solver/fast/tgs.cpp for contacts).
template <class V, class M>
inline void writeTgsArm(TgsArms& arm, int l, const V& r0L, const V& r1L, const V& r0, const V& r1,
                        const M& i0, const M& i1) {
    for (int k = 0; k < 3; ++k) {
        arm.r0Local[k][l] = r0L[k];
        arm.r1Local[k][l] = r1L[k];
        arm.r0[k][l] = r0[k];
        arm.r1[k][l] = r1[k];
    }
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            arm.invI0[3 * c + r][l] = i0[c][r];
            arm.invI1[3 * c + r][l] = i1[c][r];
        }
}

/// One TGS joint row slot, every lane a plain hard row as HardRowsIn's (or padding), as the AVX2
/// set-up reads it: pointers into the joints' rows and the bodies' I^-½, and per lane what
/// computeSetup derives from the row's flags.
struct TgsRowsIn {
    const double* row[kLanes];    ///< jl::Row (16 doubles: J, C, v_T, bounds); a row of zeros for padding
    const double* invI0[kLanes];  ///< BodyInfo::sqrtInvInertia of body 0 (9 doubles, column after column)
    const double* invI1[kLanes];
    alignas(32) double r0[3][kLanes];  ///< the lane's lever arms in world (0 for padding)
    alignas(32) double r1[3][kLanes];
    alignas(32) double erp[kLanes];       ///< α per lane (0 for a velocity-only row)
    alignas(32) double keepBias[kLanes];  ///< 1: the row keeps its bias in velocity iterations
    alignas(32) double angular[kLanes];   ///< 1: an angular row (kRowAngular)
    alignas(32) double real[kLanes];      ///< 1: a row, 0: padding (all zeros stored)
};

/// The TGS set-up of such a slot (solver/row_setup.cpp setupTgsJointBatch: computeSetup, then the
/// slot lane, the same operations in the same order per lane, so bit-identical results) with AVX2,
/// 4 rows at once. Writes `out`'s 4 lanes except what a kTgsSeparation row adds (kind bit,
/// length0: the caller's) and each lane's unit response to `response`. Returns the active lanes
/// as bits 0–3, or −1 when the AVX2 kernel is not compiled in (nothing written).
int setupTgsRowsAvx2(const Batch& bt, const TgsRowsIn& in, TgsLanes& out, double* response);

/// One TGS sweep's inputs. Bodies are read through raw records so that this header stays free
/// of glm: `vel` and `delta` hold 8 doubles per solver body ({x, y, z, pad} linear then angular:
/// solver::Body and solver::BodyDelta), `info` points at BodyInfo records `infoStride` doubles
/// apart, with the orientation (x, y, z, w) at `quatAt` and the column-major I^-½ at `invIAt`.
struct TgsSweep {
    double* vel;
    const double* delta;
    const double* info;
    int infoStride, quatAt, invIAt;
    double h, dt;       ///< substep and step [s]
    int substep;        ///< 1..posIters in position iterations (D 41)
    bool velocityPass;  ///< velocity iteration: no bias (keep-bias rows excepted), springs frozen
};

/// One TGS sweep over batches [begin, end) with the plain C++ kernel (solver/fast/tgs.cpp).
void sweepTgsBatchesScalar(const Batch* batches, const TgsArms* arms, int begin, int end, TgsLanes* slots,
                           const TgsSweep& s, LaneSums& residual);

/// The same with AVX2 (solver/fast/tgs_avx2.cpp); contact batches and single joints fall back to the
/// plain kernel.
void sweepTgsBatchesAvx2(const Batch* batches, const TgsArms* arms, int begin, int end, TgsLanes* slots,
                         const TgsSweep& s, LaneSums& residual);

/// One TGS substep's integration of the solver bodies (solver/fast/tgs.cpp integrateBody): records as
/// in TgsSweep, plus the position's place in BodyInfo.
struct TgsIntegrate {
    double* vel;
    double* delta;
    double* info;
    int infoStride, posAt, quatAt, invIAt;
    double h, maxLinearSpeed, maxAngularSpeed;
};

/// AVX2: integrates bodies [begin, end) four at a time with integrateBody's operations, in its
/// order. The bodies of a group of four in which a speed cap applies or a quaternion degenerates,
/// and the last end − begin mod 4, are left untouched for the plain code: their indices go to
/// `left` (room for end − begin). Returns how many were left.
int integrateTgsBodiesAvx2(const TgsIntegrate& in, int begin, int end, int* left);

}  // namespace jl::solver
