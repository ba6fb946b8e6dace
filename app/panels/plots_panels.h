// JointLab app — the Plots dock under the viewport and its tabs: Plots (plots_panel.cpp, the
// set-up editor in plot_editor.cpp), Rows (row_inspector_panel.cpp), Advisor (advisor_panel.cpp) and
// Lesson (lesson_panel.cpp). Internal to app/panels.
#pragma once

#include <string>
#include <vector>

#include "shell/app_state.h"

namespace jl::app {

/// The Plots tab: tool bar (add plot, time window, record and export) and the grid of plots.
void drawPlotsTab(AppState& state, UiRequests& requests);
/// The Rows tab: every row the selected joint produced in the last step.
void drawRowInspectorTab(AppState& state, UiRequests& requests);
/// Label of the Rows tab ("Rows of pivot").
std::string rowInspectorTabLabel(const AppState& state);

/// The advisor's warnings (jointlab/advisor.h) brought up to date with the scene and the run
/// (advisor_panel.cpp); called every frame, whatever tab is shown.
void updateAdvice(AppState& state);
/// The Advisor tab: each warning, its explanation and its one-click fixes (undoable edits).
void drawAdvisorTab(AppState& state, UiRequests& requests);
/// Applies the K-th fix (1-based) of the advisor's first warning through the editor (undoable),
/// as a click on its button does (--advisor-fix). "" in `error` and true, or the problem.
bool applyAdvisorFix(AppState& state, int k, std::string& error);
/// Label of the Advisor tab ("Advisor (2)").
std::string advisorTabLabel(const AppState& state);
/// The Lesson tab (lesson_panel.cpp): the scene's lesson one step at a time. Returns false (and
/// draws nothing) when the scene has no lesson.
bool drawLessonTab(AppState& state, UiRequests& requests);

// Plot set-up edits (plot_editor.cpp): each is one undoable edit of Scene::plots.

/// Replaces the plot set-up. `coalesceKey` non-empty: typing in one field is one undo step.
void requestPlots(UiRequests& requests, std::vector<PlotDesc> plots, std::string label,
                  std::string coalesceKey = "");
/// The "+" next to a row (Rows tab, Inspector): one click plots the row's impulse (adds it to the
/// plot of picked rows), a right-click its geometric error.
void rowPlotButton(const AppState& state, UiRequests& requests, const std::string& joint,
                   const char* rowLabel);
/// "+ Add plot" button and its menu of plot kinds.
void addPlotButton(const AppState& state, UiRequests& requests);
/// The popup editing plot `index` of `plots` (title, kind, joints, rows, scale, remove).
void plotEditorPopup(const AppState& state, UiRequests& requests, const std::vector<PlotDesc>& plots,
                     int index);
/// Name of the selected joint, or "" when no joint is selected.
std::string selectedJointName(const AppState& state);
/// Index of the selected joint, or -1.
int selectedJointIndex(const AppState& state);
/// The selected body's index, or -1 (contact plots with no bodies of their own follow it).
int selectedBodyIndex(const AppState& state);

}  // namespace jl::app
