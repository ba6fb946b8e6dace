// JointLab app — the panels. Each reads the AppState and raises UiRequests; none owns simulation
// state. One file per panel. Dear ImGui 1.86 has no docking: panels sit at fixed places around the
// 3D viewport (left column: Scene above Simulation; right column: Inspector) and can be closed and
// reopened from the View menu, which gives their space back to the viewport.
#pragma once

#include <imgui.h>

#include <string>

#include "plot/design_px.h"  // px(): design pixels to display pixels
#include "shell/app_state.h"
#include "viewport/viewport.h"

namespace jl::app {

/// This frame's layout (shell/layout.h) from the display size, the UI scale, the dragged edges
/// and the Solver panel's measured content height.
UiLayout computeFrameLayout(const AppState& state, const ImVec2& displaySize, float uiScale);

/// Save As's folder browser (folder_browser.cpp): Up, Home, the folders and .json files of the
/// folder of `path`; a click goes into a folder or takes a file's name, changing `path`.
void drawFolderBrowser(FolderBrowserState& browser, std::string& path);

/// The draggable edges of the side columns (splitters.cpp); the dock's top edge is in plots_dock.cpp.
void drawSplitters(AppState& state);

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
/// The scrub bar along the bottom of the viewport over the run's history (timeline.cpp): drag to
/// a step, the marks of what happened, the branches. Its height is timelineHeight().
void drawTimeline(AppState& state, const ScreenRect& rect, UiRequests& requests);
float timelineHeight();
/// The sweep viewer window while state.sweep.open (sweep_viewer.cpp).
void drawSweepViewer(AppState& state, UiRequests& requests);
/// Simulation > Compare…: the A/B compare window (panels/compare_panel.cpp).
void drawComparePanel(AppState& state, UiRequests& requests);
/// The plots dock's Reference tab (Simulation > Reference: MuJoCo): the matched settings, the
/// joints' coordinates in both engines and their divergence (panels/reference_panel.cpp).
void drawReferenceTab(AppState& state, UiRequests& requests);
/// Reads DIR/results.csv into the viewer and opens it; "" or the problem.
std::string openSweepViewer(AppState& state, const std::string& dir);
/// File > Export video: its dialog and, while an export runs, its progress bar with Cancel
/// (video_export_panel.cpp). openVideoExportDialog fills the range with the whole history.
void drawVideoExport(AppState& state, UiRequests& requests);
void openVideoExportDialog(AppState& state);
/// A warning marker on each joint the conditioning advisor warns about (advisor_panel.cpp).
void drawAdvisorMarkers(const AppState& state, const ScreenRect& rect);
/// The tool bar floating in the viewport's top-left corner (toolbar.cpp). Returns the rectangle it
/// covers [screen px] (ViewportCover, and the PAUSED badge keeps clear of it); empty when not drawn.
ScreenRect drawViewportToolbar(AppState& state, const ScreenRect& rect, UiRequests& requests);

// Small shared widgets (widgets.cpp).

/// A "(?)" marker showing `text` as a tooltip on hover.
void helpMarker(const char* text);
/// A small heading with a rule under it.
void sectionHeader(const char* title);
/// Label in the first column of a two-column table row, formatted value in the second.
void propertyRow(const char* label, const char* format, ...) IM_FMTARGS(2);
/// Name of body `name` for display: "world" when empty.
const char* bodyDisplayName(const std::string& name);

/// The next window centred on the display when it appears, `width` × `height` display px there
/// (0: as its content asks; both 0: its size left alone).
void centerNextWindow(float width = 0.0f, float height = 0.0f);
/// Esc went down this frame: a dialog's Cancel.
bool escapePressed();
/// A notice's OK button (120 design px), or Esc or Enter: true when the notice is dismissed.
bool okButton();
/// A dialog's Cancel button (`designWidth` design px), or Esc: true when the dialog is cancelled.
bool cancelButton(float designWidth = 120.0f);

/// Text wrapped where ImGui::TextWrapped would wrap it (the current PushTextWrapPos, else the
/// window's or cell's edge), but only at spaces between fields: a number keeps its unit, "C =
/// 1.2e-3 m" stays whole (shell/text_wrap.h). For any panel text that holds numbers.
void wrappedText(const char* format, ...) IM_FMTARGS(1);
void wrappedTextColored(const ImVec4& colour, const char* format, ...) IM_FMTARGS(2);
void wrappedTextDisabled(const char* format, ...) IM_FMTARGS(1);
/// The same for a ready string (no formatting: '%' is shown as it is).
void wrappedTextUnformatted(const std::string& text, const ImVec4* colour = nullptr);

}  // namespace jl::app
