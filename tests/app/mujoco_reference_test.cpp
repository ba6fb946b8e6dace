// Simulation > Reference: MuJoCo (session/mujoco_reference.h) following a live Simulation through
// its onSync: it steps with the run, goes back with it, rebuilds after an edit, and refuses a
// scene whose joints close a loop, saying which joint.
#include "session/mujoco_reference.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "jointlab/scenario_io.h"
#include "session/simulation.h"

namespace jl::app {
namespace {

Scene example(const char* name) {
    Scene s;
    std::string error;
    EXPECT_TRUE(loadScenario(
        (std::filesystem::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios" / name).string(), s, error))
        << error;
    return s;
}

struct Followed {
    Simulation sim;
    MujocoReference reference;
    Followed() {
        sim.onSync = [this](const World& w, bool jumped) { reference.sync(w, jumped, sim.sceneRevision()); };
    }
    void steps(int n) {
        sim.clock.playing = true;
        for (int i = 0; i < n; ++i) sim.advance(sim.scene().settings.dt);
    }
};

TEST(MujocoReference, FollowsTheLiveRunBackAndThroughAnEdit) {
    if (!MujocoReference::available()) GTEST_SKIP() << "built without MuJoCo";
    Followed f;
    std::string error;
    ASSERT_TRUE(f.sim.setScene(example("reference_arm.json"), "", error)) << error;
    f.reference.setEnabled(true, f.sim.world(), f.sim.sceneRevision());
    ASSERT_TRUE(f.reference.running()) << f.reference.refusal();
    ASSERT_EQ(f.reference.jointNames(), (std::vector<std::string>{"shoulder", "elbow", "wrist"}));
    f.steps(30);
    ASSERT_EQ(f.reference.sampleCount(), 30u);
    EXPECT_EQ(f.reference.sampleStep(29), 30);
    // The first step from rest: semi-implicit Euler moves a coordinate by a·h² in one step, TGS's
    // 8 substeps by a·h²·(1 + 2 + … + 8)/64 = 0.5625·a·h² (the exact motion is 0.5·a·h²). So
    // MuJoCo's shoulder has turned 1/0.5625 = 1.78 times as far as JointLab's (measured 1.79: the
    // constraints shift a a little within the step).
    EXPECT_NEAR(f.reference.sampleMujoco(0, 0) / f.reference.sampleJointlab(0, 0), 64.0 / 36.0,
                0.05 * 64.0 / 36.0);
    // The ghost has a pose per scene body, the static post where the scene puts it.
    ASSERT_EQ(f.reference.bodies().size(), f.sim.scene().bodies.size());
    EXPECT_EQ(f.reference.bodies()[0].pose.p, f.sim.scene().bodies[0].position);

    // Back to step 10 on the timeline: the record keeps the steps up to it, MuJoCo starts again
    // from the live state there (no divergence but JointLab's joint error).
    ASSERT_TRUE(f.sim.seekStep(10));
    EXPECT_EQ(f.reference.sampleCount(), 10u);
    f.steps(1);
    EXPECT_EQ(f.reference.sampleStep(f.reference.sampleCount() - 1), 11);
    EXPECT_LT(f.reference.sampleDivergence(f.reference.sampleCount() - 1), 2e-3);

    // An edit rebuilds MuJoCo's model: a heavier hand is a new scene revision.
    Scene edited = f.sim.scene();
    edited.bodies[3].mass = 5.0;
    ASSERT_TRUE(f.sim.applyEdit(edited, {}, {}, error)) << error;
    EXPECT_TRUE(f.reference.running());
    EXPECT_EQ(f.reference.sampleCount(), 0u);  // a new model, a new record
    f.steps(5);
    EXPECT_EQ(f.reference.sampleCount(), 5u);

    f.reference.setEnabled(false, f.sim.world(), f.sim.sceneRevision());
    f.steps(2);
    EXPECT_FALSE(f.reference.running());
    EXPECT_EQ(f.reference.sampleCount(), 0u);
}

TEST(MujocoReference, RefusesALoopAndTriesAgainAfterAnEdit) {
    if (!MujocoReference::available()) GTEST_SKIP() << "built without MuJoCo";
    Followed f;
    std::string error;
    Scene bridge = example("bridge.json");
    bridge.joints.pop_back();  // the crate's rope (a distance joint): only the loop is left
    ASSERT_TRUE(f.sim.setScene(bridge, "", error)) << error;
    f.reference.setEnabled(true, f.sim.world(), f.sim.sceneRevision());
    EXPECT_TRUE(f.reference.enabled());
    EXPECT_FALSE(f.reference.running());
    EXPECT_NE(f.reference.refusal().find("\"joint 5\" closes a loop"), std::string::npos)
        << f.reference.refusal();
    f.steps(3);  // nothing runs, nothing breaks
    EXPECT_EQ(f.reference.sampleCount(), 0u);
    // Take out the far anchor: a hanging chain, a tree. The edit starts the reference.
    Scene edited = f.sim.scene();
    edited.joints.erase(edited.joints.begin() + static_cast<std::ptrdiff_t>(edited.findJoint("joint 10")));
    ASSERT_TRUE(f.sim.applyEdit(edited, {}, {}, error)) << error;
    EXPECT_TRUE(f.reference.running()) << f.reference.refusal();
    EXPECT_TRUE(f.reference.refusal().empty());
}

}  // namespace
}  // namespace jl::app
