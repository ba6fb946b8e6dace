// JointLab engine — what every solver kernel shares: solver bodies, prepared rows, the row
// set-up (solver/row_setup.cpp) and the three operations of a row visit. The kernels are
// solver/reference/ (plain loops over these rows, the code to read) and solver/fast/ (the same
// rows packed into SIMD batches, solver/fast/fast.h).
//
// Equation numbers: physx-1d-constraint-formulation.md ("F") and physx-implicit-spring-drives.md
// ("D").
//
// Solver bodies carry linear velocity and angular MOMOCITY ω⁽ᵐ⁾ = I^½·ω (F 58–59). Rows carry
// the momocity Jacobian J⁽ᵐ⁾ = {μ0, I0^-½ κ0, μ1, I1^-½ κ1} (F 54–56), so applying an impulse
// λ changes momocity by λ·κ⁽ᵐ⁾ (F 60–61) and projecting κ⁽ᵐ⁾·Δω⁽ᵐ⁾ gives κ·Δω (F 62): no 3×3
// inertia product per row visit.
//
// Static bodies and the world share solver body 0 (zero velocity). Kinematic bodies get their own
// solver body with I^-½ = E (so momocity = ω) but zero inverse mass in every row they touch.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jointlab/math.h"
#include "jointlab/row.h"
#include "solver/limits.h"

namespace jl::solver {

namespace tree {
struct Forest;  // solver/tree.h
}

/// Velocity state touched in the inner loop: one 64-byte cache line per body, laid out as
/// {v.x, v.y, v.z, pad, w.x, w.y, w.z, pad} so the batched kernel (solver/fast/batch.h) loads a body's
/// linear or angular part as one 4-wide vector.
struct alignas(64) Body {
    Vec3 linVel{0.0};  ///< PGS: Δv accumulated by the solve; TGS: full linear velocity
    Real pad0 = 0.0;
    Vec3 angVel{0.0};  ///< PGS: Δω⁽ᵐ⁾; TGS: full angular momocity I^½·ω
    Real pad1 = 0.0;
};
static_assert(sizeof(Body) == 64, "Body must be one cache line: the batched kernel relies on the layout");

/// TGS only: motion accumulated over the substeps. Laid out like Body ({x, y, z, pad} twice) so
/// the batched kernel loads it the same way.
struct alignas(64) BodyDelta {
    Vec3 deltaLin{0.0};  ///< linear motion accumulated over the substeps (deltaLinDt) [m]
    Real pad0 = 0.0;
    Vec3 deltaAng{0.0};  ///< integrated momocity over the substeps (deltaAngDt)
    Real pad1 = 0.0;
};
static_assert(sizeof(BodyDelta) == 64, "BodyDelta must be one cache line, laid out as Body");

/// Per-body constants over one step (inertia held constant, as TGS's first approximation).
/// Laid out for the row set-up, which visits bodies in solve order (not memory order): what it
/// reads (invMass, dynamic, I^-½, v_pre, ω_pre) and the pose sit in the first three cache lines,
/// all PGS touches; the rest holds what only TGS uses, and a PGS step does not write it.
///
/// v_pre and ω_pre are the velocities the solve starts from. PGS: after the whole step's forces
/// (gravity, external force and torque, damping, gyroscopic term). TGS: after the gyroscopic term
/// only; the forces enter each substep (solver/integrate.h applySubstepForces), from `accel`,
/// `torqueM` and the damping factors below.
struct alignas(64) BodyInfo {
    Real invMass = 0.0;        ///< 0 for static / kinematic
    Mat3 sqrtInvInertia{0.0};  ///< world I^-½ (E for kinematic, 0 for the static body)
    bool dynamic = false;
    Vec3 vPre{0.0};  ///< velocity the solve starts from (see above)
    Vec3 wPre{0.0};  ///< angular velocity the solve starts from (plain ω)
    Transform pose;  ///< pose at the start of the step; the solver advances it
    // TGS only:
    Mat3 sqrtInertia{0.0};        ///< world I^½ (E for kinematic)
    Quat q0{1.0, 0.0, 0.0, 0.0};  ///< orientation at the start of the step
    Vec3 accel{0.0};              ///< g + F/m: linear acceleration from gravity and external force [m/s²]
    Real linDamping = 1.0;        ///< 1/(1 + c·h): linear damping over one substep h (1: none)
    Vec3 torqueM{0.0};            ///< I^-½·τ: the momocity's rate of change from external torque
    Real angDamping = 1.0;        ///< 1/(1 + c_ω·h): angular damping over one substep h (1: none)
};
static_assert(offsetof(BodyInfo, pose) + sizeof(Transform) <= 3 * 64,
              "PGS's fields in the first three cache lines");

enum SolverRowFlags : uint16_t {
    kSolveSpring = 1 << 0,
    kSolveAccelSpring = 1 << 1,
    kSolveKeepBias = 1 << 2,    ///< hard row keeps its bias in velocity iterations
    kSolveBounce = 1 << 3,      ///< restitution replaced the bias with a bounce target
    kSolveAngular = 1 << 4,     ///< no lever arms: skip the TGS lever update
    kSolveFriction = 1 << 5,    ///< bounds are ±frictionCoef × accumulated impulse of row `normalRow`
    kSolveInactive = 1 << 6,    ///< vanishing unit response: skipped
    kSolveSeparation = 1 << 7,  ///< TGS: the axis follows the anchors (jl::kRowSeparation)
    /// TGS contact row: its impulse is one substep's, applied again at every substep and bounded
    /// per substep; stepImpulse sums it over the step (solver/soft_contact.h)
    kSolveSubstep = 1 << 8,
    kSolveSoftContact = 1 << 9,  ///< TGS contact normal: Box2D v3's soft contact (soft_contact.h)
    /// TGS joint row under WorldSettings::correction = soft: Box2D v3's soft joint row; its impulse
    /// is one substep's, from zero in each substep, and stepImpulse sums it (soft_contact.h)
    kSolveSoftJoint = 1 << 10,
};

/// One row, prepared for the solver: only what a sweep touches (hot data, kept compact).
struct SolverRow {
    int b0 = 0, b1 = 0;  ///< solver body indices
    int normalRow = -1;  ///< kSolveFriction: the contact's normal row
    uint16_t flags = 0;
    /// The block it belongs to (Row::blockSize, solver/block.h), when the step solves blocks and
    /// this one qualified (findBlock, all its rows active): its size and this row's place in it.
    uint8_t blockSize = 0, blockIndex = 0;
    Vec3 lin0{0.0}, angM0{0.0}, lin1{0.0}, angM1{0.0};  ///< J⁽ᵐ⁾ (angular parts premultiplied by I^-½)
    Real linScale0 = 0.0, angScale0 = 0.0;  ///< invMass·invMassScale, invInertiaScale (0 if not dynamic)
    Real linScale1 = 0.0, angScale1 = 0.0;
    Real response = 0.0;       ///< r = J M⁻¹ Jᵀ with the mass scales (F 21)
    Real recipResponse = 0.0;  ///< 1/r
    // PGS (F 63–65, D 20–22): newAccum = constant + vMul·(J⁽ᵐ⁾Δv⁽ᵐ⁾) + impulseMul·accum
    Real constant = 0.0;          ///< position iterations
    Real unbiasedConstant = 0.0;  ///< velocity iterations
    Real vMul = 0.0;
    Real impulseMul = 1.0;
    Real minImpulse = -kInf, maxImpulse = kInf;
    Real accum = 0.0;         ///< accumulated impulse (kSolveSubstep: this substep's, while solving)
    Real frictionCoef = 0.0;  ///< kSolveFriction
    Real stepImpulse = 0.0;   ///< kSolveSubstep: the substeps' impulses so far, summed
};

/// The rest of a prepared row: TGS's on-the-fly error update and what telemetry reports.
struct SolverRowExtra {
    Real error0 = 0.0;                    ///< C at the start of the step
    Real vPre = 0.0;                      ///< J·v_pre: the row's velocity before the constraints
    Real velTarget = 0.0;                 ///< v_T (after restitution)
    Real erp = 0.0;                       ///< α (hard rows)
    Real stiffness = 0.0, damping = 0.0;  ///< spring rows
    Vec3 ang0Base{0.0}, ang1Base{0.0};    ///< κ − r × μ: the part of the angular Jacobian with no lever
    Vec3 r0Local{0.0}, r1Local{0.0};      ///< lever arms in the body frames at the start of the step
    Vec3 r0{0.0}, r1{0.0};                ///< lever arms in world at the start of the step
    Real length0 = 0.0;  ///< kSolveSeparation: μ0·(a1 − a0), the anchors' distance signed by the axis
};

/// One visit of one row by the reference kernel: what the trace writes and the stepper shows.
struct RowVisit {
    int phase = 0;    ///< 0: position iterations (TGS: substeps), 1: velocity iterations, 2: TGS relax
                      ///< sweeps or PGS split impulse's pseudo sweeps
    int sweep = 0;    ///< 0-based, within the phase
    size_t row = 0;   ///< index in State::rows
    Real C = 0.0;     ///< geometric error the row saw (TGS: advanced to this substep, F 66)
    Real jv = 0.0;    ///< row velocity J·v before the visit (full velocity, F 50)
    Real K = 0.0;     ///< unit response r = J M⁻¹ Jᵀ (F 21; TGS: from the refreshed Jacobian)
    Real bias = 0.0;  ///< position bias b = α·C/h of this visit (0 for springs and unbiased passes)
    Real lambdaBefore = 0.0, lambdaAfter = 0.0;  ///< accumulated impulse before and after
    bool clamped = false;                        ///< the clamp to [min, max] changed the impulse
    int block = 0;  ///< solved with the other rows of its block (solver/block.h): their count, else 0
    /// A block's visit: this row's row of the block's K = J M⁻¹ Jᵀ as that visit used it (TGS:
    /// from the refreshed Jacobians), K[i][0 … block − 1]; zeros for a row solved on its own.
    Real blockK[3] = {0.0, 0.0, 0.0};
};
/// Called after every row visit of the reference kernel, when set (the fast kernel never calls it).
struct RowObserver {
    void (*visit)(void* user, const RowVisit& v) = nullptr;
    void* user = nullptr;
};

/// TGS: a contact row (kSolveSubstep), whose impulse is one substep's and is applied again at
/// the start of every substep (solver/soft_contact.h). It starts the step with its warm start
/// (the last step's impulse of the same feature) spread evenly, impulse/n per substep, as the
/// forces it balanced are (solver/integrate.h applySubstepForces).
struct WarmStart {
    size_t row = 0;      ///< index in State::rows
    Real impulse = 0.0;  ///< the whole step's warm-start impulse (0: none)
    int slot = -1;       ///< fast kernel: the TGS row slot (State::rows index in the reference: -1)
    int lane = 0;        ///< fast kernel: its lane in that slot
};

/// What every kernel reads and writes: the solver bodies, the rows as set-up prepared them (in
/// the order they are swept), and the residuals of the last solve. Owned by the World and reused
/// every step (no allocation once capacities are reached). The fast kernel keeps its batched
/// copies beside it (solver/fast/fast.h, Data).
struct State {
    std::vector<Body> bodies;
    std::vector<BodyDelta> deltas;  ///< TGS, parallel to bodies
    std::vector<BodyInfo> info;
    /// The rows in solve order (batch after batch, lane after lane), as setupRow prepared them:
    /// the reference kernel sweeps these; the fast TGS packs its contacts' from here (its joint
    /// batches skip the list: setupTgsJointBatch; their entries are stale). [0, rowCount) in use
    /// (the vector only grows).
    std::vector<SolverRow> rows;
    std::vector<SolverRowExtra> extra;  ///< parallel to rows
    size_t rowCount = 0;
    /// The reference kernel's sweep: row spans [sweepSpans[2i], sweepSpans[2i + 1]) in order. The
    /// same order the fast kernel's sweeps give every body (with several parts: the joints
    /// between parts and the contacts first, then the parts).
    std::vector<int> sweepSpans;
    /// Rows [0, jointRowEnd) are the joints', the contacts' follow (Params::contactVelocityOnly).
    size_t jointRowEnd = 0;
    /// Convergence of the last solve, one entry per sweep (position iterations, then velocity
    /// iterations): sqrt(Σ (Δλ_i·r_i)²), the velocity change the rows still asked for [m/s]
    /// (a block's rows: their −(J·v + b − v_T) before the block's visit, which Δλ_i·r_i is not:
    /// solver/block.h). It falls to zero as the iterations converge.
    std::vector<Real> residuals;
    /// The parallel solve's stand-ins for the static body 0, one per part, are the last
    /// `standIns` bodies: static like it (zero velocity, never integrated).
    int standIns = 0;
    int movingEnd() const { return static_cast<int>(bodies.size()) - standIns; }
    /// The reference kernel reports every row visit here when set (the trace, the stepper).
    RowObserver observer;
    /// TGS: this step's contact rows (kSolveSubstep) with their warm starts: the reference kernel
    /// lists them when it starts, the fast one as it packs its slots.
    std::vector<WarmStart> warm;
    /// settings.pointSolve = tree: the joints the forest solves (solver/tree.h), after every sweep
    /// of either kernel; their rows in the sweeps are inactive. Null or empty: none.
    tree::Forest* forest = nullptr;
};

struct Params {
    Real dt = 1.0 / 60.0;
    int posIters = 4;
    int velIters = 1;
    Real erp = 1.0;               ///< Baumgarte α
    Real maxLinearSpeed = kInf;   ///< bodies never move faster than this, in integration too [m/s]
    Real maxAngularSpeed = kInf;  ///< [rad/s]
    bool simd = false;    ///< AVX2 kernels; decided once per step (set-up and solve must agree on the layout)
    bool blocks = false;  ///< solve the rows' blocks jointly (WorldSettings::pointSolve = block or tree)
    /// TGS: after each substep's motion, an unbiased sweep (a velocity pass) takes the position
    /// bias's velocity back out (WorldSettings::correction = relax; Box2D v3's relax iterations).
    bool relax = false;
    /// PGS: the position iterations solve the velocity without the bias, then as many biased sweeps
    /// (the pseudo-velocity) move the bodies and are undone (WorldSettings::correction =
    /// splitImpulse).
    bool split = false;
    /// TGS: joints' hard rows are Box2D v3's soft rows (WorldSettings::correction = soft, which
    /// also sets `relax`; solver/soft_contact.h).
    bool softJoints = false;
    /// PGS: the velocity iterations sweep the contacts only (WorldSettings::correction = rattle).
    /// The joints' velocity is the position pass's: the chord of the motion it makes, then its
    /// projection at the end-of-step poses (world/stages/position_pass.cpp). A velocity iteration
    /// on a joint after the integration would change the velocity without moving the bodies, and
    /// the pass's chord would count that impulse a second time (docs/solvers.md §9).
    bool contactVelocityOnly = false;
};

/// The block of rows[0, count) (Row::blockSize; a joint has at most one): the rows t … t + n − 1
/// that say they are rows 0 … n − 1 of a block of n = 2 or 3 hard equality rows (no spring,
/// restitution or drive limit, both bounds infinite). Returns t and sets n, or returns −1 (n = 0)
/// when there is none or it is incomplete.
int findBlock(const Row* rows, int count, int& n);

/// v scaled down to length maxLen if it is longer (NaN stays NaN; the world catches it).
/// maxLen/|v| for a finite v whose |v|² overflows (|v| > ~1e154): scaled down by its largest
/// component first. Without it the cap's factor maxLen/√∞ = 0 would stop the body dead instead of
/// capping it (and turn an infinite component into NaN). An infinite or NaN v is left alone (1).
inline Real overflowingSpeedFactor(const Vec3& v, Real maxLen) {
    const Real m = std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z)));
    if (!std::isfinite(m) || !(m > 0.0)) return 1.0;
    return (maxLen / m) / std::sqrt(glm::dot(v / m, v / m));
}

inline Vec3 clampSpeed(const Vec3& v, Real maxLen) {
    const Real l2 = glm::dot(v, v);
    if (!(l2 > maxLen * maxLen)) return v;
    return v * (std::isinf(l2) ? overflowingSpeedFactor(v, maxLen) : maxLen / std::sqrt(l2));
}

/// Prepares one row (F 21, 63–65; D 13–22 for springs). `rowOut` receives the solver row.
/// sub = dt for PGS, dt/posIters for TGS (the step the bias is measured against).
/// r0, r1 are the world lever arms (body centre to the row's anchor) the row's linear part acts
/// through; TGS uses them to refresh κ as the bodies turn (F 66).
struct RowBodies {
    int b0 = 0, b1 = 0;
    Real invMassScale0 = 1.0, invInertiaScale0 = 1.0, invMassScale1 = 1.0, invInertiaScale1 = 1.0;
    Vec3 r0{0.0}, r1{0.0};
    Vec3 separation{0.0};  ///< a1 − a0, anchor 1 from anchor 0 in world (jl::kRowSeparation rows)
};
/// What telemetry and force reporting keep of a prepared row (its impulse stays where the solver
/// left it: World::Impl::impulse).
struct RowReport {
    Real response = 0.0;
    Real minImpulse = 0.0, maxImpulse = 0.0;
    Real erp = 0.0, velTarget = 0.0;
    uint16_t flags = 0;
};
void setupRow(const Row& row, const RowBodies& rb, const State& state, const Params& p, bool tgs,
              SolverRow& out, SolverRowExtra& extra, RowReport& report);
/// invMass·invMassScale and invInertiaScale of one side of a constraint (0 if not dynamic).
inline void bodyScales(const BodyInfo& i, Real invMassScale, Real invInertiaScale, Real& lin, Real& ang) {
    lin = i.dynamic ? i.invMass * invMassScale : 0.0;
    ang = i.dynamic ? invInertiaScale : 0.0;
}

/// Row velocity J·v with momocity (F 62), for full or delta velocities.
inline Real rowVelocity(const SolverRow& r, const Body& a, const Body& b) {
    return glm::dot(r.lin0, a.linVel) + glm::dot(r.angM0, a.angVel) - glm::dot(r.lin1, b.linVel) -
           glm::dot(r.angM1, b.angVel);
}

/// Applies impulse delta dl to both bodies (F 24, 60–61).
inline void applyImpulse(const SolverRow& r, Real dl, Body& a, Body& b) {
    a.linVel += (dl * r.linScale0) * r.lin0;
    a.angVel += (dl * r.angScale0) * r.angM0;
    b.linVel -= (dl * r.linScale1) * r.lin1;
    b.angVel -= (dl * r.angScale1) * r.angM1;
}

/// TGS, at the start of a substep: a kSolveSubstep row's impulse `accum` (this substep's)
/// applied to both bodies with the row's set-up Jacobian (applyImpulse) and added to the step's
/// sum.
inline void reapplySubstepImpulse(const SolverRow& r, Real accum, Real& stepImpulse,
                                  std::vector<Body>& bodies) {
    stepImpulse += accum;
    if (accum != 0.0)
        applyImpulse(r, accum, bodies[static_cast<size_t>(r.b0)], bodies[static_cast<size_t>(r.b1)]);
}

/// Clamps the new accumulated impulse, updates the row and returns the applied delta.
inline Real clampAccumulate(SolverRow& r, Real newAccum, const std::vector<SolverRow>& rows) {
    Real lo = r.minImpulse, hi = r.maxImpulse;
    if (r.flags & kSolveFriction) {
        hi = r.frictionCoef * rows[static_cast<size_t>(r.normalRow)].accum;
        lo = -hi;
    }
    newAccum = newAccum < lo ? lo : (newAccum > hi ? hi : newAccum);
    const Real dl = newAccum - r.accum;
    r.accum = newAccum;
    return dl;
}

}  // namespace jl::solver
