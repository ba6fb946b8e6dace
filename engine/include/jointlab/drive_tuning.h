// JointLab engine — a drive in the terms of a second-order system: natural frequency ω_n and
// damping ratio ζ from its stiffness k, damping c and the effective mass (or inertia) m_eff its
// coordinate moves, the gains for a chosen ω_n and ζ, and the step response predicted two ways.
//
//   m_eff·ë = −k·e + c·(v_T − ė)           e = C, the drive row's error (D 9–12)
//   ω_n = √(k/m_eff),  ζ = c / (2√(k·m_eff))      ⇔   k = m_eff·ω_n²,  c = 2ζ·m_eff·ω_n
//
// An acceleration drive (D 30–37) divides its impulse by the drive row's own unit response K
// (D 35–36): converged, its impulse λ satisfies K·λ = h·c·v_T − h·k·C − a·ė' (a = h(h·k + c)),
// while the velocity that impulse makes is ė' − ė = K_eff·λ, K_eff the row's response with the
// joint's other rows held (below). So (K/K_eff)·(ė' − ė) = −h·k·(C + h·ė') + h·c·(v_T − ė'): the
// same recurrence with m_eff = K/K_eff, a pure number. It is 1, and ω_n = √k whatever the masses,
// only when no other row couples to the drive's (a body on a slider through its centre); a drive
// whose row has a lever (a slider between bodies whose centres are off its axis, a hinge off a
// body's centre) answers more slowly, ω_n = √(k·K_eff/K).
//
// The solver integrates the drive implicitly (D 9–12, 40): with h = dt (PGS) or dt/posIters
// (TGS substeps), each (sub)step
//   ė' = (m_eff·ė − h·k·e + h·c·v_T) / (m_eff + h²·k + h·c),   e' = e + h·ė',
// which is the exact result of the solver for one body on a drive from the world (tested), and
// which lags and damps more than the continuous solution as ω_n·h grows.
//
// m_eff is the inverse of the drive row's unit response once the joint's other equality rows hold
// (the Schur complement of the joint's K = J M⁻¹ Jᵀ): for a hinge drive on a body hung off its
// centre, I_axis + m·r⊥², not the drive row's own 1/K = I_axis.
#pragma once

#include <vector>

#include "jointlab/math.h"

namespace jl {

class World;

struct DriveModes {
    Real omegaN = 0.0;  ///< natural frequency √(k/m_eff) [rad/s]
    Real zeta = 0.0;    ///< damping ratio c/(2√(k·m_eff)) [-]
};
struct DriveGains {
    Real stiffness = 0.0, damping = 0.0;
};

/// ω_n and ζ of gains (k, c) on m_eff (> 0). k = 0: ω_n = 0 and ζ = ∞ if c > 0 (a pure damper).
DriveModes driveModes(Real stiffness, Real damping, Real mEff);
/// The gains that give ω_n and ζ on m_eff.
DriveGains driveGains(Real omegaN, Real zeta, Real mEff);

/// The effective mass of joint `joint`'s row `row` (a drive) in the last step: 1/K_eff with
/// K_eff = K_dd − K_dL·K_LL⁻¹·K_Ld over the joint's other active hard equality rows L (World::
/// rowEquation supplies J and M⁻¹); for an acceleration drive K_dd/K_eff (dimensionless, above).
/// 0 when there is no such row or it cannot move (K_eff ≤ 0).
Real driveEffectiveMass(const World& world, int joint, int row);

/// One body's drive error e(t) from e0 and ė0 towards e = 0 with target velocity vT, sampled at
/// t = i·dt for i = 0 … steps.
struct DriveResponseInput {
    Real e0 = 0.0, de0 = 0.0, vT = 0.0;
    Real stiffness = 0.0, damping = 0.0, mEff = 1.0;
    Real dt = 1.0 / 60.0;
    int substeps = 1;  ///< TGS: posIters implicit substeps per step; PGS: 1
    int steps = 120;
};
/// The continuous solution of m_eff·ë = −k·e + c·(v_T − ė) (under-, critically and over-damped).
std::vector<Real> driveResponseContinuous(const DriveResponseInput& in);
/// The implicit-Euler recurrence the solver runs (above), substeps per step.
std::vector<Real> driveResponseImplicit(const DriveResponseInput& in);

}  // namespace jl
