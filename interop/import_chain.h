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

/// The bodies between the joints `joints` (indices into model.joints, in the model's order) of
/// source body `body`: one fewer than the joints, each at the point of the joint after it, in the
/// model's Z-up world, without shapes, not colliding (the builder names them). `parentMass` is the mass of
/// the body the chain hangs from and `parentMoment` its largest principal moment (0 for the world or a body
/// that does not move).
std::vector<ImportedBody> chainBodies(const ImportedModel& model, size_t body, const std::vector<int>& joints,
                                      Real parentMass, Real parentMoment);

}  // namespace jl::interop
