// JointLab engine — PGS's position iterations pipelined across sweeps (docs/performance.md §3).
//
// A small scene is latency-bound: a 10-link chain gives 8 batches per sweep (colours of 1 or 2
// joints), and each batch's rows are one chain of dependent row updates, so the core waits on
// each row's arithmetic in turn, about 40 cycles a row, with 3 of 4 lanes empty.
//
// Gauss-Seidel needs less order than one sweep after another. A joint visit depends only on the
// visits before it (in sweep order: sweep after sweep, batch after batch) that share a dynamic
// body with it. Any order that keeps, for every body, its visits in that order computes exactly
// the same numbers: visits without a common body read and write disjoint velocities and
// impulses. So joint 0 of sweep k + 1 can be solved beside joint 3 of sweep k once joint 1 of
// sweep k is done, and the sweeps overlap as a wave down the chain.
//
// The plan (Pipeline, built once per colouring and iteration count) packs the visits of all the
// position sweeps into *quads*: up to 4 visits that share no dynamic body, all with the same row
// count. Visits are placed in wave-front order (level by level), each in the first quad after the
// last one that touched its bodies. A quad is then solved as a batch (the same kernel, so each
// lane does the operations of the batch path in the same order): the 10-link chain takes 2.5
// quads per sweep instead of 8 batches, and the bodies and impulses are bit for bit those of the
// plain sweeps. So are the sweeps' residuals: each visit's terms are summed from zero (as a
// batch's are) and kept apart, then added sweep by sweep in batch order.
//
// A quad's rows must sit side by side, 4 lanes per quantity, as a batch's do; but a joint meets
// different partners from quad to quad. Placed level by level, the quads repeat a few joint sets:
// each full quad's set is a *composition* (the same joints in fixed lanes), and a quad whose
// joints all sit in a composition is solved as that one with the other lanes masked (the 10-link
// chain: 9 compositions for 54 quads at 20 sweeps). Each step copies the joints' rows, couplings
// and scales out of their batches once (PipeRow), and the kernel lays out each composition just
// before its first quad (as hard slots when every row is a hard row). Only the accumulated
// impulses travel: each joint's live in Pipeline::accum, where the quads read and write them, and
// go back to the batches' slots after the last position sweep.
//
// Plain data without glm, like solver/fast/batch.h, for the AVX2 translation unit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "solver/fast/batch.h"

namespace jl::solver {

/// One row of one joint: RowLanes's 20 quantities for a single lane, in RowLanes's order
/// (lin0 x y z, ang0 x y z, lin1, ang1, constant, unbiasedConstant, vMul, impulseMul, minImpulse,
/// maxImpulse, accum, response). Compact layouts are expanded (linear1 = linear0, impulseMul 1,
/// a lock row's bounds as its kernel computes them), which the full kernel solves to the same bits.
struct alignas(32) PipeRow {
    double q[20] = {};
};
inline constexpr int kPipeAccum = 18;     ///< PipeRow::q index of the accumulated impulse
inline constexpr int kPipeResponse = 19;  ///< … of the unit response
static_assert(offsetof(RowLanes, accum) == kPipeAccum * kLanes * sizeof(double), "PipeRow follows RowLanes");
static_assert(offsetof(RowLanes, response) == kPipeResponse * kLanes * sizeof(double),
              "PipeRow follows RowLanes");

/// Rows a pipelined joint may have.
inline constexpr int kPipeMaxSlots = kMaxBatchSlots;

/// A joint of the pipelined solve: one lane of a joint batch.
struct alignas(32) PipeJoint {
    double scale[4] = {};  ///< the batch's linScale0, angScale0, linScale1, angScale1 of its lane
    double gain[12] = {};  ///< its block's gain (BlockLanes: G_ik at 3i + k), zeros without one
    int8_t blockStart = 0, blockSize = 0;  ///< its block (Batch::blockStart, blockSize)
    int32_t body0 = 0, body1 = 0;
    int32_t firstRow = 0;  ///< its batch's slotCount rows: Pipeline::rows[firstRow, firstRow + slotCount)
    int32_t firstCoupling =
        0;  ///< its lane's couplings, in its batch's order: Pipeline::couplings[firstCoupling, …)
    int32_t batch = 0, lane = 0;
};

/// Up to kLanes joint visits solved as one batch: no two share a dynamic body. A quad is solved
/// as its composition: the visits sit in the lanes that hold their joints there; the composition's
/// other lanes are masked (`live`), so their joints' impulses and bodies do not change.
struct PipeQuad {
    int32_t joint[kLanes] = {-1, -1, -1, -1};  ///< PipeJoint index per lane, −1: none
    int32_t visit[kLanes] = {};  ///< live lanes: sweep × joints + joint, where its residual goes
    int32_t accum[kLanes] =
        {};  ///< per lane, where its impulses are in Pipeline::accum (padding: zeros; masked: scratch)
    int32_t slotCount = 0;
    int32_t laneCount = 0;  ///< visits
    int32_t live = 0;       ///< lanes holding a visit (bit l: lane l)
    int32_t masked = 0;     ///< 1: some of the composition's joints are not visited (live is not all of them)
    int32_t comp = 0;       ///< its composition (Pipeline::comps)
    int32_t fresh = 0;      ///< 1: the first quad of its composition
};

/// What a composition is laid out from: the joints' rows (PipeRow), their couplings (joint after
/// joint, each joint's padded to a multiple of 4), mass scales and blocks (PipeJoint); and zeros
/// for padding lanes (at least kPipeMaxSlots rows' and couplings' worth, 12 scales').
struct PipeSource {
    /// The compositions are hard batches (HardLanes, the AVX2 kernel only): every row has
    /// linear1 = linear0 and, if active, impulseMul 1, so the hard kernel gives the full one's bits
    /// with fewer loads and operations.
    bool hard = false;
    const PipeJoint* joints = nullptr;
    const PipeRow* rows = nullptr;
    const double* couplings = nullptr;
    const PipeRow* zeroRows = nullptr;
    const double* zeroCouplings = nullptr;
    const double* zeroScales = nullptr;
};

/// Lane `lane` of `count` full row slots as PipeRows, by 4×4 transposes (AVX2; the same bytes as
/// copying quantity by quantity).
void expandFullAvx2(const RowLanes* slots, int count, int lane, PipeRow* out);

/// Pads a joint's coupling count to whole vectors (the layout transposes them 4 at a time).
inline constexpr int paddedCouplings(int slots) {
    return (couplingCount(slots) + kLanes - 1) / kLanes * kLanes;
}

/// Lays out composition bt from `src` (scalar; the AVX2 kernel does the same with transposes):
/// its lanes' mass scales and blocks into bt, rows into compSlots, couplings into compCouplings,
/// blocks' gains into compBlocks[bt.firstBlock].
void layoutCompScalar(Batch& bt, const PipeSource& src, RowLanes* compSlots, CouplingLanes* compCouplings,
                      BlockLanes* compBlocks);

/// Solves quads [0, count) in order: each as its composition's batch comps[q.comp] (bodies,
/// scales, rows in compSlots, or compHardSlots if src.hard, laid out from `src` before its first
/// quad), the lanes' impulses read from and written to accum[q.accum[l] + s]. The residual terms
/// of the visit in lane l (summed from zero over its rows, as a batch's are) go to
/// visitResidual[q.visit[l]]. The plain C++ kernel (solver/fast/pgs.cpp; never hard) and AVX2
/// (solver/fast/pgs_avx2.cpp) give the same bits.
void sweepQuadsScalar(const PipeQuad* quads, int count, Batch* comps, RowLanes* compSlots,
                      CouplingLanes* compCouplings, BlockLanes* compBlocks, const PipeSource& src,
                      double* accum, double* bodies, bool biased, double* visitResidual);
void sweepQuadsAvx2(const PipeQuad* quads, int count, Batch* comps, RowLanes* compSlots,
                    HardLanes* compHardSlots, CouplingLanes* compCouplings, BlockLanes* compBlocks,
                    const PipeSource& src, double* accum, double* bodies, bool biased, double* visitResidual);

}  // namespace jl::solver
