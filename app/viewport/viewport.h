// JointLab app — the 3D viewport: the screen area left free by the panels, its mouse and keyboard
// controls, and its overlays.
//
//   right drag: orbit    middle drag (or shift + right drag): pan    wheel: zoom
//   left button: the current tool (viewport/viewport_tools.h): select, gizmo, mouse spring, add, joint
//   F: frame the selection or the whole scene    Space: play/pause    . or N: single step
//   R: reset    F12: save a screenshot    W / E: move / rotate gizmo    J: joint tool
//   Delete: delete the selection    Ctrl+D: duplicate    Esc: leave the tool, clear the selection
//   Ctrl+N/O/S (Shift: Save As), Ctrl+Z / Ctrl+Y (or Ctrl+Shift+Z): undo / redo
// Mouse input is taken only when Dear ImGui does not want it (io.WantCaptureMouse) and the mouse is
// over the viewport; keys only when ImGui does not want the keyboard (io.WantCaptureKeyboard).
#pragma once

#include <imgui.h>

#include "render/renderer.h"
#include "shell/app_state.h"

namespace jl::app {

/// The viewport in ImGui coordinates (pixels, origin top-left).
struct ScreenRect {
    ImVec2 min{0, 0};
    ImVec2 max{1, 1};
    float width() const { return max.x - min.x; }
    float height() const { return max.y - min.y; }
    bool contains(const ImVec2& p) const {
        return p.x >= min.x && p.y >= min.y && p.x < max.x && p.y < max.y;
    }
};

/// The area between the panels, from this frame's layout.
ScreenRect viewportScreenRect(const UiLayout& layout, const ImVec2& displaySize);

/// The same area in framebuffer pixels with GL's bottom-left origin.
PixelRect toFramebufferRect(const ScreenRect& rect, const ImVec2& displaySize,
                            const ImVec2& framebufferScale);

/// Camera controls and click-to-select inside the viewport.
void handleViewportMouse(AppState& state, const ScreenRect& rect, UiRequests& requests);

/// Global keyboard shortcuts (when no ImGui widget has keyboard focus).
void handleShortcuts(AppState& state, UiRequests& requests);

/// Orientation triad in the viewport's lower-left corner and a "paused" badge.
void drawViewportOverlay(const AppState& state, const ScreenRect& rect, const ScreenRect& toolbar);

}  // namespace jl::app
