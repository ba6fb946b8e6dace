// Solver panel: play / pause / step / reset, slow motion, and the world settings the solver uses
// (PGS or TGS, iterations, Baumgarte, time step, gravity, ground, gyroscopic forces), editable
// live and undoable, then the energy.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "jointlab/correction.h"
#include "panels/field_editor.h"
#include "panels/panels.h"
#include "panels/side_window.h"

namespace jl::app {

namespace {

constexpr float kMinSpeed = 1.0f / 16.0f, kMaxSpeed = 2.0f;

/// "1/4x" for the powers of two below one, "0.35x" otherwise.
std::string speedLabel(double s) {
    for (int d : {2, 4, 8, 16})
        if (std::abs(s - 1.0 / d) < 1e-3) return "1/" + std::to_string(d) + "x";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3gx", s);
    return buf;
}

void settingEdit(UiRequests& requests, const char* field, FieldValue value, bool continuous) {
    Command c = setField(FieldOwner::settings(), field, std::move(value));
    if (!continuous) c.coalesceKey.clear();
    requests.commands.push_back(std::move(c));
}

void endGestureIfReleased(UiRequests& requests) {
    if (ImGui::IsItemDeactivated()) requests.endCoalescing = true;
}

void transportControls(const AppState& state, UiRequests& requests) {
    const SimClock& clock = state.sim.clock;
    const float w = (ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
    if (ImGui::Button(clock.playing ? "Pause" : "Play", ImVec2(w, 0))) requests.togglePlay = true;
    ImGui::SameLine();
    ImGui::BeginDisabled(clock.playing);
    if (ImGui::Button("Step", ImVec2(w, 0))) ++requests.singleSteps;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Reset", ImVec2(w, 0))) requests.reset = true;
    if (ImGui::IsItemHovered()) {
        if (const auto& start = state.sim.startState())
            ImGui::SetTooltip(
                "back to the state this file was saved in, t = %.3f s (R);\n"
                "Simulation > Reset to the set-up starts from t = 0",
                start->time);
        else
            ImGui::SetTooltip("back to the scenario's initial state (R)");
    }

    float speed = static_cast<float>(clock.timeScale);
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("slow motion (?)").x - ImGui::GetStyle().ItemSpacing.x * 2);
    const std::string label = speedLabel(clock.timeScale);
    if (ImGui::SliderFloat("slow motion", &speed, kMinSpeed, kMaxSpeed, label.c_str(),
                           ImGuiSliderFlags_Logarithmic)) {
        requests.setTimeScale = true;
        requests.timeScale = speed;
    }
    helpMarker(
        "Simulated seconds per real second, 1/16x to 2x on a log scale. The physics step dt never "
        "changes: slow motion takes fewer steps per frame, it does not shrink them.");
}

void solverSettings(AppState& state, UiRequests& requests) {
    const WorldSettings& s = state.sim.scene().settings;
    int solver = static_cast<int>(s.solver);
    if (ImGui::RadioButton("PGS", &solver, 0)) settingEdit(requests, "solver", 0, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("projected Gauss-Seidel: position iterations, one integration");
    ImGui::SameLine();
    if (ImGui::RadioButton("TGS", &solver, 1)) settingEdit(requests, "solver", 1, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("temporal Gauss-Seidel: integrates after every position iteration (substeps)");

    // The value column starts after the longest label, so no label runs under its widget.
    const float labelX = std::max(ImGui::GetContentRegionAvail().x * 0.42f,
                                  ImGui::GetCursorPosX() +
                                      std::max(ImGui::CalcTextSize("position iterations").x,
                                               ImGui::CalcTextSize("velocity iterations").x) +
                                      ImGui::GetStyle().ItemSpacing.x * 2.0f);
    auto label = [&](const char* text) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(text);
        ImGui::SameLine(labelX);
        ImGui::SetNextItemWidth(-FLT_MIN);
    };
    int pos = s.posIters, vel = s.velIters;
    label("position iterations");
    if (ImGui::SliderInt("##pos", &pos, 1, 64)) settingEdit(requests, "posIters", pos, true);
    endGestureIfReleased(requests);
    label("velocity iterations");
    if (ImGui::SliderInt("##vel", &vel, 0, 32)) settingEdit(requests, "velIters", vel, true);
    endGestureIfReleased(requests);
    int threads = s.threads;
    label("solver threads");
    if (ImGui::SliderInt("##threads", &threads, 1, 8)) settingEdit(requests, "threads", threads, true);
    endGestureIfReleased(requests);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Solves the joints between the parts, then the joints in this many parts at once, on as\n"
            "many cores. Parts have at least 32 joints, so small scenes are solved in one. It changes\n"
            "the result as a setting does; the same count always gives the same result.");

    int kernel = static_cast<int>(s.kernel);
    label("kernel");
    if (ImGui::RadioButton("fast", &kernel, 0)) settingEdit(requests, "kernel", 0, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the batched kernel: 4 joints at once with AVX2, pipelined, on the solver threads");
    ImGui::SameLine();
    if (ImGui::RadioButton("reference", &kernel, 1)) settingEdit(requests, "kernel", 1, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "the plain kernel: one loop over the rows per sweep, each line citing its equation\n"
            "(engine/src/solver/reference/). Same rows, same order: the same result to rounding.");
    int order = static_cast<int>(s.rowOrder);
    label("row order");
    if (ImGui::Combo("##order", &order, kSolverOrderNames, 3))
        settingEdit(requests, "rowOrder", order, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "the order Gauss-Seidel visits the joints, which changes its result:\n"
            "coloured: joints that share no body side by side, 4 at a time (fastest)\n"
            "wavefront: the scene order's result, solved in levels\n"
            "sequential: scene order, one joint at a time");

    int point = static_cast<int>(s.pointSolve);
    label("point constraints");
    if (ImGui::Combo("##pointSolve", &point, kPointSolveNames, kPointSolveCount))
        settingEdit(requests, "pointSolve", point, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "how the 2 or 3 linear rows of a joint's point constraint (ball, hinge, weld, slider) are "
            "solved:\n"
            "block: all at once, \u0394\u03bb = K\u207b\u00b9(\u2212(J\u00b7v + b)) with the 3\u00d73 K = "
            "J M\u207b\u00b9 J^T: one iteration solves them\n"
            "rows: one after another (PhysX's Gauss-Seidel): a light body on a long lever needs hundreds\n"
            "tree: joints without loops solved exactly along their trees after every sweep, limits "
            "with the trees' response: a limit on a light body holds, long chains stay closed");

    int correction = static_cast<int>(s.correction);
    label("position correction");
    if (ImGui::Combo("##correction", &correction, kCorrectionNames,
                     static_cast<int>(sizeof kCorrectionNames / sizeof kCorrectionNames[0])))
        settingEdit(requests, "correction", correction, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "how position error is corrected:\n"
            "baumgarte: the bias \u03b1\u00b7C/h is part of the velocity the bodies keep (PhysX)\n"
            "relax (TGS; PGS solves as baumgarte): after each substep's motion an unbiased sweep takes\n"
            "the bias back out of the velocity, as Box2D v3's relax iterations: long chains keep\n"
            "their energy\n"
            "splitImpulse (PGS; TGS solves as baumgarte): the velocity is solved without the bias and\n"
            "the bias only moves the bodies (Bullet's split impulse)\n"
            "soft (TGS; PGS solves as baumgarte): relax, and the joints' rows correct position as\n"
            "Box2D v3's soft constraints, a stiff spring of twice the soft contact's hertz with\n"
            "damping ratio 2, instead of \u03b1\u00b7C/h; \u03b1 is unused for them\n"
            "ngs (PGS; TGS solves as relax): the joints carry no bias in the velocity; after the step a\n"
            "position pass rebuilds their rows at the new poses and moves the bodies onto them\n"
            "(Box2D v2's, Jolt's position iterations)\n"
            "rattle (PGS; TGS solves as relax): ngs's pass along the start-of-step rows, its motion fed\n"
            "into the velocity, which is then projected onto the rows at the new poses (RATTLE; PGS's\n"
            "velocity iterations sweep the contacts only): one body or two keep their period and\n"
            "energy; a joint whose body turned far in the step falls back to ngs's direction");
    // A choice of the other solver runs as this solver's nearest one (jointlab/correction.h): say so
    // where the choice is seen, not only in the tooltip.
    if (const Correction runs = effectiveCorrection(s.solver, s.correction); runs != s.correction) {
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + labelX);
        ImGui::TextDisabled("runs as %s", kCorrectionNames[static_cast<int>(runs)]);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "%s is a %s correction: %s runs it as %s, bit for bit",
                kCorrectionNames[static_cast<int>(s.correction)], s.solver == SolverType::PGS ? "TGS" : "PGS",
                s.solver == SolverType::PGS ? "PGS" : "TGS", kCorrectionNames[static_cast<int>(runs)]);
    }
    WorldSettings automatic = s;
    automatic.autoBaumgarte = true;
    bool isAuto = s.autoBaumgarte;
    label("Baumgarte α");
    if (ImGui::Checkbox("auto", &isAuto)) requests.commands.push_back(setAutoBaumgarte(isAuto));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("unticked, α starts at the value auto used and is yours to change");
    ImGui::SameLine();
    if (isAuto) {
        ImGui::TextDisabled("= %.3g", automatic.effectiveBaumgarte());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "JointLab's stable default: %.3g for PGS (0.5 under its rattle correction), %.3g for TGS,\n"
                "with which no example and no long chain gains energy (PhysX's own: 1 for PGS,\n"
                "1/sqrt(position iterations) for TGS, which the PhysX preset sets)",
                kStableBaumgartePgs, kStableBaumgarteTgs);
    } else {
        double alpha = s.baumgarte;
        const double lo = 0.0, hi = 1.0;
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::SliderScalar("##alpha", ImGuiDataType_Double, &alpha, &lo, &hi, "%.3f"))
            settingEdit(requests, "baumgarte", alpha, true);
        endGestureIfReleased(requests);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("fraction of the position error corrected per step (auto would be %.3g)",
                              automatic.effectiveBaumgarte());
    }

    double ms = s.dt * 1000.0;
    const double msLo = 0.01, msHi = 100.0;
    label("time step [ms]");
    char format[48];
    std::snprintf(format, sizeof format, "%%.3f ms (%.0f Hz)", 1.0 / s.dt);
    if (ImGui::DragScalar("##dt", ImGuiDataType_Double, &ms, 0.05f, &msLo, &msHi, format))
        settingEdit(requests, "dt", ms / 1000.0, true);
    endGestureIfReleased(requests);

    Vec3 g = s.gravity;
    label("gravity [m/s²]");
    if (ImGui::DragScalarN("##g", ImGuiDataType_Double, &g[0], 3, 0.05f, nullptr, nullptr, "%.2f"))
        settingEdit(requests, "gravity", g, true);
    endGestureIfReleased(requests);

    bool ground = s.groundPlane;
    if (ImGui::Checkbox("ground plane (y = 0)", &ground)) settingEdit(requests, "groundPlane", ground, false);
    bool gyroscopic = s.gyroscopic;
    if (ImGui::Checkbox("gyroscopic forces", &gyroscopic))
        settingEdit(requests, "gyroscopic", gyroscopic, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "the gyroscopic term ω × Iω, integrated implicitly (stable at any time step): a free body\n"
            "keeps its angular momentum, and a box spun about its middle axis tumbles (Dzhanibekov).\n"
            "Off: a free body's ω stays fixed in the world.");

    if (ImGui::Button("PhysX preset")) requests.commands.push_back(applyPhysXPreset());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "PhysX's own values, to compare with PhysX: \u03b1 = %.3g by hand (1 for PGS,\n"
            "1/sqrt(position iterations) for TGS), 4 + 1 iterations, point rows one by one,\n"
            "Baumgarte correction, no gyroscopic term. Undo brings yours back.",
            s.physxBaumgarte());

    if (ImGui::TreeNode("more settings")) {
        const auto shown = [](const FieldInfo& f) {
            for (const char* n : {"dt", "posIters", "velIters", "threads", "gravity", "solver",
                                  "autoBaumgarte", "baumgarte", "groundPlane", "gyroscopic", "correction"})
                if (f.name == n) return true;
            return false;
        };
        const Scene& scene = state.sim.scene();
        drawFieldList(listFields(scene, FieldOwner::settings()), FieldOwner::settings(), scene,
                      state.inspector, requests, shown);
        ImGui::TreePop();
    }
}

void energyTable(const World& world) {
    if (!ImGui::BeginTable("energy", 2, ImGuiTableFlags_SizingStretchProp)) return;
    const double kinetic = world.kineticEnergy(), potential = world.potentialEnergy();
    propertyRow("kinetic", "%.4f J", kinetic);
    propertyRow("potential", "%.4f J", potential);
    propertyRow("total", "%.4f J", kinetic + potential);
    ImGui::EndTable();
}

}  // namespace

void drawSimulationPanel(AppState& state, UiRequests& requests) {
    if (!state.panels.simulation) return;
    const ImGuiIO& io = ImGui::GetIO();
    const UiLayout& l = state.layout;
    const float columnHeight = io.DisplaySize.y - l.menuBarHeight - l.statusBarHeight;
    pinNextWindow(0.0f, l.menuBarHeight + columnHeight - l.simulationHeight, l.leftWidth, l.simulationHeight);
    if (ImGui::Begin("Solver", &state.panels.simulation, kPinnedPanelFlags)) {
        transportControls(state, requests);
        if (const World* world = state.sim.world()) {
            ImGui::Text("t = %.3f s   step %lld", world->time(), static_cast<long long>(world->stepCount()));
            sectionHeader("Solver");
            solverSettings(state, requests);
            sectionHeader("Energy");
            energyTable(*world);
        }
        // Size the panel to its content from the next frame on.
        state.simulationContentHeight = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    }
    ImGui::End();
}

}  // namespace jl::app
