// JointLab engine — TGS contacts: per-substep impulses and Box2D v3's soft contact, the one copy
// both TGS kernels call (solver/reference/tgs_reference.cpp, solver/fast/tgs.cpp).
//
// Why (docs/contacts.md "TGS: resting contacts work per substep"): with one sweep per substep, a contact row
// that only remembers the last step's impulse (a warm start spread over the substeps) meets each substep's
// gravity with one Gauss-Seidel sweep of fresh impulse. A stack's load then never settles: its
// boxes rock, walk and turn, and a 10-box stack fell within 10 s. Box2D v3 solves the same
// problem with two things, both here:
//
// 1. Per-substep impulses (kSolveSubstep). A contact row's impulse is the impulse of one substep
//    (a force × h), applied again at the start of every substep (Box2D v3's warm start in each
//    substep) and corrected by the sweeps; its bounds hold per substep (λn ≥ 0, |λt| ≤ μ·λn: a
//    contact can never pull, at any instant). What the step reports is the sum over the
//    substeps (SolverRow::stepImpulse), so impulse / dt is still the contact's force.
// 2. A soft normal (kSolveSoftContact): a touching or overlapping contact pushes as a stiff,
//    heavily damped spring of 30-60 Hz (softContactHertz), damping ratio 10, pushing at most
//    kSoftContactMaxPush. In the unbiased passes (relax, velocity iterations) it is a rigid row
//    without bias. The soft update's -impulseScale·λ lets the load settle into the springs
//    instead of keeping whatever the sweeps happened to leave.
//
// Soft constraint coefficients (Box2D v3, "Solver2D" soft step), for a spring of angular
// frequency ω = 2π·f and damping ratio ζ over a substep h:
//   a1 = 2ζ + hω,  a2 = hω·a1,  a3 = 1/(1 + a2)
//   biasRate = ω/a1,  massScale = a2·a3,  impulseScale = a3
//   Δλ = −massScale·(J·v + max(biasRate·C, −vmax))/K − impulseScale·λ
// A contact still apart (C > 0) is a speculative row in every pass: Δλ = −(J·v + C/h)/K.
#pragma once

#include <algorithm>

#include "jointlab/math.h"

namespace jl::solver {

constexpr Real kSoftContactHertz = 60.0;     ///< [Hz] the stiffest (softContactHertz)
constexpr Real kSoftContactMinHertz = 30.0;  ///< [Hz] Box2D v3's contact frequency
constexpr Real kSoftContactDampingRatio = 10.0;
constexpr Real kSoftContactMaxPush = 3.0;  ///< the fastest a soft contact pushes bodies apart [m/s]

/// The soft contact's frequency for a substep of h: an eighth of the substep rate, but at least
/// kSoftContactMinHertz (a quarter of the substep rate when that is less) and at most
/// kSoftContactHertz. 10 boxes stacked, 10 s, top box moved (60 Hz steps): 8 substeps, 60 Hz:
/// 7.7 mm (its sag); 4 substeps: at 60 Hz the stack rocks and walks 4 cm, at 30 Hz it stands and
/// sags 3 cm; 2 substeps at 15 Hz it sags 12 cm and buckles, at 30 Hz it stands.
inline Real softContactHertz(Real h) {
    const Real rate = 1.0 / h;
    return std::min(kSoftContactHertz, std::max(rate / 8.0, std::min(kSoftContactMinHertz, rate / 4.0)));
}

/// A soft contact gives like a spring only while it overlaps less than this [m] (half the
/// contact distance); deeper, it is solved as a hard row with the world's Baumgarte bias. A soft
/// contact under a heavy body gives in proportion to its load: a ragdoll's 20 kg torso landing on
/// its folded arms pressed them 2.7 cm into it; with this limit 2.2 cm (hard contacts: 1.8 cm).
constexpr Real kSoftContactDepth = 0.01;

/// Whether a kSolveSoftContact row whose error is now C is solved soft (softContactImpulse).
inline bool softContactApplies(Real C) {
    return C >= -kSoftContactDepth;
}

/// Box2D v3's soft constraint coefficients of the soft contact over a substep of h.
struct SoftContactCoefficients {
    Real hertz = 0.0, zeta = 0.0;
    Real biasRate = 0.0, massScale = 0.0, impulseScale = 0.0;
};
inline SoftContactCoefficients softContactCoefficients(Real h) {
    SoftContactCoefficients k;
    k.hertz = softContactHertz(h);
    k.zeta = kSoftContactDampingRatio;
    const Real w = 2.0 * kPi * k.hertz;
    const Real a1 = 2.0 * k.zeta + h * w, a2 = h * w * a1, a3 = 1.0 / (1.0 + a2);
    k.biasRate = w / a1;
    k.massScale = a2 * a3;
    k.impulseScale = a3;
    return k;
}

/// A soft contact normal row's new impulse λ' (before its clamp to λ' ≥ 0) from its impulse λ,
/// its velocity J·v, its error C (separation, > 0 apart) and unit response K = 1/recip, in a
/// substep of h; `biased`: a position pass (not relax, not a velocity iteration).
inline Real softContactImpulse(Real lambda, Real jv, Real C, Real recip, Real h, bool biased) {
    if (C > 0.0) return lambda - recip * (jv + C / h);
    if (!biased) return lambda - recip * jv;
    const SoftContactCoefficients k = softContactCoefficients(h);
    const Real bias = std::max(k.biasRate * C, -kSoftContactMaxPush);
    return lambda - k.massScale * recip * (jv + bias) - k.impulseScale * lambda;
}

/// The bias softContactImpulse works with (what the trace and the stepper show as the visit's b).
inline Real softContactBias(Real C, Real h, bool biased) {
    if (C > 0.0) return C / h;
    if (!biased) return 0.0;
    return std::max(softContactCoefficients(h).biasRate * C, -kSoftContactMaxPush);
}

}  // namespace jl::solver
