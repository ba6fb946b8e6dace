// Restoring a broken joint whose bodies drifted apart (issue 28, point 3): re-seated where the
// bodies are, nothing moves and the joint holds at once, so the energy does not jump; pulled
// together over N steps, the bodies come back with bounded energy; and a restored joint that
// breaks again is reported.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "editor/editor.h"
#include "editor/reseat.h"
#include "render/joint_draw.h"
#include "render/joint_frames.h"

namespace jl::app {
namespace {

/// A 1 kg bob (a 0.5 m cube) hanging 1 m below a hinge at (0, 3, 0) about Z, swinging; no ground.
Scene pendulum(Real breakForce) {
    Scene s;
    s.settings.groundPlane = false;
    BodyDesc bob;
    bob.name = "bob";
    bob.halfExtents = Vec3(0.25);
    bob.position = Vec3(0, 2, 0);
    bob.linearVelocity = Vec3(1, 0, 0);
    s.bodies.push_back(bob);
    JointDesc j;
    j.name = "pivot";
    j.body1 = "bob";
    j.frame0 = Transform{Vec3(0, 3, 0), glm::angleAxis(kPi / 2, Vec3(0, 1, 0))};  // X along world Z
    j.frame1 = Transform{Vec3(0, 1, 0), glm::angleAxis(kPi / 2, Vec3(0, 1, 0))};
    j.params = makeJointParams(findJointType("revolute"));
    j.breakForce = breakForce;
    s.joints.push_back(j);
    return s;
}

Real energy(const World& w) {
    return w.kineticEnergy() + w.potentialEnergy();
}

/// Breaks the pivot and lets the bob fly for `steps` steps.
void breakAndDrift(Simulation& sim, int steps) {
    sim.world()->setJointBroken(0, true);
    for (int i = 0; i < steps; ++i) sim.world()->step();
}

struct RestoreFixture : ::testing::Test {
    Simulation sim;
    Editor editor{sim};
    std::string error;
    void SetUp() override {
        ASSERT_TRUE(sim.setScene(pendulum(kInf), "", error)) << error;
        sim.clock.fixedStepsPerFrame = 1;  // advance() takes exactly one step
    }
    Reseat seat() const {
        const World& w = *sim.world();
        return reseatJoint(w.scene().joints[0], Transform{}, w.bodies()[0].pose, w.scene().settings.dt);
    }
};

/// The largest distance a body moved in one step and the largest force the joint reported over
/// `steps` steps, and the largest hard-row error.
struct Aftermath {
    Real jump = 0.0, force = 0.0, error = 0.0, energyRise = 0.0;
};
Aftermath watch(Simulation& sim, int steps) {
    Aftermath a;
    const Real e0 = energy(*sim.world());
    for (int i = 0; i < steps; ++i) {
        const Vec3 before = sim.world()->bodies()[0].pose.p;
        sim.advance(1.0 / 60.0);
        const World& w = *sim.world();
        a.jump = std::max(a.jump, glm::length(w.bodies()[0].pose.p - before));
        a.force = std::max(a.force, glm::length(w.jointState(0).force));
        for (const RowResult& r : w.jointRowResults(0))
            a.error = std::max(a.error, std::abs(r.geometricError));
        a.energyRise = std::max(a.energyRise, energy(w) - e0);
    }
    return a;
}

TEST_F(RestoreFixture, ReseatingKeepsTheBodiesWhereTheyAreAndTheJointHolds) {
    breakAndDrift(sim, 20);  // the bob flew off, half a metre and more from where the hinge holds it
    const Reseat s = seat();
    EXPECT_GT(s.errorBefore, 0.5);
    EXPECT_LT(s.errorAfter, 1e-9);
    const BodyState before = sim.world()->bodies()[0];
    ASSERT_TRUE(editor.run(reseatJoint("pivot", s.joint), error)) << error;
    sim.restoreJoint(0, true);
    // The restore moved nothing.
    EXPECT_EQ(sim.world()->bodies()[0].pose.p, before.pose.p);
    EXPECT_EQ(sim.world()->bodies()[0].linearVelocity, before.linearVelocity);
    // Its first step starts with every row at C = 0; from there it holds like any hinge: no jump,
    // no snap force, and the energy does not rise (the hinge only takes motion away).
    sim.advance(1.0 / 60.0);
    for (const RowResult& r : sim.world()->jointRowResults(0)) EXPECT_LT(std::abs(r.geometricError), 1e-9);
    const Aftermath a = watch(sim, 120);
    std::printf("re-seated: jump %.3g m, force %.3g N, error %.3g, energy rise %.3g J\n", a.jump, a.force,
                a.error, a.energyRise);
    EXPECT_LT(a.jump, 0.05);  // it swings on: 1 to 3 m/s, a few centimetres a step
    EXPECT_LT(a.force, 100.0);
    EXPECT_LT(a.error, 0.1);
    EXPECT_LT(a.energyRise, 0.5);
    // Undo puts the joint's frames back as they were.
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.scene().joints[0].frame1.p, Vec3(0, 1, 0));
}

TEST_F(RestoreFixture, RestoringAsItWasSnaps) {
    // What the re-seat avoids: restored unchanged, the gap (over half a metre) is closed at α of
    // it per step — all of it in one step at PhysX's α = 1, 30% at PGS's stable default α = 0.3 —
    // by a force of twenty times the bob's weight (which breaks a threshold set near its load).
    breakAndDrift(sim, 20);
    const Real gap = seat().errorBefore, alpha = sim.scene().settings.effectiveBaumgarte();
    sim.restoreJoint(0);
    const Aftermath a = watch(sim, 10);
    std::printf("as it was: gap %.3g m, jump %.3g m (alpha %.2g), force %.3g N\n", gap, a.jump, alpha,
                a.force);
    EXPECT_GT(gap, 0.5);
    EXPECT_GT(a.jump, 0.8 * alpha * gap);
    EXPECT_GT(a.force, 150.0);
}

TEST_F(RestoreFixture, PullingTogetherBringsTheBodiesBackGently) {
    breakAndDrift(sim, 20);
    const Reseat s = seat();
    sim.restoreJoint(0, true);
    constexpr int kSteps = 90;
    sim.pullJointTogether("pivot", s.joint.frame0, s.joint.frame1, kSteps);
    EXPECT_TRUE(sim.pulling());
    const Aftermath a = watch(sim, kSteps + 120);
    std::printf("pulled: jump %.3g m, force %.3g N\n", a.jump, a.force);
    EXPECT_FALSE(sim.pulling());
    // The joint is the scene's again (Save writes it unchanged) and holds: the bob is back on its arm.
    EXPECT_EQ(sim.world()->scene().joints[0].frame1.p, Vec3(0, 1, 0));
    const JointWorldFrames f = jointWorldFrames(sim.scene(), sim.world()->bodies(), sim.scene().joints[0]);
    EXPECT_LT(glm::length(f.a.p - f.b.p), 2e-3);
    // Gently: no jump, a few centimetres a step.
    EXPECT_LT(a.jump, 0.05);
}

TEST(Restore, EveryJointTypeIsSeatedWhereItsBodiesAre) {
    for (int t = 0; t < kJointTypeCount; ++t) {
        SCOPED_TRACE(jointTypeInfo(t).name);
        JointDesc j;
        j.name = "j";
        j.body0 = "A";
        j.body1 = "B";
        j.frame0.p = Vec3(0.5, 0, 0);
        j.frame1.p = Vec3(-0.5, 0, 0);
        j.params = makeJointParams(t);
        const Transform pose0{Vec3(-1, 2, 0), kIdentityQuat};
        // Body B flew off and tumbled.
        const Transform pose1{Vec3(1.7, 1.1, 0.4), glm::angleAxis(0.8, glm::normalize(Vec3(1, 2, 3)))};
        const Reseat s = reseatJoint(j, pose0, pose1, 1.0 / 60.0);
        EXPECT_LT(s.errorAfter, 1e-8) << "before " << s.errorBefore;
        EXPECT_EQ(s.joint.name, "j");
        EXPECT_EQ(s.joint.frame0.p, j.frame0.p);  // body 0's frame stays
    }
}

TEST(Restore, AHingeBeyondItsLimitIsSeatedAtTheLimit) {
    JointDesc j;
    j.name = "h";
    j.body1 = "B";
    RevoluteJoint r;
    r.limit.enabled = true;
    r.limit.lower = -0.5;
    r.limit.upper = 0.5;
    j.params = r;
    // Body B turned 1.2 rad about the hinge axis X: 0.7 rad past the upper limit.
    const Transform pose1{Vec3(0.0), glm::angleAxis(1.2, Vec3(1, 0, 0))};
    const Reseat s = reseatJoint(j, Transform{}, pose1, 1.0 / 60.0);
    EXPECT_GT(s.errorBefore, 0.6);
    EXPECT_LT(s.errorAfter, 1e-9);
    // Seated at the limit, not at 0: frame B is turned back by only 0.7 rad.
    const Quat rel = glm::conjugate(j.frame0.q) * (pose1.q * s.joint.frame1.q);
    EXPECT_NEAR(2.0 * std::atan2(rel.x, rel.w), 0.5, 1e-6);
}

TEST(Restore, ARestoredJointThatBreaksAgainIsReported) {
    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.setScene(pendulum(30.0), "", error)) << error;  // holds the bob's weight, not a snap
    sim.clock.fixedStepsPerFrame = 1;
    breakAndDrift(sim, 20);
    sim.restoreJoint(0);  // as it was: the snap breaks it again
    for (int i = 0; i < 5; ++i) sim.advance(1.0 / 60.0);
    const std::vector<std::string> notices = sim.takeNotices();
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_NE(notices[0].find("'pivot' broke again"), std::string::npos) << notices[0];
    EXPECT_NE(notices[0].find("breaks at 30 N"), std::string::npos) << notices[0];
    EXPECT_TRUE(sim.takeNotices().empty());
}

// The Restore popup and the status line say the gap in its unit (they said "(m or rad)"): a
// bob moved 0.3 m along world X from where the pivot holds is 0.3 m apart at its anchor (a point
// row lies along X whichever basis the rows use, as X is one of the frames' axes: exact to
// round-off); turned 0.2 rad about X around the anchor it is off its axes by an angle between
// sin 0.2 (an axis dot product) and 0.2 (the angle itself), with no linear gap.
TEST(Restore, TheGapIsSaidInMetresOrRadians) {
    const JointDesc pivot = pendulum(kInf).joints[0];
    const Real dt = 1.0 / 60.0;
    Transform bob{Vec3(0.3, 2, 0), Quat(1, 0, 0, 0)};
    HoldGap gap = jointHoldGap(pivot, Transform{}, bob, dt);
    EXPECT_NEAR(gap.linear, 0.3, 1e-12);
    EXPECT_LT(gap.angular, 1e-12);
    EXPECT_EQ(holdGapText(gap), "0.3 m apart at its anchor");

    const Quat turn = glm::angleAxis(0.2, Vec3(1, 0, 0));
    const Vec3 anchor(0, 3, 0);
    bob = Transform{anchor + turn * (Vec3(0, 2, 0) - anchor), turn};
    gap = jointHoldGap(pivot, Transform{}, bob, dt);
    EXPECT_LT(gap.linear, 1e-12);
    EXPECT_GE(gap.angular, std::sin(0.2) - 1e-12);
    EXPECT_LE(gap.angular, 0.2 + 1e-12);
    const std::string text = holdGapText(gap);
    EXPECT_NE(text.find(" rad ("), std::string::npos) << text;
    EXPECT_EQ(text.find(" m "), std::string::npos) << text;
    EXPECT_EQ(jointHoldError(pivot, Transform{}, bob, dt), gap.largest());
    EXPECT_EQ(holdGapText(HoldGap{}), "where it holds");
}

// The Inspector's threshold line: a broken joint carries no load now, so its line said "0% of the
// break threshold"; it now says BROKEN with the load of the step that broke it, above the
// threshold. A joint below its threshold shows the fraction; one with none says so.
TEST(Restore, TheLoadLineOfABrokenJointSaysTheLoadThatBrokeIt) {
    Simulation sim;
    std::string error;
    ASSERT_TRUE(sim.setScene(pendulum(30.0), "", error)) << error;  // 1 kg swinging at 1 m/s: about 11 N
    sim.clock.fixedStepsPerFrame = 1;
    sim.advance(1.0 / 60.0);
    const World& w = *sim.world();
    const JointDesc j = w.scene().joints[0];  // a copy: the edit below rebuilds the World
    JointLoadLine line = jointLoadLine(j, w.jointState(0), lastBreak(w, 0));
    EXPECT_EQ(line.kind, JointLoadLine::Kind::Load);
    EXPECT_NEAR(line.fraction, glm::length(w.jointState(0).force) / 30.0, 1e-15);
    EXPECT_GT(line.fraction, 0.2);  // the weight alone is 9.81 N of 30
    EXPECT_NE(line.text.find("% of the break threshold"), std::string::npos);

    // Lowered to 5 N, the joint breaks in the next step under the same ~11 N.
    JointDesc weak = j;
    weak.breakForce = 5.0;
    std::string problem;
    ASSERT_TRUE(sim.applyEdit(
        [&] {
            Scene s = w.scene();
            s.joints[0] = weak;
            return s;
        }(),
        {}, {}, problem))
        << problem;
    sim.advance(1.0 / 60.0);
    const World& after = *sim.world();
    ASSERT_TRUE(after.jointState(0).broken);
    const BreakEvent* broke = lastBreak(after, 0);
    ASSERT_NE(broke, nullptr);
    EXPECT_GT(glm::length(broke->force), 5.0);
    line = jointLoadLine(after.scene().joints[0], after.jointState(0), broke);
    EXPECT_EQ(line.kind, JointLoadLine::Kind::Broken);
    char expected[64];
    std::snprintf(expected, sizeof expected, "BROKEN: %.4g N > 5 N", glm::length(broke->force));
    EXPECT_EQ(line.text, expected);
    EXPECT_EQ(line.text.find('%'), std::string::npos) << "no '0% of the break threshold'";
    JointDesc raised = after.scene().joints[0];
    raised.breakForce = 1000.0;  // raised above the load that broke it: no "98 N > 1000 N"
    std::snprintf(expected, sizeof expected, "BROKEN by %.4g N", glm::length(broke->force));
    EXPECT_EQ(jointLoadLine(raised, after.jointState(0), broke).text, expected);

    JointDesc startsBroken = j;
    startsBroken.startBroken = true;
    JointState broken;
    broken.broken = true;
    EXPECT_EQ(jointLoadLine(startsBroken, broken, nullptr).text, "BROKEN (it starts broken)");
    EXPECT_EQ(jointLoadLine(pendulum(kInf).joints[0], JointState{}, nullptr).kind,
              JointLoadLine::Kind::Unbreakable);
}

}  // namespace
}  // namespace jl::app
