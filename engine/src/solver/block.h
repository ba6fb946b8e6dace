// JointLab engine — a block of rows solved jointly (Row::blockSize): a point constraint's two or
// three linear rows as one small linear system instead of one row after another
// (docs/solvers.md "Block-solved point constraints"; Jolt's PointConstraintPart, Box2D v3's
// revolute joint in 2D). Written once, as templates on a lane type L like
// joints/parts/lock_parts.h:
//
//   L = double      the reference kernel, the plain batch kernels and the set-up
//   L = 4 lanes     the AVX2 kernels (solver/fast/avx2.h Lane4)
//
// Only L's operations are used: +, −, ×, /, L(double), and isNegative(x) (a mask) found for L.
//
// The maths. The rows s, t of a block share both bodies; with J⁽ᵐ⁾ the momocity Jacobians and the
// joint's mass scales,
//
//   K_st = J_s M⁻¹ J_tᵀ = ((ls0·(μ0_s·μ0_t) + as0·(κ0_s·κ0_t)) + ls1·(μ1_s·μ1_t)) + as1·(κ1_s·κ1_t)
//
// (F 21 for s = t: K_ss is the row's unit response r_s, bit for bit). One Gauss–Seidel visit of row s
// asks for the impulse change d_s = −(J_s·v + b_s − v_T,s)/K_ss, ignoring the others; the block
// asks for all of them at once:
//
//   Δλ = K⁻¹·(−(J·v + b − v_T)) = K⁻¹·diag(K)·d
//
// which leaves every row of the block satisfied (J·v + b = v_T) after one visit. Equality rows have
// no bounds, so this is exact (the kernels still clamp each row to ±kMaxRowVelocityChange/r).
// A block of two is padded to 3×3 with K_22 = 1 and zeros off the diagonal. K⁻¹ = adj(K)/det(K);
// K is symmetric positive semi-definite, and singular only when the bodies cannot move the anchor
// along some direction (a mass scale of 0 with the inertia scale kept, say). Then, or when it is
// that close to it that det(K) ≤ kBlockMinDeterminant·K_00·K_11·K_22 (or not finite), the block
// is solved row by row as without blocks: invert() says so, for every lane on its own, the same
// way in every kernel (the same K to the bit gives the same decision).
//
// PGS keeps K over the step (its Jacobians do not change) and stores the gain G = K⁻¹·diag(K) at
// set-up: Δλ = G·d, with d what the 1D kernels compute anyway. TGS rebuilds K from the refreshed
// lever arms at every visit (F 66) and applies K⁻¹ to −(J·v + b − v_T).
//
// Plain C++ without glm: the AVX2 translation units include it.
#pragma once

namespace jl::solver {
/// Rows a block may have (jl::kMaxBlockRows in jointlab/row.h, which the AVX2 code cannot include).
inline constexpr int kMaxBlockRows = 3;
}  // namespace jl::solver

namespace jl::solver::block {

/// L = double's mask function (a lane type brings its own, found by argument-dependent lookup).
inline bool isNegative(double x) {
    return x < 0;
}

/// det(K) at most this times the product of K's diagonal: the block is solved row by row. A
/// legitimate block is far above it: a 5 cm ball on a 3 m lever (β = m·r²/I ≈ 10⁴) gives about
/// 10⁻⁴ when the lever lies along no axis of the rows; a block that cannot move along some
/// direction gives rounding, about 10⁻¹⁶.
inline constexpr double kBlockMinDeterminant = 1e-10;

template <class L>
struct V3 {
    L x, y, z;
};
/// glm::dot's order: (a.x·b.x + a.y·b.y) + a.z·b.z.
template <class L>
inline L dot(const V3<L>& a, const V3<L>& b) {
    return (a.x * b.x + a.y * b.y) + a.z * b.z;
}

/// One row's momocity Jacobian J⁽ᵐ⁾ (solver.h SolverRow: lin0, angM0, lin1, angM1).
template <class L>
struct Jacobian {
    V3<L> lin0, ang0, lin1, ang1;
};
/// The joint's invMass·invMassScale and invInertiaScale of each body (0 if not dynamic).
template <class L>
struct Scales {
    L lin0, ang0, lin1, ang1;
};

/// K_st = J_s M⁻¹ J_tᵀ, in the order the row set-up sums a unit response (F 21).
template <class L>
inline L coupling(const Jacobian<L>& s, const Jacobian<L>& t, const Scales<L>& m) {
    return ((m.lin0 * dot(s.lin0, t.lin0) + m.ang0 * dot(s.ang0, t.ang0)) + m.lin1 * dot(s.lin1, t.lin1)) +
           m.ang1 * dot(s.ang1, t.ang1);
}

/// A symmetric 3×3 matrix: K, or K⁻¹.
template <class L>
struct Sym3 {
    L m00, m01, m02, m11, m12, m22;
};

/// K of a block of n = 2 or 3 rows j[0 … n − 1] (a block of two padded: K_22 = 1).
template <class L>
inline Sym3<L> responseMatrix(const Jacobian<L>* j, int n, const Scales<L>& m) {
    const L zero(0.0);
    const bool three = n == 3;
    return {coupling(j[0], j[0], m),
            coupling(j[0], j[1], m),
            three ? coupling(j[0], j[2], m) : zero,
            coupling(j[1], j[1], m),
            three ? coupling(j[1], j[2], m) : zero,
            three ? coupling(j[2], j[2], m) : L(1.0)};
}

/// Row i of the symmetric K (what the reference kernel reports of a block visit, RowVisit::blockK).
template <class L>
inline void row(const Sym3<L>& k, int i, L* out) {
    const L r0[3] = {k.m00, k.m01, k.m02}, r1[3] = {k.m01, k.m11, k.m12}, r2[3] = {k.m02, k.m12, k.m22};
    const L* r = i == 0 ? r0 : (i == 1 ? r1 : r2);
    for (int c = 0; c < 3; ++c) out[c] = r[c];
}

/// K⁻¹ = adj(K)/det(K), and per lane whether K is regular enough to use it (else: row by row).
template <class L>
struct Inverse {
    Sym3<L> inv;
    decltype(isNegative(L(0.0))) ok;
};
template <class L>
inline Inverse<L> invert(const Sym3<L>& k) {
    const L a00 = k.m11 * k.m22 - k.m12 * k.m12;
    const L a01 = k.m02 * k.m12 - k.m01 * k.m22;
    const L a02 = k.m01 * k.m12 - k.m02 * k.m11;
    const L a11 = k.m00 * k.m22 - k.m02 * k.m02;
    const L a12 = k.m01 * k.m02 - k.m00 * k.m12;
    const L a22 = k.m00 * k.m11 - k.m01 * k.m01;
    const L det = (k.m00 * a00 + k.m01 * a01) + k.m02 * a02;
    const L floor = L(kBlockMinDeterminant) * ((k.m00 * k.m11) * k.m22);
    const L r = L(1.0) / det;  // (a singular lane's value is never used)
    // det > floor, false for NaN (and for ∞ − ∞): isNegative(floor − det)
    return {{a00 * r, a01 * r, a02 * r, a11 * r, a12 * r, a22 * r}, isNegative(floor - det)};
}

/// A 3×3 matrix, row after row.
template <class L>
struct Mat3 {
    L m[3][3];
};

/// PGS's gain G = K⁻¹·diag(K): G_ik = K⁻¹_ik·K_kk, so that Δλ = G·d (d: the rows' 1D impulse changes).
template <class L>
inline Mat3<L> gain(const Sym3<L>& inv, const Sym3<L>& k) {
    return {{{inv.m00 * k.m00, inv.m01 * k.m11, inv.m02 * k.m22},
             {inv.m01 * k.m00, inv.m11 * k.m11, inv.m12 * k.m22},
             {inv.m02 * k.m00, inv.m12 * k.m11, inv.m22 * k.m22}}};
}

/// G·d, row after row in glm's order: (G_i0·d0 + G_i1·d1) + G_i2·d2.
template <class L>
inline V3<L> apply(const Mat3<L>& g, const V3<L>& d) {
    return {(g.m[0][0] * d.x + g.m[0][1] * d.y) + g.m[0][2] * d.z,
            (g.m[1][0] * d.x + g.m[1][1] * d.y) + g.m[1][2] * d.z,
            (g.m[2][0] * d.x + g.m[2][1] * d.y) + g.m[2][2] * d.z};
}
/// K⁻¹·c for a symmetric K⁻¹ (TGS: c = −(J·v + b − v_T)), in the same order.
template <class L>
inline V3<L> apply(const Sym3<L>& s, const V3<L>& c) {
    return {(s.m00 * c.x + s.m01 * c.y) + s.m02 * c.z, (s.m01 * c.x + s.m11 * c.y) + s.m12 * c.z,
            (s.m02 * c.x + s.m12 * c.y) + s.m22 * c.z};
}

}  // namespace jl::solver::block
