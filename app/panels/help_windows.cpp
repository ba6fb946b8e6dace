// Help > Controls and Help > About.
#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

namespace {

void controlsWindow(AppState& state) {
    if (!state.panels.controls) return;
    const ImVec2 center(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f);
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Controls", &state.panels.controls,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        const char* rows[][2] = {
            {"right drag", "orbit the camera"},
            {"middle drag, shift + right drag", "pan"},
            {"mouse wheel", "zoom"},
            {"left click", "select a body (empty space: clear)"},
            {"F", "frame the selection, or the whole scene"},
            {"Space", "play / pause"},
            {". or N", "single step (while paused)"},
            {"R", "reset to the scenario's initial state"},
            {"Esc", "clear the selection"},
            {"F12", "save a screenshot (PNG, current folder)"},
            {"Ctrl+O / Ctrl+Q", "open a scenario / quit"},
        };
        if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            for (const auto& r : rows) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextUnformatted(r[0]);
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(r[1]);
            }
            ImGui::EndTable();
        }
    }
    ImGui::End();
}

void aboutWindow(AppState& state) {
    if (!state.panels.about) return;
    const ImVec2 center(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f);
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(460.0f, 0.0f), ImGuiCond_Appearing);
    if (ImGui::Begin("About JointLab", &state.panels.about, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::Text("JointLab %s", JOINTLAB_VERSION);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(
            "A sandbox for constrained rigid-body dynamics: place bodies, attach joints, switch between "
            "the PGS and TGS solvers, tune Baumgarte stabilisation, drives, limits, mass scales and break "
            "thresholds, and watch every constraint row's impulse and error.");
        ImGui::Spacing();
        ImGui::TextDisabled("Docs: docs/scenario-format.md, docs/solvers.md");
        ImGui::TextDisabled("Dear ImGui %s", ImGui::GetVersion());
        ImGui::TextDisabled("OpenGL %s", state.glVersion.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
}

}  // namespace

void drawHelpWindows(AppState& state) {
    controlsWindow(state);
    aboutWindow(state);
}

}  // namespace jl::app
