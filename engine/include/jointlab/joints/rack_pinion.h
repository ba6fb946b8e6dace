// Rack-and-pinion joint: x_B = ratio·θ_A + offset between the rotation of body 0 (the pinion)
// about its joint X axis and the slide of body 1 (the rack) along its joint X axis (one row).
//
//   θ_A = rotation of frame A about its X axis since the start (twist of ref⁻¹·qA, tracked
//         through full turns), θ̇_A = x_A·ω0;
//   x_B = x_Bref·(p_B − p_Bref): how far frame B's origin moved along the X axis it had at the
//         start, ẋ_B = x_Bref·(v1 + ω1 × r1).
//   Both are measured from the start pose and against the world, as in gear.h (which explains why).
//   C = x_B − ratio·θ_A − offset = 0: the mimic constraint (physx-mimic-joints.md eq. 3) with
//     q_A = θ_A, G = −1/ratio on q_B = x_B, scaled by −ratio so that C is in metres.
//   dC/dt = ẋ_B − ratio·θ̇_A, so J = {μ0, κ0, μ1, κ1} = {0, −ratio·x_A, x_Bref, r1 × x_Bref}
//     row (linear1 = −μ1, angular1 = −κ1, row.h): linear0 = 0, angular0 = −ratio·x_A,
//     linear1 = −x_Bref, angular1 = −(r1 × x_Bref).
//   r = ratio²·x_Aᵀ I0⁻¹ x_A + 1/m1 + (r1 × x_B)ᵀ I1⁻¹ (r1 × x_B)     (eq. 15, r_AB = 0)
//   bias erp·C/dt (eq. 5, 8) with the joint's erp or the world's α; eq. 17 per iteration.
//   Impulse λ: torque −λ·ratio·x_A on the pinion, force λ·x_B on the rack (at its joint origin),
//   reported as the joint's force. A pinion of pitch radius R rolling on a rack: ratio = ±R.
#pragma once

#include "jointlab/fields.h"
#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct RackPinionJoint {
    static constexpr JointTypeInfo info{
        .name = "rack_pinion",
        .title = "Rack and pinion",
        .description =
            "Couples the rotation of body 0 (the pinion) about its joint X axis to the slide of body 1 "
            "(the rack) along its joint X axis: the rack moves ratio·θ when the pinion turns θ (both "
            "measured from the start). Put the pinion on a hinge and the rack on a slider; for pitch "
            "radius R the ratio is ±R. One row.",
        .drawStyle = JointDrawStyle::Coupling,
        .isCoupling = true};

    Real ratio = 0.1;     ///< rack travel per pinion angle [m/rad]
    Real offset = 0.0;    ///< rack position at pinion angle 0 [m] (0 = where it started)
    bool autoErp = true;  ///< use the world's Baumgarte factor, like every other joint
    Real erp = 1.0;       ///< Baumgarte factor of the coupling row when autoErp is off [-]

    template <class V>
    void visit(V& v) {
        v("ratio", ratio,
          anyReal("m/rad", "rack travel per radian of pinion rotation (x = ratio·θ + offset)"));
        v("offset", offset, anyReal("m", "rack displacement at pinion angle 0"));
        v("autoErp", autoErp, Field{"", 0, 0, "use the world's Baumgarte factor"});
        v("erp", erp,
          Field{"", 0.0, 1.0, "fraction of the coupling error corrected per step when autoErp is off"});
    }

    /// The pinion turning against the sliding rack (joint_sketch.h): ratio metres per radian.
    void sketch(JointSketch& out) const;
};

void prep(const RackPinionJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
