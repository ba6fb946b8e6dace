// Spherical joint prep; C and J are in jointlab/joints/spherical.h.
#include "jointlab/joints/spherical.h"

#include "joints/lock_only.h"
#include "joints/row_builder.h"

namespace jl {

unsigned lockOnlyParts(const SphericalJoint& j) {
    return j.cone.enabled ? 0u : unsigned{parts::kLockPoint};
}

void prep(const SphericalJoint& j, const PrepContext& c, RowWriter& out) {
    rows::locks(c, parts::kLockPoint, out);
    if (j.cone.enabled) rows::coneRow(c, rows::swingTwist(rows::relativeRotation(c)), j.cone, out);
}

void SphericalJoint::sketch(JointSketch& out) const {
    if (cone.enabled) out.add(sketch::Cone{.yAngle = cone.yAngle, .zAngle = cone.zAngle, .length = 1.2});
}

}  // namespace jl
