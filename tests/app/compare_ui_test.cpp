// The second run beside the live one (session/shadow_run.h, issue 26 points 3 and 4): the ghost of
// the branch an edit left behind is that branch's own states step for step; the A/B compare's B
// steps in lockstep and, with nothing changed, never differs from A by a bit; Swap and Keep B
// hand the runs over exactly; undoing the edit that started a branch goes back to the branch left.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "editor/editor.h"
#include "jointlab/history_io.h"
#include "jointlab/scenario_io.h"
#include "session/default_scene.h"
#include "session/simulation.h"
#include "sim_runs.h"

namespace jl::app {
namespace {

using sim_runs::firstDynamic;

/// The showcase, stepping one step per advance().
void open(Simulation& sim) {
    std::string error;
    ASSERT_TRUE(sim.setScene(makeBuiltInShowcase(), "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    sim.clock.playing = true;
}

/// Steps until the World is at `step`, pulling the first dynamic body during [pullFrom, pullTo);
/// returns the state hash after each step, indexed by step.
void runTo(Simulation& sim, int64_t step, std::vector<uint64_t>& hashes, int64_t pullFrom = -1,
           int64_t pullTo = -1) {
    sim.clock.playing = true;
    while (sim.world()->stepCount() < step) {
        const int64_t now = sim.world()->stepCount();
        if (now == pullFrom) {
            const int body = firstDynamic(sim.scene());
            DragSpring d;
            d.bodyName = sim.scene().bodies[static_cast<size_t>(body)].name;
            d.target = sim.world()->bodies()[static_cast<size_t>(body)].pose.p + Vec3(0.4, 0.3, 0.0);
            d.stiffness = 300.0;
            d.damping = 10.0;
            sim.drag = d;
        }
        if (now == pullTo) sim.drag.reset();
        sim.advance(1.0 / 60.0);
        const size_t s = static_cast<size_t>(sim.world()->stepCount());
        if (hashes.size() <= s) hashes.resize(s + 1, 0);
        hashes[s] = sim.world()->stateHash();
    }
}

bool editGravity(Simulation& sim, Real gy) {
    Scene edited = sim.scene();
    edited.settings.gravity = Vec3(0.0, gy, 0.0);
    std::string error;
    const bool ok = sim.applyEdit(edited, {}, {}, error);
    EXPECT_TRUE(ok) << error;
    return ok;
}

TEST(Ghost, IsTheBranchLeftBehindStepForStep) {
    Simulation sim;
    open(sim);
    std::vector<uint64_t> old, branch;
    runTo(sim, 120, old, 20, 60);  // a pull in the old future: the ghost must retake it
    EXPECT_EQ(sim.shadow().kind(), ShadowRun::Kind::None) << "no other branch yet";
    ASSERT_TRUE(sim.seekStep(40));
    ASSERT_TRUE(editGravity(sim, -3.0));
    ASSERT_EQ(sim.history().currentBranch(), 1);
    ASSERT_EQ(sim.shadow().kind(), ShadowRun::Kind::Ghost);
    EXPECT_EQ(sim.shadow().world()->stepCount(), 40);
    EXPECT_EQ(sim.shadow().world()->stateHash(), old[40]) << "before the change both runs are one";
    sim.clock.playing = true;
    for (int i = 0; i < 90; ++i) {
        sim.advance(1.0 / 60.0);
        const int64_t now = sim.world()->stepCount();
        if (branch.size() <= static_cast<size_t>(now)) branch.resize(static_cast<size_t>(now) + 1, 0);
        branch[static_cast<size_t>(now)] = sim.world()->stateHash();
        if (now == 120) {
            EXPECT_EQ(sim.shadow().telemetry().size(), 80u) << "a ghost step per live step 41..120";
        }
        if (now <= 120) {
            ASSERT_NE(sim.shadow().world(), nullptr) << "step " << now;
            EXPECT_EQ(sim.shadow().world()->stepCount(), now);
            EXPECT_EQ(sim.shadow().world()->stateHash(), old[static_cast<size_t>(now)]) << "step " << now;
            EXPECT_NE(sim.world()->stateHash(), old[static_cast<size_t>(now)]) << "step " << now;
        } else {
            EXPECT_EQ(sim.shadow().world(), nullptr) << "the old branch ends at 120; step " << now;
        }
    }
    // Switching back: the branch just left (which reaches 130) is the ghost now, from a jump.
    ASSERT_TRUE(sim.switchBranch(0));
    EXPECT_EQ(sim.world()->stepCount(), 120);
    ASSERT_NE(sim.shadow().world(), nullptr);
    EXPECT_EQ(sim.shadow().world()->stateHash(), branch[120]);
    ASSERT_TRUE(sim.seekStep(75));
    EXPECT_EQ(sim.shadow().world()->stateHash(), branch[75]);
    ASSERT_TRUE(sim.seekStep(30));
    EXPECT_EQ(sim.shadow().world(), nullptr) << "before step 40 the two branches are one run";
}

TEST(Compare, WithNothingChangedBNeverDiffersFromAByABit) {
    Simulation sim;
    open(sim);
    std::vector<uint64_t> hashes;
    runTo(sim, 30, hashes);
    std::string error;
    ASSERT_TRUE(sim.startCompare("", error)) << error;
    ASSERT_EQ(sim.shadow().kind(), ShadowRun::Kind::Compare);
    runTo(sim, 130, hashes, 50, 90);  // B gets A's mouse forces
    const World* b = sim.shadow().world();
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->stepCount(), 130);
    EXPECT_EQ(b->stateHash(), sim.world()->stateHash());
    ASSERT_EQ(sim.shadow().compareSamples().size(), 100u);
    for (const ShadowRun::CompareSample& s : sim.shadow().compareSamples()) {
        EXPECT_EQ(s.divergence, 0.0) << "step " << s.step;
        EXPECT_EQ(s.energyA, s.energyB) << "step " << s.step;
    }
    // Going back starts B again from A at that step; playing on retakes A's recorded pull, and B
    // gets it too.
    ASSERT_TRUE(sim.seekStep(40));
    EXPECT_EQ(sim.shadow().world()->stepCount(), 40);
    runTo(sim, 100, hashes);
    EXPECT_EQ(sim.shadow().world()->stateHash(), sim.world()->stateHash());
    EXPECT_EQ(sim.world()->stateHash(), hashes[100]) << "the retaken run is the recorded one";
}

TEST(Compare, AnotherSolverDriftsAndSwapAndKeepHandTheRunsOverExactly) {
    Simulation sim;
    open(sim);
    std::vector<uint64_t> hashes;
    runTo(sim, 20, hashes);
    const SolverType solverA = sim.scene().settings.solver;
    const std::string other = solverA == SolverType::PGS ? "tgs" : "pgs";
    std::string error;
    ASSERT_TRUE(sim.startCompare(" settings.solver = " + other, error)) << error;
    EXPECT_EQ(sim.shadow().compareChanges(), "settings.solver=" + other);
    runTo(sim, 80, hashes);
    ASSERT_FALSE(sim.shadow().compareSamples().empty());
    EXPECT_GT(sim.shadow().compareSamples().back().divergence, 0.0) << "two solvers do not agree to the bit";
    EXPECT_NE(sim.shadow().world()->scene().settings.solver, solverA);

    // Swap: the live run goes on as B would have, the comparison as A would have.
    const WorldSnapshot a = sim.world()->snapshot(), b = sim.shadow().world()->snapshot();
    const Scene sceneA = sim.world()->scene(), sceneB = sim.shadow().world()->scene();
    ASSERT_TRUE(sim.swapCompare(error)) << error;
    EXPECT_EQ(sim.scene().settings.solver, sceneB.settings.solver);
    EXPECT_EQ(sim.shadow().compareChanges(),
              std::string("settings.solver=") + (other == "tgs" ? "pgs" : "tgs"));
    runTo(sim, 100, hashes);
    World aAlone(sceneA), bAlone(sceneB);
    aAlone.restore(a);
    bAlone.restore(b);
    for (int i = 0; i < 20; ++i) aAlone.step(), bAlone.step();
    EXPECT_EQ(sim.world()->stateHash(), bAlone.stateHash());
    EXPECT_EQ(sim.shadow().world()->stateHash(), aAlone.stateHash());

    // Keep B: the compare ends with B (the old A) live, recorded as a setting change.
    const uint64_t bNow = sim.shadow().world()->stateHash();
    ASSERT_TRUE(sim.keepCompareB(error)) << error;
    EXPECT_FALSE(sim.shadow().comparing());
    EXPECT_EQ(sim.world()->stateHash(), bNow);
    EXPECT_EQ(sim.scene().settings.solver, solverA);
    const std::vector<HistoryEvent> marks = sim.history().events();
    ASSERT_FALSE(marks.empty());
    EXPECT_EQ(marks.back().kind, HistoryMark::Setting);
    EXPECT_EQ(marks.back().step, 100);
}

TEST(Compare, ABadEntryIsNamedAndStartsNothing) {
    Simulation sim;
    open(sim);
    std::string error;
    EXPECT_FALSE(sim.startCompare("settings.posIterz=3", error));
    EXPECT_NE(error.find("posIterz"), std::string::npos) << error;
    EXPECT_FALSE(sim.startCompare("settings.posIters=100000", error));
    EXPECT_NE(error.find("posIters"), std::string::npos) << error;
    EXPECT_FALSE(sim.shadow().comparing());
    EXPECT_EQ(sim.shadow().world(), nullptr);
}

TEST(TimeMachine, UndoingTheEditThatStartedABranchGoesBackToTheBranchLeft) {
    Simulation sim;
    Editor editor(sim);
    open(sim);
    std::vector<uint64_t> old;
    runTo(sim, 90, old);
    ASSERT_TRUE(sim.seekStep(30));
    Command lowGravity{"set gravity", "", [](Scene& s, CommandEffects&) {
                           s.settings.gravity = Vec3(0.0, -2.0, 0.0);
                           return std::string();
                       }};
    std::string error;
    ASSERT_TRUE(editor.run(lowGravity, error)) << error;
    ASSERT_EQ(sim.history().currentBranch(), 1);
    // Undo straight away: back on branch 0 at step 30, as before the edit; the empty branch goes.
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.history().currentBranch(), 0);
    EXPECT_EQ(sim.world()->stepCount(), 30);
    EXPECT_EQ(sim.world()->stateHash(), old[30]);
    EXPECT_TRUE(sim.history().branches()[1].deleted);
    EXPECT_EQ(sim.history().lastStep(), 90) << "the old future is still there";
    // Redo makes the branch again; this time it runs on, and undo keeps it in the list.
    ASSERT_TRUE(editor.redo(error)) << error;
    const int redone = sim.history().currentBranch();
    EXPECT_NE(redone, 0);
    EXPECT_EQ(sim.scene().settings.gravity.y, -2.0);
    std::vector<uint64_t> ignored;
    runTo(sim, 45, ignored);
    ASSERT_TRUE(sim.seekStep(30));
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.history().currentBranch(), 0);
    EXPECT_EQ(sim.world()->stateHash(), old[30]);
    EXPECT_FALSE(sim.history().branches()[static_cast<size_t>(redone)].deleted);
    EXPECT_EQ(sim.shadow().ghostBranch(), redone) << "the branch left is the ghost";
    // An undo of an edit made at the end of the branch is an ordinary undo.
    ASSERT_TRUE(sim.seekStep(90));
    ASSERT_TRUE(editor.run(lowGravity, error)) << error;
    EXPECT_EQ(sim.history().currentBranch(), 0);
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.history().currentBranch(), 0);
    EXPECT_EQ(sim.scene().settings.gravity.y, makeBuiltInShowcase().settings.gravity.y);
}

}  // namespace
}  // namespace jl::app

namespace jl::app {
namespace {

// "Save run with its history" writes historyScene() and the history beside it; opening that
// scenario brings the timeline back, every branch to the bit. A history that does not fit the
// scenario is refused with the reason, and the scenario opens without it.
TEST(TimeMachine, ARunSavedWithItsHistoryOpensWithItsTimeline) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "jointlab_history_ui_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "run.json").string();

    Simulation sim;
    open(sim);
    std::vector<uint64_t> old;
    runTo(sim, 100, old, 10, 40);
    ASSERT_TRUE(sim.seekStep(50));
    ASSERT_TRUE(editGravity(sim, -4.0));
    std::vector<uint64_t> branch;
    runTo(sim, 80, branch);
    std::string error;
    ASSERT_TRUE(saveScenario(path, sim.historyScene(), error)) << error;
    ASSERT_TRUE(saveHistory(historyPathFor(path), sim.history(), sim.historyScene(), error)) << error;

    Simulation again;
    ASSERT_TRUE(again.loadFile(path, error)) << error;
    const auto note = again.takeHistoryNote();
    ASSERT_TRUE(note.has_value());
    EXPECT_FALSE(note->refused) << note->text;
    EXPECT_EQ(again.world()->stepCount(), 0) << "it opens at the start";
    EXPECT_EQ(again.history().lastStep(), 80);
    EXPECT_EQ(again.history().currentBranch(), 1);
    for (int64_t s : {80, 51, 20}) {
        ASSERT_TRUE(again.seekStep(s));
        EXPECT_EQ(again.world()->stateHash(),
                  s >= 50 ? branch[static_cast<size_t>(s)] : old[static_cast<size_t>(s)])
            << "step " << s;
    }
    ASSERT_TRUE(again.switchBranch(0));
    EXPECT_EQ(again.world()->stateHash(), old[100]);

    // The scenario edited after the history was saved: the history is refused, the scene opens.
    Scene edited = sim.historyScene();
    edited.settings.posIters += 1;
    ASSERT_TRUE(saveScenario(path, edited, error)) << error;
    Simulation third;
    ASSERT_TRUE(third.loadFile(path, error)) << error;
    const auto refused = third.takeHistoryNote();
    ASSERT_TRUE(refused.has_value());
    EXPECT_TRUE(refused->refused);
    EXPECT_NE(refused->text.find("not used"), std::string::npos) << refused->text;
    EXPECT_EQ(third.history().lastStep(), 0) << "a fresh history";
    EXPECT_EQ(third.scene().settings.posIters, edited.settings.posIters);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace jl::app
