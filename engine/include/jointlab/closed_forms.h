// JointLab engine — closed forms that simulations are compared against (docs/user-guide.md "Reference
// curves").
//
// Every function here is plain arithmetic on its arguments: no scene, no world. The elliptic
// functions are computed here rather than taken from a library (C++17's std::comp_ellint_1 is not
// in libc++, and Jacobi's sn is in no standard library), with the arithmetic-geometric mean and
// the descending Landen transformation (Abramowitz & Stegun 16.4 and 17.6).
#pragma once

#include <cstdint>

#include "jointlab/math.h"

namespace jl::closed {

/// The complete elliptic integral of the first kind K(k) = ∫₀^{π/2} dφ / √(1 − k² sin²φ) for the
/// modulus 0 ≤ k < 1, as π / (2·AGM(1, √(1 − k²))). K(0) = π/2; K grows without bound as k → 1.
Real ellipticK(Real k);

/// Jacobi's elliptic functions of u for the modulus 0 ≤ k < 1.
struct Jacobi {
    Real sn = 0.0, cn = 1.0, dn = 1.0;
};
/// sn, cn and dn by the descending Landen transformation: the AGM sequence a, b, c is run down
/// until c is negligible, the amplitude φ_N = 2^N·a_N·u is then carried back up with
/// φ_{n−1} = (φ_n + asin(c_n/a_n · sin φ_n)) / 2, and sn = sin φ_0, cn = cos φ_0,
/// dn = √(1 − k²·sn²). k = 0 gives sin, cos and 1.
Jacobi jacobi(Real u, Real k);

/// A pendulum of length L under gravity g released at rest from θ0 (|θ0| < π), small-angle model:
/// θ(t) = θ0·cos(ω0·t), ω0 = √(g/L), period 2π·√(L/g).
Real pendulumSmallAngle(Real theta0, Real length, Real g, Real t);

/// The exact period of that pendulum: T = 4·K(sin(θ0/2)) / ω0. Equals 2π·√(L/g) as θ0 → 0.
Real pendulumPeriod(Real theta0, Real length, Real g);

/// The exact angle of that pendulum: sin(θ/2) = k·sn(K(k) − ω0·t, k), k = sin(θ0/2), so
/// θ(t) = 2·asin(k·sn(K − ω0·t, k)) (θ(0) = θ0, θ = 0 a quarter period later).
Real pendulumAngle(Real theta0, Real length, Real g, Real t);

/// m·x'' + c·x' + k·(x − target) = force, starting at rest at x0 (k > 0, m > 0, c ≥ 0): the
/// continuous step response of a drive (spring k, damper c, effective inertia m), under- (ζ < 1),
/// critically (ζ = 1) or over-damped (ζ > 1), ζ = c / (2√(k·m)).
Real secondOrderStep(Real mass, Real stiffness, Real damping, Real force, Real x0, Real target, Real t);

/// The same system advanced by implicit Euler, as the solver advances an implicit spring row
/// [D 13–22] (one row on one body: the solver's fixed point is reached in one visit):
///   v_{n+1} = (m·v_n − h·k·(x_n − target) + h·force) / (m + h·(h·k + c)),   x_{n+1} = x_n + h·v_{n+1}
/// from rest at x0, after `steps` steps of h. Evaluated as a power of the step's 3×3 affine matrix
/// (squaring), so any step count costs O(log steps) and the same call always gives the same bits.
Real implicitEulerStep(Real mass, Real stiffness, Real damping, Real force, Real x0, Real target, Real h,
                       int64_t steps);

/// An Atwood machine (two masses on a rope over a massless, frictionless pulley, ratio 1): the
/// height of the body of mass m whose partner has mass other, released at rest from y0:
/// y(t) = y0 − ½·a·t², a = g·(m − other)/(m + other).
Real atwoodHeight(Real mass, Real otherMass, Real g, Real y0, Real t);

}  // namespace jl::closed
