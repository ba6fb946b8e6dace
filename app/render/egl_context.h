// JointLab app — an OpenGL context without any display: EGL on Mesa's surfaceless platform
// (EGL_MESA_platform_surfaceless), for screenshot and video mode on a machine with no X server.
// There is no window and no default framebuffer: everything is drawn into an OffscreenTarget.
#pragma once

#include <string>

namespace jl::app {

class EglContext {
public:
    EglContext() = default;
    ~EglContext() { destroy(); }
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    /// Creates an OpenGL 3.3 core context on the surfaceless platform, makes it current (without
    /// a surface: EGL_KHR_surfaceless_context) and loads the GL functions. On failure returns false
    /// and sets `error` to one line saying which step failed.
    bool create(std::string& error);
    void destroy();
    bool valid() const { return context_ != nullptr; }

private:
    void* display_ = nullptr;  ///< EGLDisplay
    void* context_ = nullptr;  ///< EGLContext
};

}  // namespace jl::app
