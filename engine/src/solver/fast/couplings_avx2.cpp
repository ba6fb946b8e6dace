// The PGS batches' couplings and point blocks with AVX2, four joints at a time (solver/fast/
// batch.h): the coupling of every pair of a batch's row slots (computeCouplingsAvx2) and the gains
// of each joint's point block (computeBlocksAvx2), and nothing else: the sweep that uses them is
// solver/fast/pgs_avx2.cpp. Compiled with -mavx2 (and without -mfma; -ffp-contract=off as
// everywhere), called only after the run-time check (avx2Available); each entry point leaves the
// upper halves of the YMM registers clean (vzeroupper, as pgs_avx2.cpp says why).
//
// Per lane it performs exactly the operations of couplingsOf and blocksOf in solver/fast/pgs.cpp, in
// the same order. Keep them in step.
#include <immintrin.h>

#include "solver/block.h"
#include "solver/fast/avx2.h"
#include "solver/fast/batch.h"

namespace jl::solver {

namespace {

inline __m256d dotLanes(const double (&a)[3][kLanes], const double (&b)[3][kLanes]) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_load_pd(a[0]), _mm256_load_pd(b[0])),
                                       _mm256_mul_pd(_mm256_load_pd(a[1]), _mm256_load_pd(b[1]))),
                         _mm256_mul_pd(_mm256_load_pd(a[2]), _mm256_load_pd(b[2])));
}

template <class Lanes>
void couplingsOf(const Batch& bt, const Lanes* slots, CouplingLanes* out) {
    const Lanes* r = slots + bt.firstSlot;
    CouplingLanes* K = out + bt.firstCoupling;
    const __m256d ls0 = _mm256_load_pd(bt.linScale0), as0 = _mm256_load_pd(bt.angScale0);
    const __m256d ls1 = _mm256_load_pd(bt.linScale1), as1 = _mm256_load_pd(bt.angScale1);
    for (int s = 1; s < bt.slotCount; ++s)
        for (int t = 0; t < s; ++t) {
            const __m256d k = _mm256_add_pd(
                _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ls0, dotLanes(linear0(r[s]), linear0(r[t]))),
                                            _mm256_mul_pd(as0, dotLanes(r[s].ang0, r[t].ang0))),
                              _mm256_mul_pd(ls1, dotLanes(linear1(r[s]), linear1(r[t])))),
                _mm256_mul_pd(as1, dotLanes(r[s].ang1, r[t].ang1)));
            _mm256_store_pd(K[couplingIndex(s, t)].k, _mm256_mul_pd(_mm256_load_pd(r[s].vMul), k));
        }
}

}  // namespace

namespace {

/// A row slot's 4 rows as solver/block.h takes them.
template <class Lanes>
block::Jacobian<Lane4> jacobianOf(const Lanes& r) {
    auto v3 = [](const double(&v)[3][kLanes]) {
        return block::V3<Lane4>{_mm256_load_pd(v[0]), _mm256_load_pd(v[1]), _mm256_load_pd(v[2])};
    };
    return {v3(linear0(r)), v3(r.ang0), v3(linear1(r)), v3(r.ang1)};
}

/// The blocks of the lanes whose block starts at `start` with n rows (blocksOf in
/// solver/fast/pgs.cpp, 4 lanes at once): gains where K is regular, the couplings inside the
/// block zeroed there; the other lanes of the group lose their block.
template <class Lanes>
void blockGroup(Batch& bt, const Lanes* r, CouplingLanes* K, BlockLanes& G, int start, int n, __m256d group) {
    block::Jacobian<Lane4> j[kMaxBlockRows];
    for (int i = 0; i < n; ++i) j[i] = jacobianOf(r[start + i]);
    const block::Scales<Lane4> m{_mm256_load_pd(bt.linScale0), _mm256_load_pd(bt.angScale0),
                                 _mm256_load_pd(bt.linScale1), _mm256_load_pd(bt.angScale1)};
    const block::Sym3<Lane4> k = block::responseMatrix(j, n, m);
    const block::Inverse<Lane4> inv = block::invert(k);
    const __m256d ok = _mm256_and_pd(group, inv.ok.m);
    const block::Mat3<Lane4> gain = block::gain(inv.inv, k);
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c)
            _mm256_store_pd(G.gain[3 * i + c],
                            _mm256_blendv_pd(_mm256_load_pd(G.gain[3 * i + c]), gain.m[i][c].v, ok));
    for (int a = 1; a < n; ++a)
        for (int b = 0; b < a; ++b) {
            double* c = K[couplingIndex(start + a, start + b)].k;
            _mm256_store_pd(c, _mm256_andnot_pd(ok, _mm256_load_pd(c)));
        }
    const int lost = _mm256_movemask_pd(_mm256_andnot_pd(ok, group));
    for (int l = 0; l < kLanes; ++l)
        if (lost & (1 << l)) bt.blockSize[l] = 0;
}

template <class Lanes>
void blocksOf(Batch& bt, const Lanes* slots, CouplingLanes* couplings, BlockLanes* blocks) {
    const Lanes* r = slots + bt.firstSlot;
    CouplingLanes* K = couplings + bt.firstCoupling;
    BlockLanes& G = blocks[bt.firstBlock];
    for (int g = 0; g < 9; ++g) _mm256_store_pd(G.gain[g], _mm256_setzero_pd());
    // Lanes with the same block (first slot and size) at once: usually all of them.
    int left = 0;
    for (int l = 0; l < kLanes; ++l) left |= bt.blockSize[l] > 0 ? 1 << l : 0;
    while (left) {
        const int first = __builtin_ctz(static_cast<unsigned>(left));
        const int start = bt.blockStart[first], n = bt.blockSize[first];
        alignas(32) int64_t in[kLanes];
        int group = 0;
        for (int l = 0; l < kLanes; ++l) {
            const bool same = ((left >> l) & 1) && bt.blockStart[l] == start && bt.blockSize[l] == n;
            in[l] = same ? -1 : 0;
            group |= same ? 1 << l : 0;
        }
        left &= ~group;
        blockGroup(bt, r, K, G, start, n,
                   _mm256_castsi256_pd(_mm256_load_si256(reinterpret_cast<const __m256i*>(in))));
    }
    markBlockSlots(bt);
}

}  // namespace

void computeBlocksAvx2(Batch& bt, const RowLanes* slots, const HardLanes* hardSlots,
                       const LockLanes* lockSlots, CouplingLanes* couplings, BlockLanes* blocks) {
    withSlotLayout(bt.layout, slots, hardSlots, lockSlots,
                   [&](const auto* r) { blocksOf(bt, r, couplings, blocks); });
    _mm256_zeroupper();
}

void computeCouplingsAvx2(const Batch* batches, int count, const RowLanes* slots, const HardLanes* hardSlots,
                          const LockLanes* lockSlots, CouplingLanes* out) {
    for (int i = 0; i < count; ++i) {
        const Batch& bt = batches[i];
        withSlotLayout(bt.layout, slots, hardSlots, lockSlots,
                       [&](const auto* r) { couplingsOf(bt, r, out); });
    }
    _mm256_zeroupper();
}

}  // namespace jl::solver
