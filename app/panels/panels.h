// JointLab app — the panels. Each reads the AppState and raises UiRequests; none owns simulation
// state. One file per panel. Dear ImGui 1.86 has no docking: panels sit at fixed places around the
// 3D viewport (left column: Scene above Simulation; right column: Inspector) and can be closed and
// reopened from the View menu, which gives their space back to the viewport.
#pragma once

#include <imgui.h>

#include <string>

#include "shell/app_state.h"
#include "viewport/viewport.h"

namespace jl::app {

/// Screen areas of this frame's panels, from which panels are open, the display size and the
/// Simulation panel's measured content height.
UiLayout computeLayout(const PanelVisibility& panels, const ImVec2& displaySize,
                       float simulationContentHeight);

void drawMainMenuBar(AppState& state, UiRequests& requests);
void drawStatusBar(AppState& state);
/// The "Simulation diverged" notice while state.divergencePopup is set (status_bar.cpp): the
/// World's message naming the joint, and OK.
void drawDivergenceNotice(AppState& state);
void drawScenePanel(AppState& state, UiRequests& requests);
void drawSimulationPanel(AppState& state, UiRequests& requests);
void drawInspectorPanel(AppState& state, UiRequests& requests);
/// The Plots dock under the viewport: live plots of the telemetry and the row inspector
/// (plots_dock.cpp). Sets layout.bottomHeight, so call it before taking the viewport rectangle.
void drawPlotsDock(AppState& state, UiRequests& requests);
void drawOpenDialog(AppState& state, UiRequests& requests);
/// Save As, the unsaved-changes prompt and the "cannot open / save" message (file_dialogs.cpp).
void drawFileDialogs(AppState& state, UiRequests& requests);
void drawHelpWindows(AppState& state);
/// The tool bar floating in the viewport's top-left corner (toolbar.cpp).
void drawViewportToolbar(AppState& state, const ScreenRect& rect, UiRequests& requests);

// Small shared widgets (widgets.cpp).

/// A "(?)" marker showing `text` as a tooltip on hover.
void helpMarker(const char* text);
/// A small heading with a rule under it.
void sectionHeader(const char* title);
/// Label in the first column of a two-column table row, formatted value in the second.
void propertyRow(const char* label, const char* format, ...) IM_FMTARGS(2);
/// Name of body `name` for display: "world" when empty.
const char* bodyDisplayName(const std::string& name);

}  // namespace jl::app
