// JointLab app — creating the window and its OpenGL 3.3 core context, or explaining why not.
#pragma once

#include <string>

struct GLFWwindow;

namespace jl::app {

struct WindowRequest {
    int width = 1600;
    int height = 900;
    bool visible = true;  ///< false in screenshot mode: nothing appears on screen
    /// Shrink the size to the primary monitor's work area and centre the window there
    /// (shell/screen_fit.h); off for screenshots, which have exactly the size asked for.
    bool fitToWorkArea = false;
    const char* title = "JointLab";
};

/// What the window got.
struct WindowInfo {
    int width = 0, height = 0;  ///< window size [screen coordinates]
    float contentScale = 1.0f;  ///< the monitor's content scale (HiDPI: 2)
    double refreshRate = 60.0;  ///< the monitor's refresh rate [Hz] (60 when it does not say)
};

/// Initialises GLFW, opens a window with an OpenGL 3.3 core context, makes it current and loads
/// the GL functions. On failure returns nullptr and sets `error` to a multi-line message that says
/// which OpenGL version (if any) this machine offers and what to do; GLFW is terminated then.
GLFWwindow* createMainWindow(const WindowRequest& request, WindowInfo& info, std::string& error);

/// Destroys the window and terminates GLFW.
void destroyMainWindow(GLFWwindow* window);

}  // namespace jl::app
