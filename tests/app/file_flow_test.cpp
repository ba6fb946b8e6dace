// The file flow without a window (issue 7 item 7): the unsaved-changes prompt before New, Open and
// Quit and what each of its answers does, a failed open that leaves the scene as it was, and the
// recent-files list.
#include "session/file_flow.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "editor/editor.h"
#include "jointlab/scenario_io.h"
#include "session/default_scene.h"
#include "session/recent_files.h"
#include "session/simulation.h"

namespace jl::app {
namespace {

namespace fs = std::filesystem;

/// Records what the flow asked for. Whether the scene is unsaved comes from a real Editor, so an
/// edit through a command is what makes the prompt appear.
struct RecordingEffects : FileEffects {
    Simulation sim;
    Editor editor{sim};
    std::string path;  ///< the document's file ("" = untitled)
    bool saveSucceeds = true;
    std::vector<std::string> saved;   ///< saveScene calls, in order
    std::vector<PendingAction> done;  ///< carryOut calls, in order
    std::vector<std::string> donePaths;

    RecordingEffects() {
        std::string error;
        Scene empty = makeEmptyScene();
        EXPECT_TRUE(sim.setScene(empty, "", error)) << error;
    }
    bool unsaved() const override { return editor.dirty(); }
    std::string sourcePath() const override { return path; }
    bool saveScene(const std::string& p) override {
        saved.push_back(p);
        if (!saveSucceeds) return false;
        path = p;
        editor.markSaved();
        return true;
    }
    bool saveSnapshot(const std::string&) override { return true; }
    bool saveRun(const std::string&) override { return true; }
    bool saveWithHistory(const std::string&) override { return true; }
    void carryOut(PendingAction action, const std::string& p) override {
        done.push_back(action);
        donePaths.push_back(p);
    }
    void edit() {
        std::string error;
        ASSERT_TRUE(editor.run(addBody(makeBody(ShapeType::Box, Vec3(0, 1, 0))), error)) << error;
        ASSERT_TRUE(editor.dirty());
    }
};

FileRequests newScene() {
    FileRequests r;
    r.newScene = true;
    return r;
}
FileRequests open(const std::string& path) {
    FileRequests r;
    r.openPath = path;
    return r;
}
FileRequests quit() {
    FileRequests r;
    r.quit = true;
    return r;
}
FileRequests answer(bool save, bool discard, bool cancel) {
    FileRequests r;
    r.promptSave = save;
    r.promptDiscard = discard;
    r.promptCancel = cancel;
    return r;
}
FileRequests saveAs(const std::string& path) {
    FileRequests r;
    r.saveAsPath = path;
    r.saveAsKind = SaveKind::Scene;
    return r;
}

// [SECTION] The unsaved-changes prompt

TEST(FileFlow, CleanSceneNewOpenAndQuitRunAtOnceWithoutAPrompt) {
    for (const FileRequests& request : {newScene(), open("other.json"), quit()}) {
        RecordingEffects fx;
        FileState files;
        applyFileRequests(request, files, fx);
        EXPECT_FALSE(files.promptRequested);
        ASSERT_EQ(fx.done.size(), 1u);
        EXPECT_EQ(files.pending, PendingAction::None);
        EXPECT_TRUE(fx.saved.empty());
    }
    RecordingEffects fx;
    FileState files;
    applyFileRequests(open("other.json"), files, fx);
    EXPECT_EQ(fx.done[0], PendingAction::Open);
    EXPECT_EQ(fx.donePaths[0], "other.json");
    EXPECT_TRUE(mayQuitNow(files, fx.unsaved()));  // the close button closes
}

TEST(FileFlow, UnsavedEditsMakeNewOpenAndQuitAskFirst) {
    const std::pair<FileRequests, PendingAction> cases[] = {{newScene(), PendingAction::New},
                                                            {open("other.json"), PendingAction::Open},
                                                            {quit(), PendingAction::Quit}};
    for (const auto& [request, action] : cases) {
        RecordingEffects fx;
        fx.edit();
        FileState files;
        applyFileRequests(request, files, fx);
        EXPECT_TRUE(files.promptRequested);
        EXPECT_EQ(files.pending, action);
        EXPECT_TRUE(fx.done.empty()) << "nothing happens before the answer";
        EXPECT_TRUE(fx.saved.empty());
    }
    RecordingEffects fx;
    fx.edit();
    FileState files;
    EXPECT_FALSE(mayQuitNow(files, fx.unsaved()));  // the close button asks (with a Quit request)
}

TEST(FileFlow, DontSaveContinuesWithoutSaving) {
    RecordingEffects fx;
    fx.edit();
    FileState files;
    applyFileRequests(open("other.json"), files, fx);
    applyFileRequests(answer(false, true, false), files, fx);
    ASSERT_EQ(fx.done, std::vector<PendingAction>{PendingAction::Open});
    EXPECT_EQ(fx.donePaths[0], "other.json");
    EXPECT_TRUE(fx.saved.empty());
    EXPECT_EQ(files.pending, PendingAction::None);
}

TEST(FileFlow, CancelDoesNothing) {
    RecordingEffects fx;
    fx.edit();
    FileState files;
    applyFileRequests(newScene(), files, fx);
    applyFileRequests(answer(false, false, true), files, fx);
    EXPECT_TRUE(fx.done.empty());
    EXPECT_TRUE(fx.saved.empty());
    EXPECT_EQ(files.pending, PendingAction::None);
    EXPECT_TRUE(fx.unsaved()) << "the edits are still there, unsaved";
    // A later answer (a stale click) has nothing to continue.
    applyFileRequests(answer(false, true, false), files, fx);
    EXPECT_TRUE(fx.done.empty());
}

TEST(FileFlow, SaveWritesTheDocumentThenContinues) {
    RecordingEffects fx;
    fx.path = "scene.json";
    fx.edit();
    FileState files;
    applyFileRequests(newScene(), files, fx);
    applyFileRequests(answer(true, false, false), files, fx);
    EXPECT_EQ(fx.saved, std::vector<std::string>{"scene.json"});
    EXPECT_EQ(fx.done, std::vector<PendingAction>{PendingAction::New});
    EXPECT_FALSE(fx.unsaved());
}

TEST(FileFlow, SaveOfAnUntitledSceneAsksWhereThenContinues) {
    RecordingEffects fx;
    fx.edit();
    FileState files;
    applyFileRequests(quit(), files, fx);
    applyFileRequests(answer(true, false, false), files, fx);
    EXPECT_TRUE(files.saveAsDialogRequested);
    EXPECT_EQ(files.saveKind, SaveKind::Scene);
    EXPECT_TRUE(fx.done.empty()) << "quit waits for the file name";
    EXPECT_EQ(files.pending, PendingAction::Quit);
    applyFileRequests(saveAs("named.json"), files, fx);
    EXPECT_EQ(fx.saved, std::vector<std::string>{"named.json"});
    EXPECT_EQ(fx.done, std::vector<PendingAction>{PendingAction::Quit});
    EXPECT_TRUE(files.quitConfirmed);
}

TEST(FileFlow, CancellingTheSaveDialogDropsTheWaitingAction) {
    RecordingEffects fx;
    fx.edit();
    FileState files;
    applyFileRequests(newScene(), files, fx);
    applyFileRequests(answer(true, false, false), files, fx);  // untitled: the save dialog opens
    applyFileRequests(answer(false, false, true), files, fx);  // ... and is cancelled
    EXPECT_TRUE(fx.done.empty());
    EXPECT_EQ(files.pending, PendingAction::None);
    // A Save As made later on its own does not start the New that was dropped.
    applyFileRequests(saveAs("later.json"), files, fx);
    EXPECT_TRUE(fx.done.empty());
}

TEST(FileFlow, AFailedSaveDoesNotContinue) {
    RecordingEffects fx;
    fx.path = "read-only.json";
    fx.saveSucceeds = false;
    fx.edit();
    FileState files;
    applyFileRequests(open("other.json"), files, fx);
    applyFileRequests(answer(true, false, false), files, fx);
    EXPECT_EQ(fx.saved.size(), 1u);
    EXPECT_TRUE(fx.done.empty()) << "the edits would be lost";
    EXPECT_EQ(files.pending, PendingAction::None);
}

TEST(FileFlow, QuitAsksOnceAfterDontSave) {
    RecordingEffects fx;
    fx.edit();
    FileState files;
    applyFileRequests(quit(), files, fx);
    applyFileRequests(answer(false, true, false), files, fx);
    EXPECT_EQ(fx.done, std::vector<PendingAction>{PendingAction::Quit});
    EXPECT_TRUE(mayQuitNow(files, fx.unsaved()));  // the close button that follows does not ask again
    files.promptRequested = false;
    applyFileRequests(quit(), files, fx);
    EXPECT_FALSE(files.promptRequested);
    EXPECT_EQ(fx.done.size(), 2u);
}

// [SECTION] A failed open

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("jointlab_file_flow_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

TEST(FileFlow, AFailedOpenShowsTheLoadersMessageAndLeavesTheSceneAsItWas) {
    TempDir dir;
    const std::string bad = dir / "bad.json";
    std::ofstream(bad)
        << R"({"format": "jointlab-scenario", "version": 2, "bodies": [{"name": "a", "mass": -1}]})";
    Scene loaded;
    std::string loaderMessage;
    ASSERT_FALSE(loadScenario(bad, loaded, loaderMessage));
    ASSERT_FALSE(loaderMessage.empty());

    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.loadFile(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/pendulum.json", error))
        << error;
    for (int i = 0; i < 30; ++i) sim.world()->step();
    const std::string sceneBefore = serializeScenario(sim.scene());
    const std::string documentBefore = serializeScenario(sim.documentScene());
    const uint64_t stateBefore = sim.world()->stateHash();
    const std::string sourceBefore = sim.sourcePath();
    FileState files;
    files.recentListPath = dir / "recent.txt";
    rememberRecentFile(files, sourceBefore);
    const std::vector<std::string> recentBefore = files.recent;

    for (const std::string& path : {bad, dir / "missing.json"}) {
        error.clear();
        EXPECT_FALSE(openDocument(sim, files, path, error));
        std::string expected;
        Scene unused;
        loadScenario(path, unused, expected);
        EXPECT_EQ(error, expected) << "the loader's own message";
        EXPECT_EQ(files.errorPopup, expected) << "shown in the error window";
        EXPECT_EQ(serializeScenario(sim.scene()), sceneBefore);
        EXPECT_EQ(serializeScenario(sim.documentScene()), documentBefore);
        EXPECT_EQ(sim.world()->stateHash(), stateBefore) << "the run goes on from where it was";
        EXPECT_EQ(sim.world()->stepCount(), 30);
        EXPECT_EQ(sim.sourcePath(), sourceBefore);
        EXPECT_EQ(files.recent, recentBefore) << "a file that did not open is not a recent file";
    }
    EXPECT_EQ(loadRecentFiles(files.recentListPath), recentBefore);
}

// [SECTION] Recent files

TEST(RecentFiles, MostRecentFirstNoDuplicatesBounded) {
    TempDir dir;
    std::vector<std::string> list;
    addRecentFile(list, dir / "a.json");
    addRecentFile(list, dir / "b.json");
    addRecentFile(list, dir / "a.json");
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0], dir / "a.json");
    EXPECT_EQ(list[1], dir / "b.json");
    // The same file by another spelling is the same entry (kept absolute).
    const fs::path cwd = fs::current_path();
    fs::current_path(dir.path);
    addRecentFile(list, "./b.json");
    addRecentFile(list, "");
    fs::current_path(cwd);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0], dir / "b.json");
    // (names built with += : "literal" + std::string trips a g++ 12 -Wrestrict false positive)
    auto numbered = [&dir](size_t i) {
        std::string name = "f";
        name += std::to_string(i);
        name += ".json";
        return dir / name;
    };
    for (size_t i = 0; i < 25; ++i) addRecentFile(list, numbered(i));
    ASSERT_EQ(list.size(), kMaxRecentFiles);
    EXPECT_EQ(list.front(), numbered(24));
    EXPECT_EQ(list.back(), numbered(25 - kMaxRecentFiles));
}

TEST(RecentFiles, PersistedAcrossStartsByOpenAndSave) {
    TempDir dir;
    const std::string listFile = dir / "config/jointlab/recent-files.txt";  // the folder is made
    const std::string pendulum = std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/pendulum.json";
    const std::string rope = std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/rope.json";
    Simulation sim;
    FileState files;
    files.recentListPath = listFile;
    std::string error;
    ASSERT_TRUE(openDocument(sim, files, pendulum, error)) << error;
    ASSERT_TRUE(openDocument(sim, files, rope, error)) << error;
    ASSERT_TRUE(openDocument(sim, files, pendulum, error)) << error;
    const std::vector<std::string> expected = {fs::path(pendulum).lexically_normal().string(),
                                               fs::path(rope).lexically_normal().string()};
    EXPECT_EQ(files.recent, expected);
    EXPECT_EQ(loadRecentFiles(listFile), expected) << "what the next start reads";
    rememberRecentFile(files, dir / "saved.json");  // Save As adds its file too
    EXPECT_EQ(loadRecentFiles(listFile).front(), dir / "saved.json");

    // A damaged list (duplicates, blank lines, too long) is read as a valid one.
    {
        std::ofstream out(listFile, std::ios::trunc);
        out << "/x.json\n\n/x.json\n";
        for (int i = 0; i < 20; ++i) out << "/f" << i << ".json\n";
    }
    const std::vector<std::string> read = loadRecentFiles(listFile);
    ASSERT_EQ(read.size(), kMaxRecentFiles);
    EXPECT_EQ(read[0], "/x.json");
    EXPECT_EQ(read[1], "/f0.json");

    // Screenshot mode keeps no history.
    FileState noHistory;
    ASSERT_TRUE(openDocument(sim, noHistory, rope, error)) << error;
    EXPECT_TRUE(noHistory.recent.empty());
}

}  // namespace
}  // namespace jl::app
