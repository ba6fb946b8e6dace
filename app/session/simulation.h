// JointLab app — the scene being shown and the World running it.
//
// Holds the Scene (descriptions, what files store) and a World built from it. Reset rebuilds the
// World from the Scene. Loading a file that fails leaves everything as it was.
//
// A file saved mid-run (a `state` section) is a document that starts at that state: the
// descriptions go to scene() (what the editor edits, without the state) and the state to
// startState(). Reset returns to the start state, as reopening the file would; resetToSetUp()
// forgets it and starts from the descriptions at t = 0. Save writes documentScene() (the
// descriptions plus the start state), "Save snapshot" snapshotScene() (plus where the run is now).
//
// Every user force (the mouse spring) goes through an InputLog, so the run since the World was
// built, or since the last edit, can be saved (runScenario() + recording()) and replayed exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jointlab/history.h"
#include "jointlab/input_log.h"
#include "jointlab/input_log_io.h"
#include "jointlab/scene.h"
#include "jointlab/step_inspector.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"
#include "session/shadow_run.h"
#include "session/sim_clock.h"
#include "viewport/drag_spring.h"

namespace jl::app {

/// Names changed by an edit: (old name, new name) pairs.
using Renames = std::vector<std::pair<std::string, std::string>>;

/// Where "Save run" puts the input log of scenario `path`: NAME.json → NAME.input.json.
std::string inputLogPathFor(const std::string& scenarioPath);

class Simulation {
public:
    /// Replaces the scene and builds a fresh World. `sourcePath` is shown in the UI ("" = built in).
    bool setScene(Scene scene, std::string sourcePath, std::string& error);
    /// Loads a scenario file; on failure sets `error` and keeps the current scene.
    bool loadFile(const std::string& path, std::string& error);
    /// Rebuilds the World from the Scene: back to the start state if the document has one (a file
    /// saved mid-run), else time 0 with the initial poses and velocities.
    bool reset(std::string& error);
    /// Forgets the start state and rebuilds the World from the descriptions at time 0.
    bool resetToSetUp(std::string& error);
    /// Forgets the start state and keeps running (a recovered autosave of a file without one).
    void dropStartState() { startState_.reset(); }
    /// The state the document starts from (loaded from a file saved mid-run); none for a scene
    /// that starts from its descriptions. Kept only while it fits the scene (see applyEdit).
    const std::optional<WorldSnapshot>& startState() const { return startState_; }
    /// The scene with its start state: what Save writes, and what reopening gives.
    Scene documentScene() const;
    /// The scene with the current running state: opening it continues this run bit for bit.
    Scene snapshotScene() const;
    /// Un-breaks a joint in the running World (Inspector's Restore). `freshMeasures`: it was
    /// re-seated, so its tracked angles and a coupling's start poses are measured from now
    /// (World::resetJointMemory). From now on a break of this joint is reported (takeNotices).
    void restoreJoint(int joint, bool freshMeasures = false);
    /// Restore's gentle option: over `steps` steps the joint's frames go from `seated` (where the
    /// bodies hold now: editor/reseat.h) to the scene's own, so the joint pulls its bodies together
    /// a little each step instead of in one. The scene (what Save writes) keeps the joint as it is;
    /// only the running World sees the frames in between. An edit meanwhile keeps the pull going.
    void pullJointTogether(const std::string& joint, const Transform& seated0, const Transform& seated1,
                           int steps);
    /// True while a pull is in progress.
    bool pulling() const { return pull_.has_value(); }
    /// What happened that the person should be told (a restored joint broke again), oldest first;
    /// taking them empties the list.
    std::vector<std::string> takeNotices() { return std::exchange(notices_, {}); }
    /// Makes an edited scene current between steps without restarting the simulation
    /// (World::applyScene): bodies and joints keep their running state, matched by name, and
    /// renamed ones keep theirs too. An invalid scene is refused: `error` names the field and the
    /// problem, and nothing changes. The start state is dropped when the edit no longer fits it
    /// (bodies or joints added, removed or renamed). The input recording restarts here.
    bool applyEdit(Scene edited, const Renames& bodyRenames, const Renames& jointRenames, std::string& error);
    /// The file the scene is saved to ("" = never saved).
    void setSourcePath(std::string path) { sourcePath_ = std::move(path); }

    /// Advances by the clock's verdict for a frame of `frameSeconds`; returns the steps taken.
    /// A step that diverges (World::divergence(): a body became non-finite and the World put
    /// every body back to its state before that step) pauses the clock, ends the frame's steps
    /// there and is kept in divergence() for the UI. It is not counted.
    int advance(double frameSeconds);

    /// The divergence that paused the simulation: the World's report of the step that failed
    /// (its message names the body and the joint). Kept until clearDivergence() (the user
    /// acknowledged it) or until the World is rebuilt (reset, load, new scene).
    const std::optional<Divergence>& divergence() const { return divergence_; }
    void clearDivergence() { divergence_.reset(); }
    /// How many steps have diverged since the app started (a new one is a new notice).
    int divergenceCount() const { return divergenceCount_; }
    /// Joints that had a row dropped by the solver (World::jointsWithInactiveRows: its bodies
    /// cannot move along it) since the World was built or last edited, by name, in the order seen.
    /// The status bar warns about them; they are never dropped silently.
    const std::vector<std::string>& droppedRowJoints() const { return droppedRowJoints_; }

    const Scene& scene() const { return scene_; }
    /// Changes whenever scene() does (set, load, edit, undo): what the SceneIndex rebuilds on.
    uint64_t sceneRevision() const { return sceneRevision_; }
    const World* world() const { return world_.get(); }
    World* world() { return world_.get(); }
    /// False when the World has taken no step since it was built: a load, a reset, or an edit
    /// between steps (World::applyScene builds it again). Its joint loads and row results are then
    /// zero, not a step's: the Inspector says so. (The stepper's kernel switch is not an edit:
    /// holdReferenceKernel keeps them.)
    bool hasStepResults() const { return hasStepResults_; }
    const std::string& sourcePath() const { return sourcePath_; }

    /// What the solver did in the recorded window, one sample per step (recorded after every
    /// step). Cleared when the World is rebuilt and when the joints change (its joint indices
    /// are the scene's).
    const Telemetry& telemetry() const { return telemetry_; }
    /// Changes when the telemetry's joint indices are renumbered (a joint deleted or added): readers
    /// that keep per-joint state by index start over.
    uint64_t telemetryLayout() const { return telemetryLayout_; }
    /// Length of the recorded window in simulated seconds (default 10 s: 600 steps at 60 Hz).
    /// A new length clears the record at the next step.
    void setTelemetrySeconds(double seconds) { telemetrySeconds_ = seconds; }
    double telemetrySeconds() const { return telemetrySeconds_; }

    /// The user forces applied since the recording began (the World was built, or last edited);
    /// startStep = the step it began at, endStep = now, finalStateHash = the state hash now.
    InputRecording recording() const;
    /// The scenario the recording starts from: the scene and the exact state at that step.
    /// A World built from it, fed recording().log, reaches the current state bit for bit.
    Scene runScenario() const;
    /// Steps taken since the World was built, reset or loaded (autosave: has the run advanced?).
    int64_t stepsSinceStart() const;

    // [SECTION] history (jointlab/history.h): every step of the run since the World was built

    /// The run's history: the timeline reads its marks, branches and reach.
    const History& history() const { return history_; }
    /// The scene (with its state) the history starts from: what "Save run with its history"
    /// writes beside NAME.history.json (the history is checked against exactly this text).
    const Scene& historyScene() const { return historyScene_; }
    /// What loading found beside the scenario: "opened with its history …", or (refused) why the
    /// history file there was not used (the scenario opened without it). Taking it empties it.
    struct HistoryNote {
        std::string text;
        bool refused = false;
    };
    std::optional<HistoryNote> takeHistoryNote() { return std::exchange(historyNote_, std::nullopt); }
    /// Goes to step `step` of the current branch (clamped to what the history reaches) and pauses:
    /// the World becomes the state the run had then, with that step's rows, so every panel shows
    /// it. Playing on retakes the recorded future; changing anything there starts a branch.
    bool seekStep(int64_t step);
    /// True while the World is at a step before the end of its branch.
    bool scrubbed() const { return world_ && world_->stepCount() < history_.lastStep(); }
    /// Makes another branch current and goes to its end; the branch left shows as a ghost.
    bool switchBranch(int id);

    /// The stepper (jointlab/step_inspector.h): the step the next advance() would take, recorded
    /// row visit by row visit on a world of its own — with what that step adds (inside the history:
    /// the change retaken there and the forces recorded for it). Null, with `why` saying so, while
    /// playing, while a body is dragged or a Restore pulls (forces the stepper cannot replay).
    std::unique_ptr<StepInspector> inspectNextStep(std::string& why);
    bool deleteBranch(int id, std::string& error) { return history_.deleteBranch(id, error); }

    /// The stepper's kernel. The stepper shows the row visits of the reference kernel, and the two
    /// kernels differ in the last bits (docs/solvers.md "Two kernels"), so while it steps the World
    /// runs on the reference kernel and Finish step is the step shown, bit for bit. The switch is
    /// made in place between steps, not as an edit: the World is not rebuilt, so its state, its
    /// last step's rows, results and joint loads (what the Inspector shows) and the telemetry stay;
    /// there is no undo entry. The history records it as a setting change, so that going back
    /// retakes every step on the kernel it ran on. The scene's setting shows it until released.
    /// Returns true when the kernel had to change (the scene was on the fast one).
    bool holdReferenceKernel();
    /// Puts back the kernel held by holdReferenceKernel, in place likewise. Nothing when none is
    /// held, or when the kernel was chosen since (an edit, an undo, another document: the hold is
    /// dropped then). When the hold started a branch (the run was back in its history) and nothing
    /// happened since, the run goes back to the branch it left instead, which is then as it was.
    void releaseReferenceKernel();
    /// True while holdReferenceKernel's switch is in force.
    bool referenceKernelHeld() const { return kernelHold_.has_value(); }

    /// Undo of the edit that started the current branch: back to the branch it left, at the step
    /// it left from (the branch is kept in the list, or deleted when it never got past that step).
    /// False when the current branch was not started by an edit at the current step.
    bool undoBranch();

    // [SECTION] the second run beside the live one (session/shadow_run.h)

    /// Starts an A/B compare from the step shown: B = this World with `changes` made ("PATH=VALUE,…").
    bool startCompare(const std::string& changes, std::string& error);
    void stopCompare() { shadow_.stopCompare(); }
    /// "Swap": A becomes B (its scene and state, recorded in the history as a change) and B the old
    /// A (the compare goes on with the opposite changes). "Keep B": A becomes B, the compare ends.
    bool swapCompare(std::string& error);
    bool keepCompareB(std::string& error);
    /// B while comparing, else the ghost of the branch left behind (or nothing).
    const ShadowRun& shadow() const { return shadow_; }

    /// Called after the shadow run is brought to the World's step: after a step (`jumped` false),
    /// a jump, an edit or a new World (true). The MuJoCo reference follows the live run by it
    /// (session/mujoco_reference.h).
    std::function<void(const World& world, bool jumped)> onSync;

    SimClock clock;
    /// The mouse spring, while a body is being dragged: applied before every step.
    std::optional<DragSpring> drag;

private:
    /// Clears the telemetry when its window length changed; renumbers it when the joints did.
    void syncTelemetry();
    /// Before a step: the next frames of a pull in progress (pullJointTogether).
    void stepPull();
    /// After a step: a restored joint that broke again becomes a notice.
    void noticeBreaks();
    /// Installs a freshly built world and starts a new recording from its state.
    void startWorld(std::unique_ptr<World> world);
    /// Adds the joints whose rows the last step dropped to droppedRowJoints().
    void noteDroppedRows();
    /// Marks on the timeline, per joint, when a limit starts to push, a drive reaches its force
    /// limit or a row is dropped (transitions only, so a held limit is one mark).
    void noteRowMarks();
    /// The recording begins again from the current state (after an edit).
    void restartRecording();
    /// Puts a World taken from the history in place (seekStep, a change retaken on replay).
    void adoptHistoryWorld(std::unique_ptr<World> world);
    /// A change between steps: recorded in the history as a keyframe and a mark.
    void noteChange(HistoryMark kind, std::string what);
    /// After the history may have started a branch (a change or a force at a past step): the branch
    /// it left becomes the ghost.
    void followLeftBranch(int before);
    /// Back to the branch `left` left, at the step it forked (undoBranch, releaseReferenceKernel);
    /// `left` is deleted when it never got past that step.
    bool leaveBranch(int left);
    /// The shadow run to the World's step; `jumped`: the World did not just take one step.
    void syncShadow(bool jumped);

    Scene scene_;  ///< descriptions only (state is in startState_)
    std::optional<WorldSnapshot> startState_;
    std::unique_ptr<World> world_;
    int64_t worldStartStep_ = 0;  ///< world's step count when it was built
    InputLog inputLog_;
    History history_;
    Scene historyScene_;                      ///< documentScene() when the history started (startWorld)
    std::optional<HistoryNote> historyNote_;  ///< takeHistoryNote()
    ShadowRun shadow_;
    /// Makes `scene` at `state` the live run (keep B, swap), recorded in the history as a change.
    bool adoptRun(Scene scene, const WorldSnapshot& state, const std::string& what, std::string& error);

    /// The branch the last edit started, and the step it started at (undoBranch).
    int editBranch_ = -1;
    int64_t editBranchStep_ = -1;
    /// The telemetry holds steps after the World's (it was scrubbed back): cleared at the next step.
    bool telemetryAhead_ = false;
    Scene recordingScene_;          ///< descriptions when the recording began
    WorldSnapshot recordingStart_;  ///< the world's state when the recording began
    std::string sourcePath_;
    Telemetry telemetry_{600};
    double telemetrySeconds_ = 10.0;
    std::vector<std::string> telemetryJoints_;  ///< joint names the telemetry's indices refer to
    std::vector<std::string> telemetryBodies_;  ///< body names its contact forces are indexed by
    uint64_t telemetryLayout_ = 0;
    std::optional<Divergence> divergence_;
    int divergenceCount_ = 0;
    std::vector<std::string> droppedRowJoints_;
    std::vector<uint8_t> rowMarkState_;  ///< per joint: bit 0 a limit pushed, bit 1 a drive saturated, bit 2
                                         ///< a row dropped (last step)
    uint64_t sceneRevision_ = 1;
    bool hasStepResults_ = false;

    /// Switches the kernel of the scene and the World in place (no rebuild), recorded in the
    /// history as a setting change `what`.
    void switchKernel(KernelType kernel, const std::string& what);
    struct KernelHold {
        KernelType before = KernelType::Fast;  ///< the kernel to put back
        uint64_t revision = 0;                 ///< sceneRevision() right after the switch
        int64_t step = 0;                      ///< the step it was made at
        int branch = -1, leftBranch = -1;      ///< the branch it started (−1: none) and the one it left
    };
    std::optional<KernelHold> kernelHold_;

    struct Restored {
        std::string joint;
        int64_t step = 0;  ///< the world's step count when it was restored
    };
    std::vector<Restored> restored_;  ///< joints restored since the World was built
    size_t breaksSeen_ = 0;           ///< World::breakEvents() already looked at
    std::vector<std::string> notices_;

    struct Pull {
        std::string joint;
        Transform seated0, seated1;
        int step = 0, steps = 1;
    };
    std::optional<Pull> pull_;
};

}  // namespace jl::app
