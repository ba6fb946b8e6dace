// JointLab app — what the left mouse button does in the viewport, per tool:
//
//   Select   click: select the joint whose anchor is under the mouse, else the body, else nothing;
//            drag a gizmo handle: move (W) or rotate (E) the selected body or joint frame, Ctrl snaps;
//            drag a dynamic body while the simulation runs: pull it through the mouse spring
//   Add box / sphere / capsule   click: a new body resting where the ray meets the ground or a body
//   Add joint   click body A (the frame goes to the clicked point), then body B, or empty space for
//               the world; the axis follows the toolbar's choice
// After adding, the tool goes back to Select unless Shift is held (to add several).
#pragma once

#include "render/debug_draw.h"
#include "shell/app_state.h"
#include "viewport/viewport.h"

namespace jl::app {

/// Left-button handling for the current tool; camera controls stay in handleViewportMouse.
void handleViewportTools(AppState& state, const ScreenRect& rect, UiRequests& requests);

/// Where the gizmo of the current selection sits, and the pose it moves; false when none.
bool selectionGizmoFrame(const AppState& state, Transform& pose);

/// The tool's marks in the scene: the gizmo of the selection, the picked body A of the joint tool.
void drawToolOverlay(DebugDraw& lines, const AppState& state, const ScreenRect& rect);

}  // namespace jl::app
