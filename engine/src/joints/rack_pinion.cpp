// Rack-and-pinion prep; C and J are in jointlab/joints/rack_pinion.h.
#include "jointlab/joints/rack_pinion.h"

#include "joints/coupling.h"

namespace jl {

void prep(const RackPinionJoint& j, const PrepContext& c, RowWriter& out) {
    if (j.relative) {
        rows::relativeRackRow(c, j.ratio, j.offset, j.autoErp ? -1.0 : j.erp, out);
        return;
    }
    const rows::BodyCoordinate theta = rows::frameAngle(c, 0, 0);
    const rows::BodyCoordinate x = rows::frameSlide(c, 1);
    // C = −ratio·θ_A + x_B − offset (mimic doc eq. 3 scaled to metres).
    rows::couplingRow(theta, -j.ratio, x, 1.0, -j.offset, j.autoErp ? -1.0 : j.erp, "rack and pinion", out);
}

void RackPinionJoint::sketch(JointSketch& out) const {
    out.add(sketch::Coupling{.slide0 = false, .slide1 = true, .ratio = ratio});  // x_B = ratio·θ_A + offset
}

}  // namespace jl
