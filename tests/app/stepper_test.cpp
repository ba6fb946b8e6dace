// The app's stepper (Simulation::inspectNextStep, jointlab/step_inspector.h): the step it records is
// the step the Simulation then takes, bit for bit — at the end of the run, and back inside the
// history where the step retakes a recorded mouse pull or an edit — and taking it records the
// history as a normal step does. It refuses while playing or dragging.
#include <gtest/gtest.h>

#include <vector>

#include "session/default_scene.h"
#include "session/simulation.h"
#include "sim_runs.h"

namespace jl::app {
namespace {

using sim_runs::firstDynamic;

/// 100 steps of the showcase, pulling a body in steps [20, 40) and raising the position iterations
/// at step 60; the state hash after each step.
std::vector<uint64_t> run(Simulation& sim) {
    return sim_runs::runWithPullAndEdit(sim, 100, firstDynamic(sim.scene()), 20, 40, 60);
}

TEST(Stepper, TheRecordedStepIsTheStepTakenAlsoInsideTheHistory) {
    Simulation sim;
    std::string error;
    Scene scene = makeBuiltInShowcase();
    scene.settings.kernel = KernelType::Reference;
    ASSERT_TRUE(sim.setScene(scene, "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    const std::vector<uint64_t> hashes = run(sim);
    sim.clock.playing = false;

    std::string why;
    // At the end of the run: a new step, recorded by the history like any other.
    std::unique_ptr<StepInspector> next = sim.inspectNextStep(why);
    ASSERT_TRUE(next) << why;
    while (next->nextUnit()) {
    }
    sim.clock.requestSingleStep();
    EXPECT_EQ(sim.advance(0.0), 1);
    EXPECT_EQ(sim.world()->stateHash(), next->stepped().stateHash());
    EXPECT_EQ(sim.history().lastStep(), 101) << "finishing the step extends the history";

    // Back in the run: inside the pull (a recorded force), just before and at the edit.
    for (int64_t s : {25, 39, 59, 60, 61}) {
        ASSERT_TRUE(sim.seekStep(s));
        next = sim.inspectNextStep(why);
        ASSERT_TRUE(next) << why;
        sim.clock.requestSingleStep();
        EXPECT_EQ(sim.advance(0.0), 1);
        EXPECT_EQ(next->stepped().stateHash(), hashes[static_cast<size_t>(s + 1)]) << "step " << s + 1;
        EXPECT_EQ(sim.world()->stateHash(), hashes[static_cast<size_t>(s + 1)]) << "step " << s + 1;
    }
    EXPECT_EQ(sim.history().lastStep(), 101) << "retaking recorded steps starts no branch";
    EXPECT_EQ(sim.history().branches().size(), 1u);
}

TEST(Stepper, RefusedWhilePlayingOrDragging) {
    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.setScene(makeBuiltInShowcase(), "", error)) << error;
    std::string why;
    sim.clock.playing = true;
    EXPECT_FALSE(sim.inspectNextStep(why));
    EXPECT_NE(why.find("pause"), std::string::npos) << why;
    sim.clock.playing = false;
    DragSpring d;
    d.bodyName = sim.scene().bodies[static_cast<size_t>(firstDynamic(sim.scene()))].name;
    sim.drag = d;
    why.clear();
    EXPECT_FALSE(sim.inspectNextStep(why));
    EXPECT_NE(why.find("dragged"), std::string::npos) << why;
    sim.drag.reset();
    EXPECT_TRUE(sim.inspectNextStep(why));
}

}  // namespace
}  // namespace jl::app
