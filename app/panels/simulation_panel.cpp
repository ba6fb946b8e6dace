// Simulation panel: play / pause / step / reset, speed, the solver settings in use, and energy.
#include <cmath>

#include <imgui.h>

#include "panels/panels.h"
#include "panels/side_window.h"

namespace jl::app {

namespace {

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

    float speed = static_cast<float>(clock.timeScale);
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("speed (?)").x - ImGui::GetStyle().ItemSpacing.x * 2);
    if (ImGui::SliderFloat("speed", &speed, 0.01f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) {
        requests.setTimeScale = true;
        requests.timeScale = speed;
    }
    helpMarker("Simulated seconds per real second. The physics step dt never changes: slow motion "
               "takes fewer steps per frame, it does not shrink them.");
}

void settingsTable(const World& world) {
    const WorldSettings& s = world.scene().settings;
    if (!ImGui::BeginTable("settings", 2, ImGuiTableFlags_SizingStretchProp)) return;
    propertyRow("solver", "%s", s.solver == SolverType::PGS ? "PGS" : "TGS");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(s.solver == SolverType::PGS ? "projected Gauss-Seidel" : "temporal Gauss-Seidel (substepping)");
    propertyRow("time step", "%.3f ms (%.0f Hz)", s.dt * 1000.0, 1.0 / s.dt);
    propertyRow("iterations", "%d position, %d velocity", s.posIters, s.velIters);
    propertyRow("Baumgarte", "%.3g%s", s.effectiveBaumgarte(), s.autoBaumgarte ? " (auto)" : "");
    propertyRow("gravity", "(%.3g, %.3g, %.3g) m/s^2", s.gravity.x, s.gravity.y, s.gravity.z);
    propertyRow("ground plane", "%s", s.groundPlane ? "yes" : "no");
    ImGui::EndTable();
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
    if (ImGui::Begin("Simulation", &state.panels.simulation, kPinnedPanelFlags)) {
        transportControls(state, requests);
        if (const World* world = state.sim.world()) {
            ImGui::Spacing();
            ImGui::Text("t = %.3f s   step %lld", world->time(), static_cast<long long>(world->stepCount()));
            sectionHeader("Solver");
            settingsTable(*world);
            sectionHeader("Energy");
            energyTable(*world);
        }
        // Size the panel to its content from the next frame on.
        state.simulationContentHeight = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    }
    ImGui::End();
}

}  // namespace jl::app
