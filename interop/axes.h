// MuJoCo and URDF are Z-up; JointLab is Y-up. One fixed rotation takes a model's frame to ours:
// a quarter turn about X, (x, y, z)_zup -> (x, z, -y)_yup, applied to every position, axis,
// orientation and to gravity, so that the same mechanism stands the same way up on the ground.
#pragma once

#include "jointlab/math.h"

namespace jl::interop {

/// The rotation from a Z-up model frame to JointLab's Y-up world: −90° about X.
inline Quat zUpToYUp() {
    return Quat(0.70710678118654752440, -0.70710678118654752440, 0.0, 0.0);  // (w, x, y, z)
}

/// A Z-up vector in Y-up coordinates: (x, y, z) -> (x, z, −y).
inline Vec3 toYUp(const Vec3& v) {
    return Vec3(v.x, v.z, -v.y);
}

/// A Y-up vector back in Z-up coordinates (the inverse of toYUp).
inline Vec3 toZUp(const Vec3& v) {
    return Vec3(v.x, -v.z, v.y);
}

/// A Z-up orientation (a body's frame in the model's world) in Y-up coordinates: R' = Q·R.
inline Quat toYUp(const Quat& q) {
    return glm::normalize(zUpToYUp() * q);
}

/// A Y-up orientation back in Z-up coordinates.
inline Quat toZUp(const Quat& q) {
    return glm::normalize(glm::conjugate(zUpToYUp()) * q);
}

}  // namespace jl::interop
