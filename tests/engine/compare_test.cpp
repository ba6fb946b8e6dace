// A/B compare (jointlab/compare.h): B with nothing changed never differs by a bit from A, on every
// example and both solvers; B with another solver drifts apart; bad entries are named.
#include "jointlab/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "jointlab/scenario_io.h"
#include "test_files.h"

namespace jl {
namespace {

namespace fs = std::filesystem;

using test::exampleScenario;

TEST(Compare, NothingChangedNeverDiffersByABit) {
    int runs = 0;
    for (const auto& e : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios")) {
        if (e.path().extension() != ".json") continue;
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario(e.path().string(), scene, error)) << error;
        for (const char* solver : {"pgs", "tgs"}) {
            World a(scene);
            for (int i = 0; i < 50; ++i) a.step();  // B starts mid-run, from A's state
            std::vector<FieldChange> same;
            ASSERT_EQ(parseFieldChanges(a.scene(), std::string("settings.solver=") + solver, same), "");
            a.settings().solver = std::string(solver) == "pgs" ? SolverType::PGS : SolverType::TGS;
            std::unique_ptr<World> b = compareWorld(a, same, error);
            ASSERT_TRUE(b) << error;
            for (int i = 0; i < 150; ++i) {
                a.step();
                b->step();
                ASSERT_EQ(a.stateHash(), b->stateHash())
                    << e.path().filename() << " " << solver << " step " << i;
            }
            EXPECT_EQ(maxPositionDivergence(a, *b), 0.0);
            ++runs;
        }
    }
    EXPECT_GT(runs, 20);
}

TEST(Compare, AnotherSolverDriftsApart) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    World a(scene);
    std::vector<FieldChange> changes;
    ASSERT_EQ(parseFieldChanges(a.scene(), "settings.solver=tgs,settings.posIters=8", changes), "");
    ASSERT_EQ(changes.size(), 2u);
    std::unique_ptr<World> b = compareWorld(a, changes, error);
    ASSERT_TRUE(b) << error;
    EXPECT_EQ(b->scene().settings.solver, SolverType::TGS);
    EXPECT_EQ(b->scene().settings.posIters, 8);
    Real worst = 0;
    for (int i = 0; i < 120; ++i) {
        a.step();
        b->step();
        worst = std::max(worst, maxPositionDivergence(a, *b));
    }
    EXPECT_GT(worst, 1e-6);
    EXPECT_LT(worst, 1.0) << "two solvers of one chain differ by their joint errors, not by metres";
}

TEST(Compare, BadEntriesAreNamedAndChangeNothing) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    std::vector<FieldChange> out;
    EXPECT_NE(parseFieldChanges(scene, "settings.posIter=8", out).find("settings.posIter: "),
              std::string::npos);
    EXPECT_NE(parseFieldChanges(scene, "settings.posIters=300", out).find("300"), std::string::npos);
    EXPECT_NE(parseFieldChanges(scene, "settings.solver=fast", out).find("settings.solver: "),
              std::string::npos);
    EXPECT_NE(parseFieldChanges(scene, "settings.dt", out).find("expected PATH=VALUE"), std::string::npos);
    EXPECT_NE(parseFieldChanges(scene, "settings.posIters=8,", out).find("expected PATH=VALUE"),
              std::string::npos);
    EXPECT_NE(parseFieldChanges(scene, "", out), "");
    EXPECT_TRUE(out.empty());
}

// The advisor's "as B": the fields a fix changed, as changes a compare parses back to that scene.
TEST(Compare, TheFieldsTwoScenesDifferInReadBackAsChanges) {
    const Scene a = exampleScenario("driven_arm.json");
    EXPECT_EQ(fieldChangesBetween(a, a), "");
    Scene b = a;
    b.settings.posIters = 16;
    b.settings.solver = a.settings.solver == SolverType::PGS ? SolverType::TGS : SolverType::PGS;
    std::get<RevoluteJoint>(b.joints[0].params).drive.stiffness = 123.5;
    b.bodies[1].mass *= 3.0;
    const std::string text = fieldChangesBetween(a, b);
    std::vector<FieldChange> changes;
    ASSERT_EQ(parseFieldChanges(a, text, changes), "") << text;
    EXPECT_EQ(changes.size(), 4u) << text;
    Scene rebuilt = a;
    for (const FieldChange& c : changes) ASSERT_EQ(setFieldPath(rebuilt, c.path, c.value), "");
    EXPECT_EQ(serializeScenario(rebuilt), serializeScenario(b)) << text;
}

}  // namespace
}  // namespace jl
