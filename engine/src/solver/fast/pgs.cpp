// Projected Gauss-Seidel, as physx-1d-constraint-formulation.md "PGS Implementation".
//
// [SECTION] stages
//   1. position iterations: Δv accumulates from zero (F 23–25); newAccum = constant +
//      vMul·J⁽ᵐ⁾Δv⁽ᵐ⁾ + impulseMul·accum, clamped to [minImpulse, maxImpulse]
//   2. integrate poses once with v_pre + Δv (the "motion" velocities, joints guide vMotion)
//   3. velocity iterations: the same sweep with the unbiased constants (hard rows drop the bias
//      unless they keep it; springs continue as an extra position iteration would, D "PGS
//      Velocity Iteration"), giving the post-step velocities (vNext); under rattle
//      (Params::contactVelocityOnly) over the contact batches only
//
// The rows are swept in the batched layout of solver/fast/batch.h: colour by colour, batch by batch,
// row slot by row slot. Joints in one batch share no dynamic body, so the 4 lanes of a batch are
// independent and the AVX2 kernel solves them at once; this file holds the plain C++ kernel that
// does the same arithmetic lane after lane (and is used when AVX2 is not available).
#include <atomic>
#include <cmath>

#include "jointlab/solver_kernel.h"
#include "solver/block.h"
#include "solver/fast/fast.h"
#include "solver/integrate.h"
#include "solver/tree.h"

namespace jl {

namespace {
std::atomic<SolverKernel> gKernel{SolverKernel::Auto};
}  // namespace

void setSolverKernel(SolverKernel k) {
    gKernel.store(k, std::memory_order_relaxed);
}

SolverKernel activeSolverKernel() {
    const SolverKernel k = gKernel.load(std::memory_order_relaxed);
    if (k == SolverKernel::Scalar) return SolverKernel::Scalar;
    return solver::avx2Available() ? SolverKernel::Avx2 : SolverKernel::Scalar;
}

}  // namespace jl

namespace jl::solver {

// [SECTION] the plain C++ batch kernel

namespace {

inline double dot3(const double (&j)[3][kLanes], int l, const double* v) {
    return (j[0][l] * v[0] + j[1][l] * v[1]) + j[2][l] * v[2];
}

/// Lane l's block (solver/block.h) starting at row slot s: its rows' unclamped impulses na0 become
/// accum + G·d with d = na0 − accum, the 1D impulse changes (the AVX2 kernel: startBlock). Returns
/// the lane's residual terms with the block's: the velocity change each row asked for, r·d (the
/// row's own −(J·v + b − v_T)), in the place of Δλ·r, which for a block is not that change.
double startBlock(const Batch& bt, const RowLanes* rows, const BlockLanes& G, int l, int s, double* na0,
                  double lane) {
    const int n = bt.blockSize[l];
    double d[kMaxBlockRows] = {0.0, 0.0, 0.0};
    for (int i = 0; i < n; ++i) d[i] = na0[s + i] - rows[s + i].accum[l];
    for (int i = 0; i < n; ++i) {
        const double asked = d[i] * rows[s + i].response[l];
        lane = lane + asked * asked;
    }
    block::Mat3<double> g;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) g.m[i][k] = G.gain[3 * i + k][l];
    const block::V3<double> dl = block::apply(g, block::V3<double>{d[0], d[1], d[2]});
    const double blockDl[kMaxBlockRows] = {dl.x, dl.y, dl.z};
    for (int i = 0; i < n; ++i) na0[s + i] = rows[s + i].accum[l] + blockDl[i];
    return lane;
}

/// One batch, lane after lane. Per lane the operations are exactly those of the AVX2 kernel.
/// Padding lanes are skipped: they would add zero impulses to the static body (whose velocity
/// stays +0) and zeros to the residual, so the result is the same.
/// `live`: the lanes solved (a pipelined quad's; the others change nothing).
void solveBatchScalar(const Batch& bt, RowLanes* slots, const CouplingLanes* couplings,
                      const BlockLanes* blocks, double* bodies, bool biased, LaneSums& residual,
                      int live = (1 << kLanes) - 1) {
    RowLanes* rows = slots + bt.firstSlot;
    const CouplingLanes* K = couplings + bt.firstCoupling;
    const int n = bt.slotCount;
    for (int l = 0; l < bt.laneCount; ++l) {
        if (!(live & (1 << l))) continue;
        double* A = bodies + 8 * bt.body0[l];
        double* B = bodies + 8 * bt.body1[l];
        double av[3] = {A[0], A[1], A[2]}, aw[3] = {A[4], A[5], A[6]};
        double bv[3] = {B[0], B[1], B[2]}, bw[3] = {B[4], B[5], B[6]};
        const double ls0 = bt.linScale0[l], as0 = bt.angScale0[l], ls1 = bt.linScale1[l],
                     as1 = bt.angScale1[l];
        // Every row's unclamped impulse from its velocity J⁽ᵐ⁾·v⁽ᵐ⁾ at the batch's start
        // (F 62–65, D 20–22); each row's impulse change then adds vMul·K(s, t)·Δλ_t to the rows
        // after it (CouplingLanes).
        double na0[kMaxBatchSlots];
        for (int s = 0; s < n; ++s) {
            const RowLanes& r = rows[s];
            const double vel =
                ((dot3(r.lin0, l, av) + dot3(r.ang0, l, aw)) - dot3(r.lin1, l, bv)) - dot3(r.ang1, l, bw);
            const double c = biased ? r.constant[l] : r.unbiasedConstant[l];
            na0[s] = (c + r.vMul[l] * vel) + r.impulseMul[l] * r.accum[l];
        }
        double normalAccum = 0.0, lane = 0.0;  // this batch's residual terms (added below)
        for (int s = 0; s < n; ++s) {
            // A block's rows at once (their couplings to one another are 0).
            const int inBlock = s - bt.blockStart[l];  // its place in the lane's block, if it has one
            if (bt.blockSize[l] > 0 && inBlock == 0)
                lane = startBlock(bt, rows, blocks[bt.firstBlock], l, s, na0, lane);
            RowLanes& r = rows[s];
            const double acc = r.accum[l];
            double na = na0[s];
            double lo = r.minImpulse[l], hi = r.maxImpulse[l];
            if (bt.contact && s > 0) {  // friction: ±μ·(normal impulse)
                hi = bt.frictionCoef[l] * normalAccum;
                lo = -hi;
            }
            na = na < lo ? lo : (na > hi ? hi : na);
            const bool active = r.response[l] > 0.0;
            const double dl = active ? na - acc : 0.0;
            if (active) r.accum[l] = na;
            if (s == 0) normalAccum = r.accum[l];
            for (int t = s + 1; t < n; ++t) na0[t] = na0[t] + K[couplingIndex(t, s)].k[l] * dl;
            // F 24, 60–61
            const double d0 = dl * ls0, e0 = dl * as0, d1 = dl * ls1, e1 = dl * as1;
            for (int k = 0; k < 3; ++k) {
                av[k] = av[k] + d0 * r.lin0[k][l];
                aw[k] = aw[k] + e0 * r.ang0[k][l];
                bv[k] = bv[k] - d1 * r.lin1[k][l];
                bw[k] = bw[k] - e1 * r.ang1[k][l];
            }
            const double rr = dl * r.response[l];
            if (inBlock < 0 || inBlock >= bt.blockSize[l]) lane = lane + rr * rr;  // (a block's: above)
        }
        residual.v[l] = residual.v[l] + lane;
        storeBodyRecord(A, av, aw);
        storeBodyRecord(B, bv, bw);
    }
}

inline double dotLanes(const double (&a)[3][kLanes], const double (&b)[3][kLanes], int l) {
    return (a[0][l] * b[0][l] + a[1][l] * b[1][l]) + a[2][l] * b[2][l];
}
template <class Lanes>
void couplingsOf(const Batch& bt, const Lanes* slots, CouplingLanes* out) {
    const Lanes* r = slots + bt.firstSlot;
    CouplingLanes* K = out + bt.firstCoupling;
    for (int s = 1; s < bt.slotCount; ++s)
        for (int t = 0; t < s; ++t)
            for (int l = 0; l < kLanes; ++l)
                K[couplingIndex(s, t)].k[l] =
                    r[s].vMul[l] * (((bt.linScale0[l] * dotLanes(linear0(r[s]), linear0(r[t]), l) +
                                      bt.angScale0[l] * dotLanes(r[s].ang0, r[t].ang0, l)) +
                                     bt.linScale1[l] * dotLanes(linear1(r[s]), linear1(r[t]), l)) +
                                    bt.angScale1[l] * dotLanes(r[s].ang1, r[t].ang1, l));
}

/// Lane l's row s as solver/block.h takes it.
template <class Lanes>
block::Jacobian<double> jacobianOf(const Lanes& r, int l) {
    const double(&lin0)[3][kLanes] = linear0(r);
    const double(&lin1)[3][kLanes] = linear1(r);
    return {{lin0[0][l], lin0[1][l], lin0[2][l]},
            {r.ang0[0][l], r.ang0[1][l], r.ang0[2][l]},
            {lin1[0][l], lin1[1][l], lin1[2][l]},
            {r.ang1[0][l], r.ang1[1][l], r.ang1[2][l]}};
}

template <class Lanes>
void blocksOf(Batch& bt, const Lanes* slots, CouplingLanes* couplings, BlockLanes* blocks) {
    const Lanes* r = slots + bt.firstSlot;
    CouplingLanes* K = couplings + bt.firstCoupling;
    BlockLanes& G = blocks[bt.firstBlock];
    for (int l = 0; l < kLanes; ++l) {
        for (int g = 0; g < 9; ++g) G.gain[g][l] = 0.0;
        const int n = bt.blockSize[l], s = bt.blockStart[l];
        if (n == 0) continue;
        block::Jacobian<double> j[kMaxBlockRows];
        for (int i = 0; i < n; ++i) j[i] = jacobianOf(r[s + i], l);
        const block::Sym3<double> k = block::responseMatrix(
            j, n, block::Scales<double>{bt.linScale0[l], bt.angScale0[l], bt.linScale1[l], bt.angScale1[l]});
        const block::Inverse<double> inv = block::invert(k);
        if (!inv.ok) {  // (an inactive row has a zero Jacobian here: singular too)
            bt.blockSize[l] = 0;
            continue;
        }
        const block::Mat3<double> gain = block::gain(inv.inv, k);
        for (int i = 0; i < 3; ++i)
            for (int c = 0; c < 3; ++c) G.gain[3 * i + c][l] = gain.m[i][c];
        for (int a = 1; a < n; ++a)
            for (int b = 0; b < a; ++b) K[couplingIndex(s + a, s + b)].k[l] = 0.0;
    }
    markBlockSlots(bt);
}

}  // namespace

void computeBlocks(Batch& bt, const RowLanes* slots, const HardLanes* hardSlots, const LockLanes* lockSlots,
                   CouplingLanes* couplings, BlockLanes* blocks) {
    withSlotLayout(bt.layout, slots, hardSlots, lockSlots,
                   [&](const auto* r) { blocksOf(bt, r, couplings, blocks); });
}

void computeCouplings(const Batch& bt, const RowLanes* slots, const HardLanes* hardSlots,
                      const LockLanes* lockSlots, CouplingLanes* out) {
    withSlotLayout(bt.layout, slots, hardSlots, lockSlots, [&](const auto* r) { couplingsOf(bt, r, out); });
}

void computeBatchCouplings(Data& data, size_t bi, bool simd) {
    Batch& bt = data.batches[bi];
    if (simd) {
        computeCouplingsAvx2(&bt, 1, data.slots.data(), data.hardSlots.data(), data.lockSlots.data(),
                             data.couplings.data());
        if (hasBlocks(bt))
            computeBlocksAvx2(bt, data.slots.data(), data.hardSlots.data(), data.lockSlots.data(),
                              data.couplings.data(), data.blocks.data());
        return;
    }
    computeCouplings(bt, data.slots.data(), data.hardSlots.data(), data.lockSlots.data(),
                     data.couplings.data());
    if (hasBlocks(bt))
        computeBlocks(bt, data.slots.data(), data.hardSlots.data(), data.lockSlots.data(),
                      data.couplings.data(), data.blocks.data());
}

void sweepBatchesScalar(const Batch* batches, int begin, int end, RowLanes* slots,
                        const CouplingLanes* couplings, const BlockLanes* blocks, double* bodies, bool biased,
                        LaneSums& residual) {
    for (int i = begin; i < end; ++i)
        solveBatchScalar(batches[i], slots, couplings, blocks, bodies, biased, residual);
}

void sweepQuadsScalar(const PipeQuad* quads, int count, Batch* comps, RowLanes* compSlots,
                      CouplingLanes* compCouplings, BlockLanes* compBlocks, const PipeSource& src,
                      double* accum, double* bodies, bool biased, double* visitResidual) {
    for (int qi = 0; qi < count; ++qi) {
        const PipeQuad& q = quads[qi];
        Batch& bt = comps[q.comp];
        if (q.fresh) layoutCompScalar(bt, src, compSlots, compCouplings, compBlocks);
        RowLanes* slots = compSlots + bt.firstSlot;
        // as the AVX2 kernel: the impulses in, the live lanes solved, the impulses out
        for (int s = 0; s < bt.slotCount; ++s)
            for (int l = 0; l < kLanes; ++l) slots[s].accum[l] = accum[q.accum[l] + s];
        LaneSums res;
        solveBatchScalar(bt, compSlots, compCouplings, compBlocks, bodies, biased, res, q.live);
        for (int l = 0; l < kLanes; ++l) {
            if (!(q.live & (1 << l))) continue;
            for (int s = 0; s < bt.slotCount; ++s) accum[q.accum[l] + s] = slots[s].accum[l];
            visitResidual[q.visit[l]] = res.v[l];
        }
    }
}

#if !defined(JOINTLAB_HAVE_AVX2_KERNEL)
void expandFullAvx2(const RowLanes*, int, int, PipeRow*) {}  // (never called: no AVX2)
void sweepQuadsAvx2(const PipeQuad* quads, int count, Batch* comps, RowLanes* compSlots, HardLanes*,
                    CouplingLanes* compCouplings, BlockLanes* compBlocks, const PipeSource& src,
                    double* accum, double* bodies, bool biased, double* visitResidual) {
    sweepQuadsScalar(quads, count, comps, compSlots, compCouplings, compBlocks, src, accum, bodies, biased,
                     visitResidual);
}
void computeCouplingsAvx2(const Batch* batches, int count, const RowLanes* slots, const HardLanes* hardSlots,
                          const LockLanes* lockSlots, CouplingLanes* out) {
    for (int i = 0; i < count; ++i) computeCouplings(batches[i], slots, hardSlots, lockSlots, out);
}
void computeBlocksAvx2(Batch& bt, const RowLanes* slots, const HardLanes* hardSlots,
                       const LockLanes* lockSlots, CouplingLanes* couplings, BlockLanes* blocks) {
    computeBlocks(bt, slots, hardSlots, lockSlots, couplings, blocks);
}
void sweepBatchesAvx2(const Batch* batches, int begin, int end, RowLanes* slots, HardLanes*, LockLanes*,
                      const CouplingLanes* couplings, const BlockLanes* blocks, double* bodies, bool biased,
                      LaneSums& residual) {
    sweepBatchesScalar(batches, begin, end, slots, couplings, blocks, bodies, biased,
                       residual);  // no compact batches without AVX2
}
bool avx2Available() {
    return false;
}
int setupHardRowsAvx2(const Batch&, const HardRowsIn&, double, const SlotOut&, double*) {
    return -1;
}
int prepLockBatchAvx2(const Batch&, const LockPrepIn&, double, double, LockLanes*) {
    return -1;
}
int setupTgsRowsAvx2(const Batch&, const TgsRowsIn&, TgsLanes&, double*) {
    return -1;
}
#else
bool avx2Available() {
    static const bool ok = __builtin_cpu_supports("avx2");
    return ok;
}
#endif

// [SECTION] the solve

namespace {

/// Gauss-Seidel over batches [begin, end), adding to `lanes`.
void sweepRange(Data& data, int begin, int end, bool biased, bool simd, LaneSums& lanes) {
    double* bodies = &data.bodies[0].linVel.x;
    if (simd)
        sweepBatchesAvx2(data.batches.data(), begin, end, data.slots.data(), data.hardSlots.data(),
                         data.lockSlots.data(), data.couplings.data(), data.blocks.data(), bodies, biased,
                         lanes);
    else
        sweepBatchesScalar(data.batches.data(), begin, end, data.slots.data(), data.couplings.data(),
                           data.blocks.data(), bodies, biased, lanes);
}

/// One Gauss-Seidel pass over every batch (sweepParts), then the forest's rows (solver/tree.h,
/// settings.pointSolve = tree); returns the sweep's residual.
Real sweep(Data& data, bool biased, bool simd) {
    const Real r = sweepParts(data, [&](int begin, int end, LaneSums& lanes) {
        sweepRange(data, begin, end, biased, simd, lanes);
    });
    if (!data.forest || data.forest->empty()) return r;
    return std::sqrt(r * r + tree::passPgs(data, *data.forest, biased));
}

}  // namespace

void solvePGS(Data& data, const Params& p) {
    const bool simd = p.simd;
    for (Body& b : data.bodies) b = Body{};
    // Rows that start with an accumulated impulse (warm-started contacts) apply it first (F 24).
    for (const Batch& bt : data.batches) {
        if (!bt.contact) continue;
        for (int l = 0; l < kLanes; ++l) {
            Body& a = data.bodies[static_cast<size_t>(bt.body0[l])];
            Body& b = data.bodies[static_cast<size_t>(bt.body1[l])];
            for (int s = 0; s < bt.slotCount; ++s) {
                const RowLanes& r = data.slots[static_cast<size_t>(bt.firstSlot + s)];
                const Real dl = r.accum[l];
                if (dl == 0.0) continue;
                a.linVel += (dl * bt.linScale0[l]) * Vec3(r.lin0[0][l], r.lin0[1][l], r.lin0[2][l]);
                a.angVel += (dl * bt.angScale0[l]) * Vec3(r.ang0[0][l], r.ang0[1][l], r.ang0[2][l]);
                // body 1: the other body of a body contact; for the ground (static, scale 0)
                // this adds zero
                if (bt.body1[l] == 0) continue;
                b.linVel -= (dl * bt.linScale1[l]) * Vec3(r.lin1[0][l], r.lin1[1][l], r.lin1[2][l]);
                b.angVel -= (dl * bt.angScale1[l]) * Vec3(r.ang1[0][l], r.ang1[1][l], r.ang1[2][l]);
            }
        }
    }

    // settings.pointSolve = tree: one part, swept plainly (the forest's pass follows every sweep).
    const bool forest = data.forest && !data.forest->empty();
    if (forest) tree::begin(data, *data.forest, false);

    data.residuals.clear();
    // Parallel solve: the position iterations in one fork if each part can have a thread of its
    // own (the same bits as a fork per sweep, sweepPartsTogether).
    bool together = false;
    if (p.split) {  // split impulse: as the reference (solver/reference/pgs_reference.cpp)
        for (int it = 0; it < p.posIters; ++it) data.residuals.push_back(sweep(data, false, simd));
        const std::vector<Body> velocity = data.bodies;  // the velocity, and every slot's impulse
        const std::vector<RowLanes> slots = data.slots;
        const std::vector<HardLanes> hardSlots = data.hardSlots;
        const std::vector<LockLanes> lockSlots = data.lockSlots;
        if (forest) tree::saveImpulses(*data.forest);
        for (int it = 0; it < p.posIters; ++it) sweep(data, true, simd);  // the pseudo-velocity
        for (size_t i = 1; i < static_cast<size_t>(data.movingEnd()); ++i)
            integratePgsBody(data.bodies[i], data.info[i], p);
        data.bodies = velocity;
        data.slots = slots;
        data.hardSlots = hardSlots;
        data.lockSlots = lockSlots;
        if (forest) tree::restoreImpulses(*data.forest);
    } else if (data.parts() > 1 && !forest) {
        auto range = [&](int, int begin, int end, LaneSums& lanes) {
            sweepRange(data, begin, end, true, simd, lanes);
        };
        together = sweepPartsTogether(
            data, p.posIters, range, [](int, int) {}, data.residuals);
    }
    // One part without contacts, in batches too thin to keep the core busy: the position sweeps
    // pipelined (solver/fast/pipeline.h; the same bits).
    const bool pipelined =
        !p.split && !together && !forest && sweepPipelined(data, p.posIters, simd, data.residuals);
    for (int it = 0; it < p.posIters && !p.split && !together && !pipelined; ++it)
        data.residuals.push_back(sweep(data, true, simd));

    // Static bodies (index 0 and any with zero velocity) are integrated too: v = 0 keeps them put.
    for (size_t i = 1; i < static_cast<size_t>(data.movingEnd()) && !p.split; ++i)
        integratePgsBody(data.bodies[i], data.info[i], p);

    // Under rattle the contact batches only (they follow the joints'): the position pass gives the
    // joints their velocity (Params::contactVelocityOnly). One task sweeps them, as the contacts
    // are swept with several parts too.
    for (int it = 0; it < p.velIters; ++it) {
        if (!p.contactVelocityOnly) {
            data.residuals.push_back(sweep(data, false, simd));
            continue;
        }
        LaneSums lanes;
        sweepRange(data, data.jointBatchEnd, static_cast<int>(data.batches.size()), false, simd, lanes);
        data.residuals.push_back(std::sqrt((lanes.v[0] + lanes.v[1]) + (lanes.v[2] + lanes.v[3])));
    }

    for (size_t i = 0; i < data.bodies.size(); ++i) {
        Vec3 v, w;
        totalVelocity(data.bodies[i], data.info[i], v, w);
        data.bodies[i].linVel = v;
        data.bodies[i].angVel = w;
    }
}

}  // namespace jl::solver
