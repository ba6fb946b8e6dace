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
#pragma once

#include "solver/solver.h"

namespace jl::solver {

/// Damping over τ as a factor on the velocity: 1/(1 + c·τ), implicit Euler of dv/dt = −c·v
/// (stable for any c·τ). 1 without damping.
inline Real dampingFactor(Real c, Real tau) {
    return c != 0.0 ? 1.0 / (1.0 + c * tau) : 1.0;
}

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
