// Plot set-up editing: the "+ Add plot" menu and the popup that edits one plot. Every change is
// one undoable edit of Scene::plots, so the set-up is saved with the scenario.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <iterator>

#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "telemetry/plot_setup.h"
#include "telemetry/telemetry_plots.h"

namespace jl::app {

namespace {

/// Menu text of each PlotKind, in kPlotKindNames order.
constexpr const char* kKindMenu[] = {
    "Impulse per row",
    "Geometric error per row",
    "Force vs break force",
    "Torque vs break torque",
    "Energy (kinetic, potential, total)",
    "Convergence of the last step (PGS vs TGS)",
    "Simulated vs closed form (a reference)",
    "Contact force on a body",
    "Projections per step (per joint, total)",
    "Joint angle: JointLab vs MuJoCo",
    "Divergence from MuJoCo (largest body distance)",
};
constexpr int kKindCount = static_cast<int>(std::size(kKindMenu));
static_assert(std::size(kKindMenu) == std::size(kPlotKindNames), "one menu entry per plot kind");
constexpr const char* kKindHelp[] = {
    "accumulated impulse λ of each row in each step [N·s, N·m·s for angular rows]",
    "position error C of each row at the start of each step [m, rad for angular rows]",
    "|force| the joint applies to body 1, with its break force as a dashed line and break events marked",
    "|torque| the joint applies to body 1, with its break torque as a dashed line and break events marked",
    "kinetic, potential (gravity) and total energy of all bodies",
    "residual per solver sweep of the newest step; the last curve of each solver is kept, so switching "
    "solver compares PGS and TGS on the same axes (log scale)",
    "a quantity the scenario declares a closed form for (its \"references\"): the simulation solid, the "
    "closed form dashed, and optionally their difference",
    "|net force| the body's contacts (ground and other bodies, normal and friction) push it with, and its "
    "weight m·g dashed: resting, the contacts carry exactly its weight",
    "times each joint was projected (moved back onto the joint, its projection flag) in each step, 0 or 1, "
    "and the total over every joint: the CSV's projections column",
    "each joint's angle (or offset) in JointLab solid and in the MuJoCo reference run dashed, in the same "
    "colour (Simulation > Reference: MuJoCo must be on)",
    "the largest distance between a body's centre of mass in JointLab and in the MuJoCo reference run "
    "(Simulation > Reference: MuJoCo must be on)",
};

bool usesJoints(PlotKind k) {
    return k == PlotKind::Impulse || k == PlotKind::Error || k == PlotKind::Force || k == PlotKind::Torque ||
           k == PlotKind::Projections || k == PlotKind::Mujoco;
}

/// Row labels to offer for a plot: the rows its joints produce now, then any it names.
std::vector<std::string> offeredRows(const AppState& state, const PlotDesc& desc) {
    std::vector<std::string> labels;
    const World* world = state.sim.world();
    if (!world) return labels;
    std::vector<int> joints;
    plotJoints(desc, world->scene(), selectedJointIndex(state), joints);
    for (int j : joints)
        for (const Row& r : world->jointRows(j))
            if (std::find(labels.begin(), labels.end(), r.label) == labels.end())
                labels.emplace_back(r.label);
    for (const std::string& named : splitList(desc.rows))
        if (std::find(labels.begin(), labels.end(), named) == labels.end()) labels.push_back(named);
    return labels;
}

/// Checkboxes for the rows of an impulse or error plot; returns true when the choice changed.
bool rowChoice(const AppState& state, PlotDesc& desc) {
    const std::vector<std::string> offered = offeredRows(state, desc);
    if (offered.empty()) {
        ImGui::TextDisabled("rows: its joints produced none in the last step");
        return false;
    }
    ImGui::TextUnformatted("Rows");
    ImGui::SameLine();
    bool all = desc.rows.empty();
    bool changed = false;
    if (ImGui::Checkbox("every row", &all)) {
        desc.rows = all ? "" : offered.front();
        changed = true;
    }
    const std::vector<std::string> chosen = splitList(desc.rows);
    for (size_t i = 0; i < offered.size(); ++i) {
        bool on = all || std::find(chosen.begin(), chosen.end(), offered[i]) != chosen.end();
        if (i % 3 != 0) ImGui::SameLine();
        ImGui::BeginDisabled(all);
        if (ImGui::Checkbox(offered[i].c_str(), &on)) {
            std::string rows;
            for (const std::string& label : offered) {
                const bool keep =
                    label == offered[i] ? on : std::find(chosen.begin(), chosen.end(), label) != chosen.end();
                if (keep) rows += (rows.empty() ? "" : ",") + label;
            }
            desc.rows =
                rows.empty() ? offered[i] : rows;  // at least one row; "every row" is the checkbox above
            changed = true;
        }
        ImGui::EndDisabled();
    }
    return changed;
}

}  // namespace

int selectedJointIndex(const AppState& state) {
    const Selection& s = state.selection;
    return s.isJoint() && static_cast<size_t>(s.index) < state.sim.scene().joints.size() ? s.index : -1;
}

int selectedBodyIndex(const AppState& state) {
    const Selection& s = state.selection;
    return s.isBody() && static_cast<size_t>(s.index) < state.sim.scene().bodies.size() ? s.index : -1;
}

std::string selectedJointName(const AppState& state) {
    const int j = selectedJointIndex(state);
    return j < 0 ? std::string() : state.sim.scene().joints[static_cast<size_t>(j)].name;
}

void rowPlotButton(const AppState& state, UiRequests& requests, const std::string& joint,
                   const char* rowLabel) {
    const bool impulse = ImGui::SmallButton("+");
    const bool error = ImGui::IsItemClicked(ImGuiMouseButton_Right);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("plot this row's impulse (right-click: its geometric error)");
    if (!impulse && !error) return;
    requestPlots(requests,
                 withRowPlotted(shownPlots(state.sim.scene()), joint, rowLabel,
                                error ? PlotKind::Error : PlotKind::Impulse),
                 "plot row");
}

void requestPlots(UiRequests& requests, std::vector<PlotDesc> plots, std::string label,
                  std::string coalesceKey) {
    requests.commands.push_back(Command{std::move(label), std::move(coalesceKey),
                                        [plots = std::move(plots)](Scene& scene, CommandEffects&) {
                                            scene.plots = plots;
                                            return std::string();
                                        }});
}

void addPlotButton(const AppState& state, UiRequests& requests) {
    if (ImGui::Button("+ Add plot")) ImGui::OpenPopup("##add plot");
    if (!ImGui::BeginPopup("##add plot")) return;
    const std::string joint = selectedJointName(state);
    ImGui::TextDisabled(joint.empty() ? "joint plots follow the selected joint" : "joint plots show: %s",
                        joint.c_str());
    const Scene& scene = state.sim.scene();
    for (int k = 0; k < kKindCount; ++k) {
        const PlotKind kind = static_cast<PlotKind>(k);
        const bool reference = kind == PlotKind::Reference;
        if (reference && scene.references.empty()) continue;  // nothing to compare with
        if ((kind == PlotKind::Mujoco || kind == PlotKind::Divergence) && !MujocoReference::available())
            continue;  // a build without MuJoCo
        if (ImGui::MenuItem(kKindMenu[k])) {
            PlotDesc p;
            p.kind = kind;
            p.joints = usesJoints(kind) ? joint : "";
            if (kind == PlotKind::Contact && selectedBodyIndex(state) >= 0)
                p.bodies = scene.bodies[static_cast<size_t>(selectedBodyIndex(state))].name;
            p.logScale = kind == PlotKind::Convergence || kind == PlotKind::Divergence;
            if (reference) p.reference = scene.references.front().name;
            std::vector<PlotDesc> plots = shownPlots(state.sim.scene());
            plots.push_back(p);
            requestPlots(requests, std::move(plots), "add plot");
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kKindHelp[k]);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Mouse spring force")) {
        PlotDesc p;
        p.kind = PlotKind::Force;
        p.joints = kMouseSpring;
        std::vector<PlotDesc> plots = shownPlots(state.sim.scene());
        plots.push_back(p);
        requestPlots(requests, std::move(plots), "add plot");
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "|force| of the mouse spring while you drag a body (left-drag while the simulation "
            "runs); \"+ mouse spring\" in a force plot's editor overlays it on joints");
    ImGui::EndPopup();
}

void plotEditorPopup(const AppState& state, UiRequests& requests, const std::vector<PlotDesc>& plots,
                     int index) {
    if (!ImGui::BeginPopup("##edit plot")) return;
    std::vector<PlotDesc> edited = plots;
    PlotDesc& p = edited[static_cast<size_t>(index)];
    const std::string key = "plot " + std::to_string(index);
    bool changed = false, typed = false, gestureEnded = false;
    auto field = [&](bool edited) {  // text fields: one undo step per field, not per keystroke
        typed |= edited;
        gestureEnded |= ImGui::IsItemDeactivatedAfterEdit();
    };

    ImGui::SetNextItemWidth(px(320.0f));
    field(ImGui::InputTextWithHint("title", "automatic: kind and joints", &p.title));
    int kind = static_cast<int>(p.kind);
    ImGui::SetNextItemWidth(px(320.0f));
    if (ImGui::Combo("kind", &kind, kKindMenu, kKindCount)) {
        p.kind = static_cast<PlotKind>(kind);
        changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kKindHelp[static_cast<int>(p.kind)]);
    if (usesJoints(p.kind)) {
        bool follow = p.joints.empty();
        const std::string selected = selectedJointName(state);
        if (ImGui::Checkbox("follow the selected joint", &follow)) {
            p.joints = follow ? "" : selected;
            changed = true;
        }
        if (!follow) {
            ImGui::SetNextItemWidth(px(320.0f));
            field(ImGui::InputTextWithHint("joints", "joint names, comma-separated", &p.joints));
            ImGui::SameLine();
            ImGui::BeginDisabled(selected.empty());
            if (ImGui::SmallButton("+ selected")) {
                p.joints = addToList(p.joints, selected);
                changed = true;
            }
            ImGui::EndDisabled();
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("overlay the selected joint on this plot");
            if (p.kind == PlotKind::Force) {
                ImGui::SameLine();
                if (ImGui::SmallButton("+ mouse spring")) {
                    p.joints = addToList(p.joints, kMouseSpring);
                    changed = true;
                }
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(
                        "overlay the mouse spring's |force| while you drag a body (its name in "
                        "the list: \"%s\")",
                        kMouseSpring);
            }
        }
        if (p.kind == PlotKind::Impulse || p.kind == PlotKind::Error) changed |= rowChoice(state, p);
    }
    if (p.kind == PlotKind::Contact) {
        ImGui::SetNextItemWidth(px(320.0f));
        field(ImGui::InputTextWithHint("bodies", "body names, comma-separated; empty: the selected body",
                                       &p.bodies));
        const int b = selectedBodyIndex(state);
        ImGui::SameLine();
        ImGui::BeginDisabled(b < 0);
        if (ImGui::SmallButton("+ selected")) {
            p.bodies = addToList(p.bodies, state.sim.scene().bodies[static_cast<size_t>(b)].name);
            changed = true;
        }
        ImGui::EndDisabled();
    }
    if (p.kind == PlotKind::Reference) {
        const Scene& scene = state.sim.scene();
        ImGui::SetNextItemWidth(px(320.0f));
        if (ImGui::BeginCombo("reference", p.reference.empty() ? "(none)" : p.reference.c_str())) {
            for (const ReferenceDesc& r : scene.references)
                if (ImGui::Selectable(r.name.c_str(), r.name == p.reference)) {
                    p.reference = r.name;
                    changed = true;
                }
            ImGui::EndCombo();
        }
        changed |= ImGui::Checkbox("show the difference (simulated − closed form)", &p.difference);
    }
    changed |= ImGui::Checkbox("logarithmic value axis", &p.logScale);
    ImGui::Separator();
    if (ImGui::Button("Remove plot")) {
        edited.erase(edited.begin() + index);
        requestPlots(requests, std::move(edited), "remove plot");
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    if (changed || typed) requestPlots(requests, std::move(edited), "edit plot", typed ? key : "");
    if (gestureEnded) requests.endCoalescing = true;
    ImGui::EndPopup();
}

}  // namespace jl::app
