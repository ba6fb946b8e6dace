// Fixed joint prep; the derivation of C and J is in jointlab/joints/fixed.h.
#include "jointlab/joints/fixed.h"

#include "joints/row_builder.h"

namespace jl {

void prep(const FixedJoint&, const PrepContext& c, RowWriter& out) {
    rows::lockLinearAxes(c, true, true, true, out);
    rows::lockRotation(c, out);
}

}  // namespace jl
