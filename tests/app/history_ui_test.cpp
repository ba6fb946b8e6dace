// The app's time machine (issue 26): the Simulation records its History; going back to any step
// gives the state the run had (across a mouse pull and an edit made through the editor), playing on
// retakes it, and an edit in the past starts a branch that keeps the old future.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "session/default_scene.h"
#include "session/simulation.h"
#include "sim_runs.h"
#include "telemetry/plot_history.h"

namespace jl::app {
namespace {

using sim_runs::firstDynamic;
using sim_runs::runWithPullAndEdit;

TEST(TimeMachine, GoingBackGivesTheRunsStateAndPlayingOnRetakesIt) {
    Simulation sim;
    std::string error;
    const Scene scene = makeBuiltInShowcase();
    ASSERT_TRUE(sim.setScene(scene, "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    const std::vector<uint64_t> hashes = runWithPullAndEdit(sim, 150, firstDynamic(scene));
    EXPECT_EQ(sim.history().lastStep(), 150);
    for (int64_t s : {10, 149, 35, 80, 79, 0, 120}) {
        ASSERT_TRUE(sim.seekStep(s));
        EXPECT_FALSE(sim.clock.playing) << "going back pauses";
        EXPECT_EQ(sim.world()->stepCount(), s);
        EXPECT_EQ(sim.world()->stateHash(), hashes[static_cast<size_t>(s)]) << "step " << s;
        EXPECT_EQ(sim.scrubbed(), s < 150);
    }
    // The scene shown is the one that step ran with: before the edit, 4 position iterations fewer.
    ASSERT_TRUE(sim.seekStep(50));
    const int before = sim.scene().settings.posIters;
    ASSERT_TRUE(sim.seekStep(100));
    EXPECT_EQ(sim.scene().settings.posIters, before + 4);
    // Playing on from step 30 retakes the pull and the edit: the same states, no branch, and the
    // marks of the steps it retakes are not made twice.
    const size_t marks = sim.history().events().size();
    EXPECT_GT(marks, 0u) << "the edit at least";
    ASSERT_TRUE(sim.seekStep(30));
    sim.clock.playing = true;
    for (int i = 0; i < 140; ++i) {
        sim.advance(1.0 / 60.0);
        const int64_t now = sim.world()->stepCount();
        if (now <= 150)
            ASSERT_EQ(sim.world()->stateHash(), hashes[static_cast<size_t>(now)]) << "step " << now;
    }
    EXPECT_EQ(sim.history().branches().size(), 1u);
    EXPECT_EQ(sim.history().lastStep(), 170);
    size_t upTo150 = 0;
    for (const HistoryEvent& e : sim.history().events()) upTo150 += e.step <= 150 ? 1 : 0;
    EXPECT_EQ(upTo150, marks);
}

TEST(TimeMachine, AnEditInThePastStartsABranchAndKeepsTheOldFuture) {
    Simulation sim;
    std::string error;
    const Scene scene = makeBuiltInShowcase();
    ASSERT_TRUE(sim.setScene(scene, "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    const std::vector<uint64_t> old = runWithPullAndEdit(sim, 120, firstDynamic(scene));
    ASSERT_TRUE(sim.seekStep(40));
    Scene edited = sim.scene();
    edited.settings.gravity = Vec3(0.0, -3.0, 0.0);
    ASSERT_TRUE(sim.applyEdit(edited, {}, {}, error)) << error;
    ASSERT_EQ(sim.history().branches().size(), 2u);
    EXPECT_EQ(sim.history().currentBranch(), 1);
    sim.clock.playing = true;
    for (int i = 0; i < 30; ++i) sim.advance(1.0 / 60.0);
    EXPECT_EQ(sim.world()->stepCount(), 70);
    EXPECT_NE(sim.world()->stateHash(), old[70]);
    // The old future is still there.
    ASSERT_TRUE(sim.switchBranch(0));
    EXPECT_EQ(sim.world()->stepCount(), 120);
    EXPECT_EQ(sim.world()->stateHash(), old[120]);
    ASSERT_TRUE(sim.seekStep(70));
    EXPECT_EQ(sim.world()->stateHash(), old[70]);
    // A new scene starts a new history.
    ASSERT_TRUE(sim.reset(error)) << error;
    EXPECT_EQ(sim.history().branches().size(), 1u);
    EXPECT_EQ(sim.history().lastStep(), 0);
}

// The timeline's marks: a door swinging onto its hinge limit and a bridge that breaks.
TEST(TimeMachine, TheMarksSayWhatHappened) {
    for (const char* name : {"door_limits.json", "bridge.json"}) {
        Simulation sim;
        std::string error;
        ASSERT_TRUE(sim.loadFile(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/" + name, error))
            << error;
        sim.clock.fixedStepsPerFrame = 1;
        sim.clock.playing = true;
        for (int i = 0; i < 300; ++i) sim.advance(1.0 / 60.0);
        int limits = 0, breaks = 0;
        for (const HistoryEvent& e : sim.history().events()) {
            limits += e.kind == HistoryMark::LimitHit;
            breaks += e.kind == HistoryMark::Break;
            EXPECT_FALSE(e.what.empty());
        }
        if (std::string(name) == "door_limits.json") EXPECT_GT(limits, 0) << name;
        if (std::string(name) == "bridge.json") EXPECT_GT(breaks, 0) << name;
    }
}

// Gone back, the convergence plot shows that step's sweeps: the residuals the run recorded then.
TEST(TimeMachine, TheConvergenceCurveIsTheStepGoneBackTo) {
    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.setScene(makeBuiltInShowcase(), "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    sim.clock.playing = true;
    for (int i = 0; i < 100; ++i) sim.advance(1.0 / 60.0);
    const Telemetry& t = sim.telemetry();
    ASSERT_EQ(t.latest().step, 100);
    const std::vector<Real> at60 = t.at(59).residuals;  // step 60
    ASSERT_EQ(t.at(59).step, 60);
    ASSERT_TRUE(sim.seekStep(60));
    ConvergenceHistory c;
    c.update(*sim.world());
    const ConvergenceHistory::Curve& curve = c.curves[static_cast<int>(sim.world()->scene().settings.solver)];
    EXPECT_EQ(curve.step, 60);
    EXPECT_EQ(curve.residuals, std::vector<double>(at60.begin(), at60.end()));
}

}  // namespace
}  // namespace jl::app
