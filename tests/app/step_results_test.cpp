// The Inspector's "Load on body 1 (last step)" shows a step's joint loads only when the World took
// one: an edit between steps builds the World again (World::applyScene), whose loads are then zero
// until the next step, and the Inspector says so instead of showing 0 N.
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "session/default_scene.h"
#include "session/simulation.h"

namespace jl::app {
namespace {

TEST(StepResults, AnEditBetweenStepsLeavesNoLoadsUntilTheNextStep) {
    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.setScene(makeBuiltInShowcase(), "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    EXPECT_FALSE(sim.hasStepResults());  // loaded, not stepped
    for (int i = 0; i < 30; ++i) sim.advance(1.0 / 60.0);
    ASSERT_TRUE(sim.hasStepResults());
    // A hanging joint carries a load after a step: the flag is not about an unloaded world.
    Real load = 0.0;
    for (int j = 0; j < static_cast<int>(sim.scene().joints.size()); ++j)
        load = std::max(load, glm::length(sim.world()->jointState(j).force));
    EXPECT_GT(load, 0.1);

    // A setting edited between steps is such an edit (the stepper's own kernel switch is not one:
    // tests/app/stepper_kernel_test.cpp).
    Scene edited = sim.scene();
    edited.settings.kernel =
        edited.settings.kernel == KernelType::Fast ? KernelType::Reference : KernelType::Fast;
    ASSERT_TRUE(sim.applyEdit(edited, {}, {}, error)) << error;
    EXPECT_FALSE(sim.hasStepResults());
    Real after = 0.0;
    for (int j = 0; j < static_cast<int>(sim.scene().joints.size()); ++j)
        after = std::max(after, glm::length(sim.world()->jointState(j).force));
    EXPECT_EQ(after, 0.0);  // what the Inspector would have shown as the last step's load

    sim.advance(1.0 / 60.0);
    EXPECT_TRUE(sim.hasStepResults());
}

}  // namespace
}  // namespace jl::app
