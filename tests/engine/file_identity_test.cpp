// Issue 24, points 1 and 2: no output ever replaces an input or another output (compared as files,
// not as strings), and a save through an odd path (a .bak that is a folder, a symlink) either
// does what it says or is refused, never reported as a success that dropped something.
#include "jointlab/file_identity.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "jointlab/scenario_io.h"
#include "test_files.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace jl {
namespace {

using test::readFile;
using test::TempDir;
using test::writeFile;

/// Runs the test body from inside `dir` (relative spellings), restoring the working directory.
struct InDir {
    fs::path old = fs::current_path();
    explicit InDir(const fs::path& dir) { fs::current_path(dir); }
    ~InDir() { fs::current_path(old); }
};

// [SECTION] the guard

TEST(FileIdentity, OtherSpellingsLinksAndSymlinksAreTheSameFile) {
    TempDir dir;
    fs::create_directory(dir.path / "a");
    writeFile(dir.path / "x.json", "{}");
    fs::create_hard_link(dir.path / "x.json", dir.path / "hard.json");
    fs::create_symlink(dir.path / "x.json", dir.path / "soft.json");
    fs::create_symlink("x.json", dir.path / "relative_soft.json");
    InDir in(dir.path);
    for (const char* spelling : {"x.json", "./x.json", "a/../x.json", ".//a/./../x.json", "hard.json",
                                 "soft.json", "relative_soft.json"}) {
        EXPECT_EQ(compareFiles(spelling, "x.json"), FileIdentity::Same) << spelling;
        EXPECT_EQ(compareFiles((dir.path / spelling).string(), "x.json"), FileIdentity::Same) << spelling;
    }
    EXPECT_EQ(compareFiles("y.json", "x.json"), FileIdentity::Different);
    EXPECT_EQ(compareFiles("", "x.json"), FileIdentity::Different);
    writeFile(dir.path / "copy.json", "{}");  // same content, another file
    EXPECT_EQ(compareFiles("copy.json", "x.json"), FileIdentity::Different);
}

TEST(FileIdentity, NewFilesAreComparedByTheirResolvedName) {
    TempDir dir;
    fs::create_directory(dir.path / "a");
    fs::create_directory_symlink(dir.path / "a", dir.path / "link_to_a");
    fs::create_symlink(dir.path / "a" / "new.csv", dir.path / "dangling.csv");
    InDir in(dir.path);
    EXPECT_EQ(compareFiles("out.csv", "./out.csv"), FileIdentity::Same);
    EXPECT_EQ(compareFiles("a/../out.csv", "out.csv"), FileIdentity::Same);
    EXPECT_EQ(compareFiles("link_to_a/new.csv", "a/new.csv"), FileIdentity::Same);
    EXPECT_EQ(compareFiles("dangling.csv", "a/new.csv"), FileIdentity::Same)
        << "a write would create a/new.csv";
    EXPECT_EQ(compareFiles("a/out.csv", "out.csv"), FileIdentity::Different);
    // Two new names that differ only in case are one file on a case-insensitive file system.
    EXPECT_EQ(compareFiles("Out.CSV", "out.csv"), FileIdentity::SameIgnoringCase);
    EXPECT_TRUE(sameFile("Out.CSV", "out.csv"));
    // Once one exists, the file system has answered: here (case-sensitive) they differ.
    writeFile(dir.path / "out.csv", "");
    EXPECT_EQ(compareFiles("Out.CSV", "out.csv"), FileIdentity::Different);
}

TEST(FileIdentity, TheGuardNamesBothPathsOfTheFirstClash) {
    TempDir dir;
    writeFile(dir.path / "scene.json", "{}");
    writeFile(dir.path / "log.input.json", "{}");
    fs::create_symlink("scene.json", dir.path / "s.json");
    InDir in(dir.path);
    const std::vector<NamedFile> inputs = {{"the scenario", "scene.json"},
                                           {"the --input log", "log.input.json"}};
    EXPECT_EQ(checkOutputsAgainstInputs(inputs, {{"--csv", "out.csv"}, {"--state", "out.json"}, {"--x", ""}}),
              "");
    EXPECT_EQ(
        checkOutputsAgainstInputs(inputs, {{"--csv", "./scene.json"}}),
        "--csv ./scene.json would overwrite the scenario scene.json (the same file); nothing was written");
    EXPECT_EQ(checkOutputsAgainstInputs(inputs, {{"--state", "s.json"}}),
              "--state s.json would overwrite the scenario scene.json (the same file); nothing was written");
    EXPECT_EQ(
        checkOutputsAgainstInputs(inputs, {{"--csv", "x.csv"}, {"--state", "./log.input.json"}}),
        "--state ./log.input.json would overwrite the --input log log.input.json (the same file); nothing "
        "was written");
    EXPECT_EQ(checkOutputsAgainstInputs(inputs, {{"--csv", "out"}, {"--state", "a/../out"}}),
              "--state a/../out and --csv out name one output file (the same file); nothing was written");
    const std::string caseClash =
        checkOutputsAgainstInputs(inputs, {{"--csv", "out.csv"}, {"--state", "OUT.csv"}});
    EXPECT_NE(caseClash.find("case-insensitive"), std::string::npos) << caseClash;
    // An input that is not given (empty) is not compared.
    EXPECT_EQ(checkOutputsAgainstInputs({{"the --input log", ""}}, {{"--csv", "x.csv"}}), "");
}

// [SECTION] saving through odd paths

Scene smallScene(const char* description) {
    Scene s;
    s.description = description;
    s.bodies.push_back(test::box("box", Vec3(0, 1, 0), Vec3(0.1), 1.0));
    return s;
}

TEST(SaveThroughOddPaths, ABackupThatIsAFolderRefusesTheSaveAndChangesNothing) {
    TempDir dir;
    const std::string path = dir / "scene.json";
    std::string error;
    ASSERT_TRUE(saveScenario(path, smallScene("one"), error)) << error;
    const std::string before = readFile(path);
    for (bool nonEmpty : {false, true}) {
        fs::create_directory(path + ".bak");
        if (nonEmpty) writeFile(path + ".bak/keep", "mine");
        EXPECT_FALSE(saveScenario(path, smallScene("two"), error));
        EXPECT_NE(error.find("cannot save " + path), std::string::npos) << error;
        EXPECT_NE(error.find(path + ".bak"), std::string::npos) << error;
        EXPECT_NE(error.find("the file is unchanged"), std::string::npos) << error;
        EXPECT_EQ(readFile(path), before);
        EXPECT_TRUE(fs::is_directory(path + ".bak"));
        if (nonEmpty) {
            EXPECT_EQ(readFile(path + ".bak/keep"), "mine");
        }
        for (const auto& e : fs::directory_iterator(dir.path))  // no temporaries left behind
            EXPECT_TRUE(e.path() == path || e.path() == path + ".bak") << e.path();
        fs::remove_all(path + ".bak");
    }
    ASSERT_TRUE(saveScenario(path, smallScene("two"), error)) << error;  // and with the folder gone it saves
    EXPECT_EQ(readFile(path + ".bak"), before);
}

TEST(SaveThroughOddPaths, AnUnreplaceableBackupRefusesTheSave) {
    // A .bak the directory does not let us replace: a sticky folder whose .bak belongs to another
    // user. Root may replace anything, so this runs only as another user.
    if (geteuid() == 0) GTEST_SKIP() << "root may replace any file";
    TempDir dir;
    const std::string path = dir / "scene.json";
    std::string error;
    ASSERT_TRUE(saveScenario(path, smallScene("one"), error)) << error;
    const std::string before = readFile(path);
    writeFile(path + ".bak", "old backup");
    // Read-only folder: neither the temporary nor the backup can be made.
    fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_FALSE(saveScenario(path, smallScene("two"), error));
    fs::permissions(dir.path, fs::perms::owner_all);
    EXPECT_EQ(readFile(path), before);
    EXPECT_EQ(readFile(path + ".bak"), "old backup");
}

TEST(SaveThroughOddPaths, SavingOverASymlinkKeepsTheLinkAndReplacesItsTarget) {
    TempDir dir;
    fs::create_directory(dir.path / "real");
    const std::string target = dir / "real/scene.json", link = dir / "link.json";
    std::string error;
    ASSERT_TRUE(saveScenario(target, smallScene("one"), error)) << error;
    fs::create_symlink("real/scene.json", link);
    ASSERT_TRUE(saveScenario(link, smallScene("two"), error)) << error;
    EXPECT_TRUE(fs::is_symlink(link)) << "the link is kept";
    EXPECT_EQ(fs::read_symlink(link), "real/scene.json");
    Scene back;
    ASSERT_TRUE(loadScenario(target, back, error)) << error;
    EXPECT_EQ(back.description, "two");
    // The previous version is kept next to the file the link points to.
    ASSERT_TRUE(loadScenario(target + ".bak", back, error)) << error;
    EXPECT_EQ(back.description, "one");
    EXPECT_FALSE(fs::exists(link + ".bak"));
    // A chain of links, and a link whose target does not exist yet (the save creates it).
    fs::create_symlink("link.json", dir.path / "link2.json");
    ASSERT_TRUE(saveScenario(dir / "link2.json", smallScene("three"), error)) << error;
    ASSERT_TRUE(loadScenario(target, back, error)) << error;
    EXPECT_EQ(back.description, "three");
    EXPECT_TRUE(fs::is_symlink(dir.path / "link2.json"));
    fs::create_symlink("real/new.json", dir.path / "dangling.json");
    ASSERT_TRUE(saveScenario(dir / "dangling.json", smallScene("four"), error)) << error;
    EXPECT_TRUE(fs::is_symlink(dir.path / "dangling.json"));
    ASSERT_TRUE(loadScenario(dir / "real/new.json", back, error)) << error;
    EXPECT_EQ(back.description, "four");
    // A loop is refused, naming the path.
    fs::create_symlink("loop_b.json", dir.path / "loop_a.json");
    fs::create_symlink("loop_a.json", dir.path / "loop_b.json");
    EXPECT_FALSE(saveScenario(dir / "loop_a.json", smallScene("five"), error));
    EXPECT_NE(error.find("loop_a.json"), std::string::npos) << error;
    EXPECT_NE(error.find("symbolic links"), std::string::npos) << error;
}

TEST(SaveThroughOddPaths, AFileNamedLikeTheTemporaryIsNeverTouched) {
    TempDir dir;
    const std::string path = dir / "scene.json";
    writeFile(path + ".tmp", "a user's own file");
    std::string error;
    ASSERT_TRUE(saveScenario(path, smallScene("one"), error)) << error;
    ASSERT_TRUE(saveScenario(path, smallScene("two"), error)) << error;
    EXPECT_EQ(readFile(path + ".tmp"), "a user's own file");
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir.path)) ++files, (void)e;
    EXPECT_EQ(files, 3u) << "scene.json, its .bak and the user's .tmp; no temporaries left";
}

}  // namespace
}  // namespace jl
