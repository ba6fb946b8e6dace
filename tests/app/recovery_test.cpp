// Autosave and crash recovery (issue 10 item 5): the timer, where recovery files go (never the
// user's file), what they hold, and finding, skipping and deleting them.
#include "session/recovery.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "session/default_scene.h"
#include "session/simulation.h"

namespace jl::app {
namespace {

namespace fs = std::filesystem;

/// A fresh empty folder under the test's temp dir, removed at the end.
struct TempDir {
    fs::path path;
    explicit TempDir(const char* name) {
        path = fs::temp_directory_path() /
               (std::string("jointlab_recovery_") + name + "_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

AutosaveTimer::Work work(bool unsaved, uint64_t revision, int64_t stepsRun, int64_t step) {
    AutosaveTimer::Work w;
    w.unsaved = unsaved;
    w.revision = revision;
    w.stepsRun = stepsRun;
    w.step = step;
    return w;
}

// [SECTION] The timer

TEST(AutosaveTimer, DueEveryIntervalOnlyWhenThereIsWorkToLose) {
    AutosaveTimer timer;  // the default: 2 minutes
    EXPECT_EQ(timer.interval(), 120.0);
    timer.restart(1000.0);
    const auto edited = work(true, 7, 0, 0);
    EXPECT_FALSE(timer.due(1000.0 + 119.9, edited));  // not before the interval
    EXPECT_TRUE(timer.due(1000.0 + 120.0, edited));
    // A clean scene that has not run has nothing a crash would lose.
    EXPECT_FALSE(timer.due(5000.0, work(false, 7, 0, 0)));
    // A clean scene whose simulation advanced has: the run.
    EXPECT_TRUE(timer.due(5000.0, work(false, 7, 30, 30)));

    timer.saved(1120.0, edited);
    EXPECT_FALSE(timer.due(1120.0 + 119.0, work(true, 8, 0, 0)));  // the interval starts again
    EXPECT_FALSE(timer.due(1120.0 + 500.0, edited));               // nothing changed since the autosave
    EXPECT_TRUE(timer.due(1120.0 + 120.0, work(true, 8, 0, 0)));   // an edit
    EXPECT_TRUE(timer.due(1120.0 + 120.0, work(true, 7, 5, 5)));   // the simulation advanced
}

TEST(AutosaveTimer, IntervalIsInjectableAndZeroMeansNever) {
    AutosaveTimer fast(0.5);
    fast.restart(0.0);
    EXPECT_FALSE(fast.due(0.49, work(true, 1, 0, 0)));
    EXPECT_TRUE(fast.due(0.5, work(true, 1, 0, 0)));
    AutosaveTimer off(0.0);
    off.restart(0.0);
    EXPECT_FALSE(off.due(1e9, work(true, 1, 100, 100)));
    off.setInterval(-1.0);
    EXPECT_FALSE(off.due(1e9, work(true, 1, 100, 100)));
}

TEST(AutosaveTimer, RestartForgetsTheLastAutosave) {
    AutosaveTimer timer(10.0);
    timer.restart(0.0);
    const auto w = work(true, 3, 0, 0);
    timer.saved(10.0, w);
    EXPECT_FALSE(timer.due(100.0, w));
    timer.restart(100.0);  // e.g. another document was opened with the same revision number
    EXPECT_TRUE(timer.due(110.0, w));
}

// [SECTION] Where recovery files go

TEST(RecoveryPath, NeverTheUsersFile) {
    TempDir dir("path");
    const std::string docs[] = {"/home/ana/scenes/door.json", "door.json", "relative/dir/../door.json",
                                dir / "door.json"};
    for (const std::string& doc : docs) {
        const std::string p = recoveryPathFor(dir.path.string(), doc, 4711);
        EXPECT_NE(fs::weakly_canonical(fs::absolute(p)), fs::weakly_canonical(fs::absolute(doc))) << doc;
        EXPECT_EQ(fs::path(p).parent_path(), dir.path) << doc;
        EXPECT_EQ(fs::path(p).extension(), ".json");
        EXPECT_NE(p.find("door"), std::string::npos) << "the name says which document: " << p;
    }
    // A document named exactly like its recovery file, in the recovery folder: still another file.
    const std::string clash = recoveryPathFor(dir.path.string(), dir / "x.json", 1);
    const std::string named = recoveryPathFor(dir.path.string(), clash, 1);
    EXPECT_NE(named, clash);
    // A document that is the recovery file's backup is not touched either.
    const std::string bak = recoveryPathFor(dir.path.string(), dir / "y.json", 1) + ".bak";
    EXPECT_NE(recoveryPathFor(dir.path.string(), bak, 1) + ".bak", bak);
}

TEST(RecoveryPath, KeyedByDocumentAndProcess) {
    const std::string dir = "/tmp/r";
    EXPECT_NE(recoveryPathFor(dir, "/a/door.json", 1), recoveryPathFor(dir, "/b/door.json", 1));
    EXPECT_NE(recoveryPathFor(dir, "/a/door.json", 1), recoveryPathFor(dir, "/a/door.json", 2));
    EXPECT_EQ(recoveryPathFor(dir, "/a/door.json", 1), recoveryPathFor(dir, "/a/./door.json", 1));
    EXPECT_EQ(recoveryPathFor(dir, "", 42), "/tmp/r/untitled-42.json");
    // Odd characters in the name stay out of the file name.
    const std::string odd = fs::path(recoveryPathFor(dir, "/a/my door;$(x).json", 1)).filename().string();
    EXPECT_EQ(odd.find_first_of(" ;$()"), std::string::npos) << odd;
}

TEST(RecoveryPath, DefaultFolderFollowsXdgStateHome) {
    const char* old = std::getenv("XDG_STATE_HOME");
    const std::string saved = old ? old : "";
    ::setenv("XDG_STATE_HOME", "/tmp/state-test", 1);
    EXPECT_EQ(defaultRecoveryDir(), "/tmp/state-test/jointlab/recovery");
    ::unsetenv("XDG_STATE_HOME");
    if (const char* home = std::getenv("HOME"); home && *home) {
        EXPECT_EQ(defaultRecoveryDir(), std::string(home) + "/.local/state/jointlab/recovery");
    }
    if (old) ::setenv("XDG_STATE_HOME", saved.c_str(), 1);
}

// [SECTION] What a recovery file holds

/// The showcase after 90 steps, with the run state in it.
Scene runningShowcase(uint64_t* hashAfter30More = nullptr) {
    World w(makeBuiltInShowcase());
    for (int i = 0; i < 90; ++i) w.step();
    Scene s = w.scene();
    s.state = w.snapshot();
    if (hashAfter30More) {
        for (int i = 0; i < 30; ++i) w.step();
        *hashAfter30More = w.stateHash();
    }
    return s;
}

RecoveryInfo infoFor(const std::string& document, int64_t when, long pid) {
    RecoveryInfo info;
    info.document = document;
    info.autosavedAt = when;
    info.pid = pid;
    return info;
}

TEST(RecoveryFile, IsAScenarioThatContinuesTheRunAndSaysWhatItIs) {
    TempDir dir("file");
    uint64_t expected = 0;
    const Scene scene = runningShowcase(&expected);
    const std::string path = recoveryPathFor(dir.path.string(), "/home/ana/door.json", 4711);
    std::string error;
    ASSERT_TRUE(writeRecoveryFile(path, scene, infoFor("/home/ana/door.json", 1795336800, 4711), error))
        << error;

    // Any JointLab opens it as an ordinary scenario, and it continues the run bit for bit.
    Scene plain;
    ASSERT_TRUE(loadScenario(path, plain, error)) << error;
    World continued(plain);
    EXPECT_EQ(continued.stepCount(), 90);
    for (int i = 0; i < 30; ++i) continued.step();
    EXPECT_EQ(continued.stateHash(), expected);

    Scene read;
    RecoveryInfo info;
    ASSERT_TRUE(readRecoveryFile(path, read, info, error)) << error;
    EXPECT_EQ(info.path, path);
    EXPECT_EQ(info.document, "/home/ana/door.json");
    EXPECT_EQ(info.autosavedAt, 1795336800);
    EXPECT_EQ(info.pid, 4711);
    EXPECT_FALSE(info.documentHasState);
    EXPECT_EQ(info.step, 90);
    EXPECT_EQ(info.bodies, scene.bodies.size());
    EXPECT_EQ(info.joints, scene.joints.size());
    EXPECT_EQ(serializeScenario(read), serializeScenario(plain));
}

TEST(RecoveryFile, APlainScenarioIsNotARecoveryFile) {
    TempDir dir("plain");
    std::string error;
    ASSERT_TRUE(saveScenario(dir / "plain.json", makeBuiltInShowcase(), error)) << error;
    Scene scene = makeEmptyScene();
    const std::string before = serializeScenario(scene);
    RecoveryInfo info;
    EXPECT_FALSE(readRecoveryFile(dir / "plain.json", scene, info, error));
    EXPECT_NE(error.find("app.recovery: missing"), std::string::npos) << error;
    EXPECT_EQ(serializeScenario(scene), before);  // nothing changed
}

TEST(RecoveryFile, AFailedWriteSaysWhyAndCrashesNothing) {
    TempDir dir("fail");
    std::ofstream(dir / "blocker") << "a file where the folder should be";
    std::string error;
    EXPECT_FALSE(
        writeRecoveryFile(dir / "blocker/sub/x.json", makeBuiltInShowcase(), infoFor("", 1, 1), error));
    EXPECT_FALSE(error.empty());
}

TEST(RecoveryFile, RecoverContinuesTheRunAsTheUsersDocument) {
    TempDir dir("recover");
    uint64_t expected = 0;
    const Scene scene = runningShowcase(&expected);  // autosaved at step 90
    const std::string path = recoveryPathFor(dir.path.string(), "/home/ana/door.json", 4711);
    std::string error;
    ASSERT_TRUE(writeRecoveryFile(path, scene, infoFor("/home/ana/door.json", 1795336800, 4711), error))
        << error;

    Simulation sim;
    RecoveryInfo info;
    ASSERT_TRUE(openRecoveryFile(sim, path, info, error)) << error;
    EXPECT_EQ(sim.sourcePath(), "/home/ana/door.json") << "Save writes the user's file, once asked to";
    EXPECT_EQ(sim.world()->stepCount(), 90);
    sim.clock.fixedStepsPerFrame = 1;
    for (int i = 0; i < 30; ++i) sim.advance(1.0 / 60.0);
    EXPECT_EQ(sim.world()->stateHash(), expected);
    // The user's file had no saved state: the recovered document does not get one either.
    EXPECT_FALSE(sim.startState().has_value());
    EXPECT_FALSE(sim.documentScene().state.has_value());
    ASSERT_TRUE(sim.reset(error)) << error;
    EXPECT_EQ(sim.world()->stepCount(), 0);

    // A document that was itself a mid-run save keeps starting from a state.
    RecoveryInfo withState = infoFor("/home/ana/snap.json", 1795336800, 4712);
    withState.documentHasState = true;
    const std::string second = recoveryPathFor(dir.path.string(), "/home/ana/snap.json", 4712);
    ASSERT_TRUE(writeRecoveryFile(second, scene, withState, error)) << error;
    Simulation snap;
    ASSERT_TRUE(openRecoveryFile(snap, second, info, error)) << error;
    EXPECT_TRUE(info.documentHasState);
    ASSERT_TRUE(snap.startState().has_value());
    ASSERT_TRUE(snap.reset(error)) << error;
    EXPECT_EQ(snap.world()->stepCount(), 90);

    // A damaged recovery file is refused and the open scene stays as it was.
    std::ofstream(dir / "bad.json") << "{\"format\": \"jointlab-scenario\", \"version\": 2, \"bodies\": 3}";
    const std::string before = serializeScenario(snap.documentScene());
    EXPECT_FALSE(openRecoveryFile(snap, dir / "bad.json", info, error));
    EXPECT_NE(error.find("bodies"), std::string::npos) << error;
    EXPECT_EQ(serializeScenario(snap.documentScene()), before);
    EXPECT_EQ(snap.sourcePath(), "/home/ana/snap.json");
}

// [SECTION] Finding them after a crash, and discarding them

TEST(RecoveryFiles, FoundNewestFirstSkippingLiveSessionsAndOtherFiles) {
    TempDir dir("find");
    const Scene scene = runningShowcase();
    std::string error;
    const std::string older = recoveryPathFor(dir.path.string(), "/a/one.json", 101);
    const std::string newer = recoveryPathFor(dir.path.string(), "", 102);
    const std::string live = recoveryPathFor(dir.path.string(), "/a/two.json", 103);
    ASSERT_TRUE(writeRecoveryFile(older, scene, infoFor("/a/one.json", 1000, 101), error)) << error;
    ASSERT_TRUE(writeRecoveryFile(newer, scene, infoFor("", 2000, 102), error)) << error;
    ASSERT_TRUE(writeRecoveryFile(live, scene, infoFor("/a/two.json", 3000, 103), error)) << error;
    ASSERT_TRUE(writeRecoveryFile(newer, scene, infoFor("", 2000, 102), error)) << error;  // leaves a .bak
    std::ofstream(dir / "junk.json") << "{ not json";
    ASSERT_TRUE(saveScenario(dir / "plain.json", scene, error));

    const auto found = findRecoveryFiles(dir.path.string(), [](long pid) { return pid == 103; });
    ASSERT_EQ(found.size(), 2u);  // not the live session's, not the junk, not the plain scenario, no .bak
    EXPECT_EQ(found[0].path, newer);
    EXPECT_EQ(found[0].document, "");
    EXPECT_EQ(found[1].path, older);
    EXPECT_EQ(found[1].document, "/a/one.json");

    // Discard deletes the file and what its saves left next to it; the others stay.
    ASSERT_TRUE(fs::exists(newer + ".bak"));
    std::ofstream(newer + ".a1B2c3.tmp") << "an interrupted save's temporary (mkstemp's PATH.XXXXXX.tmp)";
    std::ofstream(newer + ".notes.tmp") << "not a temporary of ours: kept";
    removeRecoveryFile(newer);
    EXPECT_FALSE(fs::exists(newer));
    EXPECT_FALSE(fs::exists(newer + ".bak"));
    EXPECT_FALSE(fs::exists(newer + ".a1B2c3.tmp"));
    EXPECT_TRUE(fs::exists(newer + ".notes.tmp"));
    fs::remove(newer + ".notes.tmp");
    const auto after = findRecoveryFiles(dir.path.string(), [](long) { return false; });
    ASSERT_EQ(after.size(), 2u);  // the older one and the (now not live) third
    EXPECT_EQ(after[0].path, live);
    EXPECT_EQ(after[1].path, older);
    EXPECT_TRUE(findRecoveryFiles((dir / "missing")).empty());
    EXPECT_TRUE(findRecoveryFiles("").empty());
}

TEST(RecoveryFiles, ThisProcessCountsAsRunningAndADeadOneDoesNot) {
    EXPECT_FALSE(processIsRunning(0));
    EXPECT_FALSE(processIsRunning(-5));
    EXPECT_FALSE(processIsRunning(999999999));
    // This test binary is jointlab_app_tests: a running jointlab* program, so it counts.
    EXPECT_TRUE(processIsRunning(static_cast<long>(::getpid())));
}

}  // namespace
}  // namespace jl::app
