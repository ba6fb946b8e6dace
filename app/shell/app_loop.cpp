// The App's loops: on screen (drawing only when something can have changed), screenshot mode and
// the frame benchmark.
//
// Quiet when idle: while the simulation is paused and nobody touches anything, the loop sleeps in
// glfwWaitEventsTimeout and draws nothing. An input event wakes it; it then draws a few frames
// (kSettleFrames: hover highlights, opened popups and tooltips appear a frame after the event)
// and sleeps again. While something moves (the simulation runs, a single step is pending, a drag
// or a slider is held, a plot PNG is being saved) it draws at the monitor's refresh rate, waiting
// out the rest of each frame's period even where the driver does not wait for vertical sync (a
// virtual display, some compositors).
#include "shell/app_loop.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <signal.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <vector>

#include "jointlab/compare.h"
#include "render/gl.h"
#include "render/plot_image.h"
#include "shell/app.h"

namespace jl::app {

namespace {

constexpr int kSettleFrames = 3;          ///< frames drawn after each input event
constexpr double kIdleWakeSeconds = 1.0;  ///< a sleeping loop still looks at the autosave this often

volatile std::sig_atomic_t gQuitRequested = 0;
void requestQuit(int) {
    gQuitRequested = 1;
}

bool gInputSeen = false;

void noteInput(GLFWwindow*) {
    gInputSeen = true;
}
void onCursor(GLFWwindow* w, double, double) {
    noteInput(w);
}
void onButton(GLFWwindow* w, int, int, int) {
    noteInput(w);
}
void onScroll(GLFWwindow* w, double, double) {
    noteInput(w);
}
void onKey(GLFWwindow* w, int, int, int, int) {
    noteInput(w);
}
void onChar(GLFWwindow* w, unsigned int) {
    noteInput(w);
}
void onSize(GLFWwindow* w, int, int) {
    noteInput(w);
}
void onFlag(GLFWwindow* w, int) {
    noteInput(w);
}
void onDrop(GLFWwindow* w, int, const char**) {
    noteInput(w);
}

}  // namespace

void installInputWatch(GLFWwindow* window) {
    glfwSetCursorPosCallback(window, onCursor);
    glfwSetMouseButtonCallback(window, onButton);
    glfwSetScrollCallback(window, onScroll);
    glfwSetKeyCallback(window, onKey);
    glfwSetCharCallback(window, onChar);
    glfwSetFramebufferSizeCallback(window, onSize);
    glfwSetWindowFocusCallback(window, onFlag);
    glfwSetCursorEnterCallback(window, onFlag);
    glfwSetWindowRefreshCallback(window, noteInput);
    glfwSetDropCallback(window, onDrop);
}

bool takeInputEvent() {
    const bool seen = gInputSeen;
    gInputSeen = false;
    return seen;
}

// [SECTION] On screen

bool App::animating() const {
    const SimClock& clock = state_.sim.clock;
    if (clock.playing || clock.pendingSingleSteps > 0 || state_.sim.drag || state_.tools.gizmoDrag)
        return true;
    if (state_.plotsPanel.image.plot >= 0) return true;  // a plot PNG is drawn clean, then read back
    if (state_.videoExport.running) return true;         // File > Export video: a frame per step
    const ImGuiIO& io = ImGui::GetIO();
    for (bool down : io.MouseDown)
        if (down) return true;  // a drag in progress (a slider, a splitter, the camera)
    return ImGui::IsAnyItemActive();
}

void App::waitForNextFrame() {
    // Animating: the next frame one refresh period after the last began; events in between are
    // taken by the callbacks and read by that frame.
    if (animating() || settleFrames_ > 0) {
        const double deadline = lastFrameTime_ + refreshPeriod_;
        for (double now = glfwGetTime(); now < deadline && !gQuitRequested; now = glfwGetTime())
            glfwWaitEventsTimeout(deadline - now);
        glfwPollEvents();
        if (takeInputEvent()) settleFrames_ = kSettleFrames;
        return;
    }
    // Idle: sleep until an event (or the autosave's next look), draw nothing meanwhile.
    for (;;) {
        glfwWaitEventsTimeout(kIdleWakeSeconds);
        if (takeInputEvent() || gQuitRequested || glfwWindowShouldClose(window_)) break;
        autosaveIfDue(glfwGetTime());
    }
    settleFrames_ = kSettleFrames;
    // Time slept is not simulated time: the first frame after it counts as one period.
    lastFrameTime_ = glfwGetTime() - refreshPeriod_;
}

int App::runInteractive() {
    struct sigaction quit {};
    quit.sa_handler = requestQuit;
    sigemptyset(&quit.sa_mask);
    sigaction(SIGTERM, &quit, nullptr);
    sigaction(SIGINT, &quit, nullptr);
    settleFrames_ = kSettleFrames;
    glfwPollEvents();
    for (;;) {
        frame();
        glfwSwapBuffers(window_);
        if (settleFrames_ > 0) --settleFrames_;
        if (gQuitRequested) {
            gQuitRequested = 0;
            glfwSetWindowShouldClose(window_, GLFW_TRUE);
        }
        if (glfwWindowShouldClose(window_)) {
            // The window's close button: ask first when there are unsaved changes.
            if (mayQuitNow(state_.files, unsaved())) break;
            glfwSetWindowShouldClose(window_, GLFW_FALSE);
            FileRequests quitRequest;
            quitRequest.quit = true;
            applyFileRequests(quitRequest, state_.files, *this);
            settleFrames_ = kSettleFrames;  // the prompt has to be drawn
        }
        waitForNextFrame();
    }
    saveUiSettings();
    removeRecoveryFile(recoveryPath_);  // a clean exit: nothing to recover
    return 0;
}

void App::saveUiSettings() {
    if (uiSettingsPath_.empty() || !window_) return;
    UiSettings s;
    glfwGetWindowSize(window_, &s.windowWidth, &s.windowHeight);
    s.panels = state_.panels;
    s.layout = state_.layoutPrefs;
    jl::app::saveUiSettings(uiSettingsPath_, s);
}

// [SECTION] Screenshot and benchmark

int App::runScreenshot() {
    std::string error;
    state_.sim.clock.fixedStepsPerFrame = 1;
    for (int i = 0; i < options_.frames; ++i) {
        if (i + 1 == options_.frames && !options_.plotImagePath.empty())
            state_.plotsPanel.image = PlotImageRequest{0, false, {}, {}, options_.plotImagePath};
        frame();
    }
    if (options_.branchStep >= 0 && !branchFromScreenshot(error)) {
        std::fprintf(stderr, "jointlab: --branch: %s\n", error.c_str());
        return 1;
    }
    if (options_.seekStep >= 0) {  // the timeline, gone back: the frames after it are paused
        state_.sim.seekStep(options_.seekStep);
        frame();
        frame();
    }
    if (options_.stepRows > 0) {  // the stepper, a number of rows into the next step
        state_.sim.clock.playing = false;
        state_.sim.clock.resetTime();
        frame();
        UiRequests next;
        next.stepper = StepperAction::NextRow;
        for (int i = 0; i < options_.stepRows; ++i) applyStepperRequest(next);
        // Three frames, as the on-screen loop draws after an event: the unit's table sizes its
        // columns to their numbers in the first and shows its scroll bar from the third.
        frame();
        frame();
        frame();
    }
    if (!options_.plotImagePath.empty() && state_.plotsPanel.savedImage != options_.plotImagePath) {
        std::fprintf(stderr, "jointlab: --plot-png: %s\n",
                     state_.status.empty() ? "the Plots panel shows no plot" : state_.status.text().c_str());
        return 1;
    }
    offscreen_.resolveForReading();
    if (!writeScreenshot(options_.screenshotPath, error)) {
        std::fprintf(stderr, "jointlab: %s\n", error.c_str());
        return 1;
    }
    std::printf("jointlab: wrote %s (%dx%d, scale %g, %d frames)\n", options_.screenshotPath.c_str(), width_,
                height_, static_cast<double>(uiScale_), options_.frames);
    reportSelectedAnchor();
    return 0;
}

bool App::branchFromScreenshot(std::string& error) {
    Simulation& sim = state_.sim;
    const int64_t reached = sim.world() ? sim.world()->stepCount() : 0;
    if (options_.branchStep >= reached) {  // at or past the end there is no future to branch from
        error = "step " + std::to_string(options_.branchStep) +
                " is not before the run's end (the frames reached step " + std::to_string(reached) + ")";
        return false;
    }
    if (!sim.seekStep(options_.branchStep)) {
        error = "no run to go back in";
        return false;
    }
    // The changes as one edit through the editor, as the Inspector's fields make them.
    std::vector<FieldChange> changes;
    if (std::string problem = parseFieldChanges(sim.scene(), options_.branchChanges, changes);
        !problem.empty()) {
        error = problem;
        return false;
    }
    Command edit{"set " + options_.branchChanges, "", [changes](Scene& scene, CommandEffects&) {
                     for (const FieldChange& c : changes)
                         if (std::string p = setFieldPath(scene, c.path, c.value); !p.empty()) return p;
                     return std::string();
                 }};
    if (!state_.editor.run(edit, error)) return false;
    sim.clock.playing = true;
    while (sim.world()->stepCount() < reached) frame();
    return true;
}

int App::runBenchmark() {
    constexpr int kWarmUp = 30;  ///< frames not timed: caches, buffers and the plot lines fill up
    state_.sim.clock.fixedStepsPerFrame = 1;
    // Timed with the record full (10 s of steps), as after the first seconds of a session.
    const Telemetry& record = state_.sim.telemetry();
    for (int i = 0; i < kWarmUp || record.size() < record.capacity(); ++i) frame();
    benchTimes_.clear();
    for (int i = 0; i < options_.benchFrames; ++i) frame();
    glFinish();
    const PhaseSummary s = summarizePhases(benchTimes_);
    const Scene& scene = state_.sim.scene();
    const std::string name = !options_.benchScene.empty()     ? options_.benchScene
                             : !options_.scenarioPath.empty() ? options_.scenarioPath
                                                              : std::string("default");
    std::printf(
        "jointlab frame benchmark: %s (%zu bodies, %zu joints, %zu plots), %dx%d, scale %g, %d frames\n",
        name.c_str(), scene.bodies.size(), scene.joints.size(), scene.plots.size(), width_, height_,
        static_cast<double>(uiScale_), options_.benchFrames);
    std::printf("  main-thread CPU per frame [ms]          median      p95\n");
    std::printf("  sim  (physics steps, their record)    %9.3f %9.3f\n", s.median.sim, s.p95.sim);
    std::printf("  ui   (panels, plots, edits)           %9.3f %9.3f\n", s.median.ui, s.p95.ui);
    std::printf("  draw (viewport instances and lines)   %9.3f %9.3f\n", s.median.draw, s.p95.draw);
    std::printf("  sim + ui + draw (the 8 ms budget)     %9.3f %9.3f\n", s.medianOurs, s.p95Ours);
    std::printf("  gl   (OpenGL calls: the driver)       %9.3f %9.3f\n", s.median.gl, s.p95.gl);
    std::printf("  total                                 %9.3f %9.3f\n", s.medianTotal, s.p95Total);
    // One line for scripts: scene, then median and p95 of sim, ui, draw, their sum, gl and total.
    std::printf("bench,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", name.c_str(),
                s.median.sim, s.p95.sim, s.median.ui, s.p95.ui, s.median.draw, s.p95.draw, s.medianOurs,
                s.p95Ours, s.median.gl, s.p95.gl, s.medianTotal, s.p95Total);
    return 0;
}

}  // namespace jl::app
