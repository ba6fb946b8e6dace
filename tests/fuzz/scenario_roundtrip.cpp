// See scenario_roundtrip.h.
#include "scenario_roundtrip.h"

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"

namespace jl::fuzz {

namespace {

constexpr int kSteps = 10;

bool finite(const BodyState& b) {
    return isFinite(b.pose.p) && isFinite(b.pose.q) && isFinite(b.linearVelocity) &&
           isFinite(b.angularVelocity);
}

/// Index of the first byte where a and b differ, with a little context.
std::string firstDifference(const std::string& a, const std::string& b) {
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    const size_t from = i > 40 ? i - 40 : 0;
    return "at byte " + std::to_string(i) + ": \"" + a.substr(from, 80) + "\" vs \"" + b.substr(from, 80) +
           "\"";
}

}  // namespace

std::string scenarioRoundTrip(std::string_view input) {
    static const std::string kUntouched = serializeScenario(Scene{});

    // 1. Load. A refusal must be one line and leave the output alone.
    Scene scene;
    std::string error;
    if (!parseScenario(input, scene, error)) {
        if (error.empty()) return "refused without a message";
        if (error.find('\n') != std::string::npos) return "refusal message is not one line: " + error;
        if (serializeScenario(scene) != kUntouched) return "a refused load changed the output scene";
        return "";
    }
    if (std::string e = validateScene(scene); !e.empty()) return "the loader accepted an invalid scene: " + e;

    // 2. Run.
    World world(scene);
    for (int i = 0; i < kSteps; ++i) {
        world.step();
        for (size_t b = 0; b < world.bodies().size(); ++b)
            if (!finite(world.bodies()[b]))
                return "body " + std::to_string(b) + " is non-finite after step " +
                       std::to_string(world.stepCount());
    }

    // 2b. The row views, built on request (World::rows), agree with what the step kept: the joints'
    // row ranges tile rows(), and the active rows match the count the set-up made.
    size_t tiled = 0;
    for (int j = 0; j < static_cast<int>(world.scene().joints.size()); ++j) {
        if (world.jointRows(j).size() != world.jointRowResults(j).size())
            return "joint " + std::to_string(j) + ": rows and results differ in number";
        tiled += world.jointRows(j).size();
        (void)world.jointState(j);
    }
    if (tiled != world.rows().size()) return "the joints' rows do not add up to rows()";
    // Every row's bounds straddle zero, so min ≤ max: the AVX2 PGS kernel's clamp relies on it
    // (min(hi, max(lo, λ)) equals the plain kernel's comparisons only then).
    for (size_t k = 0; k < world.rows().size(); ++k) {
        const Row& r = world.rows()[k];
        if (!(r.minImpulse <= 0.0 && r.maxImpulse >= 0.0))
            return "row " + std::to_string(k) + " (" + r.label + ") has bounds [" +
                   std::to_string(r.minImpulse) + ", " + std::to_string(r.maxImpulse) + "], not around 0";
    }
    int active = 0;
    for (const RowResult& r : world.rowResults()) active += r.active ? 1 : 0;
    if (active != world.activeJointRowCount())
        return "activeJointRowCount() " + std::to_string(world.activeJointRowCount()) + " but " +
               std::to_string(active) + " active row results";

    // 3. Save mid-run, load, save again.
    Scene saved = world.scene();
    saved.state = world.snapshot();
    const std::string first = serializeScenario(saved);
    Scene reloaded;
    if (!parseScenario(first, reloaded, error)) return "the saved file does not load: " + error;
    const std::string second = serializeScenario(reloaded);
    if (first != second) return "save → load → save is not byte-identical " + firstDifference(first, second);

    // 4. The reloaded run continues the saved one.
    World continued(reloaded);
    if (continued.stateHash() != world.stateHash() || continued.stepCount() != world.stepCount())
        return "a World built from the saved file is not in the saved state";
    world.step();
    continued.step();
    if (continued.stateHash() != world.stateHash())
        return "the reloaded run diverges from the saved one in one step";
    return "";
}

}  // namespace jl::fuzz
