// The viewport tool bar: select (with the move / rotate gizmo), add a box, sphere or capsule, and
// the joint tool with its type and axis; a line below says what a click does now.
#include <imgui.h>

#include <string>
#include <vector>

#include "panels/panels.h"

namespace jl::app {

namespace {

/// A button that looks pressed while `active`.
bool toolButton(const char* label, bool active, const char* tooltip) {
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    const bool clicked = ImGui::Button(label);
    if (active) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
    return clicked;
}

/// The types whose automatic joint axis runs from A to B, from the table: "distance and prismatic".
std::string typesAlongAToB() {
    std::vector<const char*> names;
    for (int i = 0; i < kJointTypeCount; ++i)
        if (jointTypeInfo(i).placement.axis == JointAxisDefault::AlongAToB)
            names.push_back(jointTypeInfo(i).name);
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
    return list;
}

void setTool(ToolState& t, Tool tool) {
    t.tool = tool;
    t.haveBodyA = false;
}

const char* hint(const AppState& state) {
    const ToolState& t = state.tools;
    switch (t.tool) {
        case Tool::Select:
            if (state.selection.kind == Selection::Kind::None)
                return state.sim.clock.playing ? "click: select   drag a body: pull it   right drag: orbit"
                                               : "click a body or a joint anchor to select it";
            return t.gizmo == GizmoMode::Move ? "drag an arrow to move along it (Ctrl snaps 5 cm)"
                                              : "drag a ring to turn about its axis (Ctrl snaps 15°)";
        case Tool::AddBox:
        case Tool::AddSphere:
        case Tool::AddCapsule:
            return "click the ground or a body to place it (Shift: keep adding)";
        case Tool::AddJoint:
            return t.haveBodyA ? "click body B, or empty space to attach A to the world (Esc: cancel)"
                               : "click body A where the joint should be";
    }
    return "";
}

}  // namespace

void drawViewportToolbar(AppState& state, const ScreenRect& rect, UiRequests& /*requests*/) {
    ToolState& t = state.tools;
    ImGui::SetNextWindowPos(ImVec2(rect.min.x + 8.0f, rect.min.y + 8.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.82f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6.0f, 5.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(4.0f, 4.0f));
    if (ImGui::Begin("##tools", nullptr, flags)) {
        const bool select = t.tool == Tool::Select;
        if (toolButton("Move", select && t.gizmo == GizmoMode::Move,
                       "select; move the selection with arrows (W)")) {
            setTool(t, Tool::Select);
            t.gizmo = GizmoMode::Move;
        }
        ImGui::SameLine();
        if (toolButton("Rotate", select && t.gizmo == GizmoMode::Rotate,
                       "select; turn the selection with rings (E)")) {
            setTool(t, Tool::Select);
            t.gizmo = GizmoMode::Rotate;
        }
        ImGui::SameLine(0.0f, 12.0f);
        if (toolButton("+ Box", t.tool == Tool::AddBox, "add a box where you click"))
            setTool(t, Tool::AddBox);
        ImGui::SameLine();
        if (toolButton("+ Sphere", t.tool == Tool::AddSphere, "add a sphere where you click"))
            setTool(t, Tool::AddSphere);
        ImGui::SameLine();
        if (toolButton("+ Capsule", t.tool == Tool::AddCapsule, "add a capsule where you click"))
            setTool(t, Tool::AddCapsule);
        ImGui::SameLine(0.0f, 12.0f);
        if (toolButton("+ Joint", t.tool == Tool::AddJoint,
                       "joint tool (J): click body A, then body B or empty space"))
            setTool(t, Tool::AddJoint);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(150.0f);
        if (ImGui::BeginCombo("##joint type", jointTypeInfo(t.jointType).title)) {
            for (int i = 0; i < kJointTypeCount; ++i) {
                if (ImGui::Selectable(jointTypeInfo(i).title, i == t.jointType)) {
                    t.jointType = i;
                    if (t.tool != Tool::AddJoint) setTool(t, Tool::AddJoint);
                }
                if (ImGui::IsItemHovered()) {
                    ImGui::BeginTooltip();
                    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
                    ImGui::TextUnformatted(jointTypeInfo(i).description);
                    ImGui::PopTextWrapPos();
                    ImGui::EndTooltip();
                }
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        ImGui::SetNextItemWidth(110.0f);
        int axis = static_cast<int>(t.axis);
        if (ImGui::Combo("##axis", &axis, kJointAxisChoiceNames, kJointAxisChoiceCount))
            t.axis = static_cast<JointAxisChoice>(axis);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "joint axis (frame X) of a new joint: auto = along A→B for %s\n"
                "joints, else the surface normal where A was clicked",
                typesAlongAToB().c_str());
        ImGui::TextDisabled("%s", hint(state));
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
}

}  // namespace jl::app
