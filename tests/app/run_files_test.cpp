// The app's mid-run files (issue 10 items 4 and 5) through its Simulation object: a snapshot saved
// mid-run reopens and continues bit for bit; Reset of a snapshot returns to it; the mouse spring's
// forces are recorded, and a saved run replays to the live session's state hash, also through
// `jointlab run --input`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "editor/commands.h"
#include "jointlab/input_log_io.h"
#include "jointlab/scenario_io.h"
#include "session/default_scene.h"
#include "session/simulation.h"

namespace jl::app {
namespace {

namespace fs = std::filesystem;

std::string tempPath(const std::string& name) {
    return (fs::temp_directory_path() / ("jointlab_run_files_" + std::to_string(::getpid()) + "_" + name))
        .string();
}

/// The showcase, stepping once per advance() like screenshot mode.
void open(Simulation& sim, const Scene& scene) {
    std::string error;
    ASSERT_TRUE(sim.setScene(scene, "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
}

int firstDynamicBody(const Scene& scene) {
    for (size_t i = 0; i < scene.bodies.size(); ++i)
        if (scene.bodies[i].motion == MotionType::Dynamic) return static_cast<int>(i);
    return -1;
}

/// The user grabs a body at its centre and drags it around a circle for `steps` steps.
void dragAround(Simulation& sim, int steps) {
    const World& w = *sim.world();
    const int body = firstDynamicBody(w.scene());
    const Vec3 start = w.bodies()[static_cast<size_t>(body)].pose.p + Vec3(0.05, 0.0, 0.0);
    sim.drag = makeDragSpring(w, body, start);
    for (int i = 0; i < steps; ++i) {
        const Real a = 0.05 * i;
        sim.drag->target = start + Vec3(0.6 * std::sin(a), 0.4 * (1.0 - std::cos(a)), 0.2 * std::sin(2 * a));
        sim.advance(1.0 / 60.0);
    }
    sim.drag.reset();  // let go
}

uint64_t hashOf(const Simulation& sim) {
    return sim.world()->stateHash();
}

// [SECTION] Snapshots

TEST(SnapshotFile, SavedMidRunReopensAndContinuesBitIdentically) {
    Simulation live;
    open(live, makeBuiltInShowcase());
    for (int i = 0; i < 60; ++i) live.advance(1.0 / 60.0);
    dragAround(live, 60);  // the snapshot carries what the drag did
    const std::string path = tempPath("snapshot.json");
    std::string error;
    ASSERT_TRUE(saveScenario(path, live.snapshotScene(), error)) << error;

    Simulation reopened;
    ASSERT_TRUE(reopened.loadFile(path, error)) << error;
    reopened.clock.fixedStepsPerFrame = 1;
    ASSERT_TRUE(reopened.startState().has_value());
    EXPECT_FALSE(reopened.scene().state.has_value()) << "the editor edits descriptions only";
    EXPECT_EQ(reopened.world()->stepCount(), 120);
    EXPECT_EQ(hashOf(reopened), hashOf(live));
    for (int i = 0; i < 300; ++i) {
        live.advance(1.0 / 60.0);
        reopened.advance(1.0 / 60.0);
        ASSERT_EQ(hashOf(reopened), hashOf(live)) << "step " << live.world()->stepCount();
    }
    // Save of the reopened document writes the same file again: descriptions and start state.
    Scene again;
    ASSERT_TRUE(loadScenario(path, again, error)) << error;
    EXPECT_EQ(serializeScenario(reopened.documentScene()), serializeScenario(again));
    fs::remove(path);
}

TEST(SnapshotFile, ResetReturnsToTheSnapshotAndResetToSetUpToTimeZero) {
    Simulation live;
    open(live, makeBuiltInShowcase());
    for (int i = 0; i < 90; ++i) live.advance(1.0 / 60.0);
    const uint64_t atSnapshot = hashOf(live);
    Simulation doc;
    std::string error;
    ASSERT_TRUE(doc.setScene(live.snapshotScene(), "snap.json", error)) << error;
    doc.clock.fixedStepsPerFrame = 1;
    for (int i = 0; i < 50; ++i) doc.advance(1.0 / 60.0);
    EXPECT_EQ(doc.stepsSinceStart(), 50);

    // Reset: back to where the file starts, as reopening it would.
    ASSERT_TRUE(doc.reset(error)) << error;
    EXPECT_EQ(doc.world()->stepCount(), 90);
    EXPECT_EQ(hashOf(doc), atSnapshot);
    EXPECT_EQ(doc.stepsSinceStart(), 0);
    ASSERT_TRUE(doc.startState().has_value());

    // Reset to the set-up: the descriptions at t = 0, and the state is gone from the document.
    ASSERT_TRUE(doc.resetToSetUp(error)) << error;
    EXPECT_EQ(doc.world()->stepCount(), 0);
    EXPECT_EQ(hashOf(doc), World(makeBuiltInShowcase()).stateHash());
    EXPECT_FALSE(doc.startState().has_value());
    EXPECT_FALSE(doc.documentScene().state.has_value());
    ASSERT_TRUE(doc.reset(error)) << error;
    EXPECT_EQ(doc.world()->stepCount(), 0);  // and Reset now means t = 0
}

TEST(SnapshotFile, AnEditKeepsTheStartStateWhileItFitsTheScene) {
    Simulation live;
    open(live, makeBuiltInShowcase());
    for (int i = 0; i < 30; ++i) live.advance(1.0 / 60.0);
    Simulation doc;
    std::string error;
    ASSERT_TRUE(doc.setScene(live.snapshotScene(), "snap.json", error)) << error;
    const int body = firstDynamicBody(doc.scene());

    Scene heavier = doc.scene();
    heavier.bodies[static_cast<size_t>(body)].mass *= 2.0;
    ASSERT_TRUE(doc.applyEdit(heavier, {}, {}, error)) << error;
    EXPECT_TRUE(doc.startState().has_value()) << "a changed mass still fits the saved state";
    ASSERT_TRUE(doc.reset(error)) << error;
    EXPECT_EQ(doc.world()->stepCount(), 30);

    Scene more = doc.scene();
    BodyDesc extra = more.bodies[static_cast<size_t>(body)];
    extra.name = "extra body";
    extra.position += Vec3(3, 0, 0);
    more.bodies.push_back(extra);
    ASSERT_TRUE(doc.applyEdit(more, {}, {}, error)) << error << " (an edit of a snapshot is not refused)";
    EXPECT_FALSE(doc.startState().has_value()) << "a new body does not fit the saved state";
    ASSERT_TRUE(doc.reset(error)) << error;
    EXPECT_EQ(doc.world()->stepCount(), 0);
}

// [SECTION] Recorded mouse input

TEST(RecordedRun, TheMouseSpringIsRecordedEveryStepItPulls) {
    Simulation sim;
    open(sim, makeBuiltInShowcase());
    for (int i = 0; i < 10; ++i) sim.advance(1.0 / 60.0);
    EXPECT_TRUE(sim.recording().log.empty());
    dragAround(sim, 40);
    const InputRecording r = sim.recording();
    EXPECT_EQ(r.startStep, 0);
    EXPECT_EQ(r.endStep, 50);
    ASSERT_FALSE(r.log.empty());
    EXPECT_EQ(r.log.events().front().step, 10);
    EXPECT_EQ(r.log.events().back().step, 49);
    int64_t steps = 0, last = -1;
    for (const InputEvent& e : r.log.events())
        if (e.step != last) ++steps, last = e.step;
    EXPECT_EQ(steps, 40) << "every step of the drag";
    EXPECT_EQ(*r.finalStateHash, hashOf(sim));

    // Reset starts a new recording.
    std::string error;
    ASSERT_TRUE(sim.reset(error)) << error;
    EXPECT_TRUE(sim.recording().log.empty());
}

/// A live session with drags and an edit in between, saved with "Save run".
struct SavedRun {
    std::string scenario, log;
    uint64_t liveHash = 0;
    int64_t steps = 0;
};

SavedRun recordSession(const std::string& name) {
    Simulation live;
    open(live, makeBuiltInShowcase());
    for (int i = 0; i < 30; ++i) live.advance(1.0 / 60.0);
    dragAround(live, 90);
    // The user turns the solver over to TGS mid-run: the recording restarts from here.
    Scene tgs = live.scene();
    tgs.settings.solver = SolverType::TGS;
    std::string error;
    EXPECT_TRUE(live.applyEdit(tgs, {}, {}, error)) << error;
    for (int i = 0; i < 20; ++i) live.advance(1.0 / 60.0);
    dragAround(live, 120);
    for (int i = 0; i < 40; ++i) live.advance(1.0 / 60.0);

    SavedRun run;
    run.scenario = tempPath(name + ".json");
    run.log = inputLogPathFor(run.scenario);
    const Scene start = live.runScenario();
    const InputRecording recording = live.recording();
    EXPECT_EQ(recording.startStep, 120);
    EXPECT_TRUE(saveScenario(run.scenario, start, error)) << error;
    EXPECT_TRUE(saveInputRecording(run.log, recording, start, error)) << error;
    run.liveHash = hashOf(live);
    run.steps = recording.endStep - recording.startStep;
    return run;
}

TEST(RecordedRun, ReplayingASavedDragSessionGivesTheLiveFinalStateHash) {
    const SavedRun run = recordSession("replay");
    EXPECT_EQ(run.log, run.scenario.substr(0, run.scenario.size() - 5) + ".input.json");
    Scene scene;
    InputRecording recording;
    std::string error;
    ASSERT_TRUE(loadScenario(run.scenario, scene, error)) << error;
    ASSERT_TRUE(loadInputRecording(run.log, scene, recording, error)) << error;
    EXPECT_EQ(*recording.finalStateHash, run.liveHash);

    World replay(scene);
    World idle(scene);
    for (int64_t i = 0; i < run.steps; ++i) {
        recording.log.replay(replay);
        replay.step();
        idle.step();
    }
    EXPECT_EQ(replay.stateHash(), run.liveHash);
    EXPECT_NE(idle.stateHash(), run.liveHash) << "without the input the run differs: the test is not vacuous";
    fs::remove(run.scenario);
    fs::remove(run.log);
}

/// Runs a command, returning its exit status and standard output.
int runCommand(const std::string& command, std::string& output) {
    const std::string outPath = tempPath("cmd.out");
    const int status = std::system((command + " > " + outPath + " 2>&1").c_str());
    std::ifstream in(outPath);
    std::stringstream text;
    text << in.rdbuf();
    output = text.str();
    fs::remove(outPath);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(RecordedRun, JointlabRunInputReplaysItAndChecksTheHash) {
    const SavedRun run = recordSession("cli");
    const std::string exe = JOINTLAB_EXE;
    std::string out;
    char hash[32];
    std::snprintf(hash, sizeof hash, "0x%016llx", static_cast<unsigned long long>(run.liveHash));
    EXPECT_EQ(runCommand(exe + " run " + run.scenario + " --input " + run.log, out), 0) << out;
    EXPECT_NE(out.find(std::string(hash) + ", the same as the recorded run"), std::string::npos) << out;
    EXPECT_NE(out.find("jointlab run: replayed "), std::string::npos) << out;
    EXPECT_NE(out.find("state hash at step " + std::to_string(120 + run.steps)), std::string::npos) << out;

    // A log that does not belong to the file is refused before anything runs.
    const std::string other = tempPath("other.json");
    std::string error;
    ASSERT_TRUE(saveScenario(other, makeBuiltInShowcase(), error)) << error;
    EXPECT_EQ(runCommand(exe + " run " + other + " --input " + run.log, out), 2) << out;
    EXPECT_NE(out.find("startStep: 120 does not match the scenario, which starts at step 0"),
              std::string::npos)
        << out;
    // Another solver: the replay differs, and says so, without failing (it was asked for).
    EXPECT_EQ(runCommand(exe + " run " + run.scenario + " --input " + run.log + " --solver pgs", out), 0)
        << out;
    EXPECT_NE(out.find("NOT the recorded run's"), std::string::npos) << out;
    for (const std::string& f : {run.scenario, run.log, other}) fs::remove(f);
}

// A log made by another engine version (jointlab/engine_version.h) whose hash this build does not
// reach: the replay says why instead of only that it differs. A log without the field is version
// 1. The same version with another hash is a replay that really differs.
TEST(RecordedRun, ReplayOfAnotherEngineVersionSaysSo) {
    const SavedRun run = recordSession("version");
    const std::string exe = JOINTLAB_EXE;
    Scene scene;
    InputRecording recording;
    std::string error, out;
    ASSERT_TRUE(loadScenario(run.scenario, scene, error)) << error;
    ASSERT_TRUE(loadInputRecording(run.log, scene, recording, error)) << error;
    recording.finalStateHash = run.liveHash ^ 0x5a5a;  // what an older engine reached
    const std::string thisBuild = ", this build is " + std::to_string(kEngineResultsVersion) + ")";

    recording.engineVersion = 1;
    ASSERT_TRUE(saveInputRecording(run.log, recording, scene, error)) << error;
    EXPECT_EQ(runCommand(exe + " run " + run.scenario + " --input " + run.log, out), 3) << out;
    EXPECT_NE(out.find("NOT the recorded run's: recorded with another engine version (1" + thisBuild),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("the log was recorded with another engine version (1" + thisBuild), std::string::npos)
        << out;
    EXPECT_EQ(out.find("diverged"), std::string::npos) << out;

    std::string text = serializeInputRecording(recording, scene);  // as written before the field existed
    const size_t at = text.find("  \"engineVersion\"");
    text.erase(at, text.find('\n', at) + 1 - at);
    { std::ofstream(run.log) << text; }
    EXPECT_EQ(runCommand(exe + " run " + run.scenario + " --input " + run.log, out), 3) << out;
    EXPECT_NE(out.find("recorded with another engine version (1" + thisBuild), std::string::npos) << out;

    recording.engineVersion = kEngineResultsVersion;
    ASSERT_TRUE(saveInputRecording(run.log, recording, scene, error)) << error;
    EXPECT_EQ(runCommand(exe + " run " + run.scenario + " --input " + run.log, out), 3) << out;
    EXPECT_NE(out.find("the replay ended in another state than the recording"), std::string::npos) << out;
    EXPECT_EQ(out.find("engine version"), std::string::npos) << out;
    for (const std::string& f : {run.scenario, run.log, run.log + ".bak"}) fs::remove(f);
}

TEST(RecordedRun, InputLogPathIsNextToTheScenario) {
    EXPECT_EQ(inputLogPathFor("runs/door.json"), "runs/door.input.json");
    EXPECT_EQ(inputLogPathFor("door"), "door.input.json");
    EXPECT_EQ(inputLogPathFor(".json"), ".json.input.json");
}

}  // namespace
}  // namespace jl::app
