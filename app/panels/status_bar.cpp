#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

void drawStatusBar(AppState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    const float height = state.layout.statusBarHeight;
    ImGui::SetNextWindowPos(ImVec2(0.0f, io.DisplaySize.y - height));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f, 3.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status bar", nullptr, flags)) {
        const World* world = state.sim.world();
        const SimClock& clock = state.sim.clock;
        const double ms = state.stats.smoothedSeconds * 1000.0;
        if (clock.playing)
            ImGui::TextColored(ImVec4(0.45f, 0.85f, 0.45f, 1.0f), "RUNNING");
        else
            ImGui::TextColored(ImVec4(1.0f, 0.65f, 0.25f, 1.0f), "PAUSED ");
        if (world) {
            ImGui::SameLine(0.0f, 16.0f);
            ImGui::Text("sim time %.3f s", world->time());
            ImGui::SameLine(0.0f, 16.0f);
            ImGui::Text("step %lld", static_cast<long long>(world->stepCount()));
            ImGui::SameLine(0.0f, 16.0f);
            ImGui::Text("dt %.2f ms", world->scene().settings.dt * 1000.0);
        }
        ImGui::SameLine(0.0f, 16.0f);
        ImGui::Text("frame %.1f ms (%.0f fps)", ms, ms > 0.0 ? 1000.0 / ms : 0.0);
        if (clock.timeScale != 1.0) {
            ImGui::SameLine(0.0f, 16.0f);
            ImGui::Text("speed %.2gx", clock.timeScale);
        }
        if (clock.behind) {
            ImGui::SameLine(0.0f, 16.0f);
            ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "slower than real time");
        }
        if (!state.message.empty()) {
            ImGui::SameLine(0.0f, 24.0f);
            if (state.messageIsError)
                ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", state.message.c_str());
            else
                ImGui::TextDisabled("%s", state.message.c_str());
        }
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
}

}  // namespace jl::app
