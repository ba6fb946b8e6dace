// Scenario files, the "no lost work" part (issue 10 items 4 and 5): a run saved mid-way continues
// bit for bit, version-1 files are migrated, and saving keeps the previous version as .bak.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cstring>
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

const fs::path kSourceDir = JOINTLAB_SOURCE_DIR;

/// A chain of hinged boxes (limits, a drive) ending in a ball on a cone-limited spherical joint,
/// plus a box and a capsule resting on the ground: joint rows, tracked angles and warm-started
/// contacts are all part of the state.
Scene jointedSceneWithContacts(SolverType solver) {
    Scene s;
    s.settings.solver = solver;
    const Quat hinge = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string prev;
    for (int i = 0; i < 4; ++i) {
        const std::string name = test::indexed("link", i);
        s.bodies.push_back(test::box(name, Vec3(0.5 + i, 2.5, 0), Vec3(0.5, 0.1, 0.1), 1.0 + i));
        RevoluteJoint rj;
        rj.limit = {true, -1.0, 1.0, 0.05, 0.3, 0.2};
        if (i == 1) {
            rj.drive = {true, 50.0, 2.0};
            rj.driveTarget = 0.5;
        }
        s.joints.push_back(
            test::joint<RevoluteJoint>(s, test::indexed("hinge", i), prev, name, Vec3(i, 2.5, 0), hinge, rj));
        prev = name;
    }
    s.bodies.push_back(test::sphere("ball", Vec3(4.5, 2.0, 0.3), 2.0, 0.3));
    SphericalJoint sj;
    sj.cone.enabled = true;
    s.joints.push_back(
        test::joint<SphericalJoint>(s, "ball joint", prev, "ball", Vec3(4, 2.5, 0), kIdentityQuat, sj));
    BodyDesc crate = test::box("crate", Vec3(-2, 0.3, 0.5), Vec3(0.3, 0.3, 0.3), 5.0);
    crate.linearVelocity = Vec3(1.5, 0, 0);  // slides: friction rows work every step
    s.bodies.push_back(crate);
    BodyDesc pill = test::box("pill", Vec3(-2, 0.2, -1.0), Vec3(0.2, 0.2, 0.2), 1.0);
    pill.shape = ShapeType::Capsule;
    pill.angularVelocity = Vec3(0, 0, -2.0);
    s.bodies.push_back(pill);
    EXPECT_EQ(validateScene(s), "");
    return s;
}

Scene withState(const World& w) {
    Scene s = w.scene();
    s.state = w.snapshot();
    return s;
}

// [SECTION] mid-run save continues bit-identically

TEST(ScenarioState, MidRunSaveContinuesBitIdentically) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        SCOPED_TRACE(kSolverTypeNames[int(solver)]);
        World a(jointedSceneWithContacts(solver));
        for (int i = 0; i < 300; ++i) {
            if (i == 150) a.setJointBroken(4, true);  // the broken flag is state too
            a.step();
        }
        ASSERT_GT(a.contactRowCount(), 0) << "the scene must have contacts when it is saved";
        ASSERT_TRUE(a.jointState(4).broken);

        TempDir dir;
        const std::string path = (dir.path / "midrun.json").string();
        std::string error;
        ASSERT_TRUE(saveScenario(path, withState(a), error)) << error;
        Scene loaded;
        ASSERT_TRUE(loadScenario(path, loaded, error)) << error;
        ASSERT_TRUE(loaded.state.has_value());
        World b(loaded);
        EXPECT_FALSE(b.scene().state.has_value()) << "the world's scene describes the start";
        EXPECT_EQ(b.stepCount(), 300);
        EXPECT_EQ(std::bit_cast<uint64_t>(b.time()), std::bit_cast<uint64_t>(a.time()));
        EXPECT_TRUE(b.jointState(4).broken);
        ASSERT_EQ(b.stateHash(), a.stateHash());
        for (int i = 0; i < 300; ++i) {
            a.step();
            b.step();
            ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << 300 + i + 1;
            ASSERT_EQ(a.contactRowCount(), b.contactRowCount());
        }
        EXPECT_EQ(b.stepCount(), 600);
    }
}

TEST(ScenarioState, WithoutTheStateTheRunDoesNotContinue) {
    // The check above is not vacuous: the descriptions alone start over, and a state without its
    // warm-start impulses drifts apart from the run.
    World a(jointedSceneWithContacts(SolverType::PGS));
    for (int i = 0; i < 300; ++i) a.step();
    WorldSnapshot cold = a.snapshot();
    std::fill(cold.contactImpulses.begin(), cold.contactImpulses.end(), 0.0);
    Scene s = a.scene();
    s.state = cold;
    World b(s);
    bool differs = false;
    for (int i = 0; i < 300 && !differs; ++i) {
        a.step();
        b.step();
        differs = a.stateHash() != b.stateHash();
    }
    EXPECT_TRUE(differs);
}

TEST(ScenarioState, SaveLoadSaveWithStateIsByteIdentical) {
    World w(jointedSceneWithContacts(SolverType::TGS));
    for (int i = 0; i < 77; ++i) w.step();
    const std::string first = serializeScenario(withState(w));
    EXPECT_NE(first.find("\"state\": {\n    \"step\": 77,"), std::string::npos);
    EXPECT_NE(first.find("\"contactImpulses\": ["), std::string::npos);
    EXPECT_NE(first.find("\"angles\": [null, null, null, null]"), std::string::npos);  // the ball joint's
    Scene loaded;
    std::string error;
    ASSERT_TRUE(parseScenario(first, loaded, error)) << error;
    EXPECT_EQ(serializeScenario(loaded), first);
    // Every number of the snapshot survives bit for bit.
    const WorldSnapshot a = w.snapshot(), &b = *loaded.state;
    ASSERT_EQ(a.bodies.size(), b.bodies.size());
    for (size_t i = 0; i < a.bodies.size(); ++i)
        EXPECT_EQ(std::memcmp(&a.bodies[i], &b.bodies[i], sizeof(BodyState)), 0) << "body " << i;
    EXPECT_EQ(a.contactImpulses.size(), b.contactImpulses.size());
    for (size_t i = 0; i < a.contactImpulses.size(); ++i)
        EXPECT_EQ(std::bit_cast<uint64_t>(a.contactImpulses[i]),
                  std::bit_cast<uint64_t>(b.contactImpulses[i]));
    EXPECT_EQ(a.jointAngles, b.jointAngles);
    EXPECT_EQ(a.jointAngleValid, b.jointAngleValid);
    EXPECT_EQ(a.broken, b.broken);
    EXPECT_EQ(a.stepCount, b.stepCount);
}

TEST(ScenarioState, ScenesWithoutStateAreWrittenAsBefore) {
    const std::string text = serializeScenario(jointedSceneWithContacts(SolverType::PGS));
    EXPECT_EQ(text.find("\"state\""), std::string::npos);
}

TEST(ScenarioState, StateThatDoesNotFitItsSceneIsRefused) {
    World w(jointedSceneWithContacts(SolverType::PGS));
    w.step();
    Scene s = withState(w);
    s.state->bodies.pop_back();
    EXPECT_EQ(validateScene(s), "state.bodies: has 6 entries but the scene has 7 bodies");
    s = withState(w);
    s.state->broken.push_back(false);
    EXPECT_EQ(validateScene(s).rfind("state.joints: has 6 entries but the scene has 5 joints", 0), 0u);
    s = withState(w);
    s.state->bodies[2].linearVelocity.y = std::nan("");
    EXPECT_EQ(validateScene(s), "state.bodies[2].linearVelocity[1]: must be finite, got nan");
    s = withState(w);
    s.state->bodies[1].pose.q = Quat(0, 0, 0, 0);
    EXPECT_EQ(validateScene(s), "state.bodies[1].orientation: not a finite unit quaternion (|q| = 0)");
    s = withState(w);
    s.state->stepCount = -1;
    EXPECT_EQ(validateScene(s), "state.step: must be >= 0, got -1");

    // In a file, the entries carry the scene's names: a state of another scene is refused.
    const std::string text = serializeScenario(withState(w));
    std::string renamed = text;
    const std::string from = "\"name\": \"crate\"";
    renamed.replace(renamed.rfind(from), from.size(), "\"name\": \"box\"");
    Scene out;
    std::string error;
    EXPECT_FALSE(parseScenario(renamed, out, error));
    EXPECT_EQ(error,
              "state.bodies[5].name: expected \"crate\" (the name of bodies[5]), got \"box\"; the state does "
              "not belong to this scene");
}

TEST(ScenarioState, ApplySceneIgnoresASavedState) {
    // The editor's live edits keep the running state; a state carried by the edited scene is stale.
    World w(jointedSceneWithContacts(SolverType::PGS));
    for (int i = 0; i < 10; ++i) w.step();
    const uint64_t before = w.stateHash();
    Scene edited = w.scene();
    World other(jointedSceneWithContacts(SolverType::PGS));
    edited.state = other.snapshot();
    w.applyScene(edited, w.scene());
    EXPECT_EQ(w.stateHash(), before);
    EXPECT_FALSE(w.scene().state.has_value());
}

TEST(ScenarioState, StepCountStopsAtTheLongestRunInsteadOfOverflowing) {
    // Issue 24: a count near INT64_MAX is refused (naming the field); a World at kMaxStepCount
    // takes no more steps, so its state always saves and loads.
    World a(jointedSceneWithContacts(SolverType::PGS));
    WorldSnapshot s = a.snapshot();
    s.stepCount = INT64_MAX - 1;
    Scene scene = a.scene();
    scene.state = s;
    EXPECT_EQ(
        validateScene(scene),
        "state.step: must be <= 1000000000000 (the longest run JointLab takes), got 9223372036854775806");
    scene.state->stepCount = kMaxStepCount - 1;
    ASSERT_EQ(validateScene(scene), "");
    World w(scene);
    for (int i = 0; i < 3; ++i) w.step();
    EXPECT_EQ(w.stepCount(), kMaxStepCount);
    Scene again;
    std::string error;
    EXPECT_TRUE(parseScenario(serializeScenario(withState(w)), again, error)) << error;
}

// [SECTION] versions and migration

TEST(ScenarioMigration, Version1FilesLoadAsTheSameScene) {
    // tests/data/v1/showcase_v1.json is assets/scenarios/showcase.json as version 1 wrote it.
    const fs::path v1 = kSourceDir / "tests/data/v1/showcase_v1.json";
    const std::string v1Text = readFile(v1);
    ASSERT_NE(v1Text.find("\"version\": 1,"), std::string::npos);
    Scene migrated;
    std::string error;
    ASSERT_TRUE(loadScenario(v1.string(), migrated, error)) << error;
    EXPECT_EQ(migrated.bodies.size(), 10u);
    ASSERT_EQ(migrated.joints.size(), 9u);
    EXPECT_EQ(migrated.joints[8].name, "weight weld");
    EXPECT_EQ(migrated.joints[8].typeInfo().name, std::string("fixed"));
    EXPECT_FALSE(migrated.state.has_value());
    // Version 2 changed no meaning: the migrated scene saves as the version-1 text with the new
    // version number and the fields added since at their defaults (settings.rowOrder = coloured,
    // kernel = fast and threads = 1: what version 1 ran; gyroscopic = true, pointSolve = block and
    // correction = relax, which version 1 did not have: an old file gets them as every new scene does,
    // changes of the engine's results like the forces per TGS substep, jointlab/engine_version.h), and as the
    // version-2 example.
    std::string expected = v1Text;
    expected.replace(expected.find("\"version\": 1,"), 13, "\"version\": 2,");
    const std::string lastSetting = "\"maxAngularSpeed\": 100.0";
    ASSERT_NE(expected.find(lastSetting), std::string::npos);
    expected.insert(
        expected.find(lastSetting) + lastSetting.size(),
        ",\n    \"gyroscopic\": true,\n    \"rowOrder\": \"coloured\",\n    \"pointSolve\": "
        "\"block\",\n    \"correction\": \"relax\",\n    \"kernel\": \"fast\",\n    \"threads\": 1");
    // Body contacts (issue 29) added settings, body and joint fields, also at their defaults.
    auto insertBefore = [&expected](const std::string& at, const std::string& text) {
        for (size_t i = expected.find(at); i != std::string::npos;
             i = expected.find(at, i + text.size() + at.size()))
            expected.insert(i, text);
    };
    insertBefore(
        "\n    \"maxLinearSpeed\"",
        "\n    \"bodyCollisions\": true,\n    \"bodyFriction\": 0.6,\n    \"bodyRestitution\": 0.0,");
    insertBefore("\n      \"massMode\"", "\n      \"collisionGroup\": 1,\n      \"collisionMask\": 65535,");
    insertBefore("\n      \"params\"", "\n      \"collideConnected\": false,");
    EXPECT_TRUE(migrated.settings.gyroscopic) << "a file without the field gets the default";
    EXPECT_EQ(serializeScenario(migrated), expected);
    Scene current;
    ASSERT_TRUE(loadScenario((kSourceDir / "assets/scenarios/showcase.json").string(), current, error))
        << error;
    EXPECT_EQ(serializeScenario(current), serializeScenario(migrated));
}

TEST(ScenarioMigration, Version1FilesWithPlotsKeepThem) {
    // Plots arrived while the format was still version 1; such files stay valid.
    Scene s;
    std::string error;
    ASSERT_TRUE(loadScenario((kSourceDir / "tests/data/v1/pendulum_plots_v1.json").string(), s, error))
        << error;
    ASSERT_EQ(s.plots.size(), 1u);
    EXPECT_EQ(s.plots[0].title, "pivot rows");
    EXPECT_EQ(s.plots[0].kind, PlotKind::Error);
    EXPECT_EQ(s.plots[0].joints, "pivot");
    EXPECT_TRUE(s.plots[0].logScale);
    EXPECT_EQ(s.bodies[0].linearVelocity, Vec3(0.0, 0.0, 1.6));
    EXPECT_NE(serializeScenario(s).find("\"version\": 2,"), std::string::npos);
}

TEST(ScenarioMigration, Version1FilesCannotHaveAState) {
    World w(jointedSceneWithContacts(SolverType::PGS));
    w.step();
    std::string text = serializeScenario(withState(w));
    text.replace(text.find("\"version\": 2,"), 13, "\"version\": 1,");
    Scene out;
    std::string error;
    EXPECT_FALSE(parseScenario(text, out, error));
    EXPECT_EQ(error.rfind("state: not part of format version 1 (added in version 2)", 0), 0u) << error;
}

TEST(ScenarioMigration, NewerVersionsAreRefused) {
    Scene out;
    std::string error;
    EXPECT_FALSE(parseScenario(R"({"format": "jointlab-scenario", "version": 3, "future": {}})", out, error));
    EXPECT_EQ(error, "version: 3 is newer than this JointLab (2); update JointLab to open this file");
    EXPECT_FALSE(
        parseScenario(R"({"format": "jointlab-scenario", "version": 18446744073709551615})", out, error));
    EXPECT_NE(error.find("is newer than this JointLab (2)"), std::string::npos) << error;
}

// [SECTION] save keeps the previous version as .bak

TEST(ScenarioBackup, SaveKeepsThePreviousVersion) {
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    const std::string bak = path + ".bak";
    Scene one = jointedSceneWithContacts(SolverType::PGS), two = one, three = one;
    two.description = "second";
    three.description = "third";
    std::string error;
    ASSERT_TRUE(saveScenario(path, one, error)) << error;
    EXPECT_FALSE(fs::exists(bak)) << "a new file has no previous version";
    ASSERT_TRUE(saveScenario(path, two, error)) << error;
    EXPECT_EQ(readFile(bak), serializeScenario(one));
    EXPECT_EQ(readFile(path), serializeScenario(two));
    ASSERT_TRUE(saveScenario(path, three, error)) << error;
    EXPECT_EQ(readFile(bak), serializeScenario(two));
    EXPECT_EQ(readFile(path), serializeScenario(three));
    for (const auto& e : fs::directory_iterator(dir.path))  // no temporaries left behind
        EXPECT_TRUE(e.path() == path || e.path() == bak) << e.path();
    // The backup keeps the previous file's permissions and is a separate file.
    struct stat a {
    }, b{};
    ASSERT_EQ(::stat(path.c_str(), &a), 0);
    ASSERT_EQ(::stat(bak.c_str(), &b), 0);
    EXPECT_NE(a.st_ino, b.st_ino);
    EXPECT_EQ(b.st_mode & 07777, a.st_mode & 07777);
    Scene fromBackup;
    ASSERT_TRUE(loadScenario(bak, fromBackup, error)) << error;
    EXPECT_EQ(fromBackup.description, "second");
}

TEST(ScenarioBackup, FailedSaveTouchesNeitherTheFileNorTheBackup) {
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    const std::string bak = path + ".bak";
    Scene one = jointedSceneWithContacts(SolverType::PGS), two = one;
    two.description = "second";
    std::string error;
    ASSERT_TRUE(saveScenario(path, one, error)) << error;
    ASSERT_TRUE(saveScenario(path, two, error)) << error;
    const std::string file = readFile(path), backup = readFile(bak);

    Scene three = one;
    three.description = "third";
    // The temp file cannot be created: a file name of 250 bytes leaves no room for the
    // temporary's suffix (NAME_MAX 255). (A file called like the old fixed temporary,
    // scene.json.tmp, no longer gets in the way: the temporary has a unique name.)
    {
        const std::string longPath = (dir.path / (std::string(245, 'n') + ".json")).string();
        writeFile(longPath, serializeScenario(one));
        const std::string longFile = readFile(longPath);
        EXPECT_FALSE(saveScenario(longPath, three, error));
        EXPECT_NE(error.find("cannot save"), std::string::npos) << error;
        EXPECT_EQ(readFile(longPath), longFile);
        EXPECT_FALSE(fs::exists(longPath + ".bak"));
        fs::remove(longPath);
    }

    // The backup cannot be prepared (its temporary name is taken by a non-empty directory).
    fs::create_directories(path + ".bak.tmp/x");
    EXPECT_FALSE(saveScenario(path, three, error));
    EXPECT_NE(error.find("keeping the previous version"), std::string::npos) << error;
    EXPECT_EQ(readFile(path), file);
    EXPECT_EQ(readFile(bak), backup);
    EXPECT_FALSE(fs::exists(path + ".tmp"));
    fs::remove_all(path + ".bak.tmp");

    // The directory is read-only (meaningless for root, who may write anyway).
    if (geteuid() != 0) {
        fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
        EXPECT_FALSE(saveScenario(path, three, error));
        fs::permissions(dir.path, fs::perms::owner_all);
        EXPECT_EQ(readFile(path), file);
        EXPECT_EQ(readFile(bak), backup);
    }

    // And a good save afterwards works as usual.
    ASSERT_TRUE(saveScenario(path, three, error)) << error;
    EXPECT_EQ(readFile(bak), file);
}

TEST(ScenarioBackup, ALeftoverBackupTemporaryIsReplaced) {
    // A save interrupted between its two renames leaves <file>.bak.tmp; the next save proceeds.
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    Scene one = jointedSceneWithContacts(SolverType::PGS), two = one;
    two.description = "second";
    std::string error;
    ASSERT_TRUE(saveScenario(path, one, error)) << error;
    writeFile(path + ".bak.tmp", "stale");
    ASSERT_TRUE(saveScenario(path, two, error)) << error;
    EXPECT_EQ(readFile(path + ".bak"), serializeScenario(one));
    EXPECT_FALSE(fs::exists(path + ".bak.tmp"));
}

}  // namespace
}  // namespace jl
