// Force reporting and breakage (issue 3, items 6–7 and 11).
#include <gtest/gtest.h>

#include "test_util.h"

namespace jl {
namespace {

Scene hangingBody(Real mass, Real breakForce) {
    Scene s = test::emptyScene();
    s.bodies.push_back(test::box("weight", Vec3(0, 1.5, 0), Vec3(0.2, 0.2, 0.2), mass));
    s.joints.push_back(test::joint<RevoluteJoint>(s, "hook", "", "weight", Vec3(0, 2.0, 0)));
    s.joints.back().breakForce = breakForce;
    return s;
}

// One body hanging at rest from a joint: the joint's reported force on it is m·g upward, and
// the torque about body 1's joint frame origin (straight above the centre of mass) is zero.
TEST(ForceReporting, HangingBodyReportsItsWeight) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = hangingBody(3.0, kInf);
        s.settings.solver = solver;
        World w(s);
        for (int i = 0; i < 120; ++i) w.step();
        const JointState& js = w.jointState(0);
        const Real mg = 3.0 * 9.81;
        std::printf("%s: force (%.5f, %.5f, %.5f) N, m·g = %.5f N, |torque| %.2e N·m\n", kSolverTypeNames[int(solver)],
                    js.force.x, js.force.y, js.force.z, mg, glm::length(js.torque));
        EXPECT_NEAR(js.force.y, mg, 0.01 * mg);
        EXPECT_NEAR(glm::length(js.force), mg, 0.01 * mg);
        EXPECT_LT(glm::length(js.torque), 1e-3 * mg);
    }
}

// Pull the hanging body down with a force that grows by 1 N per step. The joint breaks in the
// first step whose load (m·g + pull) exceeds breakForce, and not a step earlier.
TEST(Breakage, BreaksInTheFirstStepTheLoadExceedsTheThreshold) {
    const Real m = 2.0, breakForce = 40.0;
    Scene s = hangingBody(m, breakForce);
    World w(s);
    for (int i = 0; i < 30; ++i) w.step();  // settle; weight 19.62 N < 40 N
    ASSERT_FALSE(w.jointState(0).broken);
    ASSERT_TRUE(w.breakEvents().empty());
    Real pull = 0.0;
    int64_t expectedStep = -1;
    for (int i = 0; i < 100 && !w.jointState(0).broken; ++i) {
        pull += 1.0;
        w.applyForce(0, Vec3(0, -pull, 0), w.bodies()[0].pose.p);
        const bool loadAbove = m * 9.81 + pull > breakForce;
        if (loadAbove && expectedStep < 0) expectedStep = w.stepCount() + 1;
        w.step();
        if (!loadAbove) {
            EXPECT_FALSE(w.jointState(0).broken) << "broke below the threshold at pull " << pull;
        }
    }
    ASSERT_TRUE(w.jointState(0).broken);
    ASSERT_EQ(w.breakEvents().size(), 1u);
    const BreakEvent& e = w.breakEvents()[0];
    std::printf("broke at step %lld (expected %lld), reported force %.3f N > %.1f N\n", (long long)e.step,
                (long long)expectedStep, glm::length(e.force), breakForce);
    EXPECT_EQ(e.step, expectedStep);
    EXPECT_GT(glm::length(e.force), breakForce);
    EXPECT_EQ(e.joint, 0);
    // A broken joint produces no rows and the body falls freely.
    const Real y = w.bodies()[0].pose.p.y;
    w.step();
    EXPECT_TRUE(w.jointRows(0).empty());
    EXPECT_LT(w.bodies()[0].pose.p.y, y);
    // Restored, it holds again.
    w.restoreJoint(0);
    w.step();
    EXPECT_FALSE(w.jointRows(0).empty());
}

TEST(Breakage, NeverBreaksWhileTheLoadStaysBelow) {
    Scene s = hangingBody(2.0, 19.62 * 1.05);  // 5% margin above the weight
    World w(s);
    for (int i = 0; i < 600; ++i) w.step();
    EXPECT_FALSE(w.jointState(0).broken);
    EXPECT_TRUE(w.breakEvents().empty());
}

}  // namespace
}  // namespace jl

namespace jl {
namespace {

// Editing a parameter while running keeps the motion going: applyScene keeps body states.
TEST(World, ApplySceneKeepsTheRunningState) {
    Scene s = hangingBody(2.0, kInf);
    s.bodies[0].position += Vec3(0.3, 0, 0);  // start swinging
    s.joints[0].frame1.p -= Vec3(0.3, 0, 0);
    World w(s);
    for (int i = 0; i < 30; ++i) w.step();
    const BodyState before = w.bodies()[0];
    Scene edited = w.scene();
    edited.joints[0].breakForce = 500.0;  // an inspector edit
    w.applyScene(edited, w.scene());
    EXPECT_EQ(w.bodies()[0].pose.p, before.pose.p);
    EXPECT_EQ(w.bodies()[0].linearVelocity, before.linearVelocity);
    EXPECT_EQ(w.scene().joints[0].breakForce, 500.0);
    EXPECT_EQ(w.stepCount(), 30);
    // Editing the body's position in the description moves it.
    Scene moved = w.scene();
    moved.bodies[0].position = Vec3(0, 1.0, 0);
    w.applyScene(moved, w.scene());
    EXPECT_EQ(w.bodies()[0].pose.p, Vec3(0, 1.0, 0));
}

}  // namespace
}  // namespace jl
