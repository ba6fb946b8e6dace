// The plots dock's Reference tab (Simulation > Reference: MuJoCo): MuJoCo runs the live scene
// beside JointLab in joint coordinates (session/mujoco_reference.h). On the left, what was set to
// match and what still differs, or why the scene cannot run there (the joint that closes a loop);
// on the right, each joint's angle (or offset) in both — JointLab solid, MuJoCo dashed in the same
// colour, as the compare draws B — and the largest distance between a body in the two.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "panels/panels.h"
#include "plot/plot.h"
#include "render/scene_draw.h"

namespace jl::app {

namespace {

/// The joints plotted: the first few, and the selected joint when it is compared and not among them.
constexpr size_t kPlottedJoints = 4;

std::vector<size_t> plottedJoints(const AppState& state, const std::vector<std::string>& names) {
    std::vector<size_t> plotted;
    for (size_t k = 0; k < names.size() && plotted.size() < kPlottedJoints; ++k) plotted.push_back(k);
    const World* world = state.sim.world();
    if (!world || !state.selection.isJoint()) return plotted;
    const auto& joints = world->scene().joints;
    if (static_cast<size_t>(state.selection.index) >= joints.size()) return plotted;
    const auto it =
        std::find(names.begin(), names.end(), joints[static_cast<size_t>(state.selection.index)].name);
    const size_t k = static_cast<size_t>(it - names.begin());
    if (it != names.end() && std::find(plotted.begin(), plotted.end(), k) == plotted.end())
        plotted.push_back(k);
    return plotted;
}

}  // namespace

void drawReferenceTab(AppState& state, UiRequests& requests) {
    MujocoReference& ref = state.reference;
    const ImVec4 green(kReferenceColour.r, kReferenceColour.g, kReferenceColour.b, 1.0f);
    const ImVec4 red(1.0f, 0.45f, 0.4f, 1.0f);
    const float height = ImGui::GetContentRegionAvail().y;
    const float left = std::max(px(220), ImGui::GetContentRegionAvail().x * 0.32f);

    ImGui::BeginChild("##reference settings", ImVec2(left, height), false);
    if (ImGui::SmallButton("Stop")) requests.toggleReference = true;
    ImGui::SameLine();
    ImGui::TextColored(green, "MuJoCo: green ghost");
    ImGui::SameLine();
    helpMarker(
        "MuJoCo simulates the scene in joint coordinates, where a joint has no error by construction, "
        "from the live run's state, one MuJoCo step per JointLab step. Its bodies draw as a green ghost "
        "(View > Ghost of the other run). Going back on the timeline or resetting starts it again from "
        "the live state; an edit rebuilds its model. docs/reference.md.");
    if (!ref.running()) {
        ImGui::TextColored(red, "Not running:");
        wrappedText("%s", ref.refusal().c_str());
        ImGui::EndChild();
        return;
    }
    const size_t n = ref.sampleCount();
    if (n > 0)
        wrappedText("step %lld: bodies apart by up to %.4g m", static_cast<long long>(ref.sampleStep(n - 1)),
                    ref.sampleDivergence(n - 1));
    if (ref.diverged())
        ImGui::TextColored(red,
                           "MuJoCo diverged (a non-finite acceleration) and reset itself: try a smaller dt");
    if (ref.overflowed())
        ImGui::TextColored(red,
                           "MuJoCo ran out of room for its contacts or constraints in a step and ran it "
                           "without them: the runs differ from there");
    ImGui::TextDisabled("Set to match:");
    for (const std::string& s : ref.matched()) {
        ImGui::Bullet();
        wrappedText("%s", s.c_str());
    }
    if (ImGui::CollapsingHeader("Differs")) {
        for (const std::string& s : ref.differences()) {
            ImGui::Bullet();
            wrappedText("%s", s.c_str());
        }
    }
    ImGui::EndChild();
    ImGui::SameLine();

    ImGui::BeginChild("##reference plots", ImVec2(0, height), false);
    const std::vector<std::string>& names = ref.jointNames();
    const std::vector<size_t> plotted = plottedJoints(state, names);
    const double dt = state.sim.world() ? state.sim.world()->scene().settings.dt : 0.0;
    const int count = static_cast<int>(n);
    const auto time = [&](int i) { return static_cast<double>(ref.sampleStep(static_cast<size_t>(i))) * dt; };
    plot::Context& ctx = state.plotsPanel.plots.context();
    const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    const float h = ImGui::GetContentRegionAvail().y - px(4);
    if (!plotted.empty() && plot::BeginPlot(ctx, "Joints: JointLab solid, MuJoCo dashed##reference",
                                            ImVec2(plotted.empty() ? -1 : w, h))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "angle or offset", "rad or m");
        for (size_t p = 0; p < plotted.size(); ++p) {
            const size_t k = plotted[p];
            const ImU32 colour = plot::seriesColor(static_cast<int>(p));
            plot::PlotLineF(
                ctx, names[k].c_str(), count,
                [&](int i) {
                    return plot::Point{time(i), ref.sampleJointlab(static_cast<size_t>(i), k)};
                },
                colour);
            plot::SetNextSeriesDashed(ctx);
            const std::string label = names[k] + " (MuJoCo)";
            plot::PlotLineF(
                ctx, label.c_str(), count,
                [&](int i) {
                    return plot::Point{time(i), ref.sampleMujoco(static_cast<size_t>(i), k)};
                },
                colour);
        }
        plot::EndPlot(ctx);
    }
    if (!plotted.empty()) ImGui::SameLine();
    if (plot::BeginPlot(ctx, "Divergence##reference", ImVec2(-1, h))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "largest body distance", "m", &ref.logDivergence);
        plot::PlotLineF(
            ctx, "|x_JointLab - x_MuJoCo| max", count,
            [&](int i) {
                return plot::Point{time(i), ref.sampleDivergence(static_cast<size_t>(i))};
            },
            ImGui::ColorConvertFloat4ToU32(green));
        plot::EndPlot(ctx);
    }
    ImGui::EndChild();
}

}  // namespace jl::app
