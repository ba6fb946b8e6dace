#include "session/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <system_error>

#include "editor/reseat.h"
#include "jointlab/history_io.h"
#include "jointlab/name_index.h"
#include "jointlab/scenario_io.h"

namespace jl::app {

namespace {

/// True when two settings differ in any field (as written to a file).
bool settingsDiffer(const WorldSettings& a, const WorldSettings& b) {
    Scene x, y;
    x.settings = a;
    y.settings = b;
    return serializeScenario(x) != serializeScenario(y);
}

/// Builds a World, turning a validation problem or an exception into a message.
std::unique_ptr<World> buildWorld(const Scene& scene, std::string& error) {
    std::string problem = validateScene(scene);
    if (!problem.empty()) {
        error = problem;
        return nullptr;
    }
    try {
        return std::make_unique<World>(scene);
    } catch (const std::exception& e) {
        error = std::string("cannot build the world: ") + e.what();
        return nullptr;
    }
}

/// `scene` with `state` as its saved run state.
Scene withState(const Scene& scene, std::optional<WorldSnapshot> state) {
    Scene s = scene;
    s.state = std::move(state);
    return s;
}

}  // namespace

std::string inputLogPathFor(const std::string& scenarioPath) {
    const std::string ext = ".json";
    const bool json = scenarioPath.size() > ext.size() &&
                      scenarioPath.compare(scenarioPath.size() - ext.size(), ext.size(), ext) == 0;
    return (json ? scenarioPath.substr(0, scenarioPath.size() - ext.size()) : scenarioPath) + ".input.json";
}

bool Simulation::setScene(Scene scene, std::string sourcePath, std::string& error) {
    std::unique_ptr<World> world = buildWorld(scene, error);  // validates the state against the scene too
    if (!world) return false;
    startState_ = std::move(scene.state);
    scene.state.reset();
    scene_ = std::move(scene);
    sourcePath_ = std::move(sourcePath);
    kernelHold_.reset();  // another document: its kernel is its own
    startWorld(std::move(world));
    return true;
}

void Simulation::startWorld(std::unique_ptr<World> world) {
    world_ = std::move(world);
    hasStepResults_ = false;
    ++sceneRevision_;
    restored_.clear();
    breaksSeen_ = 0;
    pull_.reset();
    worldStartStep_ = world_->stepCount();
    clock.resetTime();
    drag.reset();
    divergence_.reset();
    droppedRowJoints_.clear();
    telemetry_.clear();
    telemetryAhead_ = false;
    restartRecording();
    history_.start(*world_);
    historyScene_ = documentScene();
    shadow_.clear();
    editBranch_ = -1;
    if (onSync) onSync(*world_, true);
}

void Simulation::noteChange(HistoryMark kind, std::string what) {
    if (!world_) return;
    const int before = history_.currentBranch();
    history_.changed(*world_, kind, std::move(what));
    followLeftBranch(before);
    editBranch_ = -1;  // applyEdit says again when the change was its edit
    syncShadow(true);  // B starts again from the changed A
}

void Simulation::followLeftBranch(int before) {
    if (history_.currentBranch() != before) shadow_.followBranch(before);
}

void Simulation::syncShadow(bool jumped) {
    if (world_) shadow_.sync(*world_, history_, telemetry_.capacity(), jumped);
    if (world_ && onSync) onSync(*world_, jumped);
}

bool Simulation::startCompare(const std::string& changes, std::string& error) {
    if (!world_) {
        error = "nothing to compare: no scene is open";
        return false;
    }
    return shadow_.startCompare(*world_, changes, error);
}

bool Simulation::keepCompareB(std::string& error) {
    const World* b = shadow_.comparing() ? shadow_.world() : nullptr;
    if (!b) {
        error = "no compare is running";
        return false;
    }
    Scene scene = b->scene();
    const WorldSnapshot state = b->snapshot();
    shadow_.stopCompare();
    return adoptRun(std::move(scene), state, "kept B of the compare", error);
}

bool Simulation::swapCompare(std::string& error) {
    const World* b = shadow_.comparing() ? shadow_.world() : nullptr;
    if (!b) {
        error = "no compare is running";
        return false;
    }
    // B goes on as the old A: A's scene and state now, named by the changes that undo B's.
    const std::vector<FieldChange> back = shadow_.reversedChanges(world_->scene());
    const Scene oldScene = world_->scene();
    const WorldSnapshot oldState = world_->snapshot();
    Scene scene = b->scene();
    const WorldSnapshot state = b->snapshot();
    if (!adoptRun(std::move(scene), state, "swapped A and B of the compare", error)) return false;
    return shadow_.startCompareFrom(oldScene, oldState, back, error);
}

bool Simulation::adoptRun(Scene scene, const WorldSnapshot& state, const std::string& what,
                          std::string& error) {
    std::unique_ptr<World> world = buildWorld(scene, error);
    if (!world) return false;
    world->restore(state);
    world_ = std::move(world);
    hasStepResults_ = false;
    scene_ = std::move(scene);
    if (scene_.settings.kernel != KernelType::Reference) kernelHold_.reset();
    ++sceneRevision_;
    breaksSeen_ = world_->breakEvents().size();
    pull_.reset();
    divergence_.reset();
    droppedRowJoints_.clear();
    if (drag && scene_.findBody(drag->bodyName) < 0) drag.reset();
    if (startState_ && !validateScene(withState(scene_, startState_)).empty()) startState_.reset();
    restartRecording();
    noteChange(HistoryMark::Setting, what);
    return true;
}

void Simulation::noteDroppedRows() {
    for (int j : world_->jointsWithInactiveRows()) {
        const std::string& name = world_->scene().joints[static_cast<size_t>(j)].name;
        if (std::find(droppedRowJoints_.begin(), droppedRowJoints_.end(), name) == droppedRowJoints_.end())
            droppedRowJoints_.push_back(name);
    }
}

void Simulation::noteRowMarks() {
    const Scene& scene = world_->scene();
    if (rowMarkState_.size() != scene.joints.size()) rowMarkState_.assign(scene.joints.size(), 0);
    const int64_t step = world_->stepCount();
    for (size_t j = 0; j < scene.joints.size(); ++j) {
        const std::span<const Row> rows = world_->jointRows(static_cast<int>(j));
        const std::span<const RowResult> results = world_->jointRowResults(static_cast<int>(j));
        uint8_t now = 0;
        const char* limitLabel = "";
        for (size_t r = 0; r < rows.size() && r < results.size(); ++r) {
            const Row& row = rows[r];
            const RowResult& res = results[r];
            if (!res.active) now |= 4;
            if ((row.flags & kRowHasDriveLimit) && res.clamped) now |= 2;
            const bool oneSided = row.minImpulse == 0.0 || row.maxImpulse == 0.0;
            if (oneSided && !row.isSpring() && !(row.flags & kRowHasDriveLimit) && res.impulse != 0.0 &&
                !(now & 1))
                now |= 1, limitLabel = row.label;
        }
        const uint8_t started = now & ~rowMarkState_[j];
        rowMarkState_[j] = now;
        if (!started) continue;
        const std::string& name = scene.joints[j].name;
        if (started & 1)
            history_.mark(step, HistoryMark::LimitHit, "joint '" + name + "': " + limitLabel + " pushes");
        if (started & 2)
            history_.mark(step, HistoryMark::DriveSaturated,
                          "joint '" + name + "': drive at its force limit");
        if (started & 4)
            history_.mark(step, HistoryMark::RowDropped, "joint '" + name + "': a row was dropped");
    }
}

void Simulation::restartRecording() {
    inputLog_.clear();
    if (!world_) return;
    recordingScene_ = scene_;
    recordingStart_ = world_->snapshot();
}

Scene Simulation::documentScene() const {
    return withState(scene_, startState_);
}

Scene Simulation::snapshotScene() const {
    return withState(scene_, world_ ? std::optional<WorldSnapshot>(world_->snapshot()) : std::nullopt);
}

Scene Simulation::runScenario() const {
    return withState(recordingScene_, recordingStart_);
}

InputRecording Simulation::recording() const {
    InputRecording r;
    r.startStep = recordingStart_.stepCount;
    r.endStep = world_ ? world_->stepCount() : r.startStep;
    if (world_) r.finalStateHash = world_->stateHash();
    r.log = inputLog_;
    return r;
}

int64_t Simulation::stepsSinceStart() const {
    return world_ ? world_->stepCount() - worldStartStep_ : 0;
}

void Simulation::restoreJoint(int joint, bool freshMeasures) {
    if (!world_ || joint < 0 || static_cast<size_t>(joint) >= world_->scene().joints.size()) return;
    world_->restoreJoint(joint);
    if (freshMeasures) world_->resetJointMemory(joint);
    const std::string& name = world_->scene().joints[static_cast<size_t>(joint)].name;
    std::erase_if(restored_, [&](const Restored& r) { return r.joint == name; });
    restored_.push_back({name, world_->stepCount()});
    breaksSeen_ = world_->breakEvents().size();
    restartRecording();
    noteChange(HistoryMark::Restore, "joint '" + name + "' restored" + (freshMeasures ? " (re-seated)" : ""));
}

void Simulation::pullJointTogether(const std::string& joint, const Transform& seated0,
                                   const Transform& seated1, int steps) {
    if (!world_ || world_->scene().findJoint(joint) < 0) return;
    pull_ = Pull{joint, seated0, seated1, 0, std::max(1, steps)};
}

void Simulation::stepPull() {
    const int j = world_->scene().findJoint(pull_->joint);
    const int target = scene_.findJoint(pull_->joint);
    if (j < 0 || target < 0) {  // deleted meanwhile
        pull_.reset();
        return;
    }
    Pull& p = *pull_;
    ++p.step;
    const Real t = static_cast<Real>(p.step) / static_cast<Real>(p.steps);
    const JointDesc& goal = scene_.joints[static_cast<size_t>(target)];
    Scene next = world_->scene();
    JointDesc& d = next.joints[static_cast<size_t>(j)];
    d.frame0 = p.step >= p.steps ? goal.frame0 : blendFrames(p.seated0, goal.frame0, t);
    d.frame1 = p.step >= p.steps ? goal.frame1 : blendFrames(p.seated1, goal.frame1, t);
    const Scene previous = world_->scene();
    world_->applyScene(std::move(next), previous);
    noteChange(HistoryMark::Edit, "joint '" + p.joint + "' pulled together");
    if (p.step >= p.steps) {
        pull_.reset();
        restartRecording();  // the frames in between are not in the scene: a recording starts here
    }
}

void Simulation::noticeBreaks() {
    const std::vector<BreakEvent>& events = world_->breakEvents();
    for (; breaksSeen_ < events.size(); ++breaksSeen_) {
        const BreakEvent& e = events[breaksSeen_];
        if (e.joint < 0 || static_cast<size_t>(e.joint) >= world_->scene().joints.size()) continue;
        const JointDesc& joint = world_->scene().joints[static_cast<size_t>(e.joint)];
        history_.mark(e.step, HistoryMark::Break, "joint '" + joint.name + "' broke");
        const auto r = std::find_if(restored_.begin(), restored_.end(),
                                    [&](const Restored& x) { return x.joint == joint.name; });
        if (r == restored_.end()) continue;
        char text[320];
        std::snprintf(
            text, sizeof text,
            "joint '%s' broke again %lld step(s) after it was restored: force %.4g N (breaks at %.4g N), "
            "torque %.4g N·m (breaks at %.4g N·m)",
            joint.name.c_str(), static_cast<long long>(e.step - r->step), glm::length(e.force),
            joint.breakForce, glm::length(e.torque), joint.breakTorque);
        notices_.emplace_back(text);
        restored_.erase(r);
    }
}

bool Simulation::applyEdit(Scene edited, const Renames& bodyRenames, const Renames& jointRenames,
                           std::string& error) {
    if (std::string problem = validateScene(edited); !problem.empty()) {
        error = problem;
        return false;
    }
    if (!world_) {
        std::unique_ptr<World> world = buildWorld(edited, error);
        if (!world) return false;
        scene_ = std::move(edited);
        startState_.reset();
        startWorld(std::move(world));
        return true;
    }
    // World::applyScene matches by name: carry the state of renamed bodies and joints over.
    std::vector<std::pair<std::string, BodyState>> movedBodies;
    for (const auto& [from, to] : bodyRenames)
        if (int i = world_->scene().findBody(from); i >= 0) movedBodies.emplace_back(to, world_->bodies()[i]);
    std::vector<std::pair<std::string, bool>> movedJoints;
    for (const auto& [from, to] : jointRenames)
        if (int j = world_->scene().findJoint(from); j >= 0)
            movedJoints.emplace_back(to, world_->jointState(j).broken);
    const bool settingsChanged = settingsDiffer(edited.settings, scene_.settings);
    try {
        world_->applyScene(edited, scene_);
        hasStepResults_ = false;
    } catch (const std::exception& e) {
        error = std::string("cannot apply the edit: ") + e.what();
        return false;
    }
    for (const auto& [name, state] : movedBodies)
        if (int i = world_->scene().findBody(name); i >= 0) world_->setBodyState(i, state);
    for (const auto& [name, broken] : movedJoints)
        if (int j = world_->scene().findJoint(name); j >= 0) world_->setJointBroken(j, broken);
    for (const auto& [from, to] : jointRenames)
        for (Restored& r : restored_)
            if (r.joint == from) r.joint = to;
    if (pull_)
        for (const auto& [from, to] : jointRenames)
            if (pull_->joint == from) pull_->joint = to;
    scene_ = std::move(edited);
    if (scene_.settings.kernel != KernelType::Reference) kernelHold_.reset();  // a kernel chosen
    droppedRowJoints_.clear();  // the edit may have fixed it; the next step says again if not
    ++sceneRevision_;
    if (drag && scene_.findBody(drag->bodyName) < 0) drag.reset();
    // The start state stays only while it still describes this scene's bodies and joints.
    if (startState_ && !validateScene(withState(scene_, startState_)).empty()) startState_.reset();
    restartRecording();
    // Undo of this edit goes back to the branch it left when it started one (undoBranch); a
    // gesture's later edits at that step and branch (a slider dragged) keep that so.
    const int branchBefore = history_.currentBranch();
    const bool sameGesture =
        editBranch_ == branchBefore && editBranchStep_ == world_->stepCount() && editBranch_ >= 0;
    noteChange(settingsChanged ? HistoryMark::Setting : HistoryMark::Edit,
               settingsChanged ? "settings changed" : "scene edited");
    if (history_.currentBranch() != branchBefore || sameGesture) {
        editBranch_ = history_.currentBranch();
        editBranchStep_ = world_->stepCount();
    }
    return true;
}

bool Simulation::loadFile(const std::string& path, std::string& error) {
    Scene loaded;
    if (!loadScenario(path, loaded, error)) return false;
    if (!setScene(std::move(loaded), path, error)) return false;
    // A history saved beside it ("Save run with its history", jointlab run --history) brings the
    // timeline back; one that does not fit is refused with the reason, and the scene opens alone.
    const std::string historyPath = historyPathFor(path);
    std::error_code ec;
    if (!std::filesystem::exists(historyPath, ec)) return true;
    History saved;
    std::string problem;
    if (!loadHistory(historyPath, historyScene_, saved, problem)) {
        historyNote_ = HistoryNote{"the history beside it was not used: " + problem, true};
        return true;
    }
    history_ = std::move(saved);
    historyNote_ = HistoryNote{"opened with its history: steps " + std::to_string(history_.firstStep()) +
                                   " to " + std::to_string(history_.lastStep()) +
                                   "; play retakes it, the timeline goes anywhere in it",
                               false};
    return true;
}

bool Simulation::reset(std::string& error) {
    std::unique_ptr<World> world = buildWorld(documentScene(), error);
    if (!world) return false;
    startWorld(std::move(world));
    return true;
}

bool Simulation::resetToSetUp(std::string& error) {
    std::unique_ptr<World> world = buildWorld(scene_, error);
    if (!world) return false;
    dropStartState();
    startWorld(std::move(world));
    return true;
}

int Simulation::advance(double frameSeconds) {
    if (!world_) return 0;
    syncTelemetry();
    int steps = clock.stepsForFrame(frameSeconds, world_->settings().dt);
    for (int i = 0; i < steps; ++i) {
        if (telemetryAhead_) {  // scrubbed back: the record's later steps are another future now
            telemetry_.clear();
            shadow_.clearRecord();
            telemetryAhead_ = false;
        }
        if (pull_) stepPull();
        if (drag) {
            const size_t before = inputLog_.events().size();
            applyDragSpring(*world_, *drag, inputLog_);
            const int branch = history_.currentBranch();
            for (size_t k = before; k < inputLog_.events().size(); ++k) {
                const InputEvent& e = inputLog_.events()[k];
                history_.recordForce(*world_, e.body, e.force, e.worldPoint);
                shadow_.applyForce(e.body, e.force, e.worldPoint);
            }
            if (history_.currentBranch() != branch) {  // a pull at a past step starts a branch
                followLeftBranch(branch);
                editBranch_ = -1;
            }
        }
        // Inside the history (played on after going back): its recorded future is retaken.
        if (world_->stepCount() < history_.lastStep()) {
            if (history_.changeAt(world_->stepCount())) {
                adoptHistoryWorld(history_.worldAt(world_->stepCount()));
                syncShadow(true);  // a retaken edit starts B again, as the edit itself did
            }
            history_.replayForces(*world_);
            shadow_.replayForces(history_);
        }
        // Only the step is timed, and the clock reading cannot change what the step computes.
        const auto start = std::chrono::steady_clock::now();
        world_->step();
        hasStepResults_ = true;
        const std::chrono::duration<double, std::milli> stepTime = std::chrono::steady_clock::now() - start;
        history_.stepped(*world_);
        if (const Divergence* d = world_->divergence()) {
            // The World put the bodies back to where they were before this step. Running on would
            // fail the same way (or spin): stop here and let the user see which joint did it.
            divergence_ = *d;
            ++divergenceCount_;
            clock.playing = false;
            clock.resetTime();
            drag.reset();  // the user's hand is off the body: resuming does not pull again at once
            // The failed step changed warm starts and tracked angles but not the bodies, so a
            // recording across it would not replay bit for bit: the recording starts again here.
            restartRecording();
            return i;
        }
        divergence_.reset();  // a step went through: whatever diverged before does not any more
        noteDroppedRows();
        PullSample pull;  // the mouse spring, recorded with the step so that the Plots panel can show it
        if (drag && drag->body >= 0) pull = PullSample{true, drag->body, drag->force, drag->maxForce};
        telemetry_.record(*world_, stepTime.count(), pull);
        syncShadow(false);
        noteRowMarks();
        noticeBreaks();
    }
    return steps;
}

void Simulation::syncTelemetry() {
    const Scene& scene = world_->scene();
    const size_t capacity =
        static_cast<size_t>(std::max(1.0, std::round(telemetrySeconds_ / scene.settings.dt)));
    if (capacity != telemetry_.capacity()) {
        telemetry_.setCapacity(capacity);
        ++telemetryLayout_;
    }
    bool sameBodies = telemetryBodies_.size() == scene.bodies.size();
    for (size_t b = 0; sameBodies && b < scene.bodies.size(); ++b)
        sameBodies = telemetryBodies_[b] == scene.bodies[b].name;
    if (!sameBodies) {  // contact forces are recorded per body index: drop them, never misattribute
        telemetry_.forgetContactForces();
        telemetryBodies_.clear();
        for (const BodyDesc& b : scene.bodies) telemetryBodies_.push_back(b.name);
        ++telemetryLayout_;
    }
    bool same = telemetryJoints_.size() == scene.joints.size();
    for (size_t j = 0; same && j < scene.joints.size(); ++j)
        same = telemetryJoints_[j] == scene.joints[j].name;
    if (same) return;
    // The joints changed: each recorded joint keeps its history under its new index (matched by
    // name; a renamed joint is a new one), so deleting one body leaves the other plots alone.
    const NameIndex now(scene.joints);
    std::vector<int> newIndex(telemetryJoints_.size(), -1);
    for (size_t j = 0; j < telemetryJoints_.size(); ++j) newIndex[j] = now.find(telemetryJoints_[j]);
    telemetry_.remapJoints(newIndex, scene.joints.size());
    ++telemetryLayout_;
    telemetryJoints_.clear();
    for (const JointDesc& j : scene.joints) telemetryJoints_.push_back(j.name);
}

}  // namespace jl::app
