// JointLab app — what the panels read and what they ask for.
//
// Panels get the AppState (read) and a UiRequests (write). They never change the simulation
// directly: the App applies the requests between frames, where edits belong.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "editor/commands.h"
#include "editor/editor.h"
#include "editor/joint_tool.h"
#include "editor/placement.h"
#include "panels/plots_state.h"
#include "render/toothed_looks.h"
#include "session/file_flow.h"
#include "session/folder_listing.h"
#include "session/mujoco_reference.h"
#include "session/recovery.h"
#include "session/scene_index.h"
#include "session/scene_tree.h"
#include "session/simulation.h"
#include "session/status_line.h"
#include "session/stepper_session.h"
#include "session/teach_state.h"
#include "session/video_export.h"
#include "shell/frame_timing.h"
#include "shell/layout.h"
#include "viewport/camera.h"
#include "viewport/gizmo.h"
#include "viewport/selection.h"
#include "viewport/view_options.h"

namespace jl::plot {
struct SweepTable;  // plot/sweep_plot.h
}

namespace jl::app {

/// What a left click in the viewport does.
enum class Tool { Select, AddBox, AddSphere, AddCapsule, AddJoint };

/// The viewport's tool settings and the gesture in progress.
struct ToolState {
    Tool tool = Tool::Select;
    GizmoMode gizmo = GizmoMode::Move;  ///< W: move, E: rotate
    int jointType = kDefaultJointType;  ///< joint type index for the joint tool
    JointAxisChoice axis = JointAxisChoice::Auto;
    WorkPlane plane = WorkPlane::View;  ///< where an anchor clicked in the air goes (editor/joint_tool.h)
    // Joint tool: the first click picked this body (the one that will hang or turn) at firstPoint.
    bool haveFirst = false;
    std::string firstBody;
    Vec3 firstPoint{0.0}, firstNormal{0.0, 1.0, 0.0};
    /// What the second click would make, under the mouse now (drawn before the click).
    std::optional<JointPlacement> preview;
    AnchorPick::Kind previewKind = AnchorPick::Kind::None;
    // Gizmo drag of the selected body or joint frame.
    std::optional<GizmoDrag> gizmoDrag;
    Selection::Kind dragKind = Selection::Kind::None;
    std::string dragName;
    Transform dragStartB;  ///< a dragged joint's frame B in world when the drag began
    int hotHandle = -1;    ///< gizmo handle under the mouse (-1: none)
    // Mouse spring: the target moves in the plane through the grabbed point facing the camera.
    Vec3 springPlanePoint{0.0}, springPlaneNormal{0.0, 0.0, 1.0};
};

/// How Restore brings back a broken joint whose bodies drifted apart (editor/reseat.h).
enum class RestoreMode {
    Reseat,  ///< the joint's frames move to where the bodies are: nothing jumps (undoable edit)
    Pull,  ///< the joint as it was, its frames eased from there over some steps: the bodies come back gently
};

/// Inspector edit state that must outlive a frame.
struct InspectorState {
    std::string eulerKey;  ///< quaternion field being dragged as Euler angles ("" = none)
    Vec3 euler{0.0};       ///< its angles [deg] while dragged (re-deriving them would jump)
    std::string typedKey;  ///< field whose drag box is being typed into, value not yet applied ("" = none)
    FieldValue typed;      ///< the value typed so far: applied on Enter or leaving the box, dropped on Escape
    RestoreMode restoreMode = RestoreMode::Reseat;  ///< the Restore popup's choice
    int restoreSteps = 60;                          ///< Pull: over how many steps
};

/// The Drive tuner tab (panels/drive_tuner_panel.cpp): which drive, and the response simulated
/// from the state it was measured at (kept until the step, the scene or the drive changes).
struct DriveTunerState {
    int pick = 0;                   ///< which of the selected joint's drive rows
    std::string joint, rowLabel;    ///< what `simulated` belongs to
    int64_t step = -1;              ///< ... at which step
    uint64_t revision = 0;          ///< ... of which scene
    double dt = 0.0, mEff = 0.0;    ///< the step and the drive's effective mass (0: unknown)
    double e0 = 0.0, de0 = 0.0;     ///< the drive error and its rate at the start
    double vT = 0.0;                ///< the drive's target velocity
    int substeps = 1;               ///< TGS: posIters; PGS: 1
    std::vector<double> simulated;  ///< drive error C after i steps of a copy of the world
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
    int restoreJoint = -1;                          ///< un-break this joint in the running World ...
    RestoreMode restoreMode = RestoreMode::Reseat;  ///< ... this way
    int restoreSteps = 60;                          ///< ... (Pull) over this many steps

    int64_t seekStep = -1;                    ///< the timeline: go to this step of the history (pauses)
    int switchBranch = -1;                    ///< the timeline: make this branch current
    int deleteBranch = -1;                    ///< the timeline: delete this branch
    std::optional<std::string> startCompare;  ///< the compare window: start B with these changes
    bool stopCompare = false;
    bool swapCompare = false;
    bool keepCompareB = false;
    bool toggleReference = false;  ///< Simulation > Reference: MuJoCo (session/mujoco_reference.h)
    bool resetToSetUp = false;     ///< Simulation > Reset to the set-up (drop the saved run state)
    bool recover = false;          ///< recovery prompt: open the first of FileState::recoveries
    bool discardRecovery = false;  ///< recovery prompt: delete it
    bool keepRecoveries = false;   ///< recovery prompt: keep them all for the next start

    /// File > Export video: start with state.videoExport's choices; stop the one running.
    bool startVideoExport = false;
    bool cancelVideoExport = false;
    StepperAction stepper = StepperAction::None;
};

/// Frame timing for the status bar.
struct FrameStats {
    double frameSeconds = 0.0;     ///< wall time of the last frame
    double smoothedSeconds = 0.0;  ///< exponential average
    int stepsLastFrame = 0;
    PhaseTimes phases;          ///< main-thread CPU of the last frame, phase by phase (frame_timing.h)
    PhaseTimes smoothedPhases;  ///< exponential average, for the status bar's tooltip
};

/// The sweep viewer (panels/sweep_viewer.cpp): a sweep's results as a heat map or a line; a click
/// on a cell opens that run (the scenario with its values) in the editor.
struct SweepViewerState {
    bool open = false;
    std::string dir;                          ///< the sweep's folder (results.csv, manifest.json)
    std::shared_ptr<plot::SweepTable> table;  ///< its results
    int metric = 0;                           ///< the column shown
    std::string message;                      ///< why the last click opened nothing ("" = fine)
    bool openDialogRequested = false;         ///< File > Open sweep results: ask for the folder
    std::string pathInput;                    ///< the folder typed there
    std::string openError;                    ///< why that folder could not be opened ("" = fine)
};

/// The A/B compare window (panels/compare_panel.cpp; the compare itself is Simulation's).
struct CompareState {
    bool open = false;
    std::string text;     ///< the changes typed: "settings.solver=tgs,settings.posIters=8"
    std::string message;  ///< why the last start was refused ("" = fine)
    bool logDivergence = true;
};

struct AppState {
    Simulation sim;
    /// MuJoCo beside the live run (Simulation > Reference: MuJoCo); follows sim through its onSync.
    MujocoReference reference;
    Editor editor{sim};  ///< runs the commands on sim's scene, with undo
    OrbitCamera camera;
    CameraFit cameraFit;  ///< the scenario's camera kept clear of the tool bar until the person moves it
    Selection selection;
    ViewOptions view;
    PanelVisibility panels;
    LayoutPrefs layoutPrefs;  ///< the columns' widths and the dock's share, as dragged (remembered)
    UiLayout layout;
    ViewportCover viewportCover;  ///< what the tool bar and the timeline covered of the viewport last frame
    FrameStats stats;
    SceneIndex index;   ///< the scene's names resolved (session/scene_index.h), synced every frame
    StatusLine status;  ///< last notice shown in the status bar ("saved ...", load errors)
    /// A step diverged and paused the simulation: the "Simulation diverged" notice is open
    /// (it shows sim.divergence()); OK closes it.
    bool divergencePopup = false;
    int divergencesSeen = 0;    ///< sim.divergenceCount() already announced
    std::string openPathInput;  ///< text of the File > Open dialog
    bool openDialogRequested = false;
    std::string importPathInput;  ///< text of the File > Import dialog (panels/import_dialog.h)
    bool importDialogRequested = false;
    std::string importWarning;  ///< non-empty: a notice lists what the last import left out
    /// The MJCF/URDF file the scene was imported from ("" = none): Save never writes over it.
    std::string importedModelPath;
    float simulationContentHeight = 380.0f;  ///< measured by the Simulation panel, sizes it next frame
    std::string glVersion;                   ///< GL_VERSION and GL_RENDERER, for Help > About
    PlotsPanelState plotsPanel;              ///< the Plots dock: widget state, time window, exports
    ToolState tools;
    InspectorState inspector;
    FileState files;
    FolderBrowserState saveBrowser;  ///< Save As's folder browser (session/folder_listing.h)
    std::string sceneFilter;         ///< Scene panel filter text
    SceneTree sceneTree;             ///< Scene panel rows (session/scene_tree.h)
    std::vector<ToothedLook> looks;  ///< how gears and racks look, per body (render/toothed_looks.h)
    std::string renameTarget;        ///< Scene panel: body or joint being renamed ("" = none)
    Selection::Kind renameKind = Selection::Kind::None;
    std::string renameBuffer;
    SweepViewerState sweep;
    VideoExportState videoExport;  ///< File > Export video (session/video_export.h)
    CompareState compare;
    StepperState stepper;
    int equationRow = 0;           ///< the Equation tab's row of the selected joint (when not stepping)
    int equationContactEntry = 0;  ///< the Equation tab's row of the selected body's contact rows
    DriveTunerState tuner;
    TeachState teach;  ///< the Advisor and Lesson tabs (session/teach_state.h)
};

}  // namespace jl::app
