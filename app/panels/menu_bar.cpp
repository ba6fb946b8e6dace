#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

namespace {

void fileMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("File")) return;
    if (ImGui::MenuItem("Open scenario...", "Ctrl+O")) requests.openDialog = true;
    if (ImGui::MenuItem("Reload from file", nullptr, false, !state.sim.sourcePath().empty()))
        requests.reload = true;
    if (ImGui::MenuItem("Built-in showcase")) requests.loadBuiltIn = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Save screenshot", "F12")) requests.saveScreenshot = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) requests.quit = true;
    ImGui::EndMenu();
}

void viewMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("View")) return;
    ImGui::MenuItem("Scene", nullptr, &state.panels.scene);
    ImGui::MenuItem("Simulation", nullptr, &state.panels.simulation);
    ImGui::MenuItem("Inspector", nullptr, &state.panels.inspector);
    ImGui::Separator();
    ImGui::MenuItem("Grid", nullptr, &state.view.showGrid);
    ImGui::MenuItem("World axes", nullptr, &state.view.showAxes);
    ImGui::MenuItem("Joint frames", nullptr, &state.view.showJointFrames);
    ImGui::MenuItem("Orientation gizmo", nullptr, &state.view.showAxisGizmo);
    ImGui::Separator();
    if (ImGui::MenuItem("Frame selection / scene", "F")) requests.frameView = true;
    if (ImGui::MenuItem("Reset camera")) requests.resetCamera = true;
    ImGui::EndMenu();
}

void simulationMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("Simulation")) return;
    const SimClock& clock = state.sim.clock;
    if (ImGui::MenuItem(clock.playing ? "Pause" : "Play", "Space")) requests.togglePlay = true;
    if (ImGui::MenuItem("Single step", ".", false, !clock.playing)) ++requests.singleSteps;
    if (ImGui::MenuItem("Reset", "R")) requests.reset = true;
    ImGui::Separator();
    if (ImGui::BeginMenu("Speed")) {
        const double speeds[] = {0.05, 0.1, 0.25, 0.5, 1.0, 2.0};
        const char* labels[] = {"0.05x", "0.1x", "0.25x", "0.5x", "1x (real time)", "2x"};
        for (int i = 0; i < 6; ++i) {
            if (ImGui::MenuItem(labels[i], nullptr, clock.timeScale == speeds[i])) {
                requests.setTimeScale = true;
                requests.timeScale = speeds[i];
            }
        }
        ImGui::EndMenu();
    }
    ImGui::EndMenu();
}

void helpMenu(AppState& state) {
    if (!ImGui::BeginMenu("Help")) return;
    ImGui::MenuItem("Controls", nullptr, &state.panels.controls);
    ImGui::MenuItem("About JointLab", nullptr, &state.panels.about);
    ImGui::EndMenu();
}

}  // namespace

void drawMainMenuBar(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMainMenuBar()) return;
    fileMenu(state, requests);
    viewMenu(state, requests);
    simulationMenu(state, requests);
    helpMenu(state);
    ImGui::EndMainMenuBar();
}

}  // namespace jl::app
