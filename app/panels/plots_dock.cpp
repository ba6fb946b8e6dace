// The Plots dock: a panel under the 3D viewport, between the side columns, with two tabs (Plots,
// Rows). Its top edge can be dragged to give the plots or the viewport more room.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "panels/inside_panels.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "panels/side_window.h"

namespace jl::app {

namespace {
constexpr float kGripHeight = 5.0f;  ///< [design px]

/// A thin bar along the top edge that resizes the dock when dragged.
void resizeGrip(AppState& state, float column) {
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##resize dock",
                           ImVec2(std::max(1.0f, ImGui::GetContentRegionAvail().x), px(kGripHeight)));
    const bool active = ImGui::IsItemActive();
    if (ImGui::IsItemHovered() || active) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
        ImGui::GetWindowDrawList()->AddLine(ImVec2(start.x, start.y + 2),
                                            ImVec2(start.x + ImGui::GetItemRectSize().x, start.y + 2),
                                            ImGui::GetColorU32(ImGuiCol_SeparatorHovered), px(2.0f));
    }
    if (active) {  // from the share shown (raised while the Step tab is in front)
        LayoutPrefs shown = state.layoutPrefs;
        shown.dockShare = dockShareFor(shown, state.teach.stepTabInFront);
        state.layoutPrefs = dragDockEdge(shown, ImGui::GetIO().MouseDelta.y, column);
    }
}
}  // namespace

void drawPlotsDock(AppState& state, UiRequests& requests) {
    // Every frame, whatever is on screen: a solver switch made while the plots are hidden must
    // still leave the previous solver's convergence curve to compare with.
    PlotsPanelState& ps = state.plotsPanel;
    if (ps.telemetryLayout != state.sim.telemetryLayout()) {  // joints renumbered: labels by index start over
        ps.rowLabels.clear();
        ps.telemetryLayout = state.sim.telemetryLayout();
    }
    if (const World* world = state.sim.world()) {
        const Telemetry& t = state.sim.telemetry();
        if (const StepInspector* ins = state.stepper.inspector.get())  // stepping: sweep by sweep
            state.plotsPanel.convergence.showSweeps(
                ins->residualsSoFar(), ins->stepped().scene().settings.solver,
                ins->stepped().scene().settings.posIters, ins->fromStep() + 1);
        else if (t.size() == 0 && world->stepCount() == 0)
            state.plotsPanel.convergence.clear();  // a new or reset scene
        else if (t.size() > 0 && world->stepCount() < t.latest().step)
            state.plotsPanel.convergence.update(*world);  // gone back on the timeline: that step's sweeps
        else
            state.plotsPanel.convergence.update(t, world->scene().settings.solver,
                                                world->scene().settings.posIters);
    }
    updateAdvice(state);
    const UiLayout& l = state.layout;
    if (!state.panels.plots || l.bottomHeight <= 0.0f) return;  // closed, or no room (shell/layout.h)
    const ImGuiIO& io = ImGui::GetIO();
    const float column = io.DisplaySize.y - l.menuBarHeight - l.statusBarHeight;
    const float width = io.DisplaySize.x - l.leftWidth - l.rightWidth;
    const float height = l.bottomHeight;

    pinNextWindow(l.leftWidth, io.DisplaySize.y - l.statusBarHeight - height, width, height);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(px(8.0f), px(2.0f)));
    const bool open = ImGui::Begin("Plots##dock", nullptr, kPinnedPanelFlags | ImGuiWindowFlags_NoTitleBar);
    ImGui::PopStyleVar();
    if (open) {
        resizeGrip(state, column);
        if (ImGui::BeginTabBar("##dock tabs")) {
            const DockTab want = std::exchange(state.teach.requestTab, DockTab::None);
            auto flags = [&](DockTab tab) { return want == tab ? ImGuiTabItemFlags_SetSelected : 0; };
            if (ImGui::BeginTabItem("Plots", nullptr, flags(DockTab::Plots))) {
                drawPlotsTab(state, requests);
                ImGui::EndTabItem();
            }
            const std::string rows = rowInspectorTabLabel(state) + "###rows";
            if (ImGui::BeginTabItem(rows.c_str(), nullptr, flags(DockTab::Rows))) {
                drawRowInspectorTab(state, requests);
                ImGui::EndTabItem();
            }
            state.teach.stepTabInFront = false;
            if (ImGui::BeginTabItem("Step", nullptr, flags(DockTab::Step))) {
                state.teach.stepTabInFront = true;
                drawStepTab(state, requests);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Drive tuner", nullptr, flags(DockTab::Tuner))) {
                drawDriveTunerTab(state, requests);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem(advisorTabLabel(state).c_str(), nullptr, flags(DockTab::Advisor))) {
                drawAdvisorTab(state, requests);
                ImGui::EndTabItem();
            }
            if (!state.sim.scene().lesson.empty() &&
                ImGui::BeginTabItem("Lesson###lesson", nullptr, flags(DockTab::Lesson))) {
                drawLessonTab(state, requests);
                ImGui::EndTabItem();
            }
            if (state.reference.enabled() &&
                ImGui::BeginTabItem("Reference: MuJoCo###reference", nullptr, flags(DockTab::Reference))) {
                drawReferenceTab(state, requests);
                ImGui::EndTabItem();
            }
            if (ImGui::TabItemButton("\u00d7", ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip))
                state.panels.plots = false;
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("close the plots (View > Plots opens them again)");
            ImGui::EndTabBar();
        }
    }
    ImGui::End();
}

}  // namespace jl::app
