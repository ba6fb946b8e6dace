// Lock parts: the equality rows that fixed, revolute, spherical, prismatic and D6 joints are built
// from, written once, as templates on a lane type L.
//
//   L = Real        one joint (the joint files, through joints/row_builder.h)
//   L = 4 lanes     four joints at once (solver/fast/setup_avx2.cpp: a type in an anonymous
//                   namespace of that -mavx2 translation unit, so its instantiations have internal
//                   linkage and cannot be mixed up with these)
//
// Only L's operations are used here: +, −, ×, unary −, L(double), and two free functions found
// for L — isNegative(x) (a mask) and select(mask, a, b) (a where the mask is set, else b). No
// glm: every operation below is the one glm performs, in glm's order (dot, cross, quat × vec3,
// quat × quat), so L = Real gives the bits glm gives and the 4-lane type gives them per lane.
//
// Conventions (jointlab/row.h): row velocity v = linear0·v0 + angular0·ω0 − linear1·v1 −
// angular1·ω1, C = geometricError with dC/dt = v. Every lock here has linear1 = linear0.
#pragma once

namespace jl::parts {

/// L = Real's two free functions (a 4-lane type brings its own, found by argument-dependent lookup).
inline bool isNegative(double x) {
    return x < 0;
}
inline double select(bool mask, double a, double b) {
    return mask ? a : b;
}

template <class L>
struct V3 {
    L x, y, z;
};
/// A quaternion, stored as glm stores it: x, y, z, w.
template <class L>
struct Q4 {
    L x, y, z, w;
};
/// A rigid transform: position then orientation (jl::Transform's layout).
template <class L>
struct Pose {
    V3<L> p;
    Q4<L> q;
};

template <class L>
inline V3<L> operator+(const V3<L>& a, const V3<L>& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class L>
inline V3<L> operator-(const V3<L>& a, const V3<L>& b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
/// glm::dot: (a.x·b.x + a.y·b.y) + a.z·b.z.
template <class L>
inline L dot(const V3<L>& a, const V3<L>& b) {
    return (a.x * b.x + a.y * b.y) + a.z * b.z;
}
/// glm::cross.
template <class L>
inline V3<L> cross(const V3<L>& a, const V3<L>& b) {
    return {a.y * b.z - b.y * a.z, a.z * b.x - b.z * a.x, a.x * b.y - b.x * a.y};
}
/// q·v as glm computes it: v + ((u × v)·w + u × (u × v))·2 with u = q.xyz.
template <class L>
inline V3<L> rotate(const Q4<L>& q, const V3<L>& v) {
    const V3<L> u{q.x, q.y, q.z};
    const V3<L> uv = cross(u, v), uuv = cross(u, uv);
    const L two(2.0);
    return {v.x + (uv.x * q.w + uuv.x) * two, v.y + (uv.y * q.w + uuv.y) * two,
            v.z + (uv.z * q.w + uuv.z) * two};
}
/// p·q as glm computes it (operator*=).
template <class L>
inline Q4<L> operator*(const Q4<L>& p, const Q4<L>& q) {
    return {
        ((p.w * q.x + p.x * q.w) + p.y * q.z) - p.z * q.y, ((p.w * q.y + p.y * q.w) + p.z * q.x) - p.x * q.z,
        ((p.w * q.z + p.z * q.w) + p.x * q.y) - p.y * q.x, ((p.w * q.w - p.x * q.x) - p.y * q.y) - p.z * q.z};
}
template <class L>
inline Q4<L> conjugate(const Q4<L>& q) {
    return {-q.x, -q.y, -q.z, q.w};
}
/// q or −q, whichever has w ≥ 0 (jl::positiveW).
template <class L>
inline Q4<L> positiveW(const Q4<L>& q) {
    const auto flip = isNegative(q.w);
    return {select(flip, -q.x, q.x), select(flip, -q.y, q.y), select(flip, -q.z, q.z),
            select(flip, -q.w, q.w)};
}
/// q·e_k (jl::basisX/Y/Z: glm's rotation of the unit vector, zeros and ones included).
template <class L>
inline V3<L> basis(const Q4<L>& q, int k) {
    const L zero(0.0), one(1.0);
    return rotate(q, V3<L>{k == 0 ? one : zero, k == 1 ? one : zero, k == 2 ? one : zero});
}

/// The world joint frames and lever arms (jl::PrepContext::make):
///   cA2w = body0·frame0 = {body0.p + body0.q·frame0.p, body0.q·frame0.q}, likewise cB2w;
///   r0 = cA2w.p − body0.p, r1 = cB2w.p − body1.p.
template <class L>
struct Frames {
    Pose<L> cA2w, cB2w;
    V3<L> r0, r1;
};
template <class L>
inline Frames<L> frames(const Pose<L>& body0, const Pose<L>& frame0, const Pose<L>& body1,
                        const Pose<L>& frame1) {
    Frames<L> f;
    f.cA2w = {body0.p + rotate(body0.q, frame0.p), body0.q * frame0.q};
    f.cB2w = {body1.p + rotate(body1.q, frame1.p), body1.q * frame1.q};
    f.r0 = f.cA2w.p - body0.p;
    f.r1 = f.cB2w.p - body1.p;
    return f;
}

/// One equality lock row: J = {linear, angular0, linear, angular1} (linear1 = linear0), C = error.
template <class L>
struct Lock {
    V3<L> linear, angular0, angular1;
    L error;
};

/// Hard linear lock along world axis a through the two anchors (eq. 41–43), with d = cA2w.p − cB2w.p:
///   C = a·d,  J = {a, arm0 × a, a, r1 × a}.
/// arm0, body 0's lever arm, depends on what the joint locks (lockRows):
///   * the whole point (X, Y and Z): arm0 = r0. The three rows together ask the two anchors to move
///     as one, v0 + ω0 × r0 = v1 + ω1 × r1, whichever axes they are written along (Jolt's
///     PointConstraintPart, Box2D v3's revolute);
///   * one or two axes, the others free (a prismatic's slide, a D6's free axis): arm0 = r0 − d =
///     cB2w.p − body0.p, body 1's anchor (PhysX's ra = cB − bodyA, Jolt's and Box2D v3's slider
///     r1 + u). The axes turn with body 0, so dC/dt = a·ḋ + (ω0 × a)·d, and d is no longer an
///     error but the slide: with r0, a bead on a spinning rod loses the Coriolis part of the rod's
///     push (Prismatic.BeadOnASpinningRodSlidesOutAsCosh) and the pair's angular momentum is not
///     kept (Prismatic.FreeRodAndBeadKeepTheirAngularMomentum).
/// The references' eq. 41–43 assume the anchors coincide (d = 0), where the two agree.
template <class L>
inline Lock<L> linearLock(const V3<L>& arm0, const V3<L>& r1, const V3<L>& a, const V3<L>& d) {
    return {a, cross(arm0, a), cross(r1, a), dot(a, d)};
}
/// Hard angular lock about world axis a with the given error (eq. 33): J = {0, a, 0, a}.
template <class L>
inline Lock<L> angularLock(const V3<L>& a, const L& error) {
    const L zero(0.0);
    return {{zero, zero, zero}, a, a, error};
}

/// Which locks a joint has (bits): the linear locks along body 0's joint frame axes X, Y, Z,
/// the hinge lock (B's X axis kept on A's X axis: two rows) and the rotation lock (three rows).
enum LockPart : unsigned {
    kLockX = 1,
    kLockY = 2,
    kLockZ = 4,
    kLockPoint = kLockX | kLockY | kLockZ,
    kLockHinge = 8,
    kLockRotation = 16,
};
inline constexpr unsigned kLockPartMask = 31;
/// The rows those parts make (a hinge lock and a rotation lock never go together).
constexpr int lockRowCount(unsigned parts) {
    return ((parts & kLockX) ? 1 : 0) + ((parts & kLockY) ? 1 : 0) + ((parts & kLockZ) ? 1 : 0) +
           ((parts & kLockHinge) ? 2 : 0) + ((parts & kLockRotation) ? 3 : 0);
}
/// The point lock's linear rows form one block when there are two or three of them
/// (Row::blockSize): the solver may solve them jointly, Δλ = K⁻¹·(−(J·v + b)) with the 3×3
/// K = J M⁻¹ Jᵀ (solver/block.h). They share both anchors, so through a light body's rotational
/// inertia about a far anchor they are strongly coupled and one Gauss–Seidel sweep barely solves
/// them. Returns the block's size, 0 for fewer than two linear locks.
constexpr int pointBlockSize(unsigned parts) {
    const int n = ((parts & kLockX) ? 1 : 0) + ((parts & kLockY) ? 1 : 0) + ((parts & kLockZ) ? 1 : 0);
    return n >= 2 ? n : 0;
}
/// Where a lock row's label comes from: 0–2 the linear lock along X, Y, Z; 3–5 the angular lock
/// about X, Y, Z (the labels: row_builder.h kLockLabels).
inline constexpr int kAngularRow = 3;

/// The hinge lock: with m = ax × bx (A's and B's X axes; ≈ the rotation taking ax to bx),
///   rows about ay and az with C = −ay·m and −az·m, J = {0, ay, 0, ay} and {0, az, 0, az}.
/// out(lock, row) receives each row, row = kAngularRow + 1 and + 2.
template <class L, class Out>
inline void hingeLock(const Frames<L>& f, Out&& out) {
    const V3<L> ax = basis(f.cA2w.q, 0), bx = basis(f.cB2w.q, 0);
    const V3<L> m = cross(ax, bx);
    const V3<L> ay = basis(f.cA2w.q, 1), az = basis(f.cA2w.q, 2);
    out(angularLock(ay, -dot(ay, m)), kAngularRow + 1);
    out(angularLock(az, -dot(az, m)), kAngularRow + 2);
}

/// The rotation lock: for q = positiveW(qA⁻¹·qB), 2·q.vec ≈ θ·axis in frame A for small angles
/// and its rate ≈ (ω1 − ω0) in frame A; so rows about A's axes a_k with C_k = −2·q.vec_k,
/// J = {0, a_k, 0, a_k}, have dC/dt ≈ a_k·(ω0 − ω1).
template <class L, class Out>
inline void rotationLock(const Frames<L>& f, Out&& out) {
    const Q4<L> q = positiveW(conjugate(f.cA2w.q) * f.cB2w.q);
    const L minusTwo(-2.0);
    out(angularLock(basis(f.cA2w.q, 0), minusTwo * q.x), kAngularRow + 0);
    out(angularLock(basis(f.cA2w.q, 1), minusTwo * q.y), kAngularRow + 1);
    out(angularLock(basis(f.cA2w.q, 2), minusTwo * q.z), kAngularRow + 2);
}

/// The rows of `parts` (LockPart bits), in this order: the linear locks X, Y, Z (rows
/// 0 … pointBlockSize(parts) − 1 of the joint: its block), then the hinge or the rotation lock.
/// out(lock, row) receives each (row: 0–5, as kAngularRow describes).
template <class L, class Out>
inline void lockRows(unsigned parts, const Frames<L>& f, Out&& out) {
    const V3<L> d = f.cA2w.p - f.cB2w.p;  // C = a·d for each linear lock's axis a
    const bool point = (parts & kLockPoint) == kLockPoint;
    const V3<L> arm0 = point ? f.r0 : f.r0 - d;  // linearLock: the slide's lever arm
    for (int k = 0; k < 3; ++k)
        if (parts & (kLockX << k)) out(linearLock(arm0, f.r1, basis(f.cA2w.q, k), d), k);
    if (parts & kLockHinge) hingeLock(f, out);
    if (parts & kLockRotation) rotationLock(f, out);
}

}  // namespace jl::parts
