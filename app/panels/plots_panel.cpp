// Plots tab: the scene's plot set-up (or the default one) drawn from the recorded telemetry in a
// grid, with a tool bar to add plots, choose the time window, size the record and export it.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "telemetry/plot_setup.h"
#include "telemetry/telemetry_export.h"
#include "telemetry/telemetry_plots.h"

namespace jl::app {

namespace {

constexpr float kGap = 6.0f;  // between plots [design px]

/// A file name for a plot image: jointlab-plot-<kind>-<date>-<time>.png in the working folder.
std::string imageName(const PlotDesc& p) {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    return std::string("jointlab-plot-") + kPlotKindNames[static_cast<int>(p.kind)] + "-" + stamp + ".png";
}

void recordAndExportPopup(AppState& state) {
    if (!ImGui::BeginPopup("##record")) return;
    PlotsPanelState& ps = state.plotsPanel;
    const Telemetry& t = state.sim.telemetry();
    float seconds = static_cast<float>(ps.recordSeconds);
    ImGui::SetNextItemWidth(px(200.0f));
    if (ImGui::SliderFloat("recorded window", &seconds, 1.0f, 60.0f, "%.0f s")) ps.recordSeconds = seconds;
    helpMarker(
        "How much simulated time the plots and the CSV export keep. Memory grows with the window "
        "and with the number of joint rows; a new length starts a fresh record.");
    ImGui::TextDisabled("holds %zu of %zu steps, %.1f MB", t.size(), t.capacity(),
                        t.memoryBytes() / 1048576.0);
    ImGui::Separator();
    ImGui::TextUnformatted("Export the recorded window as CSV");
    helpMarker(
        "One line per step per joint row: the same columns as `jointlab run --csv` (the row, its "
        "joint's force and torque against the break thresholds, the step's energy, errors and "
        "residuals). step_ms is the wall time the app measured for each step; the runner writes 0 "
        "there. The file is written to a temporary name and renamed, so it is never half written.");
    ImGui::SetNextItemWidth(px(300.0f));
    const bool enter = ImGui::InputText("##csv path", &ps.csvPath, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Save CSV") || enter) && state.sim.world()) {
        std::string error;
        if (exportTelemetryCsv(t, state.sim.world()->scene(), ps.csvPath, error)) {
            state.status.info("saved " + std::to_string(t.size()) + " steps of telemetry to " + ps.csvPath);
        } else {
            state.status.error(error);
        }
    }
    ImGui::EndPopup();
}

void toolbar(AppState& state, UiRequests& requests) {
    PlotsPanelState& ps = state.plotsPanel;
    const Telemetry& t = state.sim.telemetry();
    addPlotButton(state, requests);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("show last");
    ImGui::SameLine();
    float window = static_cast<float>(ps.windowSeconds);
    ImGui::SetNextItemWidth(px(130.0f));
    if (ImGui::SliderFloat("##window", &window, 0.5f, static_cast<float>(std::max(1.0, ps.recordSeconds)),
                           "%.1f s", ImGuiSliderFlags_Logarithmic))
        ps.windowSeconds = window;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("width of the moving time window of the time plots");
    ImGui::SameLine();
    if (ImGui::Button("Record / export...")) ImGui::OpenPopup("##record");
    recordAndExportPopup(state);
    ImGui::SameLine();
    ImGui::TextDisabled("%zu steps, %.1f MB", t.size(), t.memoryBytes() / 1048576.0);
    helpMarker(
        "Hover a plot to read values. Click a legend entry to hide or show its line. Right-click a "
        "plot: auto-fit or a fixed range, log scale, save as PNG. \"edit\" changes what a plot "
        "shows; the set-up is saved with the scenario.");
}

/// One plot cell: the plot, and its "edit" and "×" buttons over the top-right corner (left out
/// while it is drawn clean for a PNG).
void plotCell(AppState& state, UiRequests& requests, const std::vector<PlotDesc>& plots, int index,
              const PlotInputs& inputs, const ImVec2& size) {
    PlotsPanelState& ps = state.plotsPanel;
    const PlotDesc& desc = plots[static_cast<size_t>(index)];
    const bool clean = ps.image.plot == index && !ps.image.drawn;
    PlotInputs in = inputs;
    if (clean) in.flags |= plot::PlotFlags_NoReadout | plot::PlotFlags_NoMenu;
    bool logScale = desc.logScale;
    if (!drawTelemetryPlot(ps.plots.context(), std::to_string(index).c_str(), desc, in, size, &logScale))
        return;
    const plot::PlotResult& r = ps.plots.context().last;
    if (clean) {
        ps.image.drawn = true;
        ps.image.min = glm::vec2(r.frameMin.x, r.frameMin.y);
        ps.image.max = glm::vec2(r.frameMax.x, r.frameMax.y);
        return;
    }
    if (r.saveImageRequested) ps.image = PlotImageRequest{index, false, {}, {}, imageName(desc)};
    if (logScale != desc.logScale) {
        std::vector<PlotDesc> edited = plots;
        edited[static_cast<size_t>(index)].logScale = logScale;
        requestPlots(requests, std::move(edited), logScale ? "log scale" : "linear scale");
    }
    const float buttons = ImGui::CalcTextSize("edit").x + ImGui::CalcTextSize("\u00d7").x +
                          4.0f * ImGui::GetStyle().FramePadding.x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::SetCursorScreenPos(ImVec2(r.frameMax.x - buttons - 6.0f, r.frameMin.y + 4.0f));
    if (ImGui::SmallButton("edit")) ImGui::OpenPopup("##edit plot");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("what this plot shows: kind, joints, rows, scale");
    ImGui::SameLine();
    if (ImGui::SmallButton("\u00d7")) {
        std::vector<PlotDesc> edited = plots;
        edited.erase(edited.begin() + index);
        requestPlots(requests, std::move(edited), "remove plot");
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this plot");
    plotEditorPopup(state, requests, plots, index);
}

}  // namespace

void drawPlotsTab(AppState& state, UiRequests& requests) {
    const World* world = state.sim.world();
    if (!world) return;
    PlotsPanelState& ps = state.plotsPanel;
    const Telemetry& t = state.sim.telemetry();
    ps.windowSeconds = std::min(ps.windowSeconds, std::max(1.0, ps.recordSeconds));

    toolbar(state, requests);
    const std::vector<PlotDesc> plots = shownPlots(state.sim.scene());
    if (plots.empty()) {
        ImGui::TextDisabled(
            "No plots. \"+ Add plot\" adds one; \"+\" next to a row in the Rows tab plots that row.");
        return;
    }
    if (ps.image.plot >= static_cast<int>(plots.size())) ps.image = PlotImageRequest{};

    ImGui::BeginChild("##plot grid", ImVec2(0, 0), false);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int n = static_cast<int>(plots.size());
    const float gap = px(kGap);
    const PlotGrid grid = plotGrid(n, avail.x, avail.y, state.layout.scale, gap);
    const int columns = grid.columns, rows = grid.rows;
    const ImVec2 cell(grid.cellWidth, grid.cellHeight);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // The title stops px(8) short of the cell's "edit" and "×" buttons (measured as plotCell places
    // them: a space is narrower than ItemSpacing, which left 1 px at --scale 2).
    ps.plots.context().titleReserve = ImGui::CalcTextSize("edit").x + ImGui::CalcTextSize("\u00d7").x +
                                      4.0f * ImGui::GetStyle().FramePadding.x +
                                      ImGui::GetStyle().ItemSpacing.x + px(8.0f);
    PlotInputs inputs;
    inputs.telemetry = &t;
    inputs.world = world;
    inputs.convergence = &ps.convergence;
    inputs.selectedJoint = selectedJointIndex(state);
    inputs.selectedBody = selectedBodyIndex(state);
    inputs.windowSeconds = ps.windowSeconds;
    inputs.rowLabels = &ps.rowLabels;
    inputs.jointNames = &state.index.jointNames();
    // B of a compare, or the ghost of the branch left: dashed beside the live lines.
    const ShadowRun& shadow = state.sim.shadow();
    if (const World* other = shadow.world(); other && state.view.showShadowRun) {
        inputs.shadow = &shadow.telemetry();
        inputs.shadowScene = &other->scene();
        inputs.shadowTag = shadow.kind() == ShadowRun::Kind::Compare ? "B" : "ghost";
    }
    const ReferenceRecordView mujoco = state.reference.recordView();
    inputs.mujoco = &mujoco;
    for (int i = 0; i < n; ++i) {
        ImGui::SetCursorScreenPos(
            ImVec2(origin.x + (i % columns) * (cell.x + gap), origin.y + (i / columns) * (cell.y + gap)));
        ImGui::PushID(i);
        plotCell(state, requests, plots, i, inputs, cell);
        ImGui::PopID();
        // A plot just added may be below the fold: bring it into view.
        if (i == n - 1 && n > ps.shownPlots && ps.shownPlots > 0) ImGui::SetScrollHereY(1.0f);
    }
    ps.shownPlots = n;
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + rows * (cell.y + gap) - gap - 1.0f));
    ImGui::Dummy(ImVec2(1.0f, 1.0f));  // the grid's extent, for scrolling when the plots do not fit
    ImGui::EndChild();
}

}  // namespace jl::app
