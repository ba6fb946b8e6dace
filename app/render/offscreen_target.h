// JointLab app — an off-screen framebuffer (multisampled, with a resolve target) for screenshot
// mode: the frame is rendered at exactly the requested size whatever the window or screen size.
#pragma once

#include <string>

#include "render/gl.h"

namespace jl::app {

class OffscreenTarget {
public:
    OffscreenTarget() = default;
    ~OffscreenTarget();
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;

    /// Creates colour + depth attachments of width×height with `samples` MSAA samples (0 = none).
    bool create(int width, int height, int samples, std::string& error);
    void destroy();

    /// Binds the framebuffer that rendering goes to.
    void bindForDrawing() const;
    /// Resolves multisampling and leaves the resolved image bound as GL_READ_FRAMEBUFFER.
    void resolveForReading() const;

    int width() const { return width_; }
    int height() const { return height_; }

private:
    GLuint drawFbo_ = 0, colorRb_ = 0, depthRb_ = 0;
    GLuint resolveFbo_ = 0, resolveRb_ = 0;
    int width_ = 0, height_ = 0;
    int samples_ = 0;
};

}  // namespace jl::app
