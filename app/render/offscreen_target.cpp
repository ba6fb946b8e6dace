#include "render/offscreen_target.h"

#include <algorithm>

namespace jl::app {

OffscreenTarget::~OffscreenTarget() {
    destroy();
}

bool OffscreenTarget::create(int width, int height, int samples, std::string& error) {
    destroy();
    GLint maxSamples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
    samples_ = std::clamp(samples, 0, static_cast<int>(maxSamples));
    width_ = width;
    height_ = height;

    glGenFramebuffers(1, &drawFbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, drawFbo_);
    glGenRenderbuffers(1, &colorRb_);
    glBindRenderbuffer(GL_RENDERBUFFER, colorRb_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colorRb_);
    glGenRenderbuffers(1, &depthRb_);
    glBindRenderbuffer(GL_RENDERBUFFER, depthRb_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH24_STENCIL8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depthRb_);
    bool drawComplete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;

    glGenFramebuffers(1, &resolveFbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, resolveFbo_);
    glGenRenderbuffers(1, &resolveRb_);
    glBindRenderbuffer(GL_RENDERBUFFER, resolveRb_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolveRb_);
    bool resolveComplete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;

    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!drawComplete || !resolveComplete) {
        error = "off-screen framebuffer of " + std::to_string(width) + "x" + std::to_string(height) +
                " is incomplete (size too large for this GL implementation?)";
        destroy();
        return false;
    }
    return true;
}

void OffscreenTarget::destroy() {
    GLuint fbos[] = {drawFbo_, resolveFbo_};
    GLuint rbs[] = {colorRb_, depthRb_, resolveRb_};
    if (drawFbo_ || resolveFbo_) glDeleteFramebuffers(2, fbos);
    if (colorRb_ || depthRb_ || resolveRb_) glDeleteRenderbuffers(3, rbs);
    drawFbo_ = colorRb_ = depthRb_ = resolveFbo_ = resolveRb_ = 0;
}

void OffscreenTarget::bindForDrawing() const {
    glBindFramebuffer(GL_FRAMEBUFFER, drawFbo_);
}

void OffscreenTarget::resolveForReading() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, drawFbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolveFbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, resolveFbo_);
}

}  // namespace jl::app
