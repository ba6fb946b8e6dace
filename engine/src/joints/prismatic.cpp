// Prismatic joint prep; C and J are in jointlab/joints/prismatic.h.
#include "jointlab/joints/prismatic.h"

#include "joints/row_builder.h"

namespace jl {

void prep(const PrismaticJoint&, const PrepContext& c, RowWriter& out) {
    rows::lockLinearAxes(c, false, true, true, out);
    rows::lockRotation(c, out);
}

}  // namespace jl
