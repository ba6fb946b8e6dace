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
//
// relative = true: both coordinates are measured between the two bodies, not against the world, so
// the law holds whatever a carrier that holds both (a hinge for the pinion, a slider for the rack)
// does: a gripper's fingers on a moving hand (docs/import.md "Couplings on moving parents").
//   θ = rotation of frame A relative to body 1 since the start: the twist about X of ref⁻¹·c with
//       c = q1⁻¹·qA (frame A seen from body 1) and ref the same at the start, tracked through full
//       turns; θ̇ = w·(ω0 − ω1), w = x_A (exact while A turns about its X relative to body 1).
//   x = u·(p_B − p_A) − u_ref·(p_Bref − p_Aref), u = x_B: how far frame B's origin moved along
//       B's own X axis away from frame A's origin. A pinion on a hinge and a rack on a slider of one
//       carrier keep p_A and u fixed in the carrier, so x is the slider's coordinate exactly.
//       ẋ = u·(v1 + ω1 × r1 − v0 − ω0 × r0) + (ω1 × u)·(p_B − p_A)
//         = u·v1 + ((p_A − c1) × u)·ω1 − u·v0 − (r0 × u)·ω0      (c1 body 1's centre of mass)
//   C = x − ratio·θ − offset, two bodies only ([F 41–43]):
//     row: linear0 = −u, angular0 = −(r0 × u) − ratio·w, linear1 = −u, angular1 = −((p_A − c1) × u + ratio·w)
//   The rack's own rotation about w enters the row with weight ratio (ratio²/I1 in r), which its
//   slider holds against the carrier: keep ratio at or below the rack's radius of gyration about w
//   (the importer does, interop/import_chain.h) or the row mostly turns the rack.
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
            "radius R the ratio is ±R. With relative on, the turn and the slide are measured between the "
            "two bodies, so a pinion and a rack on one moving carrier keep the law. One row.",
        .drawStyle = JointDrawStyle::Coupling,
        .isCoupling = true};

    Real ratio = 0.1;       ///< rack travel per pinion angle [m/rad]
    Real offset = 0.0;      ///< rack position at pinion angle 0 [m] (0 = where it started)
    bool autoErp = true;    ///< use the world's Baumgarte factor, like every other joint
    Real erp = 1.0;         ///< Baumgarte factor of the coupling row when autoErp is off [-]
    bool relative = false;  ///< measure θ and x between the two bodies, not against the world

    template <class V>
    void visit(V& v) {
        v("ratio", ratio,
          anyReal("m/rad", "rack travel per radian of pinion rotation (x = ratio·θ + offset)"));
        v("offset", offset, anyReal("m", "rack displacement at pinion angle 0"));
        v("autoErp", autoErp, Field{"", 0, 0, "use the world's Baumgarte factor"});
        v("erp", erp,
          Field{"", 0.0, 1.0, "fraction of the coupling error corrected per step when autoErp is off"});
        v("relative", relative,
          Field{"", 0, 0,
                "measure the pinion's turn relative to the rack and the rack's slide from the pinion's "
                "joint origin, so the law holds on a moving carrier (a gripper's fingers on a hand)"});
    }

    /// The pinion turning against the sliding rack (joint_sketch.h): ratio metres per radian.
    void sketch(JointSketch& out) const;
};

void prep(const RackPinionJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
