// JointLab engine — the Scene: plain descriptions of settings, bodies and joints.
//
// The Scene is what files store, what the editor edits (through undoable commands) and what a
// World is built from. It holds no runtime state, except an optional saved `state` of a run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "jointlab/body.h"
#include "jointlab/fields.h"
#include "jointlab/joint.h"
#include "jointlab/lesson.h"
#include "jointlab/reference.h"
#include "jointlab/snapshot.h"
#include "jointlab/solver_kernel.h"

namespace jl {

enum class SolverType { PGS, TGS };
inline constexpr const char* kSolverTypeNames[] = {"pgs", "tgs"};

/// Which implementation solves the rows. Both solve the same rows in the same order and agree to
/// rounding (docs/solvers.md "Two kernels").
enum class KernelType {
    Fast,       ///< batched: 4 constraints at once (AVX2 when the CPU has it), pipelined, threaded
    Reference,  ///< plain loops over the rows, one at a time (engine/src/solver/reference/)
};
inline constexpr const char* kKernelTypeNames[] = {"fast", "reference"};

/// How the solver corrects position error (docs/solvers.md "Position correction").
/// JointLab's stable default α (WorldSettings::autoBaumgarte; docs/solvers.md "Defaults").
inline constexpr Real kStableBaumgartePgs = 0.3;
inline constexpr Real kStableBaumgarteTgs = 0.5;

enum class Correction {
    Baumgarte,     ///< the bias α·C/h in the velocity the bodies keep (PhysX)
    Relax,         ///< TGS: after each substep's motion, an unbiased sweep takes the bias back out
                   ///< (Box2D v3's relax iterations); PGS solves as baumgarte
    SplitImpulse,  ///< PGS: the velocity is solved without the bias; the bias's pseudo-velocity moves
                   ///< the bodies and is then dropped (Bullet's split impulse); TGS solves as baumgarte
    Soft,          ///< TGS: relax, and joints' rows are Box2D v3's soft rows; PGS solves as baumgarte
    Ngs,     ///< PGS: no joint bias in the velocity; a position pass at the new poses moves the bodies onto
             ///< the joints (Box2D v2's, Jolt's position iterations); TGS solves as relax
    Rattle,  ///< PGS: ngs's pass along the start-of-step rows (bounded), its displacement fed into the
             ///< velocity, then the velocity projected at the new poses (RATTLE); TGS solves as relax
};
inline constexpr const char* kCorrectionNames[] = {"baumgarte", "relax", "splitImpulse",
                                                   "soft",      "ngs",   "rattle"};

/// World settings: time step, solver and environment.
/// The most solver threads (WorldSettings::threads) a scenario may ask for.
inline constexpr int kMaxSolverThreads = 16;

struct WorldSettings {
    Real dt = 1.0 / 60.0;  ///< fixed time step [s]
    int posIters = 8;      ///< position iterations per step (TGS: substeps; docs/solvers.md "Defaults")
    int velIters = 1;      ///< velocity iterations per step
    Vec3 gravity{0.0, -9.81, 0.0};  ///< [m/s^2], Y is up
    SolverType solver = SolverType::PGS;
    /// Use JointLab's stable default α (kStableBaumgartePgs, kStableBaumgarteTgs), chosen so that
    /// no example and no long chain gains energy (docs/solvers.md "Defaults"); physxBaumgarte() is
    /// PhysX's own, which the PhysX preset sets.
    bool autoBaumgarte = true;
    Real baumgarte = 1.0;          ///< α in b = α·C/dt, used when autoBaumgarte is false
    bool groundPlane = true;       ///< static ground plane y = 0 that boxes, spheres and capsules rest on
    Real groundFriction = 0.6;     ///< Coulomb friction coefficient against the ground
    Real groundRestitution = 0.0;  ///< [0, 1]
    Real bodyFriction = 0.6;       ///< Coulomb friction coefficient between two bodies
    Real bodyRestitution = 0.0;    ///< [0, 1] between two bodies
    bool bodyCollisions = true;    ///< bodies collide with each other (docs/contacts.md)
    Real maxLinearSpeed = 1e4;     ///< speed cap [m/s]
    Real maxAngularSpeed = 100.0;  ///< angular speed cap [rad/s] (PhysX's default maxAngularVelocity)
    /// The gyroscopic term −ω × (I·ω) of every dynamic body, integrated implicitly once per step
    /// (docs/solvers.md "Gyroscopic forces"): a free body keeps its angular momentum, not its ω.
    /// Off: ω of a free body stays fixed in the world (what JointLab did before it existed).
    bool gyroscopic = true;
    /// Parts the joints are split into, solved side by side on up to this many cores (docs/solvers.md
    /// "Threads"). The joints between parts are solved before the parts' batches on their bodies, so
    /// the count changes the result (the same count always gives the same bits, on any machine); 1
    /// solves everything in order.
    int threads = 1;
    /// The order the rows are solved in (both kernels): Gauss-Seidel's result depends on it.
    SolverOrder rowOrder = SolverOrder::Coloured;
    /// How a joint's point constraint is solved (both solvers, both kernels). Block converges in
    /// one iteration where rows needs hundreds (a light body on a long lever); files that do not
    /// say get it too.
    PointSolve pointSolve = PointSolve::Block;
    /// How position error is corrected (docs/solvers.md "Position correction").
    Correction correction = Correction::Relax;
    /// The implementation that solves the rows.
    KernelType kernel = KernelType::Fast;

    /// α actually used for the current solver: `baumgarte`, or the stable default when auto.
    Real effectiveBaumgarte() const;
    /// PhysX's default α [F "PhysX API"]: 1 for PGS, 1/sqrt(posIters) for TGS.
    Real physxBaumgarte() const;
    /// PhysX's own choices, for comparing with PhysX: its α (by hand: physxBaumgarte() for the
    /// current solver and iterations), its 4 + 1 iterations, its per-row Gauss–Seidel for point
    /// constraints, Baumgarte correction and no gyroscopic term. Time step, solver, gravity, ground,
    /// kernel, threads and row order are left as they are.
    void applyPhysXPreset();

    template <class V>
    void visit(V& v) {
        v("dt", dt, Field{"s", 1e-5, 0.1, "fixed time step"});
        v("posIters", posIters, Field{"", 1, 255, "position iterations per step"});
        v("velIters", velIters, Field{"", 0, 255, "velocity iterations per step"});
        v("gravity", gravity, anyReal("m/s^2", "gravitational acceleration (Y is up)"));
        v("solver", EnumField<SolverType>{solver, kSolverTypeNames, 2},
          Field{"", 0, 0, "pgs: projected Gauss-Seidel; tgs: temporal Gauss-Seidel (substepping)"});
        v("autoBaumgarte", autoBaumgarte,
          Field{"", 0, 0,
                "use JointLab's stable default alpha (PGS 0.3, TGS 0.5), which no example or long chain "
                "gains energy with; PhysX's own (1 for PGS, 1/sqrt(posIters) for TGS) is the PhysX preset"});
        v("baumgarte", baumgarte,  // unused while autoBaumgarte is on (a sweep over it would be flat)
          relevantIf(!autoBaumgarte,
                     Field{"", 0.0, 1.0, "fraction of the position error corrected per step (α)"}));
        v("groundPlane", groundPlane, Field{"", 0, 0, "a static ground plane at y = 0"});
        v("groundFriction", groundFriction, nonNegative("", "friction coefficient against the ground"));
        v("groundRestitution", groundRestitution, Field{"", 0.0, 1.0, "bounciness of the ground"});
        v("bodyCollisions", bodyCollisions,
          Field{
              "", 0, 0,
              "bodies collide with each other (except joined bodies, unless the joint's collideConnected is "
              "set, and bodies whose collision filters exclude each other)"});
        v("bodyFriction", bodyFriction, nonNegative("", "friction coefficient between two bodies"));
        v("bodyRestitution", bodyRestitution, Field{"", 0.0, 1.0, "bounciness between two bodies"});
        v("maxLinearSpeed", maxLinearSpeed, Field{"m/s", 1e-3, 1e6, "bodies never move faster than this"});
        v("maxAngularSpeed", maxAngularSpeed,
          Field{"rad/s", 1e-3, 1e5, "bodies never spin faster than this"});
        v("gyroscopic", gyroscopic,
          Field{"", 0, 0,
                "the gyroscopic term ω × Iω, integrated implicitly: free bodies keep their angular "
                "momentum (a box spun about its middle axis tumbles)"});
        v("rowOrder", EnumField<SolverOrder>{rowOrder, kSolverOrderNames, 3},
          Field{"", 0, 0,
                "coloured: joints 4 at a time, colour by colour (fast); wavefront: the same result as "
                "sequential, in levels; sequential: scene order, one joint at a time"});
        v("pointSolve", EnumField<PointSolve>{pointSolve, kPointSolveNames, kPointSolveCount},
          Field{"", 0, 0,
                "how a joint's point constraint (its 2 or 3 linear lock rows) is solved: block: the rows "
                "at once, K^-1 (3x3); rows: one after another (PhysX's Gauss-Seidel); tree: every locked "
                "axis of the joints that form trees solved exactly along the trees, their limits with "
                "the trees' response"});
        v("correction",
          EnumField<Correction>{correction, kCorrectionNames,
                                static_cast<int>(sizeof kCorrectionNames / sizeof kCorrectionNames[0])},
          Field{"", 0, 0,
                "how position error is corrected: baumgarte: the bias alpha*C/h stays in the velocity; relax "
                "(TGS only; PGS solves as baumgarte): after each substep's motion an unbiased sweep takes "
                "the bias velocity back out (Box2D v3's relax iterations); splitImpulse (PGS only; TGS "
                "solves as baumgarte): the velocity is solved without the bias, and the bias only moves the "
                "bodies (split impulse)"
                "; soft (TGS only; PGS solves as baumgarte): relax, and the joints' rows correct position as "
                "Box2D v3's soft constraints (twice the soft contact's hertz, damping ratio 2) instead of "
                "alpha*C/h"
                "; ngs (PGS only; TGS solves as relax): the joints' rows carry no bias in the velocity, and "
                "after the step a position pass rebuilds them at the new poses and moves the bodies onto "
                "them (Box2D v2's position iterations)"});
        v("kernel", EnumField<KernelType>{kernel, kKernelTypeNames, 2},
          Field{"", 0, 0,
                "fast: batched SIMD kernel; reference: the plain loop over rows that the docs explain "
                "(same rows, same order, same result to rounding)"});
        v("threads", threads,
          Field{"", 1, kMaxSolverThreads,
                "solver threads: the joints are split into this many parts solved at once"});
    }
};

/// Viewer state worth keeping with a scenario.
struct CameraState {
    Vec3 target{0.0, 1.0, 0.0};  ///< orbit centre [m]
    Real distance = 8.0;         ///< [m]
    Real yaw = 0.6;              ///< [rad] about +Y
    Real pitch = 0.35;           ///< [rad] above the horizon

    template <class V>
    void visit(V& v) {
        v("target", target, anyReal("m", "point the camera orbits"));
        v("distance", distance, positive("m", "distance from the target"));
        v("yaw", yaw, anyReal("rad", "rotation about the vertical axis"));
        v("pitch", pitch, Field{"rad", -1.57, 1.57, "elevation above the horizon"});
    }
};

/// What a plot of the app's Plots panel shows.
enum class PlotKind {
    Impulse,
    Error,
    Force,
    Torque,
    Energy,
    Convergence,
    Reference,
    Contact,
    Projections,
    Mujoco,
    Divergence
};
inline constexpr const char* kPlotKindNames[] = {"impulse",     "error",       "force",     "torque",
                                                 "energy",      "convergence", "reference", "contact",
                                                 "projections", "mujoco",      "divergence"};

/// One plot of the app's Plots panel. Saved with the scenario, so whoever opens the file sees the
/// same plots. Joints and rows are named, not indexed: a plot keeps its meaning when joints are
/// added or removed, and a name that no longer exists is shown as missing, not refused.
struct PlotDesc {
    std::string title;  ///< shown above the plot; "" = made from the kind and the joints
    PlotKind kind = PlotKind::Impulse;
    std::string joints;       ///< comma-separated joint names; "" = the joint selected in the app
    std::string rows;         ///< comma-separated row labels ("linear Y lock"); "" = every row
    bool logScale = false;    ///< logarithmic value axis
    std::string reference;    ///< reference plots: the name of the scene's reference (ReferenceDesc)
    bool difference = false;  ///< reference plots: also draw simulated − closed form
    std::string bodies;       ///< contact plots: comma-separated body names; "" = the selected body

    template <class V>
    void visit(V& v) {
        v("title", title, Field{"", 0, 0, "shown above the plot; empty: made from the kind and the joints"});
        v("kind", EnumField<PlotKind>{kind, kPlotKindNames, 11},
          Field{
              "", 0, 0,
              "impulse or error: per row of the joints; force, torque: per joint, against its break "
              "threshold; energy: kinetic, potential, total; convergence: residual per solver sweep of the "
              "last step; reference: a simulated quantity beside its closed form (`reference`); contact: the "
              "net force the contacts push each of `bodies` with; projections: times each joint was "
              "projected per step (JointDesc::projection), and their total; mujoco: each of `joints`' "
              "angle (or offset) in JointLab and in the MuJoCo reference run; divergence: the largest "
              "body distance between the two"});
        v("joints", joints,
          Field{"", 0, 0, "comma-separated joint names; empty: the joint selected in the app"});
        v("rows", rows,
          Field{"", 0, 0, "comma-separated row labels (impulse and error plots); empty: every row"});
        v("logScale", logScale, Field{"", 0, 0, "logarithmic value axis"});
        v("reference", reference,
          relevantIf(kind == PlotKind::Reference,
                     Field{"", 0, 0, "reference plots: the name of one of the scene's references"}));
        v("difference", difference,
          relevantIf(kind == PlotKind::Reference,
                     Field{"", 0, 0, "reference plots: also draw the difference simulated − closed form"}));
        v("bodies", bodies,
          relevantIf(
              kind == PlotKind::Contact,
              Field{"", 0, 0,
                    "contact plots: comma-separated body names; empty: the body selected in the app"}));
    }
};

struct Scene {
    std::string description;  ///< free text shown in the app
    WorldSettings settings;
    std::vector<BodyDesc> bodies;
    std::vector<JointDesc> joints;
    CameraState camera;
    std::vector<PlotDesc> plots;  ///< the app's Plots panel set-up (optional in files)
    /// Closed forms the simulation is compared with (optional in files; jointlab/reference.h).
    std::vector<ReferenceDesc> references;
    /// A guided lesson (optional in files; jointlab/lesson.h): empty when the scene has none.
    Lesson lesson;
    /// Where a run was when the scene was saved mid-run (optional in files, format version 2).
    /// A World built from the scene starts from it instead of the descriptions' poses and
    /// velocities; the descriptions still say where the run started (reset, coupling references).
    std::optional<WorldSnapshot> state;

    /// Index of the body named `name`, or -1.
    int findBody(const std::string& name) const;
    /// Index of the joint named `name`, or -1.
    int findJoint(const std::string& name) const;
};

}  // namespace jl
