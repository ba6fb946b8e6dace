// Every accepted scene simulates honestly (issue 24, point 5): each numeric field of the world
// settings, of a body and of a joint, set alone to the least and the greatest value its range
// accepts, on the shipped examples, under PGS and TGS. The state must stay finite and free of
// denormal numbers, no step may diverge, no row may be dropped by the response threshold, and the
// joints must hold: their hard equality rows may not come apart by more than 5 cm or 3× what the
// unchanged example does.
//
// The ranges themselves are in the field lists (body.h, joint.h, scene.h, the joint types' files);
// docs/reliability.md says why each bound is where it is. The field accessor of the editor
// (editor/field_access.h) visits every field, so a field added later is covered without touching
// this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "editor/field_access.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"

#ifndef JOINTLAB_SOURCE_DIR
#error "JOINTLAB_SOURCE_DIR must point at the source tree"
#endif

namespace jl::app {
namespace {

constexpr int kSteps = 120;  // 2 s at the examples' 60 Hz: long enough for a pendulum to swing down

// Examples small enough to run a few thousand times (≤ 25 bodies) and covering every joint type.
const char* const kExamples[] = {
    "pendulum",        "door_limits", "slider",      "shoulder_cone",     "d6_ragdoll_shoulder",
    "d6_cylindrical",  "driven_arm",  "motor_wheel", "gear_train",        "rack_pinion",
    "atwood",          "rope",        "welded_pair", "d6_point_on_plane", "d6_point_on_line",
    "d6_moving_target"};

bool finiteAndNormal(Real x) {
    return std::isfinite(x) && std::fpclassify(x) != FP_SUBNORMAL;
}
bool finiteAndNormal(const Vec3& v) {
    return finiteAndNormal(v.x) && finiteAndNormal(v.y) && finiteAndNormal(v.z);
}

struct Outcome {
    std::string problem;         ///< "" when the run was honest
    std::string dropped;         ///< "" when no row was dropped (World::jointsWithInactiveRows)
    std::vector<Real> maxError;  ///< per joint: the largest equality-row error over the run
};

Outcome simulate(const Scene& scene) {
    Outcome out;
    World world(scene);
    const size_t nj = scene.joints.size();
    out.maxError.assign(nj, 0.0);
    for (int step = 1; step <= kSteps; ++step) {
        world.step();
        if (const Divergence* d = world.divergence()) {
            out.problem = "diverged at step " + std::to_string(step) + ": " + d->message;
            return out;
        }
        for (size_t i = 0; i < world.bodies().size(); ++i) {
            const BodyState& b = world.bodies()[i];
            const Quat& q = b.pose.q;
            if (!finiteAndNormal(b.pose.p) || !finiteAndNormal(b.linearVelocity) ||
                !finiteAndNormal(b.angularVelocity) || !finiteAndNormal(q.w) ||
                !finiteAndNormal(Vec3(q.x, q.y, q.z))) {
                out.problem = "body '" + scene.bodies[i].name + "' not finite or denormal at step " +
                              std::to_string(step);
                return out;
            }
        }
        if (const std::vector<int> dropped = world.jointsWithInactiveRows(); !dropped.empty()) {
            out.dropped = "joint '" + scene.joints[static_cast<size_t>(dropped.front())].name +
                          "' had a row dropped at step " + std::to_string(step);
        }
        for (size_t j = 0; j < nj; ++j) {
            if (world.jointState(static_cast<int>(j)).broken) continue;
            const auto rows = world.jointRows(static_cast<int>(j));
            const auto results = world.jointRowResults(static_cast<int>(j));
            for (size_t k = 0; k < rows.size(); ++k)
                if (rows[k].solveHint == SolveHint::Equality)
                    out.maxError[j] = std::max(out.maxError[j], rowViolation(rows[k], results[k]));
        }
    }
    return out;
}

/// The value `corner` (0: least, 1: greatest) of a field's range, or NaN when the range has no
/// usable bound there. An exclusive bound of 0 gives the least positive normal number's
/// neighbourhood the loader accepts: the smallest double above it.
Real cornerOf(const Field& f, int corner) {
    constexpr Real kMagnitude = 1e15;  // every number in a file is within ±1e15 (scenario_io)
    if (corner == 0) {
        if (!std::isfinite(f.min)) return -kMagnitude;
        return f.minExclusive ? std::nextafter(f.min, kInf) : f.min;
    }
    return std::isfinite(f.max) ? f.max : kMagnitude;
}

struct Case {
    std::string label;
    Scene scene;
    bool load = false;       ///< a load or a start condition: finite and honest is asked, not holding
    bool massScale = false;  ///< a joint mass scale: may make a row immovable (then it is reported)
};

/// Fields that load the joints or set where the run starts rather than how well conditioned the
/// mechanism is: gravity of 1e15 m/s², a body flung at the speed cap, a drive target a
/// petametre away or a joint whose frames start apart. The solver's own settings (dt, iteration
/// counts, speed caps) are here too: how the error grows with dt and shrinks with iterations is
/// what the convergence plots and docs/solvers.md show, and a speed cap under the pendulum's own
/// speed stops the joint from holding by design. The solver must stay finite and report
/// what it drops; no iterative solver holds a joint against 1e15 m/s² in four iterations, and the
/// error it shows then (plotted, in the CSV) is the honest answer. Break thresholds change the
/// mechanism (the joint breaks) and mass scales make the system inconsistent on purpose
/// (physx-joints-guide.md, "Mass Scaling"): both are checked like loads.
bool isLoad(const std::string& name) {
    for (const char* prefix :
         {"gravity", "position", "linearVelocity", "angularVelocity", "frame", "break", "invMassScale",
          "invInertiaScale", "drive", "motor.targetVelocity", "limit.lower", "limit.upper", "twistLimit",
          "linearLimit", "maxLinearSpeed", "maxAngularSpeed", "dt", "posIters", "velIters"})
        if (name.rfind(prefix, 0) == 0) return true;
    return false;
}

void addCases(const Scene& base, const FieldOwner& owner, std::vector<Case>& cases) {
    for (const FieldInfo& f : listFields(base, owner)) {
        if (!f.meta.relevant) continue;
        if (f.kind != FieldKind::Real && f.kind != FieldKind::Vec3 && f.kind != FieldKind::Int) continue;
        for (int corner = 0; corner < 2; ++corner) {
            const Real x = cornerOf(f.meta, corner);
            Case c{owner.describe() + " " + f.name + " = " + shortestNumber(x), base};
            FieldValue value;
            if (f.kind == FieldKind::Real) value = x;
            if (f.kind == FieldKind::Vec3) value = Vec3(x);
            if (f.kind == FieldKind::Int) value = static_cast<int>(std::clamp<Real>(x, -1e9, 1e9));
            if (!writeField(c.scene, owner, f.name, value).empty()) continue;
            if (!validateScene(c.scene).empty()) continue;  // refused at load: nothing to simulate
            c.load = isLoad(f.name);
            c.massScale = f.name.rfind("inv", 0) == 0;
            cases.push_back(std::move(c));
        }
    }
}

/// Corners that still come apart, each with why. They are the cases issue 25 names: a light body
/// on a far anchor and a light body carrying a heavy one. Every one is still finite and honest;
/// only "holds" fails. The list may only shrink: a corner not listed must hold. Since issue 25
/// (points solved as 3×3 blocks, the stable defaults) the 1 mm pendulum bob holds: its spherical
/// joint is nothing but a point. So does the shoulder cone opened to π about Z (which of the two
/// changes did it was not separated).
const char* const kKnownToComeApart[] = {
    // 1 mm bodies on 1–1.5 m levers whose joints have angular rows besides the point (a hinge's
    // two, a cone limit, a weld's three): the point is solved as a block, but the angular rows
    // remain its Gauss–Seidel partners, coupled through an inertia ~10⁻⁶ of m·r².
    "door_limits pgs: body 'door' halfExtents = 0.001",
    "door_limits tgs: body 'door' halfExtents = 0.001",
    "shoulder_cone pgs: body 'upper arm' halfExtents = 0.001",
    "shoulder_cone tgs: body 'upper arm' halfExtents = 0.001",
    "welded_pair pgs: body 'A' halfExtents = 0.001",
    "welded_pair tgs: body 'A' halfExtents = 0.001",
    // A 1 mg body holding a 2 kg one from the world: Gauss–Seidel through a light link (between
    // joints, which no block joins).
    "welded_pair pgs: body 'A' mass = 1e-6",
    "welded_pair tgs: body 'A' mass = 1e-6",
};

bool knownToComeApart(const std::string& label) {
    for (const char* known : kKnownToComeApart)
        if (label == known) return true;
    return false;
}

TEST(AcceptedRanges, EveryCornerSimulatesHonestly) {
    int runs = 0;
    std::vector<std::string> failures;
    for (const char* name : kExamples) {
        Scene base;
        std::string error;
        const std::string path = std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/" + name + ".json";
        ASSERT_TRUE(loadScenario(path, base, error)) << error;
        // No ground: a 100 m body on a pendulum reaches into it, and a joint pushed against the
        // ground is a contact question, not whether the joint holds.
        base.settings.groundPlane = false;
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            base.settings.solver = solver;
            const Outcome reference = simulate(base);
            ASSERT_EQ(reference.problem, "") << name;
            std::vector<Case> cases;
            addCases(base, FieldOwner::settings(), cases);
            addCases(base, FieldOwner::body(base.bodies.front().name), cases);
            addCases(base, FieldOwner::joint(base.joints.front().name), cases);
            for (const Case& c : cases) {
                ++runs;
                const Outcome o = simulate(c.scene);
                std::string problem = o.problem;
                if (problem.empty() && !o.dropped.empty() && !c.massScale) problem = o.dropped;
                const std::string label =
                    std::string(name) + " " + kSolverTypeNames[static_cast<int>(solver)] + ": " + c.label;
                if (problem.empty() && !c.load) {
                    std::string apart;
                    for (size_t j = 0; j < o.maxError.size() && apart.empty(); ++j) {
                        const Real allowed = std::max(5e-2, 3.0 * reference.maxError[j]);
                        if (o.maxError[j] > allowed)
                            apart = "joint '" + c.scene.joints[j].name +
                                    "' came apart: " + shortestNumber(o.maxError[j]) + " (allowed " +
                                    shortestNumber(allowed) + ")";
                    }
                    if (knownToComeApart(label))
                        problem = apart.empty() ? "holds now: take it off kKnownToComeApart" : "";
                    else
                        problem = apart;
                }
                if (!problem.empty()) failures.push_back(label + ": " + problem);
            }
        }
    }
    std::string all;
    for (const std::string& f : failures) all += f + "\n";
    EXPECT_TRUE(failures.empty()) << failures.size() << " of " << runs << " runs:\n" << all;
}

}  // namespace
}  // namespace jl::app
