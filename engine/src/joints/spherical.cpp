// Spherical joint prep; C and J are in jointlab/joints/spherical.h.
#include "jointlab/joints/spherical.h"

#include "joints/row_builder.h"

namespace jl {

void prep(const SphericalJoint&, const PrepContext& c, RowWriter& out) { rows::lockLinearAxes(c, true, true, true, out); }

}  // namespace jl
