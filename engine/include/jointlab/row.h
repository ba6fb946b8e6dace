// JointLab engine — the 1D constraint row (Px1DConstraint).
//
// Every joint is a list of rows; the solvers only ever see rows. Conventions (all world axes):
//
//   row velocity      v = linear0·v0 + angular0·ω0 − linear1·v1 − angular1·ω1      (eq. 50)
//   hard row solves   v + α·geometricError/dt = velocityTarget                      (eq. 13, 44)
//   so geometricError is C with dC/dt = v (e.g. anchor0 − anchor1 along an axis, eq. 26),
//   linear1 = −μ1 and angular1 = −κ1 of the Jacobian J = {μ0, κ0, μ1, κ1} (eq. 45–49).
//   soft row (Spring) solves F = stiffness·(−geometricError) + damping·(velocityTarget − v)
//   implicitly (physx-joints-guide.md "Soft Constraints", drives doc eq. 9–24).
//
// Equation numbers refer to physx-1d-constraint-formulation.md unless said otherwise.
#pragma once

#include <cstdint>

#include "jointlab/math.h"

namespace jl {

/// Px1DConstraintFlag equivalents. Combine with |.
enum RowFlags : uint16_t {
    kRowSpring = 1 << 0,              ///< soft row: implicit spring with stiffness/damping
    kRowAccelerationSpring = 1 << 1,  ///< spring gains are accelerations (scaled by the response)
    kRowRestitution = 1 << 2,         ///< bounce: velocityTarget = −restitution·v when approaching fast
    kRowKeepBias = 1 << 3,            ///< keep the position bias in velocity iterations (limits)
    kRowOutputForce = 1 << 4,         ///< include this row's impulse in the joint's reported force
    kRowHasDriveLimit =
        1 << 5,            ///< min/maxImpulse are force limits (scaled by dt) unless limitsAreForces is false
    kRowAngular = 1 << 6,  ///< row constrains rotation only (linear0 = linear1 = 0)
    kRowDriveLimitsAreForces =
        1 << 7,  ///< with kRowHasDriveLimit: the limits are forces [N] (× dt); otherwise impulses
    kRowVelocityOnly = 1 << 8,  ///< a pure velocity target (motor): no position bias, ever (also in TGS)
    /// A linear row that holds the distance between its two anchors: its axis is the unit vector
    /// between them (linear1 = linear0 = ±(a1 − a0)/|a1 − a0|) and C changes with that distance
    /// only. TGS turns the axis with the anchors in every substep (as Box2D v3's distance joint
    /// does), instead of keeping the step's first axis: a frozen axis together with forces per
    /// substep would let a pendulum on a rod gain energy every swing.
    kRowSeparation = 1 << 9,
    /// Set by the world on the rows of the joints that settings.pointSolve = tree solves along
    /// their trees (solver/tree.h): the sweeps leave them out (their set-up is inactive there), and
    /// the world clears it again once the forest has its own copies.
    kRowTree = 1 << 10,
};

/// How the solver may treat the row (PxConstraintSolveHint).
enum class SolveHint : uint8_t {
    None,        ///< soft rows and rows with other impulse bounds
    Equality,    ///< hard, impulse unbounded both ways
    Inequality,  ///< one bound 0, the other unbounded
};

/// One degree of freedom constrained between two bodies.
struct Row {
    Vec3 linear0{0.0};          ///< μ0 [-]
    Vec3 angular0{0.0};         ///< κ0 [m] for linear rows (r0 × axis), [-] for angular rows
    Vec3 linear1{0.0};          ///< −μ1
    Vec3 angular1{0.0};         ///< −κ1
    Real geometricError = 0.0;  ///< C, in m or rad; dC/dt = row velocity
    Real velocityTarget = 0.0;  ///< v_T [m/s or rad/s]
    Real minImpulse = -kInf;    ///< accumulated impulse lower bound [N·s] (or force with kRowHasDriveLimit)
    Real maxImpulse = kInf;     ///< accumulated impulse upper bound
    union {
        struct {
            Real stiffness;  ///< N/m or N·m/rad (1/s² for acceleration springs)
            Real damping;    ///< N·s/m or N·m·s/rad (1/s for acceleration springs)
        } spring;
        struct {
            Real restitution;        ///< [0, 1]
            Real velocityThreshold;  ///< approach speed above which the row bounces
        } bounce;
    } mods{{0.0, 0.0}};
    uint16_t flags = 0;
    SolveHint solveHint = SolveHint::None;
    /// Rows of a block (a point constraint's linear locks): up to kMaxBlockRows consecutive
    /// Equality rows of one joint that the solver may solve jointly, as one small linear system
    /// (WorldSettings::pointSolve, docs/solvers.md "Block-solved point constraints"). Every row of
    /// the block carries its size (2 or 3) and its place in it (0, 1, 2); 0 and 0 outside a block.
    uint8_t blockSize = 0;
    uint8_t blockIndex = 0;
    Real erpOverride = -1.0;  ///< hard rows: Baumgarte factor used instead of the world's α when >= 0
                              ///< (coupling joints' own erp)
    const char* label = "";   ///< what the row is, for the UI: "linear Y lock", "twist limit (upper)"

    bool isSpring() const { return (flags & kRowSpring) != 0; }
};

/// A fixed-capacity output buffer for a joint's prep function (no allocation per step).
struct RowWriter {
    Row* rows;
    int capacity;
    int count = 0;

    /// Appends a default row, or returns nullptr when the buffer is full.
    Row* add() { return count < capacity ? &(rows[count++] = Row{}) : nullptr; }
};

/// Largest number of rows any joint type produces.
inline constexpr int kMaxRowsPerJoint = 16;
/// Largest block of rows solved jointly (Row::blockSize): a point constraint's three.
inline constexpr int kMaxBlockRows = 3;

}  // namespace jl
