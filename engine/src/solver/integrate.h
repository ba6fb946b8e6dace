// JointLab engine — moving a solver body, shared by every kernel (solver/integrate.cpp).
//
// Semi-implicit Euler: velocities first (the solve), then positions with the new velocities.
// Rotations integrate as q' = normalize(q + ½·h·(0, ω)·q) (math.h integrateRotation). The speed
// caps (WorldSettings::maxLinearSpeed, maxAngularSpeed) apply to the motion, not only to the
// velocities written back.
#pragma once

#include "solver/solver.h"

namespace jl::solver {

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
