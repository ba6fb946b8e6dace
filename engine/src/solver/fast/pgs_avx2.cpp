// The PGS batch kernel with AVX2: one __m256d holds one quantity of the 4 lanes of a batch
// (solver/fast/batch.h). Compiled with -mavx2 (and without -mfma; -ffp-contract=off as everywhere), and
// only called after a run-time check (avx2Available), so the engine still runs on CPUs without it.
// Every function called from the rest of the engine leaves the upper halves of the YMM registers
// clean (vzeroupper; GCC omits it after a call to a function that takes __m256d arguments): plain
// SSE code run with them dirty was measured 65% slower on the ragdoll scene (libm's atan2 in the
// next joint's prep, and setupHardSlot).
//
// Per lane it performs exactly the operations of solveBatchScalar (solver/fast/pgs.cpp), in the same
// order: separate multiplies and adds, comparisons and blends for the clamp. Keep the two in step.
//
// A batch's body velocities are loaded once (a 4×4 transpose of the bodies' {x, y, z, pad}
// halves), kept in registers over all of its row slots, and stored back once.
//
// The slots' set-up (setupHardRowsAvx2, and prepLockBatchAvx2 for batches of lock-only joints)
// is in solver/fast/setup_avx2.cpp; the couplings between a batch's slots and its point blocks'
// gains (computeCouplingsAvx2, computeBlocksAvx2) in solver/fast/couplings_avx2.cpp.
#include <immintrin.h>

#include <cstring>

#include "solver/block.h"
#include "solver/fast/avx2.h"
#include "solver/fast/batch.h"
#include "solver/fast/pipeline.h"

namespace jl::solver {

namespace {

/// (j.x·v.x + j.y·v.y) + j.z·v.z per lane.
inline __m256d dot(const double (&j)[3][kLanes], const Vec3x4& v) {
    const __m256d xy =
        _mm256_add_pd(_mm256_mul_pd(_mm256_load_pd(j[0]), v.x), _mm256_mul_pd(_mm256_load_pd(j[1]), v.y));
    return _mm256_add_pd(xy, _mm256_mul_pd(_mm256_load_pd(j[2]), v.z));
}

/// v + d·j (add) or v − d·j (sub) per component.
inline void addScaled(Vec3x4& v, __m256d d, const double (&j)[3][kLanes]) {
    v.x = _mm256_add_pd(v.x, _mm256_mul_pd(d, _mm256_load_pd(j[0])));
    v.y = _mm256_add_pd(v.y, _mm256_mul_pd(d, _mm256_load_pd(j[1])));
    v.z = _mm256_add_pd(v.z, _mm256_mul_pd(d, _mm256_load_pd(j[2])));
}
inline void subScaled(Vec3x4& v, __m256d d, const double (&j)[3][kLanes]) {
    v.x = _mm256_sub_pd(v.x, _mm256_mul_pd(d, _mm256_load_pd(j[0])));
    v.y = _mm256_sub_pd(v.y, _mm256_mul_pd(d, _mm256_load_pd(j[1])));
    v.z = _mm256_sub_pd(v.z, _mm256_mul_pd(d, _mm256_load_pd(j[2])));
}

/// F 63–65, D 20–22: constant + vMul·(J⁽ᵐ⁾Δv⁽ᵐ⁾) + impulseMul·accum, with J⁽ᵐ⁾Δv⁽ᵐ⁾ the row's
/// velocity at its batch's start (the earlier rows' changes come through the couplings).
inline __m256d newImpulse(const RowLanes& r, __m256d c, __m256d vel, __m256d acc) {
    return _mm256_add_pd(_mm256_add_pd(c, _mm256_mul_pd(_mm256_load_pd(r.vMul), vel)),
                         _mm256_mul_pd(_mm256_load_pd(r.impulseMul), acc));
}
/// The same for a lock or a hard row: impulseMul·accum = 1·accum = accum on active lanes (inactive
/// lanes are masked).
template <class Compact>
inline __m256d newImpulse(const Compact& r, __m256d c, __m256d vel, __m256d acc) {
    return _mm256_add_pd(_mm256_add_pd(c, _mm256_mul_pd(_mm256_load_pd(r.vMul), vel)), acc);
}

/// A row's bounds.
inline void bounds(const RowLanes& r, __m256d& lo, __m256d& hi) {
    lo = _mm256_load_pd(r.minImpulse);
    hi = _mm256_load_pd(r.maxImpulse);
}
inline void bounds(const HardLanes& r, __m256d& lo, __m256d& hi) {
    lo = _mm256_load_pd(r.minImpulse);
    hi = _mm256_load_pd(r.maxImpulse);
}
/// A lock row's: ±kMaxRowVelocityChange·(1/r) with 1/r = −vMul, as the set-up computes them.
inline void bounds(const LockLanes& r, __m256d& lo, __m256d& hi) {
    const __m256d sign = _mm256_set1_pd(-0.0);
    hi = _mm256_mul_pd(_mm256_set1_pd(kMaxRowVelocityChange), _mm256_xor_pd(sign, _mm256_load_pd(r.vMul)));
    lo = _mm256_xor_pd(sign, hi);
}

/// The bodies of a batch's lanes, in registers while its row slots are solved.
struct BatchBodies {
    double* a[kLanes];
    double* b[kLanes];
    Vec3x4 av, aw, bv, bw;

    BatchBodies(const Batch& bt, double* bodies) {
        for (int l = 0; l < kLanes; ++l) {
            a[l] = bodies + 8 * bt.body0[l];
            b[l] = bodies + 8 * bt.body1[l];
        }
        loadBodies4(a, av, aw);
        loadBodies4(b, bv, bw);
    }
    void store() const {
        storeBodies4(a, av, aw);
        storeBodies4(b, bv, bw);
    }
    /// The same for the `live` lanes only (the others' records go to `sink`, 16 doubles).
    void storeLive(int live, double* sink) {
        for (int l = 0; l < kLanes; ++l)
            if (!(live & (1 << l))) {
                a[l] = sink;
                b[l] = sink + 8;
            }
        store();
    }
};

/// Where a batch's accumulated impulses are read and written: in its row slots (plain sweeps)…
struct AccumInSlots {
    template <class Lanes>
    __m256d load(const Lanes& r, int) const {
        return _mm256_load_pd(r.accum);
    }
    template <class Lanes>
    void store(Lanes& r, int, __m256d v) const {
        _mm256_store_pd(r.accum, v);
    }
};
/// … or, for a pipelined quad, in Pipeline::accum: lane l's row s at accum[at[l] + s].
struct AccumInArray {
    double* accum;
    const int32_t* at;
    template <class Lanes>
    __m256d load(const Lanes&, int s) const {
        return _mm256_set_pd(accum[at[3] + s], accum[at[2] + s], accum[at[1] + s], accum[at[0] + s]);
    }
    template <class Lanes>
    void store(Lanes&, int s, __m256d v) const {
        const __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
        _mm_storel_pd(accum + at[0] + s, lo);
        _mm_storeh_pd(accum + at[1] + s, lo);
        _mm_storel_pd(accum + at[2] + s, hi);
        _mm_storeh_pd(accum + at[3] + s, hi);
    }
};

/// J⁽ᵐ⁾·v⁽ᵐ⁾ of a row slot's 4 rows (F 62, 64).
template <class Lanes>
__attribute__((always_inline)) inline __m256d rowVelocity(const Lanes& r, const BatchBodies& B) {
    return _mm256_sub_pd(
        _mm256_sub_pd(_mm256_add_pd(dot(linear0(r), B.av), dot(r.ang0, B.aw)), dot(linear1(r), B.bv)),
        dot(r.ang1, B.bw));
}

/// One row slot given its rows' unclamped impulses `na` (newImpulse plus the earlier rows'
/// couplings): clamped to the bounds and stored; returns the impulse changes Δλ in `dl`
/// (applySlot applies them).
/// (Masked: only the lanes of `counted` add their residual terms; the others' are their block's.)
template <bool Masked = false, class Lanes, class Acc>
__attribute__((always_inline)) inline __m256d solveSlot(Lanes* r, int s, const Acc& io, __m256d na,
                                                        __m256d acc, __m256d residual, __m256d& dl,
                                                        __m256d counted = _mm256_setzero_pd()) {
    const __m256d zero = _mm256_setzero_pd();
    __m256d lo, hi;
    bounds(*r, lo, hi);
    // na < lo ? lo : (na > hi ? hi : na), as min(hi, max(lo, na)): the same values whenever
    // lo ≤ hi, which every row's bounds are (lo ≤ 0 ≤ hi, then clamped to ±kMaxRowVelocityChange/r),
    // and a NaN passes through both (MAXPD/MINPD return the second operand), as it does the
    // comparisons. Two dependent operations on each slot's chain instead of four.
    na = _mm256_min_pd(hi, _mm256_max_pd(lo, na));
    const __m256d resp = _mm256_load_pd(r->response);
    const __m256d active = _mm256_cmp_pd(resp, zero, _CMP_GT_OQ);
    dl = _mm256_and_pd(active, _mm256_sub_pd(na, acc));
    io.store(*r, s, _mm256_blendv_pd(acc, na, active));
    __m256d rr = _mm256_mul_pd(dl, resp);
    if constexpr (Masked) rr = _mm256_and_pd(counted, rr);
    return _mm256_add_pd(residual, _mm256_mul_pd(rr, rr));
}

/// A row's impulse change applied to the bodies' velocities (F 24, 60–61).
template <class Lanes>
__attribute__((always_inline)) inline void applySlot(const Batch& bt, const Lanes* r, __m256d dl,
                                                     BatchBodies& B) {
    // The body scales are read from the batch at each use (memory operands), which leaves the
    // registers to the velocity vectors.
    addScaled(B.av, _mm256_mul_pd(dl, _mm256_load_pd(bt.linScale0)), linear0(*r));
    addScaled(B.aw, _mm256_mul_pd(dl, _mm256_load_pd(bt.angScale0)), r->ang0);
    subScaled(B.bv, _mm256_mul_pd(dl, _mm256_load_pd(bt.linScale1)), linear1(*r));
    subScaled(B.bw, _mm256_mul_pd(dl, _mm256_load_pd(bt.angScale1)), r->ang1);
}

/// Every row's unclamped impulse from its velocity at the batch's start (F 62–65).
template <class Lanes, class Acc>
__attribute__((always_inline)) inline void startRow(const Lanes& r, int s, const Acc& io,
                                                    const BatchBodies& B, bool biased, __m256d& na,
                                                    __m256d& acc) {
    acc = io.load(r, s);
    na = newImpulse(r, _mm256_load_pd(biased ? r.constant : r.unbiasedConstant), rowVelocity(r, B), acc);
}

/// The lanes' blocks as vectors of their first slot and size (Batch::blockStart, blockSize).
struct BlockLanesAt {
    __m256i start, size;
    explicit BlockLanesAt(const Batch& bt) {
        int32_t s, n;
        std::memcpy(&s, bt.blockStart, sizeof s);
        std::memcpy(&n, bt.blockSize, sizeof n);
        start = _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(s));
        size = _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(n));
    }
    /// The lanes whose block starts at slot s and has a row i (i < its size).
    __m256d rowOf(int s, int i) const {
        return _mm256_castsi256_pd(_mm256_and_si256(_mm256_cmpeq_epi64(start, _mm256_set1_epi64x(s)),
                                                    _mm256_cmpgt_epi64(size, _mm256_set1_epi64x(i))));
    }
    /// The lanes whose slot t is not a row of their block (start ≤ t < start + size).
    __m256d outside(int t) const {
        const __m256i tt = _mm256_set1_epi64x(t);
        const __m256i in = _mm256_andnot_si256(_mm256_cmpgt_epi64(start, tt),
                                               _mm256_cmpgt_epi64(_mm256_add_epi64(start, size), tt));
        return _mm256_castsi256_pd(_mm256_xor_si256(in, _mm256_set1_epi64x(-1)));
    }
};

/// The lanes' blocks that start at slot s (solver/block.h): their rows' unclamped impulses na
/// become acc + G·d with d = na − acc, the 1D impulse changes (startBlock in solver/fast/pgs.cpp),
/// and the residual gets each row's r·d, the velocity change it asked for. n: the slot count.
template <class Lanes>
__attribute__((always_inline)) inline __m256d startBlock(const BlockLanesAt& at, const Lanes* r,
                                                         const BlockLanes& G, int s, int n, __m256d* na,
                                                         const __m256d* acc, __m256d residual) {
    Lane4 d[kMaxBlockRows];
    __m256d row[kMaxBlockRows];
    for (int i = 0; i < kMaxBlockRows; ++i) {
        row[i] = at.rowOf(s, i);
        d[i] = s + i < n ? _mm256_and_pd(row[i], _mm256_sub_pd(na[s + i], acc[s + i])) : _mm256_setzero_pd();
    }
    for (int i = 0; i < kMaxBlockRows && s + i < n; ++i) {
        const __m256d asked = _mm256_mul_pd(d[i].v, _mm256_load_pd(r[s + i].response));
        residual = _mm256_add_pd(residual, _mm256_mul_pd(asked, asked));
    }
    block::Mat3<Lane4> g;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) g.m[i][k] = _mm256_load_pd(G.gain[3 * i + k]);
    const block::V3<Lane4> dl = block::apply(g, block::V3<Lane4>{d[0], d[1], d[2]});
    const Lane4 blockDl[kMaxBlockRows] = {dl.x, dl.y, dl.z};
    for (int i = 0; i < kMaxBlockRows; ++i)
        if (s + i < n)
            na[s + i] = _mm256_blendv_pd(na[s + i], _mm256_add_pd(acc[s + i], blockDl[i].v), row[i]);
    return residual;
}

/// The row slots of a batch (CouplingLanes): every row's unclamped impulse at the start, then row
/// after row, each impulse change added to the later rows' through their couplings; a block's rows
/// at once where it starts (their couplings to one another are 0). N: the slot count, known at
/// compile time so that the impulses stay in registers.
template <int N, bool Blocks, class Lanes, class Acc>
__attribute__((always_inline)) inline __m256d solveRows(const Batch& bt, Lanes* r, const Acc& io,
                                                        const CouplingLanes* K, const BlockLanes* G,
                                                        BatchBodies& B, bool biased, __m256d residual) {
    __m256d na[N], acc[N];
#pragma GCC unroll 8
    for (int s = 0; s < N; ++s) startRow(r[s], s, io, B, biased, na[s], acc[s]);
    [[maybe_unused]] const BlockLanesAt blocks(bt);
#pragma GCC unroll 8
    for (int s = 0; s < N; ++s) {
        __m256d dl;
        if constexpr (Blocks) {
            if (bt.blockSlots & (1 << s)) residual = startBlock(blocks, r, *G, s, N, na, acc, residual);
            residual = solveSlot<true>(r + s, s, io, na[s], acc[s], residual, dl, blocks.outside(s));
        } else {
            residual = solveSlot(r + s, s, io, na[s], acc[s], residual, dl);
        }
#pragma GCC unroll 8
        for (int t = s + 1; t < N; ++t)
            na[t] = _mm256_add_pd(na[t], _mm256_mul_pd(_mm256_load_pd(K[couplingIndex(t, s)].k), dl));
        applySlot(bt, r + s, dl, B);
    }
    return residual;
}

/// The same for any slot count (the impulses on the stack).
template <class Lanes, class Acc>
__m256d solveRowsAny(const Batch& bt, Lanes* r, const Acc& io, const CouplingLanes* K, const BlockLanes* G,
                     BatchBodies& B, bool biased, __m256d residual) {
    const int n = bt.slotCount;
    __m256d na[kMaxBatchSlots], acc[kMaxBatchSlots];
    for (int s = 0; s < n; ++s) startRow(r[s], s, io, B, biased, na[s], acc[s]);
    const BlockLanesAt blocks(bt);
    for (int s = 0; s < n; ++s) {
        __m256d dl;
        if (G) {
            if (bt.blockSlots & (1 << s)) residual = startBlock(blocks, r, *G, s, n, na, acc, residual);
            residual = solveSlot<true>(r + s, s, io, na[s], acc[s], residual, dl, blocks.outside(s));
        } else {
            residual = solveSlot(r + s, s, io, na[s], acc[s], residual, dl);
        }
        for (int t = s + 1; t < n; ++t)
            na[t] = _mm256_add_pd(na[t], _mm256_mul_pd(_mm256_load_pd(K[couplingIndex(t, s)].k), dl));
        applySlot(bt, r + s, dl, B);
    }
    return residual;
}

/// A batch's row slots, solveRows for its slot count. Blocks: some lane has a block (G its
/// gains); without, the kernel is the one without the block code (which would cost registers).
template <bool Blocks, class Lanes, class Acc>
__attribute__((always_inline)) inline __m256d solveSlots(const Batch& bt, Lanes* r, const Acc& io,
                                                         const CouplingLanes* K, const BlockLanes* G,
                                                         BatchBodies& B, bool biased, __m256d residual) {
    switch (bt.slotCount) {
        case 1:
            return solveRows<1, Blocks>(bt, r, io, K, G, B, biased, residual);
        case 2:
            return solveRows<2, Blocks>(bt, r, io, K, G, B, biased, residual);
        case 3:
            return solveRows<3, Blocks>(bt, r, io, K, G, B, biased, residual);
        case 4:
            return solveRows<4, Blocks>(bt, r, io, K, G, B, biased, residual);
        case 5:
            return solveRows<5, Blocks>(bt, r, io, K, G, B, biased, residual);
        case 6:
            return solveRows<6, Blocks>(bt, r, io, K, G, B, biased, residual);
        default:
            return solveRowsAny(bt, r, io, K, Blocks ? G : nullptr, B, biased, residual);
    }
}

/// One batch. `live`: the lanes whose bodies are stored back (a pipelined quad's; the others' go
/// to a scratch record, so a masked lane changes no body whatever its rows compute).
template <class Lanes, class Acc>
__attribute__((always_inline)) inline __m256d solveBatchInline(const Batch& bt, Lanes* slots, const Acc& io,
                                                               const CouplingLanes* couplings,
                                                               const BlockLanes* blocks, double* bodies,
                                                               bool biased, __m256d residual, int live) {
    BatchBodies B(bt, bodies);
    Lanes* r = slots + bt.firstSlot;
    const CouplingLanes* K = couplings + bt.firstCoupling;
    if (hasBlocks(bt))
        residual = solveSlots<true>(bt, r, io, K, blocks + bt.firstBlock, B, biased, residual);
    else
        residual = solveSlots<false>(bt, r, io, K, nullptr, B, biased, residual);
    if (live == (1 << kLanes) - 1) {
        B.store();
    } else {
        alignas(32) double sink[16];
        B.storeLive(live, sink);
    }
    return residual;
}

/// The same, out of line (the plain sweeps' batches).
template <class Lanes>
__m256d solveBatch(const Batch& bt, Lanes* slots, const CouplingLanes* couplings, const BlockLanes* blocks,
                   double* bodies, bool biased, __m256d residual) {
    return solveBatchInline(bt, slots, AccumInSlots{}, couplings, blocks, bodies, biased, residual,
                            (1 << kLanes) - 1);
}

}  // namespace

void sweepBatchesAvx2(const Batch* batches, int begin, int end, RowLanes* slots, HardLanes* hardSlots,
                      LockLanes* lockSlots, const CouplingLanes* couplings, const BlockLanes* blocks,
                      double* bodies, bool biased, LaneSums& residual) {
    __m256d res = _mm256_load_pd(residual.v);
    for (int i = begin; i < end; ++i) {
        const Batch& bt = batches[i];
        if (bt.contact || bt.laneCount == 1) {  // friction bounds depend on slot 0, or a single
                                                // joint: the plain kernel (same results)
            _mm256_store_pd(residual.v, res);
            sweepBatchesScalar(batches, i, i + 1, slots, couplings, blocks, bodies, biased, residual);
            res = _mm256_load_pd(residual.v);
            continue;
        }
        // Each batch's residual terms are summed from zero, then added to the lanes' sums (as the
        // plain kernel does, and as the pipelined sweeps can reproduce visit by visit).
        withSlotLayout(bt.layout, slots, hardSlots, lockSlots, [&](auto* r) {
            res =
                _mm256_add_pd(res, solveBatch(bt, r, couplings, blocks, bodies, biased, _mm256_setzero_pd()));
        });
    }
    _mm256_store_pd(residual.v, res);
}

void expandFullAvx2(const RowLanes* slots, int count, int lane, PipeRow* out) {
    for (int s = 0; s < count; ++s) {
        const double* in = &slots[s].lin0[0][0];
        for (int g = 0; g < 5; ++g) {
            __m256d t[4];
            transpose4(in + 16 * g, in + 16 * g + 4, in + 16 * g + 8, in + 16 * g + 12, t);
            _mm256_store_pd(out[s].q + 4 * g, t[lane]);
        }
    }
    _mm256_zeroupper();
}

namespace {

/// Stores quantities 4g … 4g + 3 of PipeRow (t, one vector per quantity) into a row slot of
/// Lanes at `out`. A hard slot leaves out linear1 (= linear0) and impulseMul (1 on active rows).
inline void storeGroup(RowLanes*, double* out, int g, const __m256d t[4]) {
    for (int k = 0; k < 4; ++k) _mm256_store_pd(out + 16 * g + 4 * k, t[k]);
}
inline void storeGroup(HardLanes*, double* out, int g, const __m256d t[4]) {
    static_assert(offsetof(HardLanes, ang1) == 6 * kLanes * sizeof(double) &&
                      offsetof(HardLanes, minImpulse) == 12 * kLanes * sizeof(double),
                  "storeGroup follows HardLanes");
    switch (g) {
        case 0:  // lin x y z, ang0 x
            for (int k = 0; k < 4; ++k) _mm256_store_pd(out + 4 * k, t[k]);
            break;
        case 1:  // ang0 y z (lin1 x y left out)
            _mm256_store_pd(out + 16, t[0]);
            _mm256_store_pd(out + 20, t[1]);
            break;
        case 2:  // ang1 x y z (lin1 z left out)
            _mm256_store_pd(out + 24, t[1]);
            _mm256_store_pd(out + 28, t[2]);
            _mm256_store_pd(out + 32, t[3]);
            break;
        case 3:  // constant, unbiasedConstant, vMul (impulseMul left out)
            _mm256_store_pd(out + 36, t[0]);
            _mm256_store_pd(out + 40, t[1]);
            _mm256_store_pd(out + 44, t[2]);
            break;
        default:  // minImpulse, maxImpulse, accum, response
            for (int k = 0; k < 4; ++k) _mm256_store_pd(out + 48 + 4 * k, t[k]);
            break;
    }
}

/// Composition bt laid out from src (as layoutCompScalar, by 4×4 transposes): its lanes' mass
/// scales, rows (as Lanes slots) and couplings; padding lanes zeros.
template <class Lanes>
inline void layoutComp(Batch& bt, const PipeSource& src, Lanes* compSlots, CouplingLanes* compCouplings,
                       BlockLanes* compBlocks) {
    const PipeRow* rows[kLanes];
    const double* K[kLanes];
    const double* scale[kLanes];
    const double* gain[kLanes];
    for (int l = 0; l < kLanes; ++l) {
        const int32_t j = bt.constraint[l];
        const PipeJoint* J = j >= 0 ? src.joints + j : nullptr;
        rows[l] = J ? src.rows + J->firstRow : src.zeroRows;
        K[l] = J ? src.couplings + J->firstCoupling : src.zeroCouplings;
        scale[l] = J ? J->scale : src.zeroScales;
        gain[l] = J ? J->gain : src.zeroScales;
        bt.blockStart[l] = J ? J->blockStart : int8_t{0};
        bt.blockSize[l] = J ? J->blockSize : int8_t{0};
    }
    markBlockSlots(bt);
    __m256d t[4];
    transpose4(scale[0], scale[1], scale[2], scale[3], t);
    _mm256_store_pd(bt.linScale0, t[0]);
    _mm256_store_pd(bt.angScale0, t[1]);
    _mm256_store_pd(bt.linScale1, t[2]);
    _mm256_store_pd(bt.angScale1, t[3]);
    BlockLanes& G = compBlocks[bt.firstBlock];
    for (int g = 0; g < 12; g += 4) {
        transpose4(gain[0] + g, gain[1] + g, gain[2] + g, gain[3] + g, t);
        for (int i = 0; i < 4 && g + i < 9; ++i) _mm256_store_pd(G.gain[g + i], t[i]);
    }
    for (int s = 0; s < bt.slotCount; ++s) {
        double* out = reinterpret_cast<double*>(compSlots + bt.firstSlot + s);
#pragma GCC unroll 5
        for (int g = 0; g < 5; ++g) {
            transpose4(rows[0][s].q + 4 * g, rows[1][s].q + 4 * g, rows[2][s].q + 4 * g, rows[3][s].q + 4 * g,
                       t);
            storeGroup(static_cast<Lanes*>(nullptr), out, g, t);
        }
    }
    const int n = couplingCount(bt.slotCount);
    CouplingLanes* out = compCouplings + bt.firstCoupling;
    for (int k = 0; k < n; k += 4) {
        transpose4(K[0] + k, K[1] + k, K[2] + k, K[3] + k, t);
        for (int i = 0; i < 4 && k + i < n; ++i) _mm256_store_pd(out[k + i].k, t[i]);
    }
}

template <class Lanes>
void sweepQuads(const PipeQuad* quads, int count, Batch* comps, Lanes* compSlots,
                CouplingLanes* compCouplings, BlockLanes* compBlocks, const PipeSource& src, double* accum,
                double* bodies, bool biased, double* visitResidual) {
    for (int qi = 0; qi < count; ++qi) {
        const PipeQuad& q = quads[qi];
        Batch& bt = comps[q.comp];
        if (q.fresh) layoutComp(bt, src, compSlots, compCouplings, compBlocks);
        alignas(32) double lanes[kLanes];
        // The impulses are read from and written to Pipeline::accum (padding lanes: zeros that stay
        // zeros). Masked lanes solve their joints' rows with scratch impulses (PipeQuad::accum)
        // and store their bodies to a scratch record: they change nothing.
        _mm256_store_pd(lanes, solveBatchInline(bt, compSlots, AccumInArray{accum, q.accum}, compCouplings,
                                                compBlocks, bodies, biased, _mm256_setzero_pd(),
                                                q.masked ? q.live : (1 << kLanes) - 1));
        for (int l = 0; l < kLanes; ++l)
            if (q.live & (1 << l)) visitResidual[q.visit[l]] = lanes[l];
    }
}

}  // namespace

void sweepQuadsAvx2(const PipeQuad* quads, int count, Batch* comps, RowLanes* compSlots,
                    HardLanes* compHardSlots, CouplingLanes* compCouplings, BlockLanes* compBlocks,
                    const PipeSource& src, double* accum, double* bodies, bool biased,
                    double* visitResidual) {
    if (src.hard)
        sweepQuads(quads, count, comps, compHardSlots, compCouplings, compBlocks, src, accum, bodies, biased,
                   visitResidual);
    else
        sweepQuads(quads, count, comps, compSlots, compCouplings, compBlocks, src, accum, bodies, biased,
                   visitResidual);
    _mm256_zeroupper();
}

}  // namespace jl::solver
