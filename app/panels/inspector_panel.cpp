// Inspector panel: the selected body's description and live state, or the selected joint's type,
// bodies, load and rows. Read-only for now; editing goes through undoable commands (later issue).
#include <cmath>

#include <imgui.h>

#include "panels/panels.h"
#include "panels/side_window.h"

namespace jl::app {

namespace {

constexpr double kRadToDeg = 180.0 / 3.14159265358979323846;

void vec3Row(const char* label, const Vec3& v, const char* unit) {
    propertyRow(label, "(%.3f, %.3f, %.3f) %s", v.x, v.y, v.z, unit);
}

void shapeRows(const BodyDesc& b) {
    switch (b.shape) {
        case ShapeType::Box:
            propertyRow("shape", "box");
            vec3Row("half extents", b.halfExtents, "m");
            break;
        case ShapeType::Sphere:
            propertyRow("shape", "sphere");
            propertyRow("radius", "%.3f m", b.radius);
            break;
        case ShapeType::Capsule:
            propertyRow("shape", "capsule (along local X)");
            propertyRow("radius", "%.3f m", b.radius);
            propertyRow("half height", "%.3f m", b.halfHeight);
            break;
    }
}

void bodyInspector(const World& world, int index) {
    const BodyDesc& b = world.scene().bodies[index];
    const BodyState& s = world.bodies()[index];
    ImGui::Text("Body: %s", b.name.c_str());
    sectionHeader("Description");
    if (ImGui::BeginTable("body", 2, ImGuiTableFlags_SizingStretchProp)) {
        propertyRow("motion", "%s", kMotionTypeNames[static_cast<int>(b.motion)]);
        shapeRows(b);
        const double invMass = world.inverseMass(index);
        if (invMass > 0.0)
            propertyRow("mass", "%.4g kg", 1.0 / invMass);
        else
            propertyRow("mass", "infinite (%s)", kMotionTypeNames[static_cast<int>(b.motion)]);
        vec3Row("inertia", world.localInertia(index), "kg m^2");
        ImGui::EndTable();
    }
    sectionHeader("State");
    if (ImGui::BeginTable("state", 2, ImGuiTableFlags_SizingStretchProp)) {
        vec3Row("position", s.pose.p, "m");
        const Quat& q = s.pose.q;
        propertyRow("orientation", "(%.3f, %.3f, %.3f, %.3f)", q.w, q.x, q.y, q.z);
        const double angle = 2.0 * std::acos(std::min(1.0, std::abs(q.w))) * kRadToDeg;
        propertyRow("rotation angle", "%.2f deg", angle);
        vec3Row("velocity", s.linearVelocity, "m/s");
        propertyRow("speed", "%.4f m/s", glm::length(s.linearVelocity));
        vec3Row("angular velocity", s.angularVelocity, "rad/s");
        ImGui::EndTable();
    }
}

void jointInspector(const World& world, int index) {
    const JointDesc& j = world.scene().joints[index];
    const JointState& js = world.jointState(index);
    ImGui::Text("Joint: %s", j.name.c_str());
    ImGui::TextDisabled("%s", j.typeInfo().title);
    helpMarker(j.typeInfo().description);
    sectionHeader("Connection");
    if (ImGui::BeginTable("joint", 2, ImGuiTableFlags_SizingStretchProp)) {
        propertyRow("body 0", "%s", bodyDisplayName(j.body0));
        propertyRow("body 1", "%s", bodyDisplayName(j.body1));
        vec3Row("frame 0 origin", j.frame0.p, "m");
        vec3Row("frame 1 origin", j.frame1.p, "m");
        propertyRow("state", "%s", js.broken ? "BROKEN" : "intact");
        ImGui::EndTable();
    }
    sectionHeader("Load (on body 1, last step)");
    if (ImGui::BeginTable("load", 2, ImGuiTableFlags_SizingStretchProp)) {
        vec3Row("force", js.force, "N");
        propertyRow("|force|", "%.4g N", glm::length(js.force));
        vec3Row("torque", js.torque, "N m");
        propertyRow("|torque|", "%.4g N m", glm::length(js.torque));
        ImGui::EndTable();
    }
    const auto rows = world.jointRows(index);
    const auto results = world.jointRowResults(index);
    sectionHeader("Rows");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!rows.empty() && ImGui::BeginTable("rows", 3, flags)) {
        ImGui::TableSetupColumn("row");
        ImGui::TableSetupColumn("error C");
        ImGui::TableSetupColumn("impulse");
        ImGui::TableHeadersRow();
        for (size_t r = 0; r < rows.size() && r < results.size(); ++r) {
            const bool angular = (rows[r].flags & kRowAngular) != 0;
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(rows[r].label);
            ImGui::TableSetColumnIndex(1);
            ImGui::Text("%.2e %s", results[r].geometricError, angular ? "rad" : "m");
            ImGui::TableSetColumnIndex(2);
            ImGui::Text("%.3e", results[r].impulse);
        }
        ImGui::EndTable();
    } else if (rows.empty()) {
        ImGui::TextDisabled(js.broken ? "none: the joint is broken" : "none yet (step once)");
    }
}

}  // namespace

void drawInspectorPanel(AppState& state, UiRequests& /*requests*/) {
    if (!state.panels.inspector) return;
    const ImGuiIO& io = ImGui::GetIO();
    const UiLayout& l = state.layout;
    pinNextWindow(io.DisplaySize.x - l.rightWidth, l.menuBarHeight, l.rightWidth,
                  io.DisplaySize.y - l.menuBarHeight - l.statusBarHeight);
    if (ImGui::Begin("Inspector", &state.panels.inspector, kPinnedPanelFlags)) {
        const World* world = state.sim.world();
        const Selection& sel = state.selection;
        const Scene& scene = state.sim.scene();
        if (world && sel.kind == Selection::Kind::Body && sel.index >= 0 &&
            static_cast<size_t>(sel.index) < scene.bodies.size()) {
            bodyInspector(*world, sel.index);
        } else if (world && sel.kind == Selection::Kind::Joint && sel.index >= 0 &&
                   static_cast<size_t>(sel.index) < scene.joints.size()) {
            jointInspector(*world, sel.index);
        } else {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("Nothing selected. Click a body in the viewport, or a body or joint in "
                                "the Scene panel.");
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::End();
}

}  // namespace jl::app
