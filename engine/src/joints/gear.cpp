// Gear (mimic) joint prep; C and J are in jointlab/joints/gear.h.
#include "jointlab/joints/gear.h"

#include "joints/coupling.h"

namespace jl {

void prep(const GearJoint& j, const PrepContext& c, RowWriter& out) {
    const bool angular = j.mode == GearMode::Angular;
    if (j.relative && angular) {
        rows::relativeGearRow(c, j.ratio, j.offset, j.autoErp ? -1.0 : j.erp, out);
        return;
    }
    const rows::BodyCoordinate qA = angular ? rows::frameAngle(c, 0, 0) : rows::frameSlide(c, 0);
    const rows::BodyCoordinate qB = angular ? rows::frameAngle(c, 1, 1) : rows::frameSlide(c, 1);
    // C = q_A + G·q_B + γ, J = {1, G} over the two coordinates (mimic doc eq. 3, 7).
    rows::couplingRow(qA, 1.0, qB, j.ratio, j.offset, j.autoErp ? -1.0 : j.erp, "gear", out);
}

void GearJoint::sketch(JointSketch& out) const {
    // q0 + G·q1 + γ = 0, so q1 moves −1/G per unit of q0 (G = 0 couples nothing to draw).
    if (ratio != 0.0) {
        const bool slide = mode == GearMode::Linear;
        out.add(sketch::Coupling{.slide0 = slide, .slide1 = slide, .ratio = -1.0 / ratio});
    }
}

}  // namespace jl
