// The conditioning advisor (jointlab/advisor.h): each warning on a constructed scene that
// triggers it and on one just like it that does not, and its fixes making it go away.
#include "jointlab/advisor.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

int count(const std::vector<Advice>& advice, AdviceKind kind) {
    return static_cast<int>(
        std::count_if(advice.begin(), advice.end(), [&](const Advice& a) { return a.kind == kind; }));
}

const Advice* find(const std::vector<Advice>& advice, AdviceKind kind) {
    for (const Advice& a : advice)
        if (a.kind == kind) return &a;
    return nullptr;
}

/// The world holds `light`; `heavy` hangs from it on a ball joint "hook".
Scene hanging(Real light, Real heavy) {
    Scene s;
    s.bodies.push_back(test::sphere("light", Vec3(0, 2, 0), light, 0.1));
    s.bodies.push_back(test::sphere("heavy", Vec3(0, 1.5, 0), heavy, 0.1));
    s.joints.push_back(test::joint<SphericalJoint>(s, "top", "", "light", Vec3(0, 2.1, 0)));
    s.joints.push_back(test::joint<SphericalJoint>(s, "hook", "light", "heavy", Vec3(0, 1.75, 0)));
    return s;
}

TEST(Advisor, MassRatioAboveTenWarnsAndMassScalesBringItUnder) {
    Scene s = hanging(1.0, 100.0);
    ASSERT_EQ(validateScene(s), "");
    std::vector<Advice> a = adviseScene(s);
    ASSERT_EQ(count(a, AdviceKind::MassRatio), 1);
    const Advice& m = *find(a, AdviceKind::MassRatio);
    EXPECT_EQ(m.joint, 1);
    EXPECT_DOUBLE_EQ(m.value, 100.0);
    EXPECT_NE(m.explanation.find("100 times lighter"), std::string::npos) << m.explanation;
    EXPECT_EQ(count(adviseScene(hanging(1.0, 9.0)), AdviceKind::MassRatio), 0);

    Scene fixed = s;
    EXPECT_EQ(applyAdviceFix(fixed, m, AdviceFix::MassScales),
              "invMassScale0 × 0.09 (and its inertia scale)");
    EXPECT_DOUBLE_EQ(fixed.joints[1].invMassScale0, 0.09);  // the light body, seen as 11.1 kg: ratio 9
    EXPECT_EQ(count(adviseScene(fixed), AdviceKind::MassRatio), 0);
    EXPECT_EQ(applyAdviceFix(fixed, m, AdviceFix::UseTgs), "solver PGS → TGS");
    EXPECT_EQ(applyAdviceFix(fixed, m, AdviceFix::UseTgs), "");  // already TGS: nothing to do
}

TEST(Advisor, InertiaRatioOfEqualMassesOfDifferentSizes) {
    Scene s;
    s.bodies.push_back(test::box("big", Vec3(0, 2, 0), Vec3(1.0, 1.0, 1.0), 1.0));
    s.bodies.push_back(test::box("small", Vec3(0, 0.9, 0), Vec3(0.05, 0.05, 0.05), 1.0));
    s.joints.push_back(test::joint<SphericalJoint>(s, "top", "", "big", Vec3(0, 3, 0)));
    s.joints.push_back(test::joint<FixedJoint>(s, "weld", "big", "small", Vec3(0, 0.95, 0)));
    std::vector<Advice> a = adviseScene(s);
    EXPECT_EQ(count(a, AdviceKind::MassRatio), 0);
    ASSERT_EQ(count(a, AdviceKind::InertiaRatio), 1);
    EXPECT_NEAR(find(a, AdviceKind::InertiaRatio)->value, 400.0, 1e-9);  // (1 / 0.05)²
    s.bodies[1].halfExtents = Vec3(0.5);
    EXPECT_EQ(count(adviseScene(s), AdviceKind::InertiaRatio), 0);  // 4: fine
}

TEST(Advisor, LongLeverOnALightBallOnlyWhenThePointRowsAreSolvedOneByOne) {
    Scene s;
    s.settings.pointSolve = PointSolve::Rows;
    s.bodies.push_back(test::sphere("bob", Vec3(1, 2, 0), 1.0, 0.05));
    s.joints.push_back(test::joint<SphericalJoint>(s, "pivot", "", "bob", Vec3(0, 2, 0)));
    std::vector<Advice> a = adviseScene(s);
    ASSERT_EQ(count(a, AdviceKind::LongLever), 1);
    EXPECT_NEAR(find(a, AdviceKind::LongLever)->value, 1.0 / (0.4 * 0.05 * 0.05), 1e-9);  // m r²/I = 1000
    Scene fixed = s;
    EXPECT_EQ(applyAdviceFix(fixed, *find(a, AdviceKind::LongLever), AdviceFix::BlockPointSolve),
              "pointSolve rows → block");
    EXPECT_EQ(count(adviseScene(fixed), AdviceKind::LongLever), 0);
    s.bodies[0].position = Vec3(0.05, 2, 0);  // anchored on its surface: β = 2.5
    s.joints[0] = test::joint<SphericalJoint>(s, "pivot", "", "bob", Vec3(0, 2, 0));
    EXPECT_EQ(count(adviseScene(s), AdviceKind::LongLever), 0);
}

TEST(Advisor, WeakRowFromAMassScaleNearZeroAndItsReset) {
    Scene s;
    s.bodies.push_back(test::box("crate", Vec3(0, 2, 0), Vec3(0.2), 1.0));
    s.joints.push_back(test::joint<FixedJoint>(s, "bolt", "", "crate", Vec3(0, 2.2, 0)));
    s.joints[0].invMassScale1 = 1e-10;
    s.joints[0].invInertiaScale1 = 1e-10;
    World world(s);
    world.step();
    std::vector<Advice> a = adviseScene(s, &world);
    ASSERT_EQ(count(a, AdviceKind::WeakRow), 1);
    const Advice& w = *find(a, AdviceKind::WeakRow);
    EXPECT_LT(w.value, 1e-8);
    EXPECT_GT(w.value, World::minRowResponse());
    EXPECT_EQ(count(adviseScene(s), AdviceKind::WeakRow), 0);  // without a world: no rows to look at
    Scene fixed = s;
    EXPECT_EQ(applyAdviceFix(fixed, w, AdviceFix::ResetMassScales), "mass scales → 1");
    World again(fixed);
    again.step();
    EXPECT_EQ(count(adviseScene(fixed, &again), AdviceKind::WeakRow), 0);
}

Scene chain(int links, int posIters) {
    Scene s;
    s.settings.posIters = posIters;
    for (int i = 0; i < links; ++i) {
        s.bodies.push_back(test::sphere(test::indexed("link", i), Vec3(0.2 * (i + 1), 3, 0), 0.2, 0.05));
        s.joints.push_back(test::joint<SphericalJoint>(s, test::indexed("j", i),
                                                       i ? test::indexed("link", i - 1) : "",
                                                       test::indexed("link", i), Vec3(0.2 * i + 0.1, 3, 0)));
    }
    return s;
}

TEST(Advisor, DeepChainIsReportedOnceAtItsDeepestJointUntilTheIterationsCarryIt) {
    Scene s = chain(12, 4);
    EXPECT_EQ(chainDepth(s, 0), 12);
    std::vector<Advice> a = adviseScene(s);
    ASSERT_EQ(count(a, AdviceKind::DeepChain), 1);
    const Advice& d = *find(a, AdviceKind::DeepChain);
    EXPECT_EQ(d.joint, 11);
    EXPECT_EQ(d.value, 12.0);
    Scene fixed = s;
    EXPECT_EQ(applyAdviceFix(fixed, d, AdviceFix::MoreIterations), "posIters 4 → 12");
    EXPECT_EQ(count(adviseScene(fixed), AdviceKind::DeepChain), 0);
    EXPECT_EQ(count(adviseScene(chain(4, 4)), AdviceKind::DeepChain), 0);
    // Held at both ends, the middle is 6 joints from an anchor: 8 iterations carry it.
    Scene bridge = chain(12, 8);
    bridge.joints.push_back(test::joint<SphericalJoint>(bridge, "end", "link11", "", Vec3(2.5, 3, 0)));
    EXPECT_EQ(chainDepth(bridge, 0), 6);
    EXPECT_EQ(count(adviseScene(bridge), AdviceKind::DeepChain), 0);
}

TEST(Advisor, StiffDriveFromItsNaturalFrequencyAndTheSolversStep) {
    Scene s;
    s.bodies.push_back(test::box("block", Vec3(0, 1, 0), Vec3(0.1), 2.0));
    PrismaticJoint p;
    p.drive.enabled = true;
    p.drive.stiffness = 200.0;  // ω_n = √(200 / 2) = 10 rad/s
    s.joints.push_back(
        test::joint<PrismaticJoint>(s, "slide", "", "block", Vec3(0, 1, 0), Quat(1, 0, 0, 0), p));
    EXPECT_NEAR(driveNaturalFrequency(s, 0), 10.0, 1e-12);
    EXPECT_EQ(count(adviseScene(s), AdviceKind::StiffDrive), 0);             // ω_n·dt = 0.17
    std::get<PrismaticJoint>(s.joints[0].params).drive.stiffness = 20000.0;  // ω_n = 100: 1.67
    std::vector<Advice> a = adviseScene(s);
    ASSERT_EQ(count(a, AdviceKind::StiffDrive), 1);
    const Advice& d = *find(a, AdviceKind::StiffDrive);
    EXPECT_NEAR(d.value, 100.0 / 60.0, 1e-12);
    Scene smaller = s;
    EXPECT_EQ(applyAdviceFix(smaller, d, AdviceFix::SmallerDt), "dt 0.0167 s → 0.0025 s");
    EXPECT_EQ(count(adviseScene(smaller), AdviceKind::StiffDrive), 0);
    Scene tgs = s;
    applyAdviceFix(tgs, d, AdviceFix::UseTgs);  // h = dt / 8: ω_n·h = 0.21
    EXPECT_EQ(count(adviseScene(tgs), AdviceKind::StiffDrive), 0);

    // A hinge drive sees the inertia about its axis: a 2 kg rod 1 m long about its end, 2/3 kg·m².
    Scene arm;
    arm.bodies.push_back(test::box("rod", Vec3(0.5, 1, 0), Vec3(0.5, 0.01, 0.01), 2.0));
    RevoluteJoint r;
    r.drive.enabled = true;
    r.drive.stiffness = 600.0;
    const Quat zAxis = test::axisAngle(Vec3(0, 1, 0), -1.5707963267948966);  // frame X along world Z
    arm.joints.push_back(test::joint<RevoluteJoint>(arm, "elbow", "", "rod", Vec3(0, 1, 0), zAxis, r));
    const Real I = 2.0 * (1.0 + 0.02 * 0.02) / 12.0;  // about the rod's own centre, along Z
    EXPECT_NEAR(driveNaturalFrequency(arm, 0), std::sqrt(600.0 / I), 1e-9)
        << "the anchor's lever arm is not part of the angular response (rows, not a point)";
}

TEST(Advisor, TheDefaultExamplesThatAreWellConditionedGetNoWarning) {
    for (const char* name : {"door_hinge.json", "drive_step.json", "pendulum_hinge.json", "slider.json"}) {
        Scene s;
        std::string error;
        ASSERT_TRUE(loadScenario(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/" + name, s, error))
            << error;
        World world(s);
        for (int n = 0; n < 10; ++n) world.step();
        const std::vector<Advice> a = adviseScene(s, &world);
        EXPECT_TRUE(a.empty()) << name << ": " << (a.empty() ? "" : a.front().title);
    }
}

}  // namespace
}  // namespace jl
