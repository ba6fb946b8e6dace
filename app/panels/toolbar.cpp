// The viewport tool bar: select (with the move / rotate gizmo), add a box, sphere or capsule, and
// the joint tool with its type, axis and work plane (shown while the tool is on); a hint beside
// the buttons, or below them when the viewport is narrow, says what a click does now.
#include <imgui.h>

#include <algorithm>
#include <iterator>
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

/// The types whose automatic joint axis runs along the line between the two points, from the
/// table: "spherical, prismatic and distance".
std::string typesAlongTheLine() {
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
    t.haveFirst = false;
    t.preview.reset();
}

/// What the joint tool's next click does.
std::string jointHint(const ToolState& t) {
    if (!t.haveFirst) return "click the body to attach (the one that will hang or turn)";
    const char* where = t.previewKind == AnchorPick::Kind::Body     ? "to this body"
                        : t.previewKind == AnchorPick::Kind::Ground ? "to the ground here"
                        : t.previewKind == AnchorPick::Kind::Plane  ? "to the world here (work plane)"
                                                                    : "";
    return std::string("click: attach ") + where + "   Shift: anchor on the body   Esc: cancel";
}

std::string hint(const AppState& state) {
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
            return jointHint(t);
    }
    return "";
}

/// Starts the next item on this line if it fits before `right` (window coordinates), else on the
/// next: the tool bar wraps instead of running over the panels on a narrow viewport.
void flow(float itemWidth, float right, float gap = -1.0f) {
    ImGui::SameLine(0.0f, gap);
    if (ImGui::GetCursorPosX() + itemWidth > right) ImGui::NewLine();
}

float buttonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

void jointTypeCombo(ToolState& t, float width) {
    ImGui::SetNextItemWidth(width);
    if (!ImGui::BeginCombo("##joint type", jointTypeInfo(t.jointType).title)) return;
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

void axisCombo(ToolState& t, float width) {
    ImGui::SetNextItemWidth(width);
    int axis = static_cast<int>(t.axis);
    if (ImGui::Combo("##axis", &axis, kJointAxisChoiceNames, kJointAxisChoiceCount))
        t.axis = static_cast<JointAxisChoice>(axis);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "the new joint's axis (frame X: a hinge's axle, a slider's rail)\n"
            "auto: along the line between the two points for %s joints,\n"
            "else the work plane's normal (a hinge turns in the plane you see)",
            typesAlongTheLine().c_str());
}

void planeCombo(ToolState& t, float width) {
    ImGui::SetNextItemWidth(width);
    int plane = static_cast<int>(t.plane);
    if (ImGui::Combo("##plane", &plane, kWorkPlaneNames, kWorkPlaneCount))
        t.plane = static_cast<WorkPlane>(plane);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "work plane: where a click in the air puts the anchor, through the body's centre\n"
            "view: the upright plane facing you (level when you look down from above)");
}

}  // namespace

ScreenRect drawViewportToolbar(AppState& state, const ScreenRect& rect, UiRequests& /*requests*/) {
    ToolState& t = state.tools;
    const float margin = px(8.0f);
    const float maxWidth = std::max(px(120.0f), rect.width() - 2.0f * margin);
    ImGui::SetNextWindowPos(ImVec2(rect.min.x + margin, rect.min.y + margin), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(maxWidth, rect.height() - 2.0f * margin));
    ImGui::SetNextWindowBgAlpha(0.82f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(px(6.0f), px(5.0f)));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(px(4.0f), px(4.0f)));
    ScreenRect bar{rect.min, rect.min};  // nothing drawn: an empty rectangle
    if (ImGui::Begin("##tools", nullptr, flags)) {
        const float right = maxWidth - ImGui::GetStyle().WindowPadding.x;
        const bool select = t.tool == Tool::Select;
        if (toolButton("Move", select && t.gizmo == GizmoMode::Move,
                       "select; move the selection with arrows (W)")) {
            setTool(t, Tool::Select);
            t.gizmo = GizmoMode::Move;
        }
        flow(buttonWidth("Rotate"), right);
        if (toolButton("Rotate", select && t.gizmo == GizmoMode::Rotate,
                       "select; turn the selection with rings (E)")) {
            setTool(t, Tool::Select);
            t.gizmo = GizmoMode::Rotate;
        }
        struct Add {
            const char* label;
            Tool tool;
            const char* tip;
        };
        const Add adds[] = {{"+ Box", Tool::AddBox, "add a box where you click"},
                            {"+ Sphere", Tool::AddSphere, "add a sphere where you click"},
                            {"+ Capsule", Tool::AddCapsule, "add a capsule where you click"}};
        for (size_t i = 0; i < std::size(adds); ++i) {
            flow(buttonWidth(adds[i].label), right, i == 0 ? px(12.0f) : -1.0f);
            if (toolButton(adds[i].label, t.tool == adds[i].tool, adds[i].tip)) setTool(t, adds[i].tool);
        }
        flow(buttonWidth("+ Joint"), right, px(12.0f));
        if (toolButton("+ Joint", t.tool == Tool::AddJoint,
                       "joint tool (J): click the body, then where it hangs from (another body, the\n"
                       "ground, or the air): a pendulum in three clicks; its type, axis and work plane\n"
                       "are chosen beside it while the tool is on"))
            setTool(t, Tool::AddJoint);
        // The joint's type, axis and work plane only while the joint tool is on: the bar stays one
        // row of buttons (and the hint) over the scene otherwise.
        if (t.tool == Tool::AddJoint) {
            flow(px(150.0f), right);
            jointTypeCombo(t, px(150.0f));
            flow(px(120.0f), right);
            axisCombo(t, px(120.0f));
            flow(px(120.0f), right);
            planeCombo(t, px(120.0f));
        }
        // The hint beside the buttons when it fits, else on a line of its own.
        const std::string text = hint(state);
        flow(ImGui::CalcTextSize(text.c_str()).x, right, px(12.0f));
        ImGui::AlignTextToFramePadding();
        ImGui::PushTextWrapPos(right);
        ImGui::TextDisabled("%s", text.c_str());
        ImGui::PopTextWrapPos();
        bar.min = ImGui::GetWindowPos();
        bar.max = ImVec2(bar.min.x + ImGui::GetWindowWidth(),
                         ImGui::GetItemRectMax().y + ImGui::GetStyle().WindowPadding.y);
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
    return bar;
}

}  // namespace jl::app
