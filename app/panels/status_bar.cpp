#include <imgui.h>

#include "panels/panels.h"
#include "shell/text_wrap.h"

namespace jl::app {

namespace {

const ImVec4 kDivergedRed(1.0f, 0.35f, 0.3f, 1.0f);
constexpr const char* kDivergedPopup = "Simulation diverged";

/// "CPU 2.1 ms/frame, 60 fps": what a frame costs the main thread (and, while running, how often
/// frames come); the tooltip splits it into its phases (shell/frame_timing.h).
void frameTimes(const FrameStats& stats, double frameMs) {
    const PhaseTimes& p = stats.smoothedPhases;
    if (frameMs > 0.0)
        ImGui::Text("CPU %.1f ms/frame, %.0f fps", p.total(), 1000.0 / frameMs);
    else
        ImGui::Text("CPU %.1f ms/frame", p.total());
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::TextUnformatted("Main-thread CPU time per frame (smoothed):");
    ImGui::Text("  sim   %6.2f ms  physics steps and their record", p.sim);
    ImGui::Text("  UI    %6.2f ms  panels, plots, edits", p.ui);
    ImGui::Text("  draw  %6.2f ms  3D view: body instances, joint lines", p.draw);
    ImGui::Text("  GL    %6.2f ms  handing it all to OpenGL (the driver)", p.gl);
    ImGui::TextDisabled("Paused and untouched, JointLab draws nothing and waits for input.");
    ImGui::EndTooltip();
}

}  // namespace

void drawStatusBar(AppState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    const float height = state.layout.statusBarHeight;
    ImGui::SetNextWindowPos(ImVec2(0.0f, io.DisplaySize.y - height));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(px(8.0f), px(3.0f)));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status bar", nullptr, flags)) {
        const World* world = state.sim.world();
        const SimClock& clock = state.sim.clock;
        const double ms = state.stats.smoothedSeconds * 1000.0;
        if (state.sim.divergence())  // paused by a step that diverged (the message says which joint)
            ImGui::TextColored(kDivergedRed, "DIVERGED");
        else if (clock.playing)
            ImGui::TextColored(ImVec4(0.45f, 0.85f, 0.45f, 1.0f), "RUNNING");
        else
            ImGui::TextColored(ImVec4(1.0f, 0.65f, 0.25f, 1.0f), "PAUSED ");
        if (world) {
            ImGui::SameLine(0.0f, px(16.0f));
            ImGui::Text("sim time %.3f s", world->time());
            ImGui::SameLine(0.0f, px(16.0f));
            ImGui::Text("step %lld", static_cast<long long>(world->stepCount()));
            ImGui::SameLine(0.0f, px(16.0f));
            ImGui::Text("dt %.2f ms", world->scene().settings.dt * 1000.0);
        }
        ImGui::SameLine(0.0f, px(16.0f));
        frameTimes(state.stats, clock.playing ? ms : 0.0);
        if (clock.timeScale != 1.0) {
            ImGui::SameLine(0.0f, px(16.0f));
            ImGui::Text("speed %.2gx", clock.timeScale);
        }
        if (clock.behind) {
            ImGui::SameLine(0.0f, px(16.0f));
            ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "slower than real time");
        }
        if (const std::vector<std::string>& dropped = state.sim.droppedRowJoints(); !dropped.empty()) {
            ImGui::SameLine(0.0f, px(16.0f));
            ImGui::TextColored(ImVec4(1.0f, 0.65f, 0.25f, 1.0f), "rows dropped: joint '%s'%s",
                               dropped.front().c_str(), dropped.size() > 1 ? " and others" : "");
            if (ImGui::IsItemHovered()) {
                std::string names;
                for (const std::string& n : dropped) names += "\n  " + n;
                ImGui::SetTooltip(
                    "The solver dropped a row of these joints: its unit response J M^-1 J^T was under "
                    "%.0e,\nso the joint cannot move its bodies along it (both are immovable through their "
                    "motion type\nor the joint's mass scales). The joint does nothing along that row.%s",
                    World::minRowResponse(), names.c_str());
            }
        }
        if (!state.status.empty()) {
            // The message gets what the bar has left: cut at a word with "…", whole on hover.
            ImGui::SameLine(0.0f, px(24.0f));
            const std::string& whole = state.status.text();
            const std::string shown = fitOneLine(
                whole, ImGui::GetContentRegionAvail().x - ImGui::GetStyle().WindowPadding.x,
                [](std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; });
            if (state.status.isError())
                ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", shown.c_str());
            else
                ImGui::TextDisabled("%s", shown.c_str());
            if (shown != whole && ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
                ImGui::TextUnformatted(whole.c_str());
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
            }
        }
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
}

void drawDivergenceNotice(AppState& state) {
    const std::optional<Divergence>& d = state.sim.divergence();
    if (!state.divergencePopup || !d) {
        state.divergencePopup = false;
        return;
    }
    if (!ImGui::IsPopupOpen(kDivergedPopup)) ImGui::OpenPopup(kDivergedPopup);
    centerNextWindow(px(560.0f));
    if (!ImGui::BeginPopupModal(kDivergedPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDivergedRed, "%s.", d->message.c_str());
    ImGui::Spacing();
    ImGui::TextUnformatted(
        "The simulation is paused. The joint is selected: lower its stiffness or its mass scales, "
        "loosen its limits, or use a smaller time step, then press Play. Playing on unchanged will "
        "most likely stop at the same step again.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (okButton()) {
        state.divergencePopup = false;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace jl::app
