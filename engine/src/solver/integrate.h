// JointLab engine — moving a solver body, shared by every kernel (solver/integrate.cpp).
//
// Semi-implicit Euler: velocities first (forces, then the solve), then positions with the new
// velocities. Rotations integrate as q' = normalize(q + ½·h·(0, ω)·q) (math.h integrateRotation).
// The speed caps (WorldSettings::maxLinearSpeed, maxAngularSpeed) apply to the motion, not only
// to the velocities written back.
//
// Forces: PGS adds the whole step's at once, v_pre = (v + dt·a)/(1 + c·dt) (the body-forces
// stage). TGS adds them in every substep h = dt/n, as Box2D v3 integrates velocities per substep
// (applySubstepForces), so that a free body's positions follow the substep recurrence
// x_i = x_{i−1} + h·(v_0 + i·h·g): after one step x_0 + dt·v_0 + g·h²·n(n+1)/2, which tends to
// the exact ½·g·dt² as n grows (once per step it was g·dt², whatever n).
//
// The gyroscopic term (WorldSettings::gyroscopic): gyroscopicStep, once per step for both solvers.
#pragma once

#include "solver/solver.h"

namespace jl::solver {

/// Damping over τ as a factor on the velocity: 1/(1 + c·τ), implicit Euler of dv/dt = −c·v
/// (stable for any c·τ). 1 without damping.
inline Real dampingFactor(Real c, Real tau) {
    return c != 0.0 ? 1.0 / (1.0 + c * tau) : 1.0;
}

/// The gyroscopic term of a free rigid body over τ, integrated implicitly: its angular velocity
/// ω (world) after one step of the torque-free Euler equations in the body frame,
///     I·dω_b/dt = −ω_b × (I·ω_b)      (I = diag(inertia), the principal moments),
/// by the implicit midpoint rule, I·(ω' − ω) + τ·ω̄ × (I·ω̄) = 0 with ω̄ = (ω + ω')/2, solved
/// with one Newton step from ω' = ω (the scheme of Catto's "implicit gyroscopic" and Bullet's
/// computeGyroscopicImpulseImplicit_Body, which take backward Euler, ω̄ = ω'): with the residual
/// f = τ·ω × (I·ω) and its derivative J = I + ½τ·([ω]×·I − [I·ω]×),
///     ω' = ω − J⁻¹·f.
/// The midpoint rule keeps both quadratic invariants of Euler's equations, the energy ½ω·Iω and
/// |I·ω|, and the gyroscopic torque does no work (ω·(ω × Iω) = 0), so the Newton step's result,
/// which keeps them only to O(τ³) a step, is scaled to the energy it started with (a projection
/// onto the invariant): the step never gains or loses energy, so it is stable at any τ, and |I·ω|
/// then holds to rounding too (measured). Backward Euler (ω̄ = ω') loses energy at O(τ²) a step:
/// 11% of a 2.7 rad/s spin's in 10 s at 60 Hz, 57% at 10 rad/s (docs/solvers.md "Gyroscopic
/// forces"). Returns ω unchanged, bit for bit, when the term vanishes: equal moments (a sphere)
/// or ω along a principal axis (f = 0 exactly).
Vec3 gyroscopicStep(const Vec3& w, const Quat& q, const Vec3& inertia, Real tau);

/// TGS: the forces of one substep h on a body whose `b` holds its full velocity and momocity
/// (info: BodyInfo's TGS fields), before the substep's sweep:
///     v ← (v + h·a)·d,   ω⁽ᵐ⁾ ← (ω⁽ᵐ⁾ + h·I^-½·τ)·d_ω,   a = g + F/m, d = 1/(1 + c·h).
void applySubstepForces(Body& b, const BodyInfo& info, Real h);

/// PGS: the body's total velocity v = v_pre + Δv, ω = ω_pre + I^-½·Δω⁽ᵐ⁾ (F 23, 59), from the Δv
/// the sweeps accumulated in `b`.
void totalVelocity(const Body& b, const BodyInfo& info, Vec3& v, Vec3& w);

/// PGS: moves the body by dt with its total velocity (capped), after the position iterations.
void integratePgsBody(const Body& b, BodyInfo& info, const Params& p);

/// TGS: one substep of length h for a body whose `b` holds its full velocity and momocity
/// (F "TGS"): caps the speeds (scaling the momocity with ω), moves the pose by h and adds the
/// motion to the body's deltas (Δx += v·h, Δθ⁽ᵐ⁾ += ω⁽ᵐ⁾·h), which the rows' errors follow (F 66).
void integrateTgsSubstep(Body& b, BodyDelta& d, BodyInfo& info, const Params& p, Real h);

}  // namespace jl::solver
