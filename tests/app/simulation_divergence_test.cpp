// A step that diverges pauses the app's simulation and says which joint did it (issue 10, item 3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "session/simulation.h"

namespace jl::app {
namespace {

/// A pendulum whose bob weighs 1 mg, the least mass a file may give (jl::kMinMass). No file can
/// make it diverge any more (forces in files are within ±1e15 N, so dt·F/m stays finite and the
/// speed caps hold); these tests push it with 1e308 N through World::applyForce, which nothing
/// but a test can do, so that dt·F/m overflows and the step diverges.
Scene featherPendulum(SolverType solver) {
    Scene s;
    s.settings.solver = solver;
    BodyDesc bob;
    bob.name = "bob";
    bob.shape = ShapeType::Sphere;
    bob.radius = 0.25;
    bob.mass = kMinMass;
    bob.position = Vec3(0.6882917236212552, 2.01701754685321, 0.0);
    bob.linearVelocity = Vec3(0.0, 0.0, 1.6);
    s.bodies.push_back(bob);
    JointDesc pivot;
    pivot.name = "pivot";
    pivot.body1 = "bob";
    pivot.frame0.p = Vec3(0.0, 3.0, 0.0);
    pivot.frame1.p = Vec3(0.0, 3.0, 0.0) - bob.position;
    pivot.params = SphericalJoint{};
    s.joints.push_back(pivot);
    return s;
}

bool sameBits(const BodyState& a, const BodyState& b) {
    return std::memcmp(&a.pose.p, &b.pose.p, sizeof a.pose.p) == 0 &&
           std::memcmp(&a.pose.q, &b.pose.q, sizeof a.pose.q) == 0 &&
           std::memcmp(&a.linearVelocity, &b.linearVelocity, sizeof a.linearVelocity) == 0 &&
           std::memcmp(&a.angularVelocity, &b.angularVelocity, sizeof a.angularVelocity) == 0;
}

TEST(SimulationDivergence, ADivergingStepPausesAndNamesTheJoint) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Simulation sim;
        std::string error;
        ASSERT_TRUE(sim.setScene(featherPendulum(solver), "", error)) << error;
        sim.clock.fixedStepsPerFrame = 4;  // several steps a frame: the ones after the failure must not run
        for (int frame = 0; frame < 5; ++frame) EXPECT_EQ(sim.advance(1.0 / 60.0), 4);
        ASSERT_EQ(sim.world()->stepCount(), 20);
        EXPECT_FALSE(sim.divergence());
        EXPECT_EQ(sim.divergenceCount(), 0);

        EXPECT_EQ(sim.advance(1.0 / 60.0), 4);
        ASSERT_EQ(sim.world()->stepCount(), 24);
        // The push acts in the next step (25), the first of the next frame's four.
        const BodyState before = sim.world()->bodies()[0];
        sim.world()->applyForce(0, Vec3(1e308, 0.0, 0.0), before.pose.p);
        EXPECT_EQ(sim.advance(1.0 / 60.0), 0)
            << "the diverging step is not counted and nothing runs after it";

        // Paused, at the last good state, with the World's message naming the joint.
        EXPECT_FALSE(sim.clock.playing);
        EXPECT_EQ(sim.world()->stepCount(), 24);
        EXPECT_TRUE(sameBits(sim.world()->bodies()[0], before));
        ASSERT_TRUE(sim.divergence());
        EXPECT_EQ(sim.divergenceCount(), 1);
        const Divergence& d = *sim.divergence();
        EXPECT_EQ(d.step, 25);
        EXPECT_EQ(d.joint, 0);
        EXPECT_EQ(d.body, 0);
        EXPECT_NE(d.message.find("joint \"pivot\" diverged at step 25"), std::string::npos) << d.message;
        EXPECT_NE(d.message.find("body \"bob\""), std::string::npos) << d.message;
        EXPECT_EQ(d.message.find('\n'), std::string::npos);

        // Paused means paused: further frames take no steps and the notice stays.
        for (int frame = 0; frame < 3; ++frame) EXPECT_EQ(sim.advance(1.0 / 60.0), 0);
        EXPECT_EQ(sim.world()->stepCount(), 24);
        ASSERT_TRUE(sim.divergence());

        // Play again: without the push the step goes through and the notice is cleared.
        sim.clock.playing = true;
        EXPECT_EQ(sim.advance(1.0 / 60.0), 4);
        EXPECT_EQ(sim.world()->stepCount(), 28);
        EXPECT_FALSE(sim.divergence());
        EXPECT_EQ(sim.divergenceCount(), 1);
        for (const BodyState& b : sim.world()->bodies())
            EXPECT_TRUE(isFinite(b.pose.p) && isFinite(b.linearVelocity) && isFinite(b.angularVelocity));
    }
}

TEST(SimulationDivergence, ASingleStepThatDivergesIsReportedAndResetClearsIt) {
    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.setScene(featherPendulum(SolverType::PGS), "", error)) << error;
    sim.clock.playing = false;
    sim.clock.requestSingleStep();
    EXPECT_EQ(sim.advance(1.0 / 60.0), 1);
    sim.world()->applyForce(0, Vec3(0.0, -1e308, 0.0), sim.world()->bodies()[0].pose.p);
    sim.clock.requestSingleStep();
    EXPECT_EQ(sim.advance(1.0 / 60.0), 0);
    ASSERT_TRUE(sim.divergence());
    EXPECT_NE(sim.divergence()->message.find("joint \"pivot\" diverged at step 2"), std::string::npos);
    EXPECT_EQ(sim.world()->stepCount(), 1);
    ASSERT_TRUE(sim.reset(error)) << error;
    EXPECT_FALSE(sim.divergence());
    EXPECT_EQ(sim.world()->stepCount(), 0);
}

}  // namespace
}  // namespace jl::app
