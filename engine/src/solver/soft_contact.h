// JointLab engine — TGS contacts: per-substep impulses and Box2D v3's soft contact; and the soft
// joints of WorldSettings::correction = soft. The one copy both TGS kernels call
// (solver/reference/tgs_reference.cpp, solver/fast/tgs.cpp).
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
// Soft constraint coefficients (Box2D v3, "Solver2D" soft step; solver/soft.h, shared with the
// soft joints below): Δλ = −massScale·(J·v + max(biasRate·C, −vmax))/K − impulseScale·λ.
// A contact still apart (C > 0) is a speculative row in every pass: Δλ = −(J·v + C/h)/K.
#pragma once

#include <algorithm>

#include "jointlab/math.h"
#include "solver/soft.h"

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

/// Box2D v3's soft constraint coefficients (solver/soft.h) of the soft contact over a substep of h.
inline SoftCoefficients softContactCoefficients(Real h) {
    return softCoefficients(softContactHertz(h), kSoftContactDampingRatio, h);
}

/// A soft contact normal row's new impulse λ' (before its clamp to λ' ≥ 0) from its impulse λ,
/// its velocity J·v, its error C (separation, > 0 apart) and unit response K = 1/recip, in a
/// substep of h; `biased`: a position pass (not relax, not a velocity iteration).
inline Real softContactImpulse(Real lambda, Real jv, Real C, Real recip, Real h, bool biased) {
    if (C > 0.0) return lambda - recip * (jv + C / h);
    if (!biased) return lambda - recip * jv;
    const SoftCoefficients k = softContactCoefficients(h);
    const Real bias = std::max(k.biasRate * C, -kSoftContactMaxPush);
    return lambda - k.massScale * recip * (jv + bias) - k.impulseScale * lambda;
}

/// The bias softContactImpulse works with (what the trace and the stepper show as the visit's b).
inline Real softContactBias(Real C, Real h, bool biased) {
    if (C > 0.0) return C / h;
    if (!biased) return 0.0;
    return std::max(softContactCoefficients(h).biasRate * C, -kSoftContactMaxPush);
}

// [SECTION] soft joints (WorldSettings::correction = soft; docs/solvers.md "Position correction")
//
// Under `soft` a TGS joint's hard rows that correct position (α > 0, no spring, no restitution,
// bounds 0 or infinite) are Box2D v3's soft joint rows instead of α·C/h: in the substep's biased
// sweep the update above, in the relax sweeps and velocity iterations a rigid row without bias.
// Their impulse is the substep's (as a soft contact's: the −impulseScale·λ term is the spring's own
// force over this substep), starting from zero in each substep; the step reports the substeps'
// sum. A one-sided row (a limit) that is still apart (C on its free side) is speculative in every
// pass, λ' = λ − (J·v + C/h)/K, as Box2D v3's joint limits and JointLab's soft contacts.
// Drives and springs keep their own implicit spring (D 44), motors (α = 0) stay rigid.

/// The soft joints' stiffness over a substep of h: twice the soft contact's (softContactHertz,
/// which is 60 Hz at 8 substeps of a 60 Hz step and 30 Hz at 4), never above half the substep rate
/// — Box2D v3's jointSoftness (2 × contactHertz, contactHertz ≤ a quarter of the substep rate).
inline Real softJointHertz(Real h) {
    return std::min(2.0 * softContactHertz(h), 0.5 / h);
}
/// Box2D v3's jointDampingRatio (b2DefaultWorldDef): heavily overdamped, so a joint's error decays
/// without ringing.
constexpr Real kSoftJointDampingRatio = 2.0;

inline SoftCoefficients softJointCoefficients(Real h) {
    return softCoefficients(softJointHertz(h), kSoftJointDampingRatio, h);
}

/// Whether a soft joint row with bounds [lo, hi] and error C is apart (a limit on its free side):
/// then it is speculative, not soft.
inline bool softJointApart(Real C, Real lo, Real hi) {
    return (lo == 0.0 && C > 0.0) || (hi == 0.0 && C < 0.0);
}

/// The bias a soft joint row works with: C/h apart, biasRate·C in a biased pass, none otherwise.
inline Real softJointBias(Real C, bool apart, Real h, bool biased) {
    if (apart) return C / h;
    return biased ? softJointCoefficients(h).biasRate * C : 0.0;
}

/// A soft joint row's new impulse (before its clamp) from its substep impulse λ, velocity J·v,
/// target v_T, bias b (softJointBias) and 1/K.
inline Real softJointImpulse(Real lambda, Real jv, Real vT, Real bias, Real recip, Real h, bool soft) {
    if (!soft) return lambda - recip * ((jv + bias) - vT);
    const SoftCoefficients k = softJointCoefficients(h);
    return (lambda - k.massScale * (recip * ((jv + bias) - vT))) - k.impulseScale * lambda;
}

/// A block of soft joint rows (solver/block.h): row i's new impulse from its substep impulse λ and
/// its share d = (K⁻¹·c)_i of the rigid block solve, c = −(J·v + b − v_T).
inline Real softJointBlockImpulse(Real lambda, Real d, Real h, bool soft) {
    if (!soft) return lambda + d;
    const SoftCoefficients k = softJointCoefficients(h);
    return (lambda + k.massScale * d) - k.impulseScale * lambda;
}

}  // namespace jl::solver
