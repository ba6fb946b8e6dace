// JointLab app — noticing input while the loop sleeps (shell/app_loop.cpp).
#pragma once

struct GLFWwindow;

namespace jl::app {

/// Installs GLFW callbacks that note any input or window event (Dear ImGui's backend, initialised
/// afterwards, chains its own to them), so that a sleeping loop knows a frame is worth drawing.
void installInputWatch(GLFWwindow* window);

/// True (once) when an event arrived since the last call.
bool takeInputEvent();

}  // namespace jl::app
