// Scene panel: the scenario's bodies and joints as a selectable list.
#include <filesystem>

#include <imgui.h>

#include "panels/panels.h"
#include "panels/side_window.h"
#include "scene_draw.h"

namespace jl::app {

namespace {

const char* shapeName(ShapeType s) { return kShapeTypeNames[static_cast<int>(s)]; }
const char* motionName(MotionType m) { return kMotionTypeNames[static_cast<int>(m)]; }

void colorSwatch(const glm::vec4& c) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float s = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + s * 0.2f), ImVec2(p.x + s * 0.6f, p.y + s * 0.8f),
                                              ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)), 2.0f);
    ImGui::Dummy(ImVec2(s * 0.6f, s));
    ImGui::SameLine();
}

void bodyList(const AppState& state, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode("bodies", "Bodies (%d)", static_cast<int>(scene.bodies.size()))) return;
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
        const BodyDesc& b = scene.bodies[i];
        const int index = static_cast<int>(i);
        ImGui::PushID(index);
        colorSwatch(bodyColor(scene, index));
        if (ImGui::Selectable(b.name.c_str(), state.selection.isBody(index))) {
            requests.select = true;
            requests.selection = Selection::body(index);
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s %s", motionName(b.motion), shapeName(b.shape));
        ImGui::PopID();
    }
    ImGui::TreePop();
}

void jointList(const AppState& state, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    const World* world = state.sim.world();
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode("joints", "Joints (%d)", static_cast<int>(scene.joints.size()))) return;
    for (size_t i = 0; i < scene.joints.size(); ++i) {
        const JointDesc& j = scene.joints[i];
        const int index = static_cast<int>(i);
        ImGui::PushID(index);
        const bool broken = world && world->jointState(index).broken;
        if (broken) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        if (ImGui::Selectable(j.name.c_str(), state.selection.isJoint(index))) {
            requests.select = true;
            requests.selection = Selection::joint(index);
        }
        if (broken) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s%s\n%s - %s", j.typeInfo().title, broken ? " (broken)" : "",
                              bodyDisplayName(j.body0), bodyDisplayName(j.body1));
        ImGui::SameLine(ImGui::GetContentRegionMax().x - ImGui::CalcTextSize(j.typeInfo().name).x);
        ImGui::TextDisabled("%s", j.typeInfo().name);
        ImGui::PopID();
    }
    ImGui::TreePop();
}

}  // namespace

void drawScenePanel(AppState& state, UiRequests& requests) {
    if (!state.panels.scene) return;
    const ImGuiIO& io = ImGui::GetIO();
    const UiLayout& l = state.layout;
    const float columnHeight = io.DisplaySize.y - l.menuBarHeight - l.statusBarHeight;
    const float height = columnHeight - l.simulationHeight;
    pinNextWindow(0.0f, l.menuBarHeight, l.leftWidth, height);
    if (ImGui::Begin("Scene", &state.panels.scene, kPinnedPanelFlags)) {
        const std::string& path = state.sim.sourcePath();
        const std::string title =
            path.empty() ? std::string("built-in showcase") : std::filesystem::path(path).filename().string();
        ImGui::TextUnformatted(title.c_str());
        if (!path.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
        const std::string& description = state.sim.scene().description;
        if (!description.empty()) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", description.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::Separator();
        bodyList(state, requests);
        jointList(state, requests);
    }
    ImGui::End();
}

}  // namespace jl::app
