// JointLab app — the desktop program: window, main loop, panels, viewport, screenshot mode.
//
// The loop follows Dear ImGui's GLFW/OpenGL3 example: poll → advance physics (fixed steps) →
// new frame → panels → render the 3D viewport → render ImGui → apply the panels' requests (edits
// happen between steps) → swap. In screenshot mode the window stays hidden, each frame takes
// exactly one physics step, the frame is drawn into an off-screen framebuffer of the requested
// size, and after N frames it is written as a PNG.
#pragma once

#include <string>

#include "render/debug_draw.h"
#include "render/offscreen_target.h"
#include "render/renderer.h"
#include "runner/cli.h"
#include "session/recovery.h"
#include "shell/app_state.h"

struct GLFWwindow;

namespace jl::app {

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
    bool loadInitialScene(std::string& error);
    /// --select and --hide-joints.
    bool applyStartOptions(std::string& error);
    /// Screenshot mode: prints where the selected joint's anchor is on the image.
    void reportSelectedAnchor();
    bool initGraphics(std::string& error);
    void initImGui();
    void shutdown();

    /// One frame; returns false when the app should stop.
    void frame();
    void buildUi(UiRequests& requests);
    void renderViewport();
    void applyRequests(const UiRequests& requests);

    void onSceneLoaded(const std::string& what);
    void frameView();

    // Edits (shell/app_edits.cpp): commands through the Editor, undo/redo, the selection following them.
    void applyEditRequests(const UiRequests& requests);
    void runCommand(const Command& command);
    void undoRedo(bool redo);
    void followSelection(Selection::Kind kind, std::string name, const CommandEffects& effects);

    // Files (shell/app_files.cpp): what applyFileRequests (session/file_flow.h) decides, carried out.
    bool unsaved() const override { return state_.editor.dirty(); }
    std::string sourcePath() const override { return state_.sim.sourcePath(); }
    bool saveScene(const std::string& path) override;
    /// File > Save snapshot / Save run: copies next to the document, which keeps its own file.
    bool saveSnapshot(const std::string& path) override;
    bool saveRun(const std::string& path) override;
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
    bool imguiReady_ = false;
    Renderer renderer_;
    DebugDraw lines_;
    OffscreenTarget offscreen_;
    int width_ = 0, height_ = 0;  ///< window (and screenshot) size
    double lastFrameTime_ = 0.0;
    std::string windowTitle_;   ///< last title set, so it is only set when it changes
    std::string recoveryDir_;   ///< where autosaves go ("" = nowhere)
    std::string recoveryPath_;  ///< this document's recovery file ("" = none)
    AutosaveTimer autosave_;
};

}  // namespace jl::app
