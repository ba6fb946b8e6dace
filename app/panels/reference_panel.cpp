// The Reference window (Simulation > Reference: MuJoCo): MuJoCo runs the live scene beside
// JointLab in joint coordinates (session/mujoco_reference.h). The window states what was set to
// match and what still differs, or why the scene cannot run there (the joint that closes a loop);
// it plots each joint's angle (or offset) in both — JointLab solid, MuJoCo dashed in the same
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

}  // namespace

void drawReferencePanel(AppState& state, UiRequests& requests) {
    MujocoReference& ref = state.reference;
    if (!ref.enabled() || !ref.windowOpen) return;
    const ScreenRect view = viewportScreenRect(state.layout, ImGui::GetIO().DisplaySize);
    const float top = view.min.y + px(80), bottom = view.max.y - px(40);
    const ImVec2 size(std::min(px(460), view.width() * 0.5f),
                      std::max(px(220), std::min(px(520), bottom - top)));
    ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowPos(ImVec2(view.max.x - size.x - px(8), std::max(top, bottom - size.y)),
                            ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Reference: MuJoCo###reference", &ref.windowOpen)) {
        ImGui::End();
        return;
    }
    const ImVec4 green(kReferenceColour.r, kReferenceColour.g, kReferenceColour.b, 1.0f);
    if (ImGui::Button("Stop")) requests.toggleReference = true;
    ImGui::SameLine();
    helpMarker(
        "MuJoCo simulates the scene in joint coordinates, where a joint has no error by construction, "
        "from the live run's state and one MuJoCo step per JointLab step. Its bodies draw as a green "
        "ghost (View > Ghost of the other run). Going back on the timeline or resetting starts it again "
        "from the live state; an edit rebuilds its model. docs/reference.md.");
    if (!ref.running()) {
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "Not running:");
        ImGui::TextWrapped("%s", ref.refusal().c_str());
        ImGui::End();
        return;
    }
    if (ImGui::CollapsingHeader("Matched settings", ImGuiTreeNodeFlags_DefaultOpen)) {
        for (const std::string& s : ref.matched()) ImGui::BulletText("%s", s.c_str());
    }
    if (ImGui::CollapsingHeader("Differs")) {
        for (const std::string& s : ref.differences()) ImGui::BulletText("%s", s.c_str());
    }
    if (ref.diverged())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f),
                           "MuJoCo diverged (a non-finite acceleration) and reset itself: try a smaller dt");
    const size_t n = ref.sampleCount();
    const std::vector<std::string>& names = ref.jointNames();
    if (n > 0) {
        ImGui::TextColored(green, "step %lld: bodies apart by up to %.4g m",
                           static_cast<long long>(ref.sampleStep(n - 1)), ref.sampleDivergence(n - 1));
    }
    // Which joints: the first few, and the selected joint if compared.
    std::vector<size_t> plotted;
    for (size_t k = 0; k < names.size() && plotted.size() < kPlottedJoints; ++k) plotted.push_back(k);
    if (state.selection.kind == Selection::Kind::Joint && state.sim.world()) {
        const auto& joints = state.sim.world()->scene().joints;
        if (state.selection.index >= 0 && static_cast<size_t>(state.selection.index) < joints.size()) {
            const std::string& selected = joints[static_cast<size_t>(state.selection.index)].name;
            const auto it = std::find(names.begin(), names.end(), selected);
            const size_t k = static_cast<size_t>(it - names.begin());
            if (it != names.end() && std::find(plotted.begin(), plotted.end(), k) == plotted.end())
                plotted.push_back(k);
        }
    }
    const double dt = state.sim.world() ? state.sim.world()->scene().settings.dt : 0.0;
    const int count = static_cast<int>(n);
    plot::Context& ctx = state.plotsPanel.plots.context();
    const float h = std::max(px(100), (ImGui::GetContentRegionAvail().y - px(8)) * 0.5f);
    if (!plotted.empty() &&
        plot::BeginPlot(ctx, "Joints: JointLab (solid), MuJoCo (dashed)##reference", ImVec2(-1, h))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "angle or offset", "rad, m");
        for (size_t p = 0; p < plotted.size(); ++p) {
            const size_t k = plotted[p];
            const ImU32 colour = plot::seriesColor(static_cast<int>(p));
            plot::PlotLineF(
                ctx, names[k].c_str(), count,
                [&](int i) {
                    return plot::Point{static_cast<double>(ref.sampleStep(static_cast<size_t>(i))) * dt,
                                       ref.sampleJointlab(static_cast<size_t>(i), k)};
                },
                colour);
            plot::SetNextSeriesDashed(ctx);
            const std::string label = names[k] + " (MuJoCo)";
            plot::PlotLineF(
                ctx, label.c_str(), count,
                [&](int i) {
                    return plot::Point{static_cast<double>(ref.sampleStep(static_cast<size_t>(i))) * dt,
                                       ref.sampleMujoco(static_cast<size_t>(i), k)};
                },
                colour);
        }
        plot::EndPlot(ctx);
    }
    if (plot::BeginPlot(ctx, "Divergence##reference", ImVec2(-1, h))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "largest body distance", "m", &ref.logDivergence);
        plot::PlotLineF(
            ctx, "|x_JointLab - x_MuJoCo| max", count,
            [&](int i) {
                return plot::Point{static_cast<double>(ref.sampleStep(static_cast<size_t>(i))) * dt,
                                   ref.sampleDivergence(static_cast<size_t>(i))};
            },
            ImGui::ColorConvertFloat4ToU32(green));
        plot::EndPlot(ctx);
    }
    ImGui::End();
}

}  // namespace jl::app
