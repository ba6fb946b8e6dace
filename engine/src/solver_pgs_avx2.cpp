// The PGS batch kernel with AVX2: one __m256d holds one quantity of the 4 lanes of a batch
// (solver_batch.h). Compiled with -mavx2 (and without -mfma; -ffp-contract=off as everywhere), and
// only called after a run-time check (avx2Available), so the engine still runs on CPUs without it.
//
// Per lane it performs exactly the operations of solveBatchScalar (solver_pgs.cpp), in the same
// order: separate multiplies and adds, comparisons and blends for the clamp. Keep the two in step.
//
// A batch's body velocities are loaded once (a 4×4 transpose of the bodies' {x, y, z, pad}
// halves), kept in registers over all of its row slots, and stored back once.
#include <immintrin.h>

#include "solver_batch.h"

namespace jl::solver {

namespace {

struct Vec3x4 {
    __m256d x, y, z;
};

/// The {x, y, z, pad} quadruples at the four pointers, as x, y, z vectors over the lanes.
inline Vec3x4 load4(const double* p0, const double* p1, const double* p2, const double* p3) {
    const __m256d r0 = _mm256_load_pd(p0), r1 = _mm256_load_pd(p1), r2 = _mm256_load_pd(p2), r3 = _mm256_load_pd(p3);
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1);  // x0 x1 z0 z1
    const __m256d t1 = _mm256_unpackhi_pd(r0, r1);  // y0 y1 w0 w1
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3);  // x2 x3 z2 z3
    const __m256d t3 = _mm256_unpackhi_pd(r2, r3);  // y2 y3 w2 w3
    return {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
            _mm256_permute2f128_pd(t0, t2, 0x31)};
}

/// The inverse of load4 (pads written as 0), stored lane 0 first as the scalar kernel does.
inline void store4(double* p0, double* p1, double* p2, double* p3, const Vec3x4& v) {
    const __m256d w = _mm256_setzero_pd();
    const __m256d t0 = _mm256_unpacklo_pd(v.x, v.y);  // x0 y0 x2 y2
    const __m256d t1 = _mm256_unpackhi_pd(v.x, v.y);  // x1 y1 x3 y3
    const __m256d t2 = _mm256_unpacklo_pd(v.z, w);    // z0 0 z2 0
    const __m256d t3 = _mm256_unpackhi_pd(v.z, w);    // z1 0 z3 0
    _mm256_store_pd(p0, _mm256_permute2f128_pd(t0, t2, 0x20));
    _mm256_store_pd(p1, _mm256_permute2f128_pd(t1, t3, 0x20));
    _mm256_store_pd(p2, _mm256_permute2f128_pd(t0, t2, 0x31));
    _mm256_store_pd(p3, _mm256_permute2f128_pd(t1, t3, 0x31));
}

/// (j.x·v.x + j.y·v.y) + j.z·v.z per lane.
inline __m256d dot(const double (&j)[3][kLanes], const Vec3x4& v) {
    const __m256d xy = _mm256_add_pd(_mm256_mul_pd(_mm256_load_pd(j[0]), v.x), _mm256_mul_pd(_mm256_load_pd(j[1]), v.y));
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

__m256d solveBatch(const Batch& bt, RowLanes* slots, double* bodies, bool biased, __m256d residual) {
    double* a[kLanes];
    double* b[kLanes];
    for (int l = 0; l < kLanes; ++l) {
        a[l] = bodies + 8 * bt.body0[l];
        b[l] = bodies + 8 * bt.body1[l];
    }
    Vec3x4 av = load4(a[0], a[1], a[2], a[3]);
    Vec3x4 aw = load4(a[0] + 4, a[1] + 4, a[2] + 4, a[3] + 4);
    Vec3x4 bv = load4(b[0], b[1], b[2], b[3]);
    Vec3x4 bw = load4(b[0] + 4, b[1] + 4, b[2] + 4, b[3] + 4);
    const __m256d ls0 = _mm256_load_pd(bt.linScale0), as0 = _mm256_load_pd(bt.angScale0);
    const __m256d ls1 = _mm256_load_pd(bt.linScale1), as1 = _mm256_load_pd(bt.angScale1);
    const __m256d zero = _mm256_setzero_pd();
    RowLanes* r = slots + bt.firstSlot;
    for (int s = 0; s < bt.slotCount; ++s, ++r) {
        // J⁽ᵐ⁾·Δv⁽ᵐ⁾ (F 62, 64)
        const __m256d vel = _mm256_sub_pd(_mm256_sub_pd(_mm256_add_pd(dot(r->lin0, av), dot(r->ang0, aw)), dot(r->lin1, bv)),
                                          dot(r->ang1, bw));
        const __m256d c = _mm256_load_pd(biased ? r->constant : r->unbiasedConstant);
        const __m256d acc = _mm256_load_pd(r->accum);
        // F 63–65, D 20–22
        __m256d na = _mm256_add_pd(_mm256_add_pd(c, _mm256_mul_pd(_mm256_load_pd(r->vMul), vel)),
                                   _mm256_mul_pd(_mm256_load_pd(r->impulseMul), acc));
        const __m256d lo = _mm256_load_pd(r->minImpulse), hi = _mm256_load_pd(r->maxImpulse);
        // na < lo ? lo : (na > hi ? hi : na)
        const __m256d upper = _mm256_blendv_pd(na, hi, _mm256_cmp_pd(na, hi, _CMP_GT_OQ));
        na = _mm256_blendv_pd(upper, lo, _mm256_cmp_pd(na, lo, _CMP_LT_OQ));
        const __m256d resp = _mm256_load_pd(r->response);
        const __m256d active = _mm256_cmp_pd(resp, zero, _CMP_GT_OQ);
        const __m256d dl = _mm256_and_pd(active, _mm256_sub_pd(na, acc));
        _mm256_store_pd(r->accum, _mm256_blendv_pd(acc, na, active));
        // F 24, 60–61
        addScaled(av, _mm256_mul_pd(dl, ls0), r->lin0);
        addScaled(aw, _mm256_mul_pd(dl, as0), r->ang0);
        subScaled(bv, _mm256_mul_pd(dl, ls1), r->lin1);
        subScaled(bw, _mm256_mul_pd(dl, as1), r->ang1);
        const __m256d rr = _mm256_mul_pd(dl, resp);
        residual = _mm256_add_pd(residual, _mm256_mul_pd(rr, rr));
    }
    store4(a[0], a[1], a[2], a[3], av);
    store4(a[0] + 4, a[1] + 4, a[2] + 4, a[3] + 4, aw);
    store4(b[0], b[1], b[2], b[3], bv);
    store4(b[0] + 4, b[1] + 4, b[2] + 4, b[3] + 4, bw);
    return residual;
}

}  // namespace

void sweepBatchesAvx2(const Batch* batches, int begin, int end, RowLanes* slots, double* bodies, bool biased,
                      LaneSums& residual) {
    __m256d res = _mm256_load_pd(residual.v);
    for (int i = begin; i < end; ++i) {
        const Batch& bt = batches[i];
        if (bt.contact || bt.laneCount == 1) {  // friction bounds depend on slot 0, or a single
                                                 // joint: the plain kernel (same results)
            _mm256_store_pd(residual.v, res);
            sweepBatchesScalar(batches, i, i + 1, slots, bodies, biased, residual);
            res = _mm256_load_pd(residual.v);
            continue;
        }
        res = solveBatch(bt, slots, bodies, biased, res);
    }
    _mm256_store_pd(residual.v, res);
}

}  // namespace jl::solver
