// JointLab app — what the panels read and what they ask for.
//
// Panels get the AppState (read) and a UiRequests (write). They never change the simulation
// directly: the App applies the requests between frames, where edits belong.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "editor/commands.h"
#include "editor/editor.h"
#include "editor/placement.h"
#include "panels/plots_state.h"
#include "session/file_flow.h"
#include "session/recovery.h"
#include "session/simulation.h"
#include "viewport/camera.h"
#include "viewport/gizmo.h"
#include "viewport/selection.h"
#include "viewport/view_options.h"

namespace jl::app {

/// What a left click in the viewport does.
enum class Tool { Select, AddBox, AddSphere, AddCapsule, AddJoint };

/// The viewport's tool settings and the gesture in progress.
struct ToolState {
    Tool tool = Tool::Select;
    GizmoMode gizmo = GizmoMode::Move;  ///< W: move, E: rotate
    int jointType = kDefaultJointType;  ///< joint type index for the joint tool
    JointAxisChoice axis = JointAxisChoice::Auto;
    // Joint tool: body A has been picked at pointA (surface normal normalA).
    bool haveBodyA = false;
    std::string bodyA;
    Vec3 pointA{0.0}, normalA{0.0, 1.0, 0.0};
    // Gizmo drag of the selected body or joint frame.
    std::optional<GizmoDrag> gizmoDrag;
    Selection::Kind dragKind = Selection::Kind::None;
    std::string dragName;
    Transform dragStartB;  ///< a dragged joint's frame B in world when the drag began
    int hotHandle = -1;    ///< gizmo handle under the mouse (-1: none)
    // Mouse spring: the target moves in the plane through the grabbed point facing the camera.
    Vec3 springPlanePoint{0.0}, springPlaneNormal{0.0, 0.0, 1.0};
};

/// Inspector edit state that must outlive a frame.
struct InspectorState {
    std::string eulerKey;  ///< quaternion field being dragged as Euler angles ("" = none)
    Vec3 euler{0.0};       ///< its angles [deg] while dragged (re-deriving them would jump)
};

/// Which windows are open.
struct PanelVisibility {
    bool scene = true;
    bool inspector = true;
    bool simulation = true;
    bool about = false;
    bool controls = false;
    bool plots = true;        ///< the Plots dock under the viewport (Plots and Rows tabs)
    bool jointTypes = false;  ///< Help > Joint types
};

/// Screen areas taken by the fixed panels this frame (ImGui pixels); the 3D viewport is the rest.
struct UiLayout {
    float menuBarHeight = 0.0f;
    float statusBarHeight = 0.0f;
    float leftWidth = 0.0f;         ///< scene + simulation column
    float rightWidth = 0.0f;        ///< inspector column
    float simulationHeight = 0.0f;  ///< Simulation panel at the bottom of the left column (0 when closed)
    float bottomHeight = 0.0f;      ///< Plots dock under the viewport, between the columns (0 when closed)
};

/// Requests raised by panels and shortcuts during a frame, applied by the App afterwards (the
/// file ones, FileRequests, through applyFileRequests).
struct UiRequests : FileRequests {
    bool reset = false;
    bool togglePlay = false;
    int singleSteps = 0;
    bool frameView = false;    ///< frame the selection, or the whole scene
    bool resetCamera = false;  ///< back to the scenario's camera
    bool saveScreenshot = false;
    bool openDialog = false;  ///< show File > Open
    bool setTimeScale = false;
    double timeScale = 1.0;
    bool select = false;
    Selection selection;

    // Editing (run in order through the Editor, between frames).
    std::vector<Command> commands;
    bool endCoalescing = false;  ///< a slider or drag gesture ended: the next edit is a new undo step
    bool undo = false;
    bool redo = false;
    int restoreJoint = -1;  ///< un-break this joint in the running World

    bool resetToSetUp = false;     ///< Simulation > Reset to the set-up (drop the saved run state)
    bool recover = false;          ///< recovery prompt: open the first of FileState::recoveries
    bool discardRecovery = false;  ///< recovery prompt: delete it
    bool keepRecoveries = false;   ///< recovery prompt: keep them all for the next start
};

/// Frame timing for the status bar.
struct FrameStats {
    double frameSeconds = 0.0;     ///< wall time of the last frame
    double smoothedSeconds = 0.0;  ///< exponential average
    int stepsLastFrame = 0;
};

struct AppState {
    Simulation sim;
    Editor editor{sim};  ///< runs the commands on sim's scene, with undo
    OrbitCamera camera;
    Selection selection;
    ViewOptions view;
    PanelVisibility panels;
    UiLayout layout;
    FrameStats stats;
    std::string message;  ///< last notice shown in the status bar ("saved ...", load errors)
    bool messageIsError = false;
    /// A step diverged and paused the simulation: the "Simulation diverged" notice is open
    /// (it shows sim.divergence()); OK closes it.
    bool divergencePopup = false;
    int divergencesSeen = 0;    ///< sim.divergenceCount() already announced
    std::string openPathInput;  ///< text of the File > Open dialog
    bool openDialogRequested = false;
    float simulationContentHeight = 380.0f;  ///< measured by the Simulation panel, sizes it next frame
    std::string glVersion;                   ///< GL_VERSION and GL_RENDERER, for Help > About
    PlotsPanelState plotsPanel;              ///< the Plots dock: widget state, time window, exports
    ToolState tools;
    InspectorState inspector;
    FileState files;
    std::string sceneFilter;   ///< Scene panel filter text
    std::string renameTarget;  ///< Scene panel: body or joint being renamed ("" = none)
    Selection::Kind renameKind = Selection::Kind::None;
    std::string renameBuffer;
};

}  // namespace jl::app
