#include "render/gl_context.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdlib>

#include "render/gl.h"
#include "shell/screen_fit.h"

namespace jl::app {

namespace {

constexpr const char* kWhatToDo =
    "JointLab needs OpenGL 3.3 (core profile). Install or update the graphics driver, or use Mesa's\n"
    "software renderer (Debian: apt-get install libgl1-mesa-dri). Without a display, run it under a\n"
    "virtual one: xvfb-run -a jointlab ...  (the headless runner `jointlab run` needs no GL at all).";

std::string lastGlfwError() {
    const char* description = nullptr;
    int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR) return "no error reported";
    return description ? description : "unknown GLFW error";
}

/// Opens a hidden window with whatever context the driver gives by default and reports its
/// version and renderer, e.g. "3.1 Mesa 22.3.6 (llvmpipe)". Empty when no context at all.
std::string probeAvailableContext() {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow* probe = glfwCreateWindow(64, 64, "JointLab GL probe", nullptr, nullptr);
    if (!probe) return "";
    glfwMakeContextCurrent(probe);
    using GetString = const GLubyte* (*)(GLenum);
    auto getString = reinterpret_cast<GetString>(glfwGetProcAddress("glGetString"));
    std::string found;
    if (getString) {
        const GLubyte* version = getString(GL_VERSION);
        const GLubyte* renderer = getString(GL_RENDERER);
        found = version ? reinterpret_cast<const char*>(version) : "unknown version";
        if (renderer) found += std::string(" (") + reinterpret_cast<const char*>(renderer) + ")";
    }
    glfwMakeContextCurrent(nullptr);
    glfwDestroyWindow(probe);
    return found.empty() ? "a context of unknown version" : found;
}

/// The primary monitor's work area (the desktop minus panels and docks), or zero when unknown.
ScreenArea primaryWorkArea() {
    ScreenArea a;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
        glfwGetMonitorWorkarea(monitor, &a.x, &a.y, &a.width, &a.height);
    return a;
}

void describeMonitor(GLFWwindow* window, WindowInfo& info) {
    glfwGetWindowSize(window, &info.width, &info.height);
    float sx = 1.0f, sy = 1.0f;
    glfwGetWindowContentScale(window, &sx, &sy);
    info.contentScale = std::max(sx, sy);
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
        if (const GLFWvidmode* mode = glfwGetVideoMode(monitor); mode && mode->refreshRate > 0)
            info.refreshRate = mode->refreshRate;
}

}  // namespace

GLFWwindow* createMainWindow(const WindowRequest& request, WindowInfo& info, std::string& error) {
    if (!glfwInit()) {
        std::string reason = lastGlfwError();
        const char* display = std::getenv("DISPLAY");
        const char* wayland = std::getenv("WAYLAND_DISPLAY");
        error = "jointlab: cannot open a window: " + reason + "\n";
        if ((!display || !*display) && (!wayland || !*wayland))
            error += "No display is available (DISPLAY is not set).\n";
        error += kWhatToDo;
        return nullptr;
    }

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, request.visible ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SAMPLES, request.visible ? 4 : 0);
    const ScreenArea placed = request.fitToWorkArea
                                  ? fitWindowToWorkArea(primaryWorkArea(), request.width, request.height)
                                  : ScreenArea{0, 0, request.width, request.height};
    if (request.fitToWorkArea) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // shown once in place
    GLFWwindow* window = glfwCreateWindow(placed.width, placed.height, request.title, nullptr, nullptr);
    if (!window) {
        std::string reason = lastGlfwError();
        std::string found = probeAvailableContext();
        error = "jointlab: cannot create an OpenGL 3.3 core context: " + reason + "\n";
        error += found.empty() ? "No OpenGL context of any version could be created on this display.\n"
                               : "This machine offers OpenGL " + found + ".\n";
        error += kWhatToDo;
        glfwTerminate();
        return nullptr;
    }

    glfwMakeContextCurrent(window);
    int version = gladLoadGL(glfwGetProcAddress);
    if (version == 0 || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
        error = "jointlab: the OpenGL functions could not be loaded (got version " +
                std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                std::to_string(GLAD_VERSION_MINOR(version)) + ").\n" + kWhatToDo;
        glfwDestroyWindow(window);
        glfwTerminate();
        return nullptr;
    }
    glfwSwapInterval(1);
    if (request.fitToWorkArea && (placed.x != 0 || placed.y != 0))
        glfwSetWindowPos(window, placed.x, placed.y);
    if (request.fitToWorkArea && request.visible) glfwShowWindow(window);
    describeMonitor(window, info);
    return window;
}

void destroyMainWindow(GLFWwindow* window) {
    if (window) glfwDestroyWindow(window);
    glfwTerminate();
}

}  // namespace jl::app
