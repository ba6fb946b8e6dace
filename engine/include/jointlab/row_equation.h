// JointLab engine — the equation of one row with its numbers (World::rowEquation): what the
// step set the row up with, for the equation panel and the teaching texts.
//
// Nothing here is computed a second way: World::rowEquation runs the solver's own row set-up
// (solver/row_setup.cpp, setupRow) on the row as the joint wrote it, with the bodies' step
// constants and the parameters of the step that ran, and reports what it produced, plus the
// pieces that make each number. Equation numbers: F = physx-1d-constraint-formulation.md,
// D = physx-implicit-spring-drives.md.
//
//   hard row   b = α·C/h (F 11)        λ' = constant + vMul·J·Δv + impulseMul·λ   (F 63–65)
//              constant = −(b − v_T + J·v_pre)/K, vMul = −1/K, impulseMul = 1
//   spring     a = h(h·k + c) (D 13), x = 1/(a·K + 1) (D 15; acceleration spring: 1/(a + 1), D 32)
//              constant = x(h·c·v_T − h·k·C − a·J·v_pre) (D 20), vMul = −x·a (D 21),
//              impulseMul = 1 − x (D 22); acceleration springs divide the first two by K (D 35–36)
//   clamp      λ' ∈ [min, max] (force limits × dt)
#pragma once

#include "jointlab/math.h"
#include "jointlab/row.h"

namespace jl {

struct RowEquation {
    Row row;                     ///< the row as its joint wrote it: J, C, v_T, bounds, spring, flags, label
    int body0 = -1, body1 = -1;  ///< scene bodies (−1: the world or a static body)
    /// M⁻¹ of each side as the row sees it: inverse mass × the joint's mass scale [1/kg] and the
    /// world inverse inertia × its inertia scale (zero for a static or kinematic body).
    Real invMass0 = 0.0, invMass1 = 0.0;
    Mat3 invInertia0{0.0}, invInertia1{0.0};
    /// K = J M⁻¹ Jᵀ (F 21) and its four terms: m0⁻¹|μ0|², κ0·I0⁻¹κ0, m1⁻¹|μ1|², κ1·I1⁻¹κ1.
    Real K = 0.0;
    Real kTerms[4] = {0.0, 0.0, 0.0, 0.0};
    bool active = true;  ///< false: K under the solver's threshold, the row was dropped
    bool tgs = false;
    Real dt = 0.0, h = 0.0;  ///< the step, and the step the bias is measured over (TGS: dt/posIters)
    Real vPre = 0.0;         ///< J·v_pre: the row's velocity before the constraints [m/s or rad/s]
    // Hard rows
    Real erp = 0.0;        ///< α used (0: velocity-only rows and bounces)
    Real bias = 0.0;       ///< b = α·C/h (F 11)
    Real velTarget = 0.0;  ///< v_T after restitution
    bool bounce = false, keepBias = false;
    // Spring rows (D 13–22, 30–37)
    bool spring = false, accelerationSpring = false;
    Real stiffness = 0.0, damping = 0.0;
    Real a = 0.0;  ///< h(h·k + c) (D 13)
    Real x = 0.0;  ///< 1/(a·K + 1) (D 15) or 1/(a + 1) (D 32)
    // The impulse update λ' = constant + vMul·J·Δv + impulseMul·λ
    Real constant = 0.0;          ///< position iterations (PGS; TGS's first substep)
    Real unbiasedConstant = 0.0;  ///< velocity iterations
    Real vMul = 0.0, impulseMul = 1.0;
    Real minImpulse = 0.0, maxImpulse = 0.0;  ///< the row's bounds as impulses [N·s] (force limits × dt)
    Real solveMin = 0.0, solveMax = 0.0;      ///< what the solver clamps to (also within its safety cap)
    Real impulse = 0.0;                       ///< the accumulated impulse the step ended with
    /// Block-solved rows (settings.pointSolve = block): the block's size, this row's place and its
    /// row of the block's K (World::rowResults' blockK).
    int blockSize = 0, blockIndex = 0;
    Real blockK[3] = {0.0, 0.0, 0.0};
    /// Contact rows (World::contactRowEquation): which point and which of its three rows, and
    /// the terms a contact adds to a row. A friction row's bounds follow its normal row's
    /// accumulated impulse while the solver runs (±μ·λn); minImpulse/maxImpulse and
    /// solveMin/solveMax then hold ±μ·λn with λn the normal row's impulse at the end of the step.
    bool contact = false;
    int contactPoint = -1;     ///< index in World::contactPoints()
    int contactRowKind = 0;    ///< 0 normal, 1 friction 1, 2 friction 2
    bool softContact = false;  ///< a PGS body contact that touches: an acceleration spring (D 30–37)
    bool speculative = false;  ///< a normal row with C > 0: the gap may close within the step
    /// TGS, a contact touching at the start of the step: its impulses are per substep (re-applied
    /// at each substep, bounded per substep; `impulse` is their sum over the step), and its normal,
    /// unless it bounces, is Box2D v3's soft contact with these coefficients for the substep h
    /// (engine/src/solver/soft_contact.h).
    bool substepImpulses = false;
    bool tgsSoftContact = false;
    Real softHertz = 0.0, softZeta = 0.0, softBiasRate = 0.0, softMassScale = 0.0, softImpulseScale = 0.0;
    Real softMaxPush = 0.0;      ///< [m/s]
    Real softDepth = 0.0;        ///< [m] overlap beyond which the row is solved hard (Baumgarte) instead
    Real friction = 0.0;         ///< Coulomb coefficient μ of the pair
    Real normalImpulse = 0.0;    ///< the point's normal row impulse at the end of the step [N·s]
    Real restitution = 0.0;      ///< e of the pair (the normal row bounces when kRowRestitution)
    Real bounceThreshold = 0.0;  ///< approach speed above which it bounces [m/s]
};

}  // namespace jl
