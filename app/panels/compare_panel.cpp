// The A/B compare window (Simulation > Compare…): B is the live run (A) from the step shown with
// some fields changed, stepping in lockstep (session/shadow_run.h). B's bodies draw translucent
// in violet over A's, the plots draw B's series dashed beside A's, and this window plots how far
// the two drift apart and the energy of each. Swap makes B the live run and A the comparison;
// Keep B makes B the live run and ends the compare.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "panels/panels.h"
#include "plot/plot.h"
#include "render/scene_draw.h"

namespace jl::app {

namespace {

/// One-click changes people compare most; the text field takes any field path.
struct Preset {
    const char* label;
    const char* tooltip;
    std::string (*changes)(const Scene& scene);
};

std::string otherSolver(const Scene& s) {
    return std::string("settings.solver=") + (s.settings.solver == SolverType::PGS ? "tgs" : "pgs");
}
std::string doubleIterations(const Scene& s) {
    return "settings.posIters=" + std::to_string(std::min(255, 2 * s.settings.posIters));
}
std::string sameSettings(const Scene&) {
    return "";
}

const Preset kPresets[] = {
    {"Other solver", "PGS against TGS: B runs the other solver", otherSolver},
    {"2x position iterations", "B sweeps the position rows twice as often", doubleIterations},
    {"Same settings", "B = A: the two never differ by a single bit (determinism)", sameSettings},
};

}  // namespace

void drawComparePanel(AppState& state, UiRequests& requests) {
    CompareState& c = state.compare;
    if (!c.open) return;
    // At the viewport's bottom right, below its tool bar and above the timeline: B's bodies stay
    // in view beside it.
    const ScreenRect view = viewportScreenRect(state.layout, ImGui::GetIO().DisplaySize);
    const float top = view.min.y + px(80), bottom = view.max.y - px(40);
    const ImVec2 size(std::min(px(440), view.width() * 0.6f),
                      std::max(px(200), std::min(px(380), bottom - top)));
    ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowPos(ImVec2(view.max.x - size.x - px(8), std::max(top, bottom - size.y)),
                            ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("A/B compare###compare", &c.open)) {
        ImGui::End();
        return;
    }
    const Simulation& sim = state.sim;
    const ShadowRun& shadow = sim.shadow();
    const World* a = sim.world();
    if (!a) {
        ImGui::TextDisabled("Open a scene first.");
        ImGui::End();
        return;
    }

    ImGui::SetNextItemWidth(-px(70));
    const bool enter = ImGui::InputText("##changes", &c.text, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button(shadow.comparing() ? "Restart" : "Start") || enter) requests.startCompare = c.text;
    for (const Preset& p : kPresets) {
        if (ImGui::SmallButton(p.label)) {
            c.text = p.changes(a->scene());
            requests.startCompare = c.text;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.tooltip);
        ImGui::SameLine();
    }
    helpMarker(
        "B starts from the step shown with these fields changed and steps with A (the live run). "
        "Fields are named as in the scenario file: settings.solver=tgs,settings.posIters=8 or "
        "joints.elbow.drive.stiffness=50. B draws translucent in violet; the plots draw its lines "
        "dashed. Going back on the timeline or editing A starts B again from A.");
    if (!c.message.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", c.message.c_str());

    if (!shadow.comparing()) {
        ImGui::TextDisabled("No compare running.");
        ImGui::End();
        return;
    }
    ImGui::Separator();
    const glm::vec4 bColour = shadowColour(ShadowRun::Kind::Compare);
    const ImU32 compareColour = ImGui::ColorConvertFloat4ToU32(ImVec4(bColour.r, bColour.g, bColour.b, 1.0f));
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ImVec4(bColour.r, bColour.g, bColour.b, 1.0f), "%s",
                       shadow.label(sim.history()).c_str());
    ImGui::SameLine();
    if (ImGui::Button("Stop")) requests.stopCompare = true;
    ImGui::SameLine();
    if (ImGui::Button("Swap")) requests.swapCompare = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("B becomes the live run (recorded as a change in the history), A the comparison");
    ImGui::SameLine();
    if (ImGui::Button("Keep B")) requests.keepCompareB = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("B becomes the live run and the compare ends");

    // Divergence and energies over the compare's steps.
    const std::vector<ShadowRun::CompareSample>& samples = shadow.compareSamples();
    if (!samples.empty()) {
        const ShadowRun::CompareSample& last = samples.back();
        wrappedText("step %lld: bodies apart by up to %.4g m; energy A %.6g J, B %.6g J",
                    static_cast<long long>(last.step), last.divergence, last.energyA, last.energyB);
    }
    const double dt = a->scene().settings.dt;
    const int n = static_cast<int>(samples.size());
    plot::Context& ctx = state.plotsPanel.plots.context();
    const float h = std::max(px(90), (ImGui::GetContentRegionAvail().y - px(8)) * 0.5f);
    if (plot::BeginPlot(ctx, "Divergence##compare", ImVec2(-1, h))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "largest body distance", "m", &c.logDivergence);
        plot::PlotLineF(
            ctx, "|x_A - x_B| max", n,
            [&](int i) {
                const auto& s = samples[static_cast<size_t>(i)];
                return plot::Point{static_cast<double>(s.step) * dt, s.divergence};
            },
            plot::seriesColor(5));
        plot::EndPlot(ctx);
    }
    if (plot::BeginPlot(ctx, "Energy##compare", ImVec2(-1, h))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "kinetic + potential", "J");
        plot::PlotLineF(
            ctx, "A", n,
            [&](int i) {
                const auto& s = samples[static_cast<size_t>(i)];
                return plot::Point{static_cast<double>(s.step) * dt, s.energyA};
            },
            plot::seriesColor(0));
        plot::PlotLineF(
            ctx, "B", n,
            [&](int i) {
                const auto& s = samples[static_cast<size_t>(i)];
                return plot::Point{static_cast<double>(s.step) * dt, s.energyB};
            },
            compareColour);
        plot::EndPlot(ctx);
    }
    ImGui::End();
}

}  // namespace jl::app
