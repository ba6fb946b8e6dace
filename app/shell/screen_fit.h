// JointLab app — fitting the window to the monitor: its size on start and the UI scale. No GLFW
// here (the App asks GLFW for the work area and the content scale), so it is unit-tested.
#pragma once

namespace jl::app {

/// A rectangle of the desktop in screen coordinates (GLFW's monitor work area: the monitor minus
/// task bars and docks).
struct ScreenArea {
    int x = 0, y = 0, width = 0, height = 0;
};

/// The window a start asks for: `wanted` (the remembered size, else the default) shrunk to fit
/// `workArea` less a margin for the window's frame, keeping at least 640 × 400 (or the whole
/// work area if it is smaller), centred in the work area. A work area of size 0 (unknown)
/// leaves `wanted` as it is.
ScreenArea fitWindowToWorkArea(const ScreenArea& workArea, int wantedWidth, int wantedHeight);

/// The UI scale: `requested` (--scale) when > 0, else the monitor's content scale; kept within
/// [0.75, 4] and rounded to a quarter, so that fonts stay crisp.
float chooseUiScale(float requested, float contentScale);

}  // namespace jl::app
