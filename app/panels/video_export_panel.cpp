// File > Export video: the dialog (where to, which steps of the run's history, how fast, with or
// without the plots) and, while the export runs, a progress bar with Cancel over the status bar.
// The progress window is a modal popup, so nothing can be edited while the history is being
// replayed, and it sits outside the recorded area (the viewport, and the dock under it).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "panels/panels.h"
#include "runner/video_options.h"

namespace jl::app {

namespace {

const char* formatName(VideoFormat f) {
    switch (f) {
        case VideoFormat::Mp4:
            return "MP4 (H.264)";
        case VideoFormat::Gif:
            return "animated GIF";
        case VideoFormat::PngFolder:
            return "a folder of PNG frames";
        case VideoFormat::None:
            break;
    }
    return "unknown: end the name in .mp4, .gif or /";
}

void drawDialog(AppState& state, UiRequests& requests) {
    VideoExportState& v = state.videoExport;
    const History& history = state.sim.history();
    ImGui::SetNextWindowSize(ImVec2(px(470), 0.0f), ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::Begin("Export video", &v.dialogOpen, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ImGui::TextWrapped("Records steps of this run's history (the timeline) as the viewport shows them.");
    ImGui::SetNextItemWidth(px(300));
    ImGui::InputText("file", &v.path);
    ImGui::SameLine();
    helpMarker(
        "NAME.mp4 (H.264, through ffmpeg), NAME.gif (through ffmpeg), or FOLDER/ for numbered\n"
        "PNG frames (a new or empty folder). Existing files are never inputs: the scenario is\n"
        "refused as a name.");
    ImGui::TextDisabled("format: %s", formatName(videoFormatOf(v.path)));
    const int64_t first = history.firstStep(), last = history.lastStep();
    const int64_t stepOne = 1;
    ImGui::SetNextItemWidth(px(120));
    ImGui::InputScalar("from step", ImGuiDataType_S64, &v.from, &stepOne);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(px(120));
    ImGui::InputScalar("to step", ImGuiDataType_S64, &v.to, &stepOne);
    v.from = std::clamp(v.from, first, last);
    v.to = std::clamp(v.to, first, last);
    ImGui::TextDisabled("the history holds steps %lld to %lld", static_cast<long long>(first),
                        static_cast<long long>(last));
    ImGui::SetNextItemWidth(px(120));
    ImGui::InputInt("steps per frame", &v.stride);
    v.stride = std::clamp(v.stride, 1, kMaxVideoStride);
    ImGui::SetNextItemWidth(px(120));
    ImGui::InputDouble("frames per second", &v.fps, 1.0, 10.0, "%.0f");
    v.fps = std::clamp(v.fps, 0.0, kMaxVideoFps);
    ImGui::SameLine();
    helpMarker("0 = real time: 1 / (dt x steps per frame), rounded.");
    ImGui::Checkbox("with the plots under the viewport", &v.plots);
    const size_t frames = videoFrameSteps(v.from, v.to, v.stride).size();
    ImGui::Text("%zu frames, after steps %lld + k x %d", frames, static_cast<long long>(v.from), v.stride);
    if (!v.message.empty()) ImGui::TextWrapped("%s", v.message.c_str());
    ImGui::BeginDisabled(frames == 0);
    if (ImGui::Button("Export")) requests.startVideoExport = true;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Close")) v.dialogOpen = false;
    ImGui::End();
}

/// The progress bar with Cancel, in a modal popup laid over the status bar. The modal's dimming
/// of the rest would be recorded, so it is made transparent while an export runs.
void drawProgress(AppState& state, UiRequests& requests) {
    VideoExportState& v = state.videoExport;
    static float savedDimAlpha = -1.0f;
    ImVec4& dim = ImGui::GetStyle().Colors[ImGuiCol_ModalWindowDimBg];
    if (!v.running) {
        if (savedDimAlpha >= 0.0f) dim.w = savedDimAlpha, savedDimAlpha = -1.0f;
        return;
    }
    if (savedDimAlpha < 0.0f) savedDimAlpha = dim.w, dim.w = 0.0f;
    const ImGuiIO& io = ImGui::GetIO();
    const float height = state.layout.statusBarHeight;
    ImGui::SetNextWindowPos(ImVec2(0.0f, io.DisplaySize.y - height));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height));
    if (!ImGui::IsPopupOpen("##video export progress")) ImGui::OpenPopup("##video export progress");
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(px(8.0f), px(1.0f)));
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::BeginPopupModal("##video export progress", nullptr, flags)) {
        const size_t total = v.steps.size();
        ImGui::AlignTextToFramePadding();
        ImGui::Text("Exporting %s", v.path.c_str());
        ImGui::SameLine();
        const std::string label = std::to_string(v.next) + " / " + std::to_string(total) + " frames";
        ImGui::ProgressBar(total ? static_cast<float>(v.next) / static_cast<float>(total) : 0.0f,
                           ImVec2(px(260), 0.0f), label.c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel") || escapePressed()) requests.cancelVideoExport = true;
        ImGui::EndPopup();
    }
    ImGui::PopStyleVar();
}

}  // namespace

void openVideoExportDialog(AppState& state) {
    VideoExportState& v = state.videoExport;
    const History& history = state.sim.history();
    v.from = history.firstStep();
    v.to = history.lastStep();
    v.message.clear();
    v.dialogOpen = true;
}

void drawVideoExport(AppState& state, UiRequests& requests) {
    if (state.videoExport.dialogOpen && !state.videoExport.running) drawDialog(state, requests);
    drawProgress(state, requests);
}

}  // namespace jl::app
