// JointLab engine — the limits every solver kernel applies to a row (reference and fast alike).
//
// Plain constants without glm: the AVX2 translation units include this too (solver/fast/batch.h).
#pragma once

namespace jl::solver {

/// Minimum unit response below which a row is deactivated (PhysX's minResponseThreshold).
inline constexpr double kMinResponse = 1e-12;

/// Largest change of its own relative velocity a row may ask for in one step [m/s or rad/s]:
/// the solver clamps a row's accumulated impulse to ±kMaxRowVelocityChange/r (r its unit
/// response at set-up). It is eight orders of magnitude above the default speed cap and three
/// above the speed of light, so no scene that converges ever reaches it (a 10⁹ mass ratio hanging
/// at dt = 1/30 s asks for 3·10⁸). It is there for Gauss–Seidel sweeps that diverge: joint mass
/// scales (invMassScale, invInertiaScale) give each row its own view of a body's mass, the sweeps
/// then no longer project onto one consistent system, and impulses can grow by a constant factor
/// every sweep and every warm-started step until they overflow. With the bound every impulse, and
/// so every velocity inside a step, stays finite; the speed caps then apply at the end of the step.
inline constexpr double kMaxRowVelocityChange = 1e12;

/// TGS: a kSolveSeparation row's anchors closer than this [m] keep the step's first axis (the
/// direction between them is undefined; the distance joint's prep uses the same threshold).
inline constexpr double kMinSeparation = 1e-9;

}  // namespace jl::solver
