// Help > Controls (keyboard and mouse reference), Help > Joint types (each type's description, the
// selected joint's first) and Help > About.
#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

namespace {

void controlsWindow(AppState& state) {
    if (!state.panels.controls) return;
    centerNextWindow();
    if (ImGui::Begin("Controls", &state.panels.controls,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        const char* rows[][2] = {
            {"Camera", ""},
            {"right drag", "orbit the camera"},
            {"middle drag, shift + right drag", "pan"},
            {"mouse wheel", "zoom"},
            {"F", "frame the selection, or the whole scene"},
            {"Selecting and moving", ""},
            {"left click", "select a joint (by its anchor) or a body; empty space clears"},
            {"W / E", "move / rotate gizmo on the selection"},
            {"drag an arrow / a ring", "move along / turn about that world axis (Ctrl: snap 5 cm / 15°)"},
            {"left drag a body (running)", "pull it through a soft spring; the force is the orange arrow"},
            {"Building", ""},
            {"+ Box, + Sphere, + Capsule", "then click the ground or a body to place it (Shift: several)"},
            {"J or + Joint", "click body A where the joint goes, then body B or empty space (world)"},
            {"Delete", "delete the selection (a body takes its joints with it)"},
            {"Ctrl+D", "duplicate the selection"},
            {"right click in the Scene panel", "rename, duplicate, delete"},
            {"Esc", "leave the tool, then clear the selection"},
            {"Simulation", ""},
            {"Space", "play / pause"},
            {". or N", "single step (while paused)"},
            {"R", "reset to the scenario's initial state"},
            {"Inside a step (Step tab, while paused)", ""},
            {"F11", "next row: the next row (or block) the reference kernel visits"},
            {"F10", "next sweep: to the end of the current sweep"},
            {"Shift+F11", "finish step: take the step (a normal single step)"},
            {"Files and history", ""},
            {"Ctrl+N / Ctrl+O", "new scene / open a scenario"},
            {"Ctrl+S / Ctrl+Shift+S", "save / save as"},
            {"Ctrl+Z / Ctrl+Y (Ctrl+Shift+Z)", "undo / redo (every edit, also while running)"},
            {"F12", "save a screenshot (PNG, current folder)"},
            {"Ctrl+Q", "quit"},
            {"Inspector fields", ""},
            {"drag a number", "change it (one drag = one undo step)"},
            {"Ctrl+click or double-click", "type a value; 'inf' where a field allows no limit"},
            {"hover a field's name", "what it means, its unit and valid range"},
        };
        if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            for (const auto& r : rows) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                if (*r[1] == '\0') {  // a heading
                    ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "%s", r[0]);
                    continue;
                }
                ImGui::TextUnformatted(r[0]);
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(r[1]);
            }
            ImGui::EndTable();
        }
    }
    ImGui::End();
}

/// Every joint type with its description; the selected joint's type first and highlighted.
void jointTypesWindow(AppState& state) {
    if (!state.panels.jointTypes) return;
    centerNextWindow(px(520.0f), px(520.0f));
    if (ImGui::Begin("Joint types", &state.panels.jointTypes, ImGuiWindowFlags_NoSavedSettings)) {
        const Scene& scene = state.sim.scene();
        int selectedType = -1;
        if (state.selection.isJoint() && static_cast<size_t>(state.selection.index) < scene.joints.size())
            selectedType = scene.joints[static_cast<size_t>(state.selection.index)].typeIndex();
        ImGui::PushTextWrapPos(0.0f);
        if (selectedType >= 0) {
            ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.35f, 1.0f), "Selected: %s",
                               jointTypeInfo(selectedType).title);
            ImGui::TextUnformatted(jointTypeInfo(selectedType).description);
            ImGui::Separator();
        }
        for (int i = 0; i < kJointTypeCount; ++i) {
            if (i == selectedType) continue;
            ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "%s", jointTypeInfo(i).title);
            ImGui::TextDisabled("%s", jointTypeInfo(i).description);
            ImGui::Spacing();
        }
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
}

void aboutWindow(AppState& state) {
    if (!state.panels.about) return;
    centerNextWindow(px(460.0f));
    if (ImGui::Begin("About JointLab", &state.panels.about, ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::Text("JointLab %s", JOINTLAB_VERSION);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(
            "A sandbox for constrained rigid-body dynamics: place bodies, attach joints, switch between "
            "the PGS and TGS solvers, tune Baumgarte stabilisation, drives, limits, mass scales and break "
            "thresholds, and watch every constraint row's impulse and error.");
        ImGui::Spacing();
        ImGui::TextDisabled("Docs: docs/user-guide.md, docs/scenario-format.md, docs/solvers.md");
        ImGui::TextDisabled("Dear ImGui %s", ImGui::GetVersion());
        ImGui::TextDisabled("OpenGL %s", state.glVersion.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
}

}  // namespace

void drawHelpWindows(AppState& state) {
    controlsWindow(state);
    jointTypesWindow(state);
    aboutWindow(state);
}

}  // namespace jl::app
