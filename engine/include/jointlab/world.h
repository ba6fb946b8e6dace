// JointLab engine — the World: runtime state built from a Scene, advanced by step().
//
// One step (see docs/solvers.md):
//   1. apply external forces (gravity, user forces) and damping → v_pre
//   2. prep: every unbroken joint and every ground contact writes its rows
//   3. solver setup: unit responses, constants, impulse bounds (solver/row_setup.cpp)
//   4. PGS or TGS: position iterations, integration, velocity iterations
//   5. write back velocities and poses
//   6. force reporting at body 1's joint frame, breakage and break events
// Edits to the scene are applied between steps, never during one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "jointlab/row.h"
#include "jointlab/scene.h"
#include "jointlab/snapshot.h"

namespace jl {

struct RowEquation;  // jointlab/row_equation.h

/// What the solver did with one row in the last step.
struct RowResult {
    Real impulse = 0.0;         ///< accumulated impulse over the step [N·s] (N·m·s for angular rows)
    Real geometricError = 0.0;  ///< C at the start of the step [m or rad]
    Real bias = 0.0;            ///< α·C/dt used in position iterations [m/s or rad/s]
    Real velocityError = 0.0;   ///< J·v + b − v_T after the solve, b as in the last iteration phase
    Real unitResponse = 0.0;    ///< r = J M⁻¹ Jᵀ with the joint's mass scales
    bool clamped = false;       ///< the accumulated impulse sits on a finite bound
    bool active = true;         ///< false when the row was dropped (vanishing response)
    /// Rows of a block (Row::blockSize) that the step solved at once (settings.pointSolve = block,
    /// all its rows active, K regular): the block's row count and this row's place in it; 0, 0
    /// for a row solved on its own.
    int blockSize = 0, blockIndex = 0;
    /// This row's row of the block's K = J M⁻¹ Jᵀ (the rows' unit responses on its diagonal:
    /// blockK[blockIndex] = unitResponse), at the start of the step.
    Real blockK[3] = {0.0, 0.0, 0.0};
};

/// Runtime state of a joint.
struct JointState {
    Vec3 force{0.0};   ///< force the joint applied to body 1, at body 1's joint frame origin, world axes [N]
    Vec3 torque{0.0};  ///< torque the joint applied to body 1 about that point [N·m]
    bool broken = false;
    int firstRow = 0;  ///< index of its first row in World::rows() for the last step
    int rowCount = 0;  ///< rows it produced in the last step (0 when broken)
};

/// One contact point of the last step (ground or between bodies), for drawing and panels.
struct ContactPoint {
    int body0 = -1, body1 = -1;  ///< scene indices; body1 −1: the ground plane
    Vec3 point{0.0};             ///< on body 0's surface at the start of the step, world [m]
    Vec3 normal{0.0, 1.0, 0.0};  ///< unit, from body 1 towards body 0
    Real separation = 0.0;       ///< C of the normal row [m] (< 0: overlap)
    Real normalImpulse = 0.0;    ///< the normal row's impulse over the step [N·s]
    Vec3 frictionImpulse{0.0};   ///< the two friction rows' impulses as a vector, world [N·s]
    int firstRow = 0;            ///< its normal row in World::contactRows(); the two friction rows follow
    Real friction = 0.0;         ///< Coulomb coefficient μ: the friction rows are bounded by ±μ·λn
};

/// Raised when a joint breaks.
struct BreakEvent {
    int joint = -1;
    int64_t step = 0;  ///< the step in which the load exceeded the threshold (1-based step count)
    Real time = 0.0;   ///< simulation time at the end of that step [s]
    Vec3 force{0.0};
    Vec3 torque{0.0};
};

/// Set when a step produced a non-finite body state. The world put every body back to its
/// state before that step and did not advance; the app pauses and shows `message`.
struct Divergence {
    int64_t step = 0;  ///< the step that failed (stepCount() + 1 at the time)
    int body = -1;     ///< first body that went non-finite
    int joint = -1;    ///< a joint on that body (the one with the largest impulse), or −1
    std::string message;
};

class World {
public:
    /// Builds the runtime state. The scene must be valid (see validateScene); bodies referenced
    /// by name are resolved here. When the scene carries a state (Scene::state, a file saved
    /// mid-run), the world continues from it bit for bit; the world's scene() then no longer holds
    /// it (the descriptions say how the run started, snapshot() where it is now).
    explicit World(Scene scene);
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// Advances the simulation by settings().dt. At step kMaxStepCount (10^12) it does nothing: no
    /// run goes past the longest one a file can hold.
    void step();

    /// Replaces the descriptions with an edited scene between steps, keeping the simulation
    /// going: bodies keep their current pose and velocity and joints their broken flag and
    /// tracked angles, matched by name. New bodies start from their description. A body whose
    /// pose or velocity was edited in the description (it differs from `previous`, the scene the
    /// edit started from) takes the edited value. The scene must be valid.
    void applyScene(Scene scene, const Scene& previous);

    const Scene& scene() const { return scene_; }
    /// Settings may be changed between steps; the next step uses them.
    WorldSettings& settings() { return scene_.settings; }

    int64_t stepCount() const { return stepCount_; }
    Real time() const { return time_; }

    /// Every body's state now. The span is valid until the next step() (which writes the new
    /// states into another buffer) or applyScene().
    std::span<const BodyState> bodies() const { return bodies_; }
    /// Overwrite one body's state (editor drags, resets). Takes effect at the next step.
    void setBodyState(int body, const BodyState& s);

    /// Joint state; force and torque are those of the last step (worked out on first request).
    const JointState& jointState(int joint) const {
        ensureJointForces();
        return joints_[joint];
    }
    /// Scene indices of joint j's body 0 and body 1 (−1 = the world).
    int jointBody0(int joint) const;
    int jointBody1(int joint) const;
    /// Rows of every joint from the last step (ground contacts are not included). The rows, their
    /// results and the joints' forces are worked out when first asked for after a step, so these
    /// queries (and jointState) may write the World's caches: do not call them from two threads
    /// at once. Spans are valid until the next step().
    std::span<const Row> rows() const;
    std::span<const RowResult> rowResults() const;
    std::span<const Row> jointRows(int joint) const;
    std::span<const RowResult> jointRowResults(int joint) const;

    /// Times joint j was projected in the last step (0 or 1: JointDesc::projection moves the
    /// bodies back onto a joint at most once a step, world/stages/projection.cpp).
    int jointProjections(int joint) const;

    const std::vector<BreakEvent>& breakEvents() const { return breakEvents_; }
    /// Un-breaks a joint: it takes part in the solve again from the next step.
    void restoreJoint(int joint);
    /// Forgets what the joint tracked across steps (its angles through full turns, a coupling's
    /// start poses): from the next step they are measured from the poses then. For a joint whose
    /// frames were re-seated at the bodies' current poses (the app's Restore).
    void resetJointMemory(int joint);
    /// Breaks or un-breaks a joint directly.
    void setJointBroken(int joint, bool broken);

    /// Adds a force at a world point on a body for the next step only (mouse drag, tests).
    void applyForce(int body, const Vec3& force, const Vec3& worldPoint);

    /// Convergence of the last step, one value per sweep (position iterations, then velocity
    /// iterations): sqrt(Σ (Δλ_i·r_i)²) over all rows, the velocity change the rows still asked
    /// for in that sweep [m/s] (rows solved as a block: their J·v + b − v_T before the visit). It
    /// falls towards zero as the iterations converge.
    std::span<const Real> lastResiduals() const;

    /// Number of contact rows (ground and body contacts, 3 per point) in the last step.
    int contactRowCount() const;
    /// The last step's contact points with their impulses (ground contacts first, then body
    /// contacts in their canonical order: by body 0, body 1, child shapes).
    std::vector<ContactPoint> contactPoints() const;
    /// The contact rows of the last step (3 per point: normal, friction 1, friction 2, in the
    /// order of contactPoints()), as the solver saw them, and what it did with them.
    std::span<const Row> contactRows() const;
    std::span<const RowResult> contactRowResults() const;
    /// Joint rows the last step solved: those of rowResults() that are active. Unlike counting
    /// rowResults(), it does not build the row views (benchmarks count rows every step).
    int activeJointRowCount() const;
    /// Joints (in scene order) with a row the last step dropped because its unit response
    /// J M⁻¹ Jᵀ was under the solver's threshold (solver/limits.h kMinResponse) or not finite:
    /// the solver could not move the bodies along it (both infinitely heavy through their motion
    /// types and the joint's mass scales). Such a row does nothing, so the UI and the runner warn
    /// about it. Cheap when there is none (a count per joint); finding the joints reads the rows.
    std::vector<int> jointsWithInactiveRows() const;
    /// The unit response under which a row is dropped (solver/limits.h kMinResponse).
    static Real minRowResponse();

    Real kineticEnergy() const;
    /// Gravitational potential energy −m·g·x summed over dynamic bodies [J].
    Real potentialEnergy() const;

    /// Inverse mass [1/kg] (0 for static and kinematic bodies).
    Real inverseMass(int body) const;
    /// Principal inertia in the body frame.
    Vec3 localInertia(int body) const;

    /// Non-null after a step that diverged (see Divergence); cleared by the next good step.
    const Divergence* divergence() const { return divergence_.step > 0 ? &divergence_ : nullptr; }

    WorldSnapshot snapshot() const;
    /// Restores a snapshot taken from a world built from the same scene.
    void restore(const WorldSnapshot& s);

    /// FNV-1a hash of the bits of every body's pose and velocity (determinism checks).
    uint64_t stateHash() const;

    /// One visit of one row by the reference kernel (engine/src/solver/reference/), named as the
    /// telemetry CSV names rows: what `jointlab run --trace` writes.
    struct RowTrace {
        int64_t step = 0;  ///< the step being taken, numbered as the CSV numbers them (1 = the first)
        int phase = 0;     ///< 0: position iterations (TGS: substeps), 1: velocity, 2: TGS relax
        int sweep = 0;     ///< 0-based within the phase
        int joint = -1;    ///< the joint's index; −1 for a ground contact row
        int row = 0;       ///< the row's index in its joint (contact: 0 normal, 1 and 2 friction)
        Real C = 0.0, jv = 0.0, K = 0.0, bias = 0.0;  ///< error, row velocity, unit response, bias
        Real lambdaBefore = 0.0, lambdaAfter = 0.0;   ///< accumulated impulse around the visit
        bool clamped = false;                         ///< the impulse bound changed the impulse
        int block = 0;  ///< solved at once with the other rows of its block: their count (else 0)
        Real blockK[3] = {0.0, 0.0, 0.0};  ///< a block's visit: this row's row of its K (else zeros)
        /// The row's two bodies (scene indices, −1 for the world or a static body) and their
        /// velocities right after the visit: linear [m/s] and angular (plain ω, world axes)
        /// [rad/s], with everything the solve applied so far (PGS: v_pre + Δv; split impulse's
        /// pseudo sweeps: the pseudo-velocity).
        int body0 = -1, body1 = -1;
        Vec3 v0{0.0}, w0{0.0}, v1{0.0}, w1{0.0};
        /// A contact row: its index in World::contactRows() (−1 for a joint row).
        int contactRow = -1;
    };
    /// Row `row` of joint `joint` in the last step as the solver set it up: its Jacobian, K and
    /// the terms of K, bias, spring coefficients and impulse update (jointlab/row_equation.h).
    /// False when there is no such row (no step yet, a broken joint, an index out of range).
    bool rowEquation(int joint, int row, RowEquation& out) const;
    /// The same for contact row `row` of contactRows() (ground or body contact): the solver's own
    /// set-up of it, plus its contact terms (RowEquation::contact). False when there is no such row.
    bool contactRowEquation(int row, RowEquation& out) const;

    /// Calls `visit` after every row visit of the following steps. Only the reference kernel
    /// reports visits (settings.kernel = reference); an empty function turns it off.
    void setRowTrace(std::function<void(const RowTrace&)> visit);

private:
    /// After a step: if any body is non-finite, restore the last good state and record why.
    bool recoverFromDivergence();
    /// Fills every joint's force and torque from the last step if not done yet (world/step.cpp).
    void ensureJointForces() const;

    struct Impl;
    friend struct WorldProbe;  // tests' read access to Impl (world/world_probe.h)
    Divergence divergence_;
    Scene scene_;
    std::vector<BodyState> bodies_;
    mutable std::vector<JointState> joints_;  // force and torque filled on request (ensureJointForces)
    std::vector<BreakEvent> breakEvents_;
    int64_t stepCount_ = 0;
    Real time_ = 0.0;
    std::unique_ptr<Impl> impl_;
};

}  // namespace jl
