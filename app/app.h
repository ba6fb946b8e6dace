// JointLab app — the desktop program: window, main loop, panels, viewport, screenshot mode.
//
// The loop follows Dear ImGui's GLFW/OpenGL3 example: poll → advance physics (fixed steps) →
// new frame → panels → render the 3D viewport → render ImGui → apply the panels' requests (edits
// happen between steps) → swap. In screenshot mode the window stays hidden, each frame takes
// exactly one physics step, the frame is drawn into an off-screen framebuffer of the requested
// size, and after N frames it is written as a PNG.
#pragma once

#include <string>

#include "app_state.h"
#include "cli.h"
#include "debug_draw.h"
#include "offscreen_target.h"
#include "renderer.h"

struct GLFWwindow;

namespace jl::app {

/// Runs the app (or screenshot mode) and returns the process exit code.
int runApp(const AppOptions& options);

class App {
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

    // Edits (app_edits.cpp): commands through the Editor, undo/redo, the selection following them.
    void applyEditRequests(const UiRequests& requests);
    void runCommand(const Command& command);
    void undoRedo(bool redo);
    void followSelection(Selection::Kind kind, std::string name, const CommandEffects& effects);

    // Files (app_files.cpp): New, Open, Save, Save As, recent files, the unsaved-changes prompt.
    void applyFileRequests(const UiRequests& requests);
    /// Runs `action` now, or first asks what to do with unsaved changes.
    void startOrAsk(PendingAction action, std::string path);
    void continuePending();
    bool saveTo(const std::string& path);
    void openFile(const std::string& path);
    void rememberRecent(const std::string& path);
    bool writeScreenshot(const std::string& path, std::string& error);
    void setMessage(std::string text, bool isError);
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
    std::string windowTitle_;     ///< last title set, so it is only set when it changes
};

}  // namespace jl::app
