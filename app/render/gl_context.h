// JointLab app — creating the window and its OpenGL 3.3 core context, or explaining why not.
#pragma once

#include <string>

struct GLFWwindow;

namespace jl::app {

struct WindowRequest {
    int width = 1600;
    int height = 900;
    bool visible = true;  ///< false in screenshot mode: nothing appears on screen
    const char* title = "JointLab";
};

/// Initialises GLFW, opens a window with an OpenGL 3.3 core context, makes it current and loads
/// the GL functions. On failure returns nullptr and sets `error` to a multi-line message that says
/// which OpenGL version (if any) this machine offers and what to do; GLFW is terminated then.
GLFWwindow* createMainWindow(const WindowRequest& request, std::string& error);

/// Destroys the window and terminates GLFW.
void destroyMainWindow(GLFWwindow* window);

}  // namespace jl::app
