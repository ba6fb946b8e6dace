// A body with several joints (MJCF: several <joint> in one <body>; the humanoid's hips, shoulders,
// abdomen and ankles) as a serial chain of JointLab joints through light intermediate bodies.
//
// MuJoCo moves such a body by its joints one after the other: the first turns (slides) it about
// (along) its axis through its point, the second about its axis as the first left it, and so on;
// the frames between are massless. JointLab joins two bodies per joint, so the chain gets a body
// between each pair of successive joints, named "<body>/<joint>" after the body and the joint that
// moves it. Each joint is then mapped alone, with its own axis, anchor, range (limit), damping and
// actuator: the successive angles of the chain are MuJoCo's joint coordinates by construction.
//
// An intermediate body cannot be massless in JointLab (a body's mass and moments are at least 1e-6,
// and the solver needs J M⁻¹ Jᵀ well away from zero). It sits at the point of the joint after it,
// where its mass moves with that point; its mass is kChainMassFraction × the larger of the child's
// and the parent's, and it is a ball whose moments are kChainInertiaFraction × the larger of the two
// bodies' largest moments.
// What that adds to the dynamics (docs/import.md "Several joints in one body"): its mass rides
// with the next joint's point, so when the joints share a point (the hips) it adds to the parent at
// that point only; its moments add to the inertia about the joints before it, like MuJoCo's armature.
#pragma once

#include <utility>
#include <vector>

#include "interop/import_builder.h"

namespace jl::interop {

/// The intermediate body's mass, as a fraction of the heavier of the two bodies its chain joins:
/// the advisor's mass-ratio limit (10) is then met across every joint of the chain.
inline constexpr Real kChainMassFraction = 0.1;
/// Its moments, as a fraction of the larger of the two bodies' largest principal moments: the
/// advisor's inertia-ratio limit (10) is met too (docs/import.md: the fraction measured beside MuJoCo).
inline constexpr Real kChainInertiaFraction = 0.1;

/// The differential pinion of a slide coupling on a moving parent (docs/import.md "Couplings on
/// moving parents"): two slides a (the follower) and b (the leader) on one moving body H, coupled
/// q_a = ratio·q_b + offset relative to H (a URDF <mimic>, an MJCF joint equality). JointLab's rows
/// join two bodies, so the importer adds what a real gripper has: a light pinion P hinged to H about
/// an axis w, and a relative rack-and-pinion (rack_pinion.h, relative) from P to each finger,
/// q_b = R_b·θ and q_a = R_a·θ + offset with R_a = ratio·R_b, θ P's turn on H. Each rack row is
/// measured between P and its finger only, so whatever H does drops out: q_a = ratio·q_b + offset.
///
/// Sizes (what P adds; each choice keeps a ratio of responses at or below a tenth, as the chain's):
///  - w: perpendicular to both slide axes (to the one when they are parallel).
///  - R_b = min(ρ_b, ρ_a/|ratio|), ρ the fingers' radii of gyration about w: a rack row then turns
///    its finger (which the finger's slider holds against H) no more than it slides it.
///  - P's moment about w is kPinionInertiaFraction × the fingers' own inertia on θ, m_b·R_b² +
///    m_a·R_a²: like MuJoCo's armature, it makes the coupled fingers that much heavier to slide.
///  - P's mass is the heavier finger's, its moments about the other two axes the fingers' largest
///    moment: it rides with H at the middle of the two slides' anchors like one more finger, and no
///    mass or inertia ratio across its joints exceeds the fingers' own against H.
struct DifferentialPinion {
    Vec3 point{0.0};           ///< P's centre and hinge point (Y-up)
    Vec3 axis{1.0, 0.0, 0.0};  ///< w (Y-up, unit)
    Real mass = 0.0;
    Vec3 moments{0.0};                            ///< about (w, and two axes at right angles to it)
    Real leaderRatio = 0.0, followerRatio = 0.0;  ///< R_b, R_a [m/rad]
};

/// P's fraction of the fingers' inertia on the coupling (R_b·θ travel): their added "armature".
inline constexpr Real kPinionInertiaFraction = 0.1;

/// The pinion for slides of the scene bodies `follower` (a) and `leader` (b), with Y-up world slide
/// axes and anchors at the start, coupled q_a = ratio·q_b + offset.
DifferentialPinion differentialPinion(const BodyDesc& follower, const Vec3& followerAxis,
                                      const Vec3& followerAnchor, const BodyDesc& leader,
                                      const Vec3& leaderAxis, const Vec3& leaderAnchor, Real ratio);

/// The bodies between the joints `joints` (indices into model.joints, in the model's order) of
/// source body `body`: one fewer than the joints, each at the point of the joint after it, in the
/// model's Z-up world, without shapes, not colliding (the builder names them). `parentMass` is the mass of
/// the body the chain hangs from and `parentMoment` its largest principal moment (0 for the world or a body
/// that does not move).
std::vector<ImportedBody> chainBodies(const ImportedModel& model, size_t body, const std::vector<int>& joints,
                                      Real parentMass, Real parentMoment);

}  // namespace jl::interop
