// Inspector panel: every field of the selected body or joint, generated from the engine's field
// lists and editable live (through undoable commands), plus what the World reports now: a body's
// state, a joint's load against its break thresholds and the rows it produced.
#include <imgui.h>

#include <cmath>
#include <string>

#include "editor/reseat.h"
#include "panels/field_editor.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "panels/side_window.h"
#include "render/joint_draw.h"
#include "render/joint_frames.h"
#include "render/scene_bounds.h"
#include "session/row_table.h"
#include "viewport/viewport_tools.h"

namespace jl::app {

namespace {

constexpr double kRadToDeg = 180.0 / 3.14159265358979323846;

/// A vector to 3 decimals; a component that rounds to zero shows as 0.000, not -0.000 (a hinge's
/// torque of -2e-16 N·m is round-off, not a direction).
void vec3Row(const char* label, const Vec3& v, const char* unit) {
    auto shown = [](double c) { return std::abs(c) < 0.0005 ? 0.0 : c; };
    propertyRow(label, "(%.3f, %.3f, %.3f) %s", shown(v.x), shown(v.y), shown(v.z), unit);
}

/// The last refusal, where the person is looking when they typed the bad value.
void refusal(const AppState& state) {
    if (!state.status.isError() || state.status.empty()) return;
    const ImVec4 red(1.0f, 0.55f, 0.5f, 1.0f);
    wrappedTextUnformatted(state.status.text(), &red);
    ImGui::Separator();
}

void objectButtons(const AppState& state, const std::string& name, bool body, UiRequests& requests) {
    if (ImGui::SmallButton("Duplicate"))
        requests.commands.push_back(duplicateCommand(state, state.selection));
    ImGui::SameLine();
    if (ImGui::SmallButton("Delete"))
        requests.commands.push_back(body ? deleteBody(name) : deleteJoint(name));
    if (body && ImGui::IsItemHovered()) ImGui::SetTooltip("deletes the body and every joint attached to it");
}

// [SECTION] Body

void bodyInspector(AppState& state, int index, UiRequests& requests) {
    const World& world = *state.sim.world();
    const Scene& scene = state.sim.scene();
    const BodyDesc& b = scene.bodies[static_cast<size_t>(index)];
    const BodyState& s = world.bodies()[static_cast<size_t>(index)];
    ImGui::Text("Body: %s", b.name.c_str());
    objectButtons(state, b.name, true, requests);
    ImGui::SameLine();
    if (ImGui::SmallButton("Keep pose")) requests.commands.push_back(setBodyPose(b.name, s.pose, false));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("make the pose it has now its initial pose (what Reset returns to)");

    sectionHeader("Description (initial state)");
    drawFieldList(listFields(scene, FieldOwner::body(b.name)), FieldOwner::body(b.name), scene,
                  state.inspector, requests);
    if (const std::string parts = shapeListSummary(b); !parts.empty()) {
        ImGui::TextDisabled("shape: %s", parts.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "hull points and a compound's children are edited in the scenario file "
                "(docs/scenario-format.md), not here");
    }

    sectionHeader("Now");
    if (ImGui::BeginTable("state", 2, ImGuiTableFlags_SizingStretchProp)) {
        const double invMass = world.inverseMass(index);
        if (invMass > 0.0)
            propertyRow("mass", "%.4g kg", 1.0 / invMass);
        else
            propertyRow("mass", "infinite (%s)", kMotionTypeNames[static_cast<int>(b.motion)]);
        vec3Row("inertia", world.localInertia(index), "kg\u00b7m\u00b2");
        vec3Row("position", s.pose.p, "m");
        const double angle = 2.0 * std::acos(std::min(1.0, std::abs(s.pose.q.w))) * kRadToDeg;
        propertyRow("rotation angle", "%.2f deg", angle);
        vec3Row("velocity", s.linearVelocity, "m/s");
        propertyRow("speed", "%.4f m/s", glm::length(s.linearVelocity));
        vec3Row("angular velocity", s.angularVelocity, "rad/s");
        if (state.sim.drag && state.sim.drag->body == index)
            propertyRow("mouse force", "%.4g N", glm::length(state.sim.drag->force));
        ImGui::EndTable();
    }
}

// [SECTION] Joint

void typeChooser(const JointDesc& j, UiRequests& requests) {
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##type", j.typeInfo().title)) {
        for (int i = 0; i < kJointTypeCount; ++i)
            if (ImGui::Selectable(jointTypeInfo(i).title, i == j.typeIndex()) && i != j.typeIndex())
                requests.commands.push_back(setJointType(j.name, i));
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "change the type: bodies, frames and thresholds stay; the new type's parameters start at their "
            "defaults");
    if (const int presets = jointPresetCount(j.typeIndex()); presets > 0) {
        ImGui::SetNextItemWidth(-FLT_MIN);
        // "apply a D6 preset...": the title up to its parenthesis names the type shortly.
        const std::string title = j.typeInfo().title;
        const std::string label = "apply a " + title.substr(0, title.find(" (")) + " preset...";
        if (ImGui::BeginCombo("##preset", label.c_str())) {
            for (int i = 0; i < presets; ++i)
                if (ImGui::Selectable(jointPresetName(j.typeIndex(), i)))
                    requests.commands.push_back(applyJointPreset(j.name, i));
            ImGui::EndCombo();
        }
    }
    if (ImGui::CollapsingHeader("About this joint type")) {
        wrappedTextDisabled("%s", j.typeInfo().description);
    }
}

/// Restore's choice: re-seat the joint where its bodies are, or pull them back over some steps.
void restorePopup(AppState& state, const World& world, int index, const JointDesc& j, UiRequests& requests) {
    if (!ImGui::BeginPopup("##restore")) return;
    const HoldGap gap =
        jointHoldGap(j, bodyPose(world.bodies(), world.jointBody0(index)),
                     bodyPose(world.bodies(), world.jointBody1(index)), world.scene().settings.dt);
    InspectorState& in = state.inspector;
    ImGui::Text("Restore joint '%s'", j.name.c_str());
    ImGui::TextDisabled("its bodies are %s", holdGapText(gap).c_str());
    int mode = static_cast<int>(in.restoreMode);
    ImGui::RadioButton("re-seat it where the bodies are", &mode, 0);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "moves the joint's frame on body 1 so that it holds as the bodies are now:\n"
            "nothing jumps. An undoable edit of the joint.");
    ImGui::RadioButton("pull them together over", &mode, 1);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "keeps the joint as it is and eases it in: the bodies come back a little each step\n"
            "instead of in one (which would be an energy spike, and break it again)");
    in.restoreMode = static_cast<RestoreMode>(mode);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(px(110.0f));
    ImGui::BeginDisabled(in.restoreMode != RestoreMode::Pull);
    ImGui::SliderInt("steps", &in.restoreSteps, 2, 600, "%d", ImGuiSliderFlags_Logarithmic);
    ImGui::EndDisabled();
    if (ImGui::Button("Restore", ImVec2(px(110.0f), 0.0f))) {
        requests.restoreJoint = index;
        requests.restoreMode = in.restoreMode;
        requests.restoreSteps = in.restoreSteps;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(px(110.0f), 0.0f))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

/// The load table and one line about the break threshold. Every state (no step yet, broken,
/// unbreakable) draws the same rows, so the Parameters below stay put while a threshold is typed
/// or the joint breaks under the mouse.
void loadSection(AppState& state, const World& world, int index, const JointDesc& j, UiRequests& requests) {
    const JointState& js = world.jointState(index);
    sectionHeader("Load on body 1 (last step)");
    if (ImGui::BeginTable("load", 2, ImGuiTableFlags_SizingStretchProp)) {
        if (state.sim.hasStepResults()) {
            vec3Row("force", js.force, "N");
            propertyRow("|force|", "%.4g N", glm::length(js.force));
            vec3Row("torque", js.torque, "N\u00b7m");
            propertyRow("|torque|", "%.4g N\u00b7m", glm::length(js.torque));
            propertyRow(
                "error", "%s",
                violationText(jointViolationByUnit(world.jointRows(index), world.jointRowResults(index)))
                    .c_str());
        } else {
            propertyRow("force", "none yet: step once");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("no step since the scene was loaded or edited");
            for (const char* label : {"|force|", "torque", "|torque|", "error"}) propertyRow(label, "\u2013");
        }
        ImGui::EndTable();
    }
    const JointLoadLine line = jointLoadLine(j, js, lastBreak(world, index));
    switch (line.kind) {
        case JointLoadLine::Kind::Broken:
            if (ImGui::Button("Restore...")) ImGui::OpenPopup("##restore");
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("un-break the joint: re-seated where its bodies are, or pulling them back");
            ImGui::SameLine();
            ImGui::AlignTextToFramePadding();
            ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.35f, 1.0f), "%s", line.text.c_str());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "the load in the step it broke, against its threshold while that is still below it;\n"
                    "a broken joint carries none");
            restorePopup(state, world, index, j, requests);
            break;
        case JointLoadLine::Kind::Load: {
            const Color c = loadColor(line.fraction);
            ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImVec4(c.r, c.g, c.b, 1.0f));
            ImGui::ProgressBar(static_cast<float>(std::min(line.fraction, 1.0)), ImVec2(-FLT_MIN, 0.0f),
                               line.text.c_str());
            ImGui::PopStyleColor();
            break;
        }
        case JointLoadLine::Kind::Unbreakable:
            ImGui::AlignTextToFramePadding();
            ImGui::TextDisabled("%s", line.text.c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("breakForce and breakTorque are both inf");
            break;
    }
}

/// The joint's rows in the last step (the Rows tab has every column); "+" plots a row's impulse,
/// right-click its error, so adding a row to a plot is one click here too.
void rowsTable(const AppState& state, int index, UiRequests& requests) {
    const World& world = *state.sim.world();
    const std::string& joint = world.scene().joints[static_cast<size_t>(index)].name;
    const std::vector<RowTableEntry> rows = rowTable(world, index);
    sectionHeader("Rows");
    if (rows.empty()) {
        ImGui::TextDisabled("none: %s", emptyRowTableReason(world, index));
        return;
    }
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("rows", 4, flags)) return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("row");
    ImGui::TableSetupColumn("error C");
    ImGui::TableSetupColumn("impulse");
    ImGui::TableHeadersRow();
    for (const RowTableEntry& e : rows) {
        ImGui::TableNextRow();
        ImGui::PushID(e.index);
        ImGui::TableSetColumnIndex(0);
        rowPlotButton(state, requests, joint, e.label());
        ImGui::TableSetColumnIndex(1);
        ImGui::AlignTextToFramePadding();
        if (e.state == RowState::Clamped)
            ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f), "%s (clamped)", e.label());
        else
            ImGui::TextUnformatted(e.label());
        ImGui::TableSetColumnIndex(2);
        ImGui::Text("%.2e %s", e.result.geometricError, e.angular() ? "rad" : "m");
        ImGui::TableSetColumnIndex(3);
        ImGui::Text("%.3e", e.result.impulse);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void jointInspector(AppState& state, int index, UiRequests& requests) {
    const World& world = *state.sim.world();
    const Scene& scene = state.sim.scene();
    const JointDesc& j = scene.joints[static_cast<size_t>(index)];
    ImGui::Text("Joint: %s", j.name.c_str());
    objectButtons(state, j.name, false, requests);
    typeChooser(j, requests);
    loadSection(state, world, index, j, requests);
    sectionHeader("Parameters");
    drawFieldList(listFields(scene, FieldOwner::joint(j.name)), FieldOwner::joint(j.name), scene,
                  state.inspector, requests);
    rowsTable(state, index, requests);
}

}  // namespace

void drawInspectorPanel(AppState& state, UiRequests& requests) {
    if (!state.panels.inspector) return;
    const ImGuiIO& io = ImGui::GetIO();
    const UiLayout& l = state.layout;
    pinNextWindow(io.DisplaySize.x - l.rightWidth, l.menuBarHeight, l.rightWidth,
                  io.DisplaySize.y - l.menuBarHeight - l.statusBarHeight);
    if (ImGui::Begin("Inspector", &state.panels.inspector, kPinnedPanelFlags)) {
        refusal(state);
        const World* world = state.sim.world();
        const Selection& sel = state.selection;
        const Scene& scene = state.sim.scene();
        if (world && sel.isBody() && static_cast<size_t>(sel.index) < scene.bodies.size()) {
            bodyInspector(state, sel.index, requests);
        } else if (world && sel.isJoint() && static_cast<size_t>(sel.index) < scene.joints.size()) {
            jointInspector(state, sel.index, requests);
        } else {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled(
                "Nothing selected. Click a body or a joint anchor in the viewport, or pick one in "
                "the Scene panel. The tool bar adds bodies and joints.");
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::End();
}

}  // namespace jl::app
