// JointLab engine — basic math types.
//
// The engine works in double precision: the tests compare trajectories to closed forms at 1e-5
// and a teaching tool should not blur its own numbers. All quantities are SI (m, kg, s, N, rad).
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>

namespace jl {

using Real = double;
using Vec3 = glm::dvec3;
using Quat = glm::dquat;  // glm order: Quat(w, x, y, z)
using Mat3 = glm::dmat3;

/// The identity rotation. Note glm's default-constructed quaternion is NOT the identity.
inline constexpr Quat kIdentityQuat{1.0, 0.0, 0.0, 0.0};

inline constexpr Real kInf = std::numeric_limits<Real>::infinity();
inline constexpr Real kPi = 3.14159265358979323846;

/// A rigid transform: rotate by q, then translate by p.
struct Transform {
    Vec3 p{0.0};
    Quat q{1.0, 0.0, 0.0, 0.0};

    Vec3 apply(const Vec3& v) const { return p + q * v; }
    Vec3 rotate(const Vec3& v) const { return q * v; }
    Transform operator*(const Transform& rhs) const { return {p + q * rhs.p, q * rhs.q}; }
    Transform inverse() const {
        Quat qi = glm::conjugate(q);
        return {qi * -p, qi};
    }
};

inline bool isFinite(Real x) {
    return std::isfinite(x);
}
inline bool isFinite(const Vec3& v) {
    return isFinite(v.x) && isFinite(v.y) && isFinite(v.z);
}
inline bool isFinite(const Quat& q) {
    return isFinite(q.w) && isFinite(q.x) && isFinite(q.y) && isFinite(q.z);
}

/// Column k of the rotation matrix of q: the frame's k-th axis in world coordinates.
inline Vec3 basisX(const Quat& q) {
    return q * Vec3(1, 0, 0);
}
inline Vec3 basisY(const Quat& q) {
    return q * Vec3(0, 1, 0);
}
inline Vec3 basisZ(const Quat& q) {
    return q * Vec3(0, 0, 1);
}

/// Integrate an orientation by angular velocity w over h (first order, then normalised), the
/// same update PhysX and Box2D use.
inline Quat integrateRotation(const Quat& q, const Vec3& w, Real h) {
    Quat dq = Quat(0.0, w.x, w.y, w.z) * q;
    Quat r(q.w + 0.5 * h * dq.w, q.x + 0.5 * h * dq.x, q.y + 0.5 * h * dq.y, q.z + 0.5 * h * dq.z);
    return glm::normalize(r);
}

/// The shortest-arc representative of q (w >= 0), so the same rotation has one error vector.
inline Quat positiveW(const Quat& q) {
    return q.w < 0 ? Quat(-q.w, -q.x, -q.y, -q.z) : q;
}

}  // namespace jl
