// The sweep viewer: a sweep's results.csv drawn as `jointlab sweep-plot` draws it (plot/sweep_plot.h),
// in a window of the app. Hovering a heat-map cell shows the run's values and metrics; a click writes
// the run's scenario (DIR/run-K.json: the sweep's scenario with the run's values, runner/sweep.h)
// and opens it through File > Open, with its unsaved-changes prompt.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <fstream>
#include <sstream>

#include "panels/panels.h"
#include "plot/sweep_plot.h"
#include "runner/sweep.h"

namespace jl::app {

std::string openSweepViewer(AppState& state, const std::string& dir) {
    const std::string path = dir + "/results.csv";
    std::ifstream in(path, std::ios::binary);
    if (!in) return path + ": cannot read";
    std::stringstream text;
    text << in.rdbuf();
    auto table = std::make_shared<plot::SweepTable>();
    if (std::string e = plot::parseSweepTable(text.str(), *table); !e.empty()) return path + ": " + e;
    if (table->metrics.empty()) return path + ": no metric columns";
    SweepViewerState& v = state.sweep;
    v.dir = dir;
    v.table = std::move(table);
    v.metric = 0;
    v.message.clear();
    v.open = true;
    return "";
}

/// File > Open sweep results…: the sweep's folder (what `jointlab sweep --out DIR` wrote).
void drawSweepOpenDialog(AppState& state) {
    SweepViewerState& v = state.sweep;
    constexpr const char* kTitle = "Open sweep results";
    if (v.openDialogRequested) {
        v.openDialogRequested = false;
        if (v.pathInput.empty()) v.pathInput = v.dir;
        v.openError.clear();
        ImGui::OpenPopup(kTitle);
    }
    ImGui::SetNextWindowSize(ImVec2(px(520), 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("The folder a sweep wrote (jointlab sweep SPEC.json --out DIR):");
    ImGui::SetNextItemWidth(px(480));
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##sweep dir", &v.pathInput, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!v.openError.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", v.openError.c_str());
    if (ImGui::Button("Open") || enter) {
        v.openError = openSweepViewer(state, v.pathInput);  // "" = opened
        if (v.openError.empty()) ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || escapePressed()) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void drawSweepViewer(AppState& state, UiRequests& requests) {
    drawSweepOpenDialog(state);
    SweepViewerState& v = state.sweep;
    if (!v.open || !v.table) return;
    const plot::SweepTable& t = *v.table;
    ImGui::SetNextWindowSize(ImVec2(px(760), px(540)), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowPos(ImVec2(px(330), px(115)), ImGuiCond_FirstUseEver);  // below the viewport toolbar
    const std::string title = "Sweep results: " + v.dir + "###sweep viewer";
    if (!ImGui::Begin(title.c_str(), &v.open)) {
        ImGui::End();
        return;
    }
    ImGui::SetNextItemWidth(px(200));
    if (ImGui::BeginCombo("metric", t.metrics[static_cast<size_t>(v.metric)].c_str())) {
        for (size_t m = 0; m < t.metrics.size(); ++m)
            if (ImGui::Selectable(t.metrics[m].c_str(), static_cast<int>(m) == v.metric))
                v.metric = static_cast<int>(m);
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%zu runs; click a cell to open its run", t.rows.size());
    if (!v.message.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", v.message.c_str());
    int hovered = -1;
    const std::string error = plot::drawSweepPlotHere(t, t.metrics[static_cast<size_t>(v.metric)],
                                                      ImGui::GetContentRegionAvail(), hovered);
    if (!error.empty()) ImGui::TextWrapped("%s", error.c_str());
    if (hovered >= 0) {
        const plot::SweepTable::Row& r = t.rows[static_cast<size_t>(hovered)];
        ImGui::BeginTooltip();
        ImGui::Text("run %lld (%s)", static_cast<long long>(r.run), r.status.c_str());
        for (size_t p = 0; p < t.parameters.size(); ++p)
            ImGui::Text("%s = %s", t.parameters[p].c_str(), r.values[p].c_str());
        ImGui::Separator();
        for (size_t m = 0; m < t.metrics.size(); ++m)
            ImGui::Text("%s = %.6g", t.metrics[m].c_str(), r.metrics[m]);
        ImGui::TextDisabled("click: open this run in the editor");
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            std::string path, why;
            if (runner::writeRunScenario(v.dir, r.run, path, why)) {
                requests.openPath = path;
                v.message.clear();
            } else {
                v.message = why;
            }
        }
    }
    ImGui::End();
}

}  // namespace jl::app
