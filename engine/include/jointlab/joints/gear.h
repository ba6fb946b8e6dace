// Gear (mimic) joint: q_A + G·q_B + γ = 0 between a coordinate of body 0 and one of body 1
// (physx-mimic-joints.md, "the mimic doc"; one row).
//
//   From articulations to bodies. The mimic doc couples two joint coordinates of an articulation,
//   q_A and q_B (eq. 1–3). In maximal coordinates a body has no joint coordinate, so each body's
//   coordinate is defined by its own joint frame (frame0 on body 0, frame1 on body 1):
//     mode "angular": q = rotation of the joint frame about its X axis since the start —
//                     the twist about X of ref⁻¹·c (c the frame's world orientation, ref that
//                     orientation in the scene the World was built from), tracked through full turns;
//     mode "linear":  q = displacement of the joint frame origin along the X axis it had at the
//                     start, x_ref·(p − p_ref).
//   The start pose is the reference because the coupling is not periodic: with G = 1.5 no angle
//   taken mod 2π can say how far a gear has turned; only the history can (the World keeps the
//   start poses, taken from the scene it is built from, and the unwrapped angles in JointMemory). The angles
//   are relative to the world, so put the two bodies on hinges (or sliders) fixed to the world or to bodies
//   that only translate; on a turning carrier the carrier's own rotation about X counts too. C = q_A + G·q_B
//   + γ                                        (eq. 3; at the start C = γ) dC/dt = q̇_A + G·q̇_B (eq. 4)
//     angular: q̇ = x·ω, so J = {μ0, κ0, μ1, κ1} = {0, x_A, 0, G·x_B}
//              row: angular0 = x_A, angular1 = −G·x_B                (row.h: angular1 = −κ1)
//     linear:  q̇ = x_ref·v_p, so J = {x_A, r0 × x_A, G·x_B, G·(r1 × x_B)}
//              row: linear0 = x_A, angular0 = r0 × x_A, linear1 = −G·x_B, angular1 = −G·(r1 × x_B)
//   r = J M⁻¹ Jᵀ = r_AA + G²·r_BB                               (eq. 15 with r_AB = r_BA = 0)
//     with r_AA = x_Aᵀ I0⁻¹ x_A (angular) or 1/m0 + (r0 × x_A)ᵀ I0⁻¹ (r0 × x_A) (linear). In an
//     articulation r_AA is the response of the joint's own degree of freedom; here it is the free
//     body's, and the hinge rows of the bodies supply the rest through the solver's iterations.
//     Two separate bodies do not respond to each other's test impulses, so r_AB = r_BA = 0.
//   bias b = erp·C/dt (eq. 5, 8) with the joint's own erp, or the world's α when autoErp is set;
//   the solver then applies eq. 17 per iteration (PGS and TGS alike; TGS refreshes C per substep).
//   Impulses: body 0 gets λ·x_A and body 1 gets λ·G·x_B (as torques, or forces in linear mode),
//   eq. 13–14; the row reports force.
//   Turning fast, the first-order quaternion update turns a body by 2·atan(ω·h/2) instead of ω·h,
//   so each step leaves C ≈ −((ω_A·h)³ + G·(ω_B·h)³)/12 for the next step's bias to remove
//   (1.5e-5 rad for ω_A = 3.75 rad/s, G = −2 at 60 Hz; TGS's substeps shrink it by posIters²).
//   Meshing gears turning about parallel, equally oriented axes with radii R_A, R_B: G = R_B/R_A
//   (they turn opposite ways); a belt or chain between them: G = −R_B/R_A.
//
// relative = true (angular mode only): each angle is the body's turn on a carrier H that holds both
// bodies on hinges about their frames' X axes (a robot hand's two fingers), read from the two bodies
// alone, so the law holds whatever H does (a URDF <mimic> on a moving parent; docs/import.md
// "Couplings on moving parents"). Axes at an angle are read from the bodies' relative rotation (below);
// (nearly) parallel axes, whose relative rotation only says q0 − s·q1, through positions ("Parallel
// axes"). Which one is decided once, by the axes at the start. Two hinges about one and the same line
// stay out of reach: nothing about the two bodies alone tells their turns apart.
//   With a, b the frames' X axes at the start (world), F frame orientations now and F_0 at the start:
//     F_B⁻¹·F_A = F_B0⁻¹·Rot(b, −q1)·Rot(a, q0)·F_A0 whatever H does, so D = F_B0·F_B⁻¹·F_A·F_A0⁻¹
//     = Rot(b, −q1)·Rot(a, q0); D·a = Rot(b, −q1)·a gives q1 (−the turn about b from a to D·a), and
//     D⁻¹·b = Rot(a, −q0)·b gives q0; both tracked through full turns.
//   ω0 − ω1 = q̇0·x_A − q̇1·x_B (the carrier's ω cancels; x_A, x_B the axes now, c = x_A·x_B), so
//     dC/dt = q̇0 + G·q̇1 = β·(ω0 − ω1) with β·x_A = 1, β·x_B = −G:
//     β = ((1 + G·c)·x_A − (G + c)·x_B) / (1 − c²)
//     row: angular0 = β, angular1 = β (row.h: angular1 = −κ1, κ1 = −β); linear 0.
//   |β| grows as 1/(1 − c²) when the axes close up; below kRelativeGearMinSin2 (axes within about
//   0.6° of each other) the joint writes no row. The torque λ·β is not along either body's own
//   axis, so the hinges must take the rest: the solver's sweeps converge more slowly than on a
//   world gear's row (docs/import.md "Couplings on moving parents" has the numbers).
//   Parallel axes (sin² at the start below kRelativeGearParallelSin2): positions carry what the
//   rotation lacks. Let p_A, p_B be the frames' origins (each on its own hinge's axis, so both fixed on
//   H) and d = p_B − p_A; d is constant in H's frame. F_A = F_H·K_A·Rot(X, q0) with K_A constant,
//   so F_A⁻¹·d = Rot(X, −q0)·(K_A⁻¹·F_H⁻¹·d), a constant vector turned by −q0 about X: q0 is minus
//   the turn about X from F_A0⁻¹·d_0 to F_A⁻¹·d (their parts at right angles to X), and q1 likewise
//   from F_B. This holds for any two axes, parallel or not, as long as p_B is off axis A and p_A off
//   axis B (d⊥ ≠ 0, d⊥_A = d − (d·x_A)·x_A); tracked through full turns in slots 0 and 1.
//   Rate: with u = F_A⁻¹·d, u̇ = F_A⁻¹·(ḋ − ω0 × d) and the turn φ of u⊥ about X has
//   φ̇ = x_A·(d⊥_A × (ḋ − ω0 × d))/|d⊥_A|². With n_A = x_A × d⊥_A/|d⊥_A|² (a·(b × c) = c·(a × b)):
//     q̇0 = −φ̇ = −n_A·ḋ + n_A·(ω0 × d) = −n_A·ḋ + ω0·(d × n_A),  ḋ = v1 + ω1 × r1 − v0 − ω0 × r0,
//   r0, r1 the lever arms of the origins; likewise q̇1 = −n_B·ḋ + ω1·(d × n_B). Checks: H moving
//   rigidly with both bodies gives ḋ = ω × d and ω0 = ω1 = ω, so q̇0 = q̇1 = 0 for any ω; body 0
//   alone turning at ω0 = s·x_A about its axis leaves ḋ = 0 and gives q̇0 = s·x_A·(d × n_A) = s, as
//   d × n_A = x_A − (d·x_A)·d⊥_A/|d⊥_A|². With n = n_A + G·n_B, dC/dt = q̇0 + G·q̇1 gives the row
//     linear0 = n, angular0 = r0 × n + d × n_A, linear1 = n, angular1 = r1 × n − G·(d × n_B):
//   a force n at each origin (the velocity match at a pitch point of meshing gears, for any two
//   hinges) plus a torque on each body; both kernels take it as any linear row (TGS turns the lever
//   arms r0, r1 per substep and keeps d × n_A, d × n_B). |n| = 1/|d⊥|, so below
//   kParallelGearMinDistance (origins about one line) the joint writes no row.
#pragma once

#include "jointlab/fields.h"
#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

enum class GearMode { Angular, Linear };

/// A relative gear read from the rotation writes no row when sin² of the angle between its axes is below
/// this.
inline constexpr Real kRelativeGearMinSin2 = 1e-4;
/// A relative gear whose axes were this close to parallel at the start (sin², about 1.15°) is read
/// through positions instead (gear.h "Parallel axes"), four times clear of kRelativeGearMinSin2.
inline constexpr Real kRelativeGearParallelSin2 = 4.0 * kRelativeGearMinSin2;
/// A relative gear read through positions writes no row when either frame origin is closer than
/// this to the other frame's axis [m] (the row's gains grow as 1/distance).
inline constexpr Real kParallelGearMinDistance = 1e-3;
inline constexpr const char* kGearModeNames[] = {"angular", "linear"};

struct GearJoint {
    static constexpr JointTypeInfo info{
        .name = "gear",
        .title = "Gear (mimic)",
        .description =
            "Couples how far body 0 has turned about its joint X axis to how far body 1 has turned "
            "about its own (or, in linear mode, how far each joint origin has slid along its X axis): "
            "q0 + ratio·q1 + offset = 0, both measured from the pose at the start. Put each body on "
            "its own hinge or slider; meshing gears of radii R0, R1 use ratio R1/R0. With relative on "
            "(angular), each turn is measured on a carrier holding both bodies on hinges (about "
            "distinct axes, parallel or not), so the law holds when the carrier moves. One row.",
        .drawStyle = JointDrawStyle::Coupling,
        .isCoupling = true};

    GearMode mode = GearMode::Angular;  ///< what q is: rotation about X [rad] or slide along X [m]
    Real ratio = 1.0;                   ///< G in q0 + G·q1 + γ = 0 [-]
    Real offset = 0.0;                  ///< γ [rad or m]
    bool autoErp = true;                ///< use the world's Baumgarte factor, like every other joint
    Real erp = 1.0;                     ///< Baumgarte factor of the coupling row when autoErp is off [-]
    bool relative = false;              ///< angular: each turn measured on a carrier holding both

    template <class V>
    void visit(V& v) {
        v("mode", EnumField<GearMode>{mode, kGearModeNames, 2},
          Field{"", 0, 0, "angular: turn about X; linear: slide along X"});
        v("ratio", ratio, anyReal("", "gearing ratio G in q0 + G·q1 + offset = 0"));
        v("offset", offset, anyReal("rad or m", "offset γ in q0 + G·q1 + offset = 0 (q is 0 at the start)"));
        v("autoErp", autoErp, Field{"", 0, 0, "use the world's Baumgarte factor"});
        v("erp", erp,
          Field{"", 0.0, 1.0, "fraction of the coupling error corrected per step when autoErp is off"});
        v("relative", relative,
          Field{"", 0, 0,
                "angular mode: measure each body's turn relative to a carrier that holds both on hinges "
                "(distinct axes), so the law holds on a moving carrier (a hand's fingers)"});
    }

    std::string validate() const {
        if (relative && mode != GearMode::Angular)
            return "relative: only an angular gear can be relative (mode is linear)";
        return "";
    }

    /// What turns or slides against what (joint_sketch.h): q1 moves −1/G per unit of q0.
    void sketch(JointSketch& out) const;
};

void prep(const GearJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
