// JointLab app — what the left mouse button does in the viewport, per tool:
//
//   Select   click: select the joint whose anchor is under the mouse, else the body, else nothing;
//            drag a gizmo handle: move (W) or rotate (E) the selected body or joint frame, Ctrl snaps;
//            drag a dynamic body while the simulation runs: pull it through the mouse spring
//   Add box / sphere / capsule   click: a new body resting where the ray meets the ground or a body
//   Add joint   click the body to attach, then where it hangs from: another body, the ground, or the
//               air on the work plane (editor/joint_tool.h; Shift: the anchor on the first body,
//               Ctrl: keep the tool); what the second click makes is drawn under the mouse first
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

/// Duplicate of a body or joint (Ctrl+D, the menus): a body's copy starts at rest next to where the
/// body is now, to the right as the camera sees it.
Command duplicateCommand(const AppState& state, const Selection& what);

/// The tool's marks in the scene: the gizmo of the selection, the picked body A of the joint tool.
void drawToolOverlay(DebugDraw& lines, const AppState& state, const ScreenRect& rect);

}  // namespace jl::app
