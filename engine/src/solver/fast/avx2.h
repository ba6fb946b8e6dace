// JointLab engine — AVX2 helpers shared by the batched kernels (solver/fast/pgs_avx2.cpp,
// solver/fast/couplings_avx2.cpp, solver/fast/tgs_avx2.cpp). Include ONLY from translation units
// compiled with -mavx2 -mno-fma: the helpers live in an anonymous namespace so that no copy of them
// compiled for AVX2 can be picked by the linker for code that must run on any x86-64.
//
// Every helper performs the scalar code's operations in the scalar code's order (glm's for dot,
// cross, Mat3·Vec3 and Quat·Vec3), one lane per element: the kernels stay bit-identical to their
// plain C++ twins.
#pragma once

#include <immintrin.h>

#include "solver/fast/batch.h"

namespace jl::solver {
namespace {

struct Vec3x4 {
    __m256d x, y, z;
};

/// The lane type the templates on a lane type (joints/parts/lock_parts.h, solver/block.h) run on in
/// the AVX2 kernels: 4 doubles, one per joint of a batch. Its operations are the scalar ones per
/// lane (no fused multiply-add; negation flips the sign bit as the scalar negation does; IEEE
/// division), so each lane gets the bits the template gives with L = double for its joint.
struct Lane4 {
    __m256d v;
    Lane4() = default;
    Lane4(__m256d x) : v(x) {}
    explicit Lane4(double s) : v(_mm256_set1_pd(s)) {}
};
struct Mask4 {
    __m256d m;
};
[[gnu::always_inline]] inline Lane4 operator+(Lane4 a, Lane4 b) {
    return _mm256_add_pd(a.v, b.v);
}
[[gnu::always_inline]] inline Lane4 operator-(Lane4 a, Lane4 b) {
    return _mm256_sub_pd(a.v, b.v);
}
[[gnu::always_inline]] inline Lane4 operator*(Lane4 a, Lane4 b) {
    return _mm256_mul_pd(a.v, b.v);
}
[[gnu::always_inline]] inline Lane4 operator/(Lane4 a, Lane4 b) {
    return _mm256_div_pd(a.v, b.v);
}
[[gnu::always_inline]] inline Lane4 operator-(Lane4 a) {
    return _mm256_xor_pd(_mm256_set1_pd(-0.0), a.v);
}
[[gnu::always_inline]] inline Mask4 isNegative(Lane4 a) {
    return {_mm256_cmp_pd(a.v, _mm256_setzero_pd(), _CMP_LT_OQ)};
}
[[gnu::always_inline]] inline Lane4 select(Mask4 m, Lane4 a, Lane4 b) {
    return _mm256_blendv_pd(b.v, a.v, m.m);
}

/// The {x, y, z, pad} quadruples at the four pointers, as x, y, z vectors over the lanes.
inline Vec3x4 load4(const double* p0, const double* p1, const double* p2, const double* p3) {
    const __m256d r0 = _mm256_load_pd(p0), r1 = _mm256_load_pd(p1), r2 = _mm256_load_pd(p2),
                  r3 = _mm256_load_pd(p3);
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

/// The linear and angular parts of the body records (solver::Body layout) at the four pointers.
inline void loadBodies4(double* const p[kLanes], Vec3x4& v, Vec3x4& w) {
    v = load4(p[0], p[1], p[2], p[3]);
    w = load4(p[0] + 4, p[1] + 4, p[2] + 4, p[3] + 4);
}

/// The inverse of loadBodies4, lane 0 first (as the plain kernels store them).
inline void storeBodies4(double* const p[kLanes], const Vec3x4& v, const Vec3x4& w) {
    store4(p[0], p[1], p[2], p[3], v);
    store4(p[0] + 4, p[1] + 4, p[2] + 4, p[3] + 4, w);
}

/// Four consecutive doubles at each lane's pointer, transposed: out[k] holds element k of the
/// four lanes (lane 0 in the lowest element).
inline void transpose4(const double* p0, const double* p1, const double* p2, const double* p3,
                       __m256d out[4]) {
    const __m256d r0 = _mm256_loadu_pd(p0), r1 = _mm256_loadu_pd(p1), r2 = _mm256_loadu_pd(p2),
                  r3 = _mm256_loadu_pd(p3);
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1);  // a0 a1 c0 c1
    const __m256d t1 = _mm256_unpackhi_pd(r0, r1);  // b0 b1 d0 d1
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3);  // a2 a3 c2 c3
    const __m256d t3 = _mm256_unpackhi_pd(r2, r3);  // b2 b3 d2 d3
    out[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    out[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    out[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/// The same for four vectors in registers: out[l] holds lane l of v[0..3] (the inverse of
/// transpose4 after a load).
inline void transpose4(const __m256d* v, __m256d out[4]) {
    const __m256d t0 = _mm256_unpacklo_pd(v[0], v[1]);  // a0 b0 a2 b2
    const __m256d t1 = _mm256_unpackhi_pd(v[0], v[1]);  // a1 b1 a3 b3
    const __m256d t2 = _mm256_unpacklo_pd(v[2], v[3]);  // c0 d0 c2 d2
    const __m256d t3 = _mm256_unpackhi_pd(v[2], v[3]);  // c1 d1 c3 d3
    out[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    out[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    out[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/// (a.x·b.x + a.y·b.y) + a.z·b.z per lane: glm::dot's order.
inline __m256d dot3(const __m256d* a, const __m256d* b) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a[0], b[0]), _mm256_mul_pd(a[1], b[1])),
                         _mm256_mul_pd(a[2], b[2]));
}

/// The 9 elements of each lane's column-major 3×3 matrix, transposed: e[3c + r] = M[c][r]
/// (element 3c + r of the lane's 9 doubles).
inline void loadMat3(const double* const m[kLanes], __m256d* e) {
    transpose4(m[0], m[1], m[2], m[3], e);
    transpose4(m[0] + 4, m[1] + 4, m[2] + 4, m[3] + 4, e + 4);
    e[8] = _mm256_set_pd(m[3][8], m[2][8], m[1][8], m[0][8]);
}

/// M·v per lane (F 55–56: I^-½·κ) in glm's order for Mat3 · Vec3: row r = (M[0][r]·x + M[1][r]·y) +
/// M[2][r]·z, with M's elements from loadMat3.
inline void mulMat3(const __m256d* e, const __m256d* v, __m256d* out) {
    for (int r = 0; r < 3; ++r)
        out[r] = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(e[r], v[0]), _mm256_mul_pd(e[3 + r], v[1])),
                               _mm256_mul_pd(e[6 + r], v[2]));
}

/// glm::cross's operations per lane.
inline void cross3(const __m256d* x, const __m256d* y, __m256d* out) {
    out[0] = _mm256_sub_pd(_mm256_mul_pd(x[1], y[2]), _mm256_mul_pd(y[1], x[2]));
    out[1] = _mm256_sub_pd(_mm256_mul_pd(x[2], y[0]), _mm256_mul_pd(y[2], x[0]));
    out[2] = _mm256_sub_pd(_mm256_mul_pd(x[0], y[1]), _mm256_mul_pd(y[0], x[1]));
}

/// q·v per lane (q[0..3] = x, y, z, w), as glm computes it: v + ((q×v)·w + q×(q×v))·2.
inline void rotate(const __m256d* q, const __m256d* v, __m256d* out) {
    __m256d uv[3], uuv[3];
    cross3(q, v, uv);
    cross3(q, uv, uuv);
    const __m256d two = _mm256_set1_pd(2.0);
    for (int k = 0; k < 3; ++k)
        out[k] = _mm256_add_pd(v[k], _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(uv[k], q[3]), uuv[k]), two));
}

/// p·q per lane (x, y, z, w), in glm's order (type_quat.inl operator*=).
inline void quatMul(const __m256d* p, const __m256d* q, __m256d* out) {
    const auto m = [](__m256d a, __m256d b) { return _mm256_mul_pd(a, b); };
    const __m256d x = p[0], y = p[1], z = p[2], w = p[3];
    out[3] = _mm256_sub_pd(_mm256_sub_pd(_mm256_sub_pd(m(w, q[3]), m(x, q[0])), m(y, q[1])), m(z, q[2]));
    out[0] = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(m(w, q[0]), m(x, q[3])), m(y, q[2])), m(z, q[1]));
    out[1] = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(m(w, q[1]), m(y, q[3])), m(z, q[0])), m(x, q[2]));
    out[2] = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(m(w, q[2]), m(z, q[3])), m(x, q[1])), m(y, q[0]));
}

}  // namespace
}  // namespace jl::solver
