// JointLab app — the desktop program: window, main loop, panels, viewport, screenshot mode.
//
// The loop follows Dear ImGui's GLFW/OpenGL3 example: poll → advance physics (fixed steps) →
// new frame → panels → render the 3D viewport → render ImGui → apply the panels' requests (edits
// happen between steps) → swap. It draws only when something can have changed (shell/app_loop.cpp):
// while the simulation runs, at the monitor's refresh rate; while it is paused, for a few frames
// after each input event, and otherwise it sleeps in glfwWaitEventsTimeout. In screenshot mode
// the window stays hidden, each frame takes exactly one physics step, the frame is drawn into an
// off-screen framebuffer of the requested size, and after N frames it is written as a PNG; the
// frame benchmark (--bench-frames) does the same and prints what each phase of a frame cost.
#pragma once

#include <string>
#include <vector>

#include "render/debug_draw.h"
#include "render/egl_context.h"
#include "render/offscreen_target.h"
#include "render/renderer.h"
#include "render/video_writer.h"
#include "runner/cli.h"
#include "session/recovery.h"
#include "session/ui_settings.h"
#include "shell/app_state.h"
#include "shell/frame_timing.h"

struct GLFWwindow;

namespace jl::app {

struct ScreenRect;

/// Runs the app (or screenshot mode) and returns the process exit code.
int runApp(const AppOptions& options);

class App : private FileEffects {
public:
    explicit App(AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    int run();

private:
    bool screenshotMode() const { return !options_.screenshotPath.empty(); }
    bool benchMode() const { return options_.benchFrames > 0; }
    bool videoMode() const { return !options_.video.path.empty(); }
    /// Screenshot, video and benchmark: a hidden window (or no window at all: EGL), an off-screen
    /// target, one step per frame.
    bool offscreen() const { return screenshotMode() || videoMode() || benchMode(); }
    /// Wall-clock seconds: GLFW's clock, or the steady clock when there is no window (EGL).
    double now() const;
    bool loadInitialScene(std::string& error);
    /// --select and --hide-joints.
    bool applyStartOptions(std::string& error);
    /// Screenshot mode: prints where the selected joint's anchor is on the image.
    void reportSelectedAnchor();
    bool initGraphics(std::string& error);
    void initImGui();
    /// Fonts and widget sizes for UI scale `scale` (the monitor's content scale or --scale).
    void applyUiScale(float scale);
    void shutdown();

    // The loops (shell/app_loop.cpp).
    /// The window on screen until it is closed; draws only when something can have changed.
    int runInteractive();
    int runScreenshot();
    int runBenchmark();

    // Video (shell/app_video.cpp): headless (--video) and File > Export video.
    /// Renders the run's frames off screen and writes them as options_.video asks.
    int runVideo();
    /// The part of the frame a video shows, in framebuffer px (origin bottom-left): the viewport,
    /// and the Plots dock under it when `plots`.
    PixelRect videoRect(bool plots) const;
    /// Reads the video's part of the frame just drawn and adds it to video_.
    bool captureVideoFrame(const PixelRect& rect, std::string& error);
    /// File > Export video: starts, advances (before a frame: the next step) and ends the export.
    void applyVideoExportRequests(const UiRequests& requests);
    void prepareVideoExportFrame();
    void captureVideoExportFrame();
    void endVideoExport(bool cancelled, const std::string& error);
    /// Sleeps until the next frame is worth drawing (input, a running simulation, the autosave).
    void waitForNextFrame();
    /// True while frames must follow each other without waiting for input.
    bool animating() const;
    /// Remembers the window size and the panel layout for the next run (ui_settings.h).
    void saveUiSettings();

    /// One frame, its phases timed into state_.stats.
    void frame();
    void buildUi(UiRequests& requests);
    /// Brings what the panels and the drawing derive from the scene up to date (SceneIndex, the
    /// gears' looks) and turns the simulation's notices into status messages.
    void syncSceneViews();
    /// Measures what the tool bar and the timeline cover of the viewport and keeps the scenario's
    /// camera clear of them (CameraFit) until the person moves it.
    void keepSceneInView(const ScreenRect& rect, float toolbarBottom);
    /// The scenario's camera, kept clear of the panels from the next frame on.
    void startCameraFit();
    /// The 3D viewport's instances and lines for this frame (the "draw" phase); what GL then draws.
    FrameView prepareViewport(RenderOptions& options);
    void applyRequests(const UiRequests& requests);
    /// Screenshot mode's --branch: go back, edit, run on (runScreenshot).
    bool branchFromScreenshot(std::string& error);
    /// The compare window's Start, Stop, Swap and Keep B.
    void applyCompareRequests(const UiRequests& requests);

    void onSceneLoaded(const std::string& what);
    void frameView();

    // Edits (shell/app_edits.cpp): commands through the Editor, undo/redo, the selection following them.
    void applyEditRequests(const UiRequests& requests);
    void runCommand(const Command& command);
    void undoRedo(bool redo);
    void followSelection(Selection::Kind kind, std::string name, const CommandEffects& effects);
    /// Restore (editor/reseat.h): re-seated where the bodies are, or pulled back over `steps`.
    void restoreBrokenJoint(int joint, RestoreMode mode, int steps);

    // The stepper (shell/app_stepper.cpp): next row, next sweep, finish step.
    void applyStepperRequest(const UiRequests& requests);
    /// Drops the recorded step once the world has moved on; records it again after an edit.
    void syncStepper();
    /// The viewport's arrows for the stepper's current row: its two bodies' linear and angular
    /// velocities before (grey) and after the visit.
    void drawStepperArrows();

    // Files (shell/app_files.cpp): what applyFileRequests (session/file_flow.h) decides, carried out.
    bool unsaved() const override { return state_.editor.dirty(); }
    std::string sourcePath() const override { return state_.sim.sourcePath(); }
    bool saveScene(const std::string& path) override;
    /// File > Save snapshot / Save run: copies next to the document, which keeps its own file.
    bool saveSnapshot(const std::string& path) override;
    bool saveRun(const std::string& path) override;
    bool saveWithHistory(const std::string& path) override;
    void carryOut(PendingAction action, const std::string& path) override;
    /// A scene for a file: `scene` with the camera of the view.
    Scene withCamera(Scene scene) const;
    /// Refuses (with a message) a copy that would overwrite the document's own file.
    bool refuseOverwritingDocument(const std::string& path, const char* what);
    void openFile(const std::string& path);
    bool writeScreenshot(const std::string& path, std::string& error);

    // Autosave and crash recovery (shell/app_recovery.cpp).
    /// On start: offer the autosaves a crash left in the recovery folder.
    void findCrashRecoveries();
    /// Writes the recovery file when the timer says so (`now`: glfwGetTime()).
    void autosaveIfDue(double now);
    bool writeAutosave(double now);
    /// The document changed (New, Open, Save As, recovered): its old autosave goes, the next one is
    /// keyed by the new file, a full interval from now.
    void documentChanged();
    void applyRecoveryRequests(const UiRequests& requests);
    AutosaveTimer::Work currentWork() const;
    void setMessage(std::string text, bool isError);
    /// A step diverged (Simulation::divergence()): red status message, the joint selected, the
    /// "Simulation diverged" notice opened.
    void announceDivergence();
    void updateWindowTitle();

    AppOptions options_;
    AppState state_;
    GLFWwindow* window_ = nullptr;
    EglContext egl_;  ///< off screen without a display: the context instead of a window
    VideoWriter video_;
    bool imguiReady_ = false;
    Renderer renderer_;
    DebugDraw lines_;
    OffscreenTarget offscreen_;
    int width_ = 0, height_ = 0;  ///< window (and screenshot) size
    float uiScale_ = 1.0f;        ///< fonts and widgets (chooseUiScale)
    double lastFrameTime_ = 0.0;
    double refreshPeriod_ = 1.0 / 60.0;   ///< the monitor's frame time [s]: the loop's pace while animating
    int settleFrames_ = 0;                ///< frames still to draw after the last input event
    std::string uiSettingsPath_;          ///< where the window size and layout are remembered ("" = nowhere)
    std::vector<PhaseTimes> benchTimes_;  ///< the benchmark's frames
    std::string windowTitle_;             ///< last title set, so it is only set when it changes
    std::string recoveryDir_;             ///< where autosaves go ("" = nowhere)
    std::string recoveryPath_;            ///< this document's recovery file ("" = none)
    AutosaveTimer autosave_;
};

}  // namespace jl::app
