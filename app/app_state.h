// JointLab app — what the panels read and what they ask for.
//
// Panels get the AppState (read) and a UiRequests (write). They never change the simulation
// directly: the App applies the requests between frames, where edits belong.
#pragma once

#include <string>

#include "camera.h"
#include "selection.h"
#include "simulation.h"

namespace jl::app {

/// View menu toggles.
struct ViewOptions {
    bool showGrid = true;         ///< grid lines on the ground
    bool showAxes = true;         ///< world X (red), Y (green), Z (blue) through the origin
    bool showJointFrames = true;  ///< each joint's two frames and the lines to its bodies
    bool showAxisGizmo = true;    ///< small orientation triad in the viewport corner
};

/// Which windows are open.
struct PanelVisibility {
    bool scene = true;
    bool inspector = true;
    bool simulation = true;
    bool about = false;
    bool controls = false;
};

/// Screen areas taken by the fixed panels this frame (ImGui pixels); the 3D viewport is the rest.
struct UiLayout {
    float menuBarHeight = 0.0f;
    float statusBarHeight = 0.0f;
    float leftWidth = 0.0f;   ///< scene + simulation column
    float rightWidth = 0.0f;  ///< inspector column
    float simulationHeight = 0.0f;  ///< Simulation panel at the bottom of the left column (0 when closed)
};

/// Requests raised by panels and shortcuts during a frame, applied by the App afterwards.
struct UiRequests {
    bool quit = false;
    bool reset = false;
    bool togglePlay = false;
    int singleSteps = 0;
    bool frameView = false;      ///< frame the selection, or the whole scene
    bool resetCamera = false;    ///< back to the scenario's camera
    bool saveScreenshot = false;
    bool reload = false;
    bool openDialog = false;     ///< show File > Open
    std::string openPath;        ///< non-empty: load this scenario
    bool loadBuiltIn = false;    ///< switch to the built-in showcase
    bool setTimeScale = false;
    double timeScale = 1.0;
    bool select = false;
    Selection selection;
};

/// Frame timing for the status bar.
struct FrameStats {
    double frameSeconds = 0.0;     ///< wall time of the last frame
    double smoothedSeconds = 0.0;  ///< exponential average
    int stepsLastFrame = 0;
};

struct AppState {
    Simulation sim;
    OrbitCamera camera;
    Selection selection;
    ViewOptions view;
    PanelVisibility panels;
    UiLayout layout;
    FrameStats stats;
    std::string message;       ///< last notice shown in the status bar ("saved ...", load errors)
    bool messageIsError = false;
    std::string openPathInput;  ///< text of the File > Open dialog
    bool openDialogRequested = false;
    float simulationContentHeight = 380.0f;  ///< measured by the Simulation panel, sizes it next frame
    std::string glVersion;      ///< GL_VERSION and GL_RENDERER, for Help > About
};

}  // namespace jl::app
