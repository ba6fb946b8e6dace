// JointLab app — the end of a frame for the Plots dock: a plot chosen for "Save as PNG" was drawn
// clean this frame, so its pixels are read back from the rendered frame and written as PNG; and
// a new length of the telemetry record is handed to the Simulation, between steps.
#pragma once

#include <functional>

#include "shell/app_state.h"

namespace jl::app {

/// Call after the frame's ImGui draw data is rendered. `bindReadBuffer` makes the rendered frame
/// the GL read framebuffer (the back buffer, or the resolved off-screen target); it is only called
/// when a plot image is due. Reports the saved file or the failure in the status bar message.
void finishPlotsFrame(AppState& state, const std::function<void()>& bindReadBuffer);

}  // namespace jl::app
