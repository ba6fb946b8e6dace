// The App's videos: headless (`jointlab --video OUT ...`, `jointlab run ... --video OUT`) and
// File > Export video.
//
// Headless, the panels are closed (the Plots dock stays with --video-plots) and the off-screen
// frame is made as tall as the video plus the menu and status bars, so the picture between them,
// the viewport with its overlays and the timeline, is exactly the size asked for. The run steps
// `stride` steps per frame, as screenshot mode steps one.
//
// File > Export video replays the run's history instead: before each frame the simulation goes to
// the next step (Simulation::seekStep, every panel shows that step), and after the frame is drawn
// its viewport (and the dock) is read from the back buffer. At the end the run goes back to where
// it was.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "render/gl.h"
#include "shell/app.h"
#include "viewport/viewport.h"

namespace jl::app {

namespace {

std::vector<NamedFile> videoInputs(const Simulation& sim) {
    return {{"the scenario", sim.sourcePath()}};
}

}  // namespace

PixelRect App::videoRect(bool plots) const {
    const ImGuiIO& io = ImGui::GetIO();
    ScreenRect r = viewportScreenRect(state_.layout, io.DisplaySize);
    if (plots) r.max.y = io.DisplaySize.y - state_.layout.statusBarHeight;  // the dock under it too
    return toFramebufferRect(r, io.DisplaySize, io.DisplayFramebufferScale);
}

bool App::captureVideoFrame(const PixelRect& rect, std::string& error) {
    if (offscreen()) {
        offscreen_.resolveForReading();
    } else {  // the frame just drawn is still in the back buffer
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glReadBuffer(GL_BACK);
    }
    return video_.addFrame(readFramebuffer(rect.x, rect.y, rect.width, rect.height), error);
}

// [SECTION] Headless

int App::runVideo() {
    const VideoOptions& v = options_.video;
    const int videoWidth = width_, videoHeight = height_;
    state_.panels = PanelVisibility{};
    state_.panels.scene = state_.panels.inspector = state_.panels.simulation = false;
    state_.panels.plots = v.plots;
    SimClock& clock = state_.sim.clock;
    // Two frames without a step: the layout's bar heights are measured and the windows that size
    // themselves to their content (tool bar, timeline) have their size.
    clock.playing = false;
    frame();
    frame();
    const int menuBar = static_cast<int>(std::lround(state_.layout.menuBarHeight));
    const int statusBar = static_cast<int>(std::lround(state_.layout.statusBarHeight));
    height_ = videoHeight + menuBar + statusBar;
    std::string error;
    if (!offscreen_.create(width_, height_, 4, error)) {
        std::fprintf(stderr, "jointlab: --video: %s\n", error.c_str());
        return 1;
    }
    frame();  // the layout at the new height
    const PixelRect rect{0, statusBar, videoWidth, videoHeight};

    const double fps = videoFps(v, state_.sim.scene().settings.dt);
    if (!video_.open(v, videoWidth, videoHeight, fps, videoInputs(state_.sim), error)) {
        std::fprintf(stderr, "jointlab: --video: %s\n", error.c_str());
        return video_.missingFfmpeg() ? kExitNoFfmpeg : 1;
    }
    clock.playing = true;
    if (v.from > 0) {  // up to the first recorded step without drawing
        clock.fixedStepsPerFrame = static_cast<int>(v.from);
        state_.sim.advance(0.0);
    }
    clock.fixedStepsPerFrame = v.stride;
    const std::vector<int64_t> steps = videoFrameSteps(v.from, v.to, v.stride);
    for (size_t k = 0; k < steps.size(); ++k) {
        frame();
        if (!captureVideoFrame(rect, error)) {
            video_.abandon();
            std::fprintf(stderr, "jointlab: --video: %s\n", error.c_str());
            return 1;
        }
    }
    const int frames = video_.frames();
    if (!video_.finish(error)) {
        std::fprintf(stderr, "jointlab: --video: %s\n", error.c_str());
        return 1;
    }
    if (const auto& d = state_.sim.divergence())
        std::fprintf(stderr,
                     "jointlab: warning: the run diverged and stopped: %s (the frames after it repeat)\n",
                     d->message.c_str());
    std::printf("jointlab: wrote %s (%dx%d, %d frames at %g fps: steps %lld to %lld, every %d)\n",
                v.path.c_str(), videoWidth, videoHeight, frames, fps,
                static_cast<long long>(v.from + v.stride), static_cast<long long>(steps.back()), v.stride);
    return 0;
}

// [SECTION] File > Export video

void App::applyVideoExportRequests(const UiRequests& requests) {
    VideoExportState& x = state_.videoExport;
    if (requests.cancelVideoExport && x.running) endVideoExport(true, "");
    if (!requests.startVideoExport || x.running) return;
    const History& history = state_.sim.history();
    VideoOptions v;
    v.path = x.path;
    v.format = videoFormatOf(x.path);
    v.fps = x.fps;
    v.from = x.from;
    v.to = x.to;
    v.stride = x.stride;
    v.plots = x.plots;
    x.message.clear();
    if (v.format == VideoFormat::None) {
        x.message = "The file must end in .mp4 or .gif, or be a folder ending in '/'.";
        return;
    }
    if (!history.started() || v.from < history.firstStep() || v.to > history.lastStep() || v.from >= v.to) {
        x.message = "The steps must lie in the history, " + std::to_string(history.firstStep()) + " to " +
                    std::to_string(history.lastStep()) + ", from before to.";
        return;
    }
    if (std::string e = checkVideoOptions(v, v.to); !e.empty()) {
        x.message = e;
        return;
    }
    const PixelRect rect = videoRect(v.plots);
    std::string error;
    const World* world = state_.sim.world();
    const double fps = videoFps(v, state_.sim.scene().settings.dt);
    if (!video_.open(v, rect.width, rect.height, fps, videoInputs(state_.sim), error)) {
        x.message = error;
        return;
    }
    x.steps = videoFrameSteps(v.from, v.to, v.stride);
    x.next = 0;
    x.width = rect.width;
    x.height = rect.height;
    x.returnStep = world ? world->stepCount() : history.lastStep();
    x.returnPlaying = state_.sim.clock.playing;
    x.returnScrubbed = state_.sim.scrubbed();
    x.running = true;
    x.dialogOpen = false;
}

void App::prepareVideoExportFrame() {
    const VideoExportState& x = state_.videoExport;
    if (x.next < x.steps.size()) state_.sim.seekStep(x.steps[x.next]);
}

void App::captureVideoExportFrame() {
    VideoExportState& x = state_.videoExport;
    const PixelRect rect = videoRect(x.plots);
    if (rect.width != x.width || rect.height != x.height) {
        endVideoExport(false, "the viewport changed size during the export (" + std::to_string(x.width) +
                                  "x" + std::to_string(x.height) + " to " + std::to_string(rect.width) + "x" +
                                  std::to_string(rect.height) + "); nothing was written");
        return;
    }
    std::string error;
    if (!captureVideoFrame(rect, error)) {
        endVideoExport(false, error);
        return;
    }
    if (++x.next == x.steps.size()) endVideoExport(false, "");
}

void App::endVideoExport(bool cancelled, const std::string& error) {
    VideoExportState& x = state_.videoExport;
    x.running = false;
    const bool folder = videoFormatOf(x.path) == VideoFormat::PngFolder;
    std::string finishError = error;
    if (cancelled || !error.empty())
        video_.abandon();
    else
        video_.finish(finishError);
    // Back to where the run was: its step, and playing on if it was.
    state_.sim.seekStep(x.returnStep);
    state_.sim.clock.playing = x.returnPlaying && !x.returnScrubbed;
    if (cancelled) {
        x.message =
            folder ? "Export cancelled; the " + std::to_string(x.next) + " frames written stay in " + x.path
                   : "Export cancelled; nothing was written.";
        setMessage("video export cancelled", false);
    } else if (!finishError.empty()) {
        x.message = finishError;
        setMessage("video export failed: " + finishError, true);
    } else {
        x.message = "Wrote " + x.path + " (" + std::to_string(x.steps.size()) + " frames, " +
                    std::to_string(x.width) + "x" + std::to_string(x.height) + ").";
        setMessage("wrote " + x.path + " (" + std::to_string(x.steps.size()) + " frames)", false);
    }
    x.dialogOpen = true;  // the dialog says what happened
}

}  // namespace jl::app
