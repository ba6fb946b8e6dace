// The PGS set-up of joint row slots with AVX2, 4 rows of 4 joints at once (solver/fast/batch.h):
// setupHardRowsAvx2 for rows a joint's prep wrote, prepLockBatchAvx2 for a batch of joints made
// of lock parts only, whose rows it builds with the joints' own lock parts
// (joints/parts/lock_parts.h) on a 4-lane type, then sets up without writing them.
// Compiled with -mavx2 -mno-fma as pgs_avx2.cpp (see the notes at its top: the same operations
// as the plain code in the same order per lane, and vzeroupper before returning).
#include <immintrin.h>

#include <bit>

#include "joints/parts/lock_parts.h"
#include "solver/fast/avx2.h"
#include "solver/fast/batch.h"

namespace jl::solver {

namespace {

/// A batch's bodies as the set-up reads them, transposed once per batch: I^-½ (loadMat3), and
/// v_pre then ω_pre (HardRowsIn::pre0: 6 doubles in a row, so ω_pre is elements 3–5) of each side.
struct SetupBodies {
    __m256d invI0[9], invI1[9], pre0[8], pre1[8];

    SetupBodies(const double* const i0[kLanes], const double* const i1[kLanes],
                const double* const p0[kLanes], const double* const p1[kLanes]) {
        loadMat3(i0, invI0);
        loadMat3(i1, invI1);
        transpose4(p0[0], p0[1], p0[2], p0[3], pre0);
        transpose4(p0[0] + 4, p0[1] + 4, p0[2] + 4, p0[3] + 4, pre0 + 4);
        transpose4(p1[0], p1[1], p1[2], p1[3], pre1);
        transpose4(p1[0] + 4, p1[1] + 4, p1[2] + 4, p1[3] + 4, pre1 + 4);
    }
};

/// The set-up of one row slot from its rows in registers. Row: j[0..2] μ0, j[3..5] κ0,
/// j[6..8] linear1, j[9..11] angular1, j[12] C, j[13] v_T, j[14, 15] bounds.
__attribute__((always_inline)) inline int setupSlot(const Batch& bt, const __m256d* j, const SetupBodies& B,
                                                    __m256d erp, __m256d keepBias, double h,
                                                    const SlotOut& out, double* response) {
    __m256d angM0[3], angM1[3];
    mulMat3(B.invI0, j + 3, angM0);  // F 55
    mulMat3(B.invI1, j + 9, angM1);  // F 56
    // r = J M⁻¹ Jᵀ with the mass scales (F 21, 31), summed in computeSetup's order
    const __m256d ls0 = _mm256_load_pd(bt.linScale0), as0 = _mm256_load_pd(bt.angScale0);
    const __m256d ls1 = _mm256_load_pd(bt.linScale1), as1 = _mm256_load_pd(bt.angScale1);
    const __m256d resp = _mm256_add_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ls0, dot3(j, j)), _mm256_mul_pd(as0, dot3(angM0, angM0))),
                      _mm256_mul_pd(ls1, dot3(j + 6, j + 6))),
        _mm256_mul_pd(as1, dot3(angM1, angM1)));
    _mm256_storeu_pd(response, resp);
    // active: r > kMinResponse and finite
    const __m256d active = _mm256_and_pd(_mm256_cmp_pd(resp, _mm256_set1_pd(kMinResponse), _CMP_GT_OQ),
                                         _mm256_cmp_pd(resp, _mm256_set1_pd(__builtin_inf()), _CMP_LT_OQ));
    const __m256d recip = _mm256_div_pd(_mm256_set1_pd(1.0), resp);
    // J·v_pre with plain angular velocities (F 18, 22)
    const __m256d* p0 = B.pre0;
    const __m256d* p1 = B.pre1;
    const __m256d vPre = _mm256_sub_pd(
        _mm256_sub_pd(_mm256_add_pd(dot3(j, p0), dot3(j + 3, p0 + 3)), dot3(j + 6, p1)), dot3(j + 9, p1 + 3));
    const __m256d sign = _mm256_set1_pd(-0.0);
    const __m256d vT = j[13];
    const __m256d bias = _mm256_div_pd(_mm256_mul_pd(erp, j[12]), _mm256_set1_pd(h));  // F 11
    // F 65: −((bias − v_T) + J·v_pre)/r; velocity iterations −(−v_T + J·v_pre)/r unless the bias is kept
    const __m256d constant =
        _mm256_mul_pd(_mm256_xor_pd(sign, _mm256_add_pd(_mm256_sub_pd(bias, vT), vPre)), recip);
    const __m256d unbiased =
        _mm256_mul_pd(_mm256_xor_pd(sign, _mm256_add_pd(_mm256_xor_pd(sign, vT), vPre)), recip);
    const __m256d keep = _mm256_cmp_pd(keepBias, _mm256_setzero_pd(), _CMP_NEQ_OQ);
    const __m256d vMul = _mm256_and_pd(active, _mm256_xor_pd(sign, recip));  // F 63
    const __m256d unbiasedKept = _mm256_and_pd(active, _mm256_blendv_pd(unbiased, constant, keep));
    // bounds: within ±kMaxRowVelocityChange/r on active lanes (computeSetup's solveMin/solveMax)
    const __m256d cap = _mm256_mul_pd(_mm256_set1_pd(kMaxRowVelocityChange), recip);
    const __m256d negCap = _mm256_xor_pd(sign, cap);
    const __m256d lo = _mm256_blendv_pd(j[14], _mm256_min_pd(_mm256_max_pd(j[14], negCap), cap), active);
    const __m256d hi = _mm256_blendv_pd(j[15], _mm256_min_pd(_mm256_max_pd(j[15], negCap), cap), active);
    // The compact layouts: linear1 and the impulse multiplier are implied (and, for a lock row,
    // the bounds).
    auto storeCompact = [&](auto& K) {
        for (int k = 0; k < 3; ++k) {
            _mm256_store_pd(K.lin[k], _mm256_and_pd(active, j[k]));
            _mm256_store_pd(K.ang0[k], _mm256_and_pd(active, angM0[k]));
            _mm256_store_pd(K.ang1[k], _mm256_and_pd(active, angM1[k]));
        }
        _mm256_store_pd(K.constant, _mm256_and_pd(active, constant));
        _mm256_store_pd(K.unbiasedConstant, unbiasedKept);
        _mm256_store_pd(K.vMul, vMul);
        _mm256_store_pd(K.accum, _mm256_setzero_pd());
        _mm256_store_pd(K.response, _mm256_and_pd(active, resp));
        return _mm256_movemask_pd(active);
    };
    if (out.full) {  // storeLane: an inactive lane keeps zeros (and its bounds)
        RowLanes& L = *out.full;
        for (int k = 0; k < 3; ++k) {
            _mm256_store_pd(L.lin0[k], _mm256_and_pd(active, j[k]));
            _mm256_store_pd(L.ang0[k], _mm256_and_pd(active, angM0[k]));
            _mm256_store_pd(L.lin1[k], _mm256_and_pd(active, j[6 + k]));
            _mm256_store_pd(L.ang1[k], _mm256_and_pd(active, angM1[k]));
        }
        _mm256_store_pd(L.constant, _mm256_and_pd(active, constant));
        _mm256_store_pd(L.unbiasedConstant, unbiasedKept);
        _mm256_store_pd(L.vMul, vMul);
        _mm256_store_pd(L.impulseMul, _mm256_and_pd(active, _mm256_set1_pd(1.0)));
        _mm256_store_pd(L.minImpulse, lo);
        _mm256_store_pd(L.maxImpulse, hi);
        _mm256_store_pd(L.accum, _mm256_setzero_pd());
        _mm256_store_pd(L.response, _mm256_and_pd(active, resp));
        return _mm256_movemask_pd(active);
    }
    if (out.hard) {
        _mm256_store_pd(out.hard->minImpulse, lo);
        _mm256_store_pd(out.hard->maxImpulse, hi);
        return storeCompact(*out.hard);
    }
    return storeCompact(*out.lock);
}

/// A transform's position (x, y, z) and orientation (x, y, z, w) per lane, from jl::Transform
/// records (7 doubles: p then q in glm's x, y, z, w storage).
inline void loadTransforms(const double* const t[kLanes], __m256d* p, __m256d* q) {
    __m256d a[4];
    transpose4(t[0], t[1], t[2], t[3], a);                  // p.x p.y p.z q.x
    transpose4(t[0] + 3, t[1] + 3, t[2] + 3, t[3] + 3, q);  // q.x q.y q.z q.w
    p[0] = a[0], p[1] = a[1], p[2] = a[2];
}

}  // namespace

int setupHardRowsAvx2(const Batch& bt, const HardRowsIn& in, double h, const SlotOut& out, double* response) {
    __m256d j[16];
    for (int c = 0; c < 4; ++c)
        transpose4(in.row[0] + 4 * c, in.row[1] + 4 * c, in.row[2] + 4 * c, in.row[3] + 4 * c, j + 4 * c);
    const SetupBodies B(in.invI0, in.invI1, in.pre0, in.pre1);
    const int active =
        setupSlot(bt, j, B, _mm256_load_pd(in.erp), _mm256_load_pd(in.keepBias), h, out, response);
    _mm256_zeroupper();  // the caller is plain SSE code (see the note at the top)
    return active;
}

int setupTgsRowsAvx2(const Batch& bt, const TgsRowsIn& in, TgsLanes& L, double* response) {
    __m256d j[16];
    for (int c = 0; c < 4; ++c)
        transpose4(in.row[0] + 4 * c, in.row[1] + 4 * c, in.row[2] + 4 * c, in.row[3] + 4 * c, j + 4 * c);
    __m256d invI0[9], invI1[9];
    loadMat3(in.invI0, invI0);
    loadMat3(in.invI1, invI1);
    __m256d angM0[3], angM1[3];
    mulMat3(invI0, j + 3, angM0);  // F 55
    mulMat3(invI1, j + 9, angM1);  // F 56
    // r = J M⁻¹ Jᵀ with the mass scales (F 21, 31), summed in computeSetup's order; its linear
    // terms are the lane's linResponse0, linResponse1
    const __m256d ls0 = _mm256_load_pd(bt.linScale0), as0 = _mm256_load_pd(bt.angScale0);
    const __m256d ls1 = _mm256_load_pd(bt.linScale1), as1 = _mm256_load_pd(bt.angScale1);
    const __m256d lin0 = _mm256_mul_pd(ls0, dot3(j, j)), lin1 = _mm256_mul_pd(ls1, dot3(j + 6, j + 6));
    const __m256d resp =
        _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(lin0, _mm256_mul_pd(as0, dot3(angM0, angM0))), lin1),
                      _mm256_mul_pd(as1, dot3(angM1, angM1)));
    _mm256_storeu_pd(response, resp);
    // active: r > kMinResponse and finite; an inactive row keeps its own bounds, erp and v_T 0
    const __m256d active = _mm256_and_pd(_mm256_cmp_pd(resp, _mm256_set1_pd(kMinResponse), _CMP_GT_OQ),
                                         _mm256_cmp_pd(resp, _mm256_set1_pd(__builtin_inf()), _CMP_LT_OQ));
    const __m256d zero = _mm256_setzero_pd();
    const __m256d real = _mm256_cmp_pd(_mm256_load_pd(in.real), zero, _CMP_NEQ_OQ);
    const __m256d angular = _mm256_cmp_pd(_mm256_load_pd(in.angular), zero, _CMP_NEQ_OQ);
    const __m256d keep = _mm256_cmp_pd(_mm256_load_pd(in.keepBias), zero, _CMP_NEQ_OQ);
    const __m256d recip = _mm256_div_pd(_mm256_set1_pd(1.0), resp);
    const __m256d cap = _mm256_mul_pd(_mm256_set1_pd(kMaxRowVelocityChange), recip);
    const __m256d negCap = _mm256_xor_pd(_mm256_set1_pd(-0.0), cap);
    const __m256d lo = _mm256_blendv_pd(j[14], _mm256_min_pd(_mm256_max_pd(j[14], negCap), cap), active);
    const __m256d hi = _mm256_blendv_pd(j[15], _mm256_min_pd(_mm256_max_pd(j[15], negCap), cap), active);
    // κ − r × μ: the angular part without lever arm, and I^-½ times it (angular rows: J⁽ᵐ⁾ itself)
    __m256d r0[3], r1[3], c0[3], c1[3], base0[3], base1[3], m0[3], m1[3];
    for (int k = 0; k < 3; ++k) r0[k] = _mm256_load_pd(in.r0[k]), r1[k] = _mm256_load_pd(in.r1[k]);
    cross3(r0, j, c0);
    cross3(r1, j + 6, c1);
    for (int k = 0; k < 3; ++k) {
        base0[k] = _mm256_sub_pd(j[3 + k], c0[k]);
        base1[k] = _mm256_sub_pd(j[9 + k], c1[k]);
    }
    mulMat3(invI0, base0, m0);
    mulMat3(invI1, base1, m1);
    // Padding lanes store zeros (and-ing with `real`: +0, whatever the static body's I^-½).
    const auto put = [&](double* to, __m256d v) { _mm256_store_pd(to, _mm256_and_pd(real, v)); };
    for (int k = 0; k < 3; ++k) {
        put(L.lin0[k], j[k]);
        put(L.lin1[k], j[6 + k]);
        put(L.ang0Base[k], base0[k]);
        put(L.ang1Base[k], base1[k]);
        put(L.baseM0[k], _mm256_blendv_pd(m0[k], angM0[k], angular));
        put(L.baseM1[k], _mm256_blendv_pd(m1[k], angM1[k], angular));
    }
    put(L.linResponse0, lin0);
    put(L.linResponse1, lin1);
    put(L.error0, j[12]);
    put(L.velTarget, _mm256_and_pd(active, j[13]));
    put(L.erp, _mm256_and_pd(active, _mm256_load_pd(in.erp)));
    put(L.minImpulse, lo);
    put(L.maxImpulse, hi);
    _mm256_store_pd(L.stiffness, zero);
    _mm256_store_pd(L.damping, zero);
    _mm256_store_pd(L.accum, zero);  // joint rows start from zero (no warm start)
    _mm256_store_pd(L.stepImpulse, zero);
    _mm256_store_pd(L.length0, zero);
    // kind: active (with keep-bias), angular whether active or not; padding 0
    const __m256i bits = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(_mm256_castpd_si256(active), _mm256_set1_epi64x(kTgsActive)),
                        _mm256_and_si256(_mm256_castpd_si256(_mm256_and_pd(real, angular)),
                                         _mm256_set1_epi64x(kTgsAngular))),
        _mm256_and_si256(_mm256_castpd_si256(_mm256_and_pd(active, keep)), _mm256_set1_epi64x(kTgsKeepBias)));
    _mm256_store_si256(reinterpret_cast<__m256i*>(L.kind), bits);
    const int on = _mm256_movemask_pd(active);
    _mm256_zeroupper();  // the caller is plain SSE code (see the note at the top)
    return on;
}

namespace {

/// Each lane's jl::Transform (7 doubles: p then q as x, y, z, w) as a pose of lanes.
inline parts::Pose<Lane4> loadPoses(const double* const t[kLanes]) {
    __m256d p[3], q[4];
    loadTransforms(t, p, q);
    return {{p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]}};
}

}  // namespace

int prepLockBatchAvx2(const Batch& bt, const LockPrepIn& in, double erp, double h, LockLanes* out) {
    // The joints' frames and lock rows: the parts their prep uses (PrepContext::make, rows::locks).
    const parts::Frames<Lane4> f =
        parts::frames(loadPoses(in.pose0), loadPoses(in.frame0), loadPoses(in.pose1), loadPoses(in.frame1));
    // Padding lanes: a row of zeros (as setupHardSlot's), so the slot holds what padLane writes.
    const __m128i ids = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bt.constraint));
    const __m256d real =
        _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_cvtepi32_epi64(ids), _mm256_set1_epi64x(-1)));
    const SetupBodies B(in.invI0, in.invI1, in.pre0, in.pre1);
    const __m256d zero = _mm256_setzero_pd(), inf = _mm256_set1_pd(__builtin_inf());
    const __m256d erpLanes = _mm256_and_pd(real, _mm256_set1_pd(erp));
    int slot = 0, active = 0;
    // Each row, as setupHardSlot takes a Row (linear0, angular0, linear1, angular1, C, v_T, bounds),
    // set up into the next lock slot (the sink always inlined: the rows stay in registers).
    parts::lockRows(
        in.parts, f, [&](const parts::Lock<Lane4>& r, int) __attribute__((always_inline)) {
            const parts::V3<Lane4>* v[4] = {&r.linear, &r.angular0, &r.linear, &r.angular1};
            __m256d j[16];
            for (int c = 0; c < 4; ++c) {
                j[3 * c + 0] = _mm256_and_pd(real, v[c]->x.v);
                j[3 * c + 1] = _mm256_and_pd(real, v[c]->y.v);
                j[3 * c + 2] = _mm256_and_pd(real, v[c]->z.v);
            }
            j[12] = _mm256_and_pd(real, r.error.v);
            j[13] = zero;  // v_T = 0, bounds ±∞
            j[14] = _mm256_and_pd(real, _mm256_xor_pd(_mm256_set1_pd(-0.0), inf));
            j[15] = _mm256_and_pd(real, inf);
            SlotOut o;
            o.lock = out + slot++;
            alignas(32) double response[kLanes];
            active +=
                std::popcount(static_cast<unsigned>(setupSlot(bt, j, B, erpLanes, zero, h, o, response)));
        });
    _mm256_zeroupper();
    return active;
}

}  // namespace jl::solver
