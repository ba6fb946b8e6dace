// The joint drawing without a window: which lines the options produce, in which colours, and the
// measures behind the colours (constraint violation, load against the break threshold).
#include "render/joint_draw.h"

#include <gtest/gtest.h>

namespace jl::app {
namespace {

/// A box hanging from the world on a joint of type `type` at (0, 2, 0).
Scene hinged(const char* type) {
    Scene s;
    s.settings.groundPlane = false;
    BodyDesc b;
    b.name = "box";
    b.position = Vec3(0.5, 2, 0);
    s.bodies.push_back(b);
    JointDesc j;
    j.name = "j";
    j.body0 = "";
    j.body1 = "box";
    j.frame0.p = Vec3(0, 2, 0);
    j.frame1.p = Vec3(-0.5, 0, 0);
    j.params = makeJointParams(findJointType(type));
    s.joints.push_back(j);
    return s;
}

long countColor(const DebugDraw& d, const Color& c) {
    long n = 0;
    for (auto layer : {DebugDraw::Layer::Scene, DebugDraw::Layer::Overlay})
        for (const LineVertex& v : d.vertices(layer)) n += v.rgba == packColor(c) ? 1 : 0;
    return n;
}

TEST(JointDraw, LimitsAreDrawnForTheSelectedJointWhenEnabled) {
    Scene s = hinged("revolute");
    std::get<RevoluteJoint>(s.joints[0].params).limit.enabled = true;
    World world(s);
    world.step();
    ViewOptions o;
    DebugDraw d;
    drawJoints(d, world, Selection{}, o);
    EXPECT_EQ(countColor(d, joint_colors::kLimit), 0);  // details only for the selected joint
    d.clear();
    drawJoints(d, world, Selection::joint(0), o);
    EXPECT_GT(countColor(d, joint_colors::kLimit), 20);
    EXPECT_FALSE(d.triangles(DebugDraw::Layer::Overlay).empty());  // the filled sector
    EXPECT_GT(countColor(d, colors::kRed), 0);                     // frame X axes
    o.showLimits = false;
    d.clear();
    drawJoints(d, world, Selection::joint(0), o);
    EXPECT_EQ(countColor(d, joint_colors::kLimit), 0);
    o.showJoints = false;
    d.clear();
    drawJoints(d, world, Selection::joint(0), o);
    EXPECT_TRUE(d.empty());
}

TEST(JointDraw, EveryTypeDrawsWithEveryOptionOn) {
    ViewOptions o;
    o.detailsForSelectedOnly = false;
    for (int t = 0; t < kJointTypeCount; ++t) {
        SCOPED_TRACE(jointTypeInfo(t).name);
        Scene s = hinged(jointTypeInfo(t).name);
        World world(s);
        world.step();
        DebugDraw d;
        drawJoints(d, world, Selection::joint(0), o);
        EXPECT_GT(d.vertices(DebugDraw::Layer::Overlay).size(), 6u);
        for (auto layer : {DebugDraw::Layer::Scene, DebugDraw::Layer::Outline, DebugDraw::Layer::Overlay})
            for (const LineVertex& v : d.vertices(layer)) ASSERT_TRUE(isFinite(Vec3(v.position)));
    }
}

// The force and torque arrows have a dark outline under them (the Outline layer, drawn wider just
// before the overlay), so an orange arrow stays visible on an orange body and a cyan one on a cyan
// body: the outline follows every arrow segment.
TEST(JointDraw, ForceAndTorqueArrowsAreOutlined) {
    Scene s = hinged("revolute");
    World world(s);
    for (int i = 0; i < 5; ++i) world.step();
    ViewOptions o;
    DebugDraw d;
    drawJoints(d, world, Selection::joint(0), o);
    const long force = countColor(d, joint_colors::kForce), torque = countColor(d, joint_colors::kTorque);
    EXPECT_GT(force, 0);
    EXPECT_GT(torque, 0);
    long outline = 0;
    for (const LineVertex& v : d.vertices(DebugDraw::Layer::Outline))
        outline += v.rgba == packColor(colors::kOutline);
    EXPECT_EQ(outline, force + torque);
    EXPECT_EQ(d.vertices(DebugDraw::Layer::Outline).size(), static_cast<size_t>(outline))
        << "only arrows are outlined";
    o.showForces = false;
    d.clear();
    drawJoints(d, world, Selection::joint(0), o);
    EXPECT_TRUE(d.vertices(DebugDraw::Layer::Outline).empty());
}

TEST(JointDraw, BrokenJointsAreRedCrossesAndDashes) {
    Scene s = hinged("fixed");
    World world(s);
    world.setJointBroken(0, true);
    DebugDraw d;
    drawJoints(d, world, Selection{}, ViewOptions{});
    EXPECT_GE(countColor(d, joint_colors::kBroken), 2 * 4 * 2);  // two crosses of four strokes
}

TEST(JointDraw, ViolationCountsOnlyWhatIsPastItsBound) {
    Row equality, limit, drive;
    limit.minImpulse = 0.0;
    drive.minImpulse = -10.0;
    drive.maxImpulse = 10.0;
    RowResult r[3];
    r[0].geometricError = -0.002;
    r[1].geometricError = 0.5;  // a limit 0.5 inside its bound: satisfied
    r[2].geometricError = 3.0;  // a drive far from its target: not a violation
    const Row rows[3] = {equality, limit, drive};
    EXPECT_DOUBLE_EQ(jointViolation(rows, r), 0.002);
    r[1].geometricError = -0.03;  // past the bound
    EXPECT_DOUBLE_EQ(jointViolation(rows, r), 0.03);
}

// The Inspector's "error" line says each kind in its unit: the linear rows' in metres, the
// angular rows' (kRowAngular) in radians, not one number "(m or rad)".
TEST(JointDraw, ViolationIsSaidPerUnit) {
    Row point, twist, limit;
    twist.flags |= kRowAngular;
    limit.flags |= kRowAngular;
    limit.minImpulse = 0.0;
    RowResult r[3];
    r[0].geometricError = 0.002;
    r[1].geometricError = -0.0004;
    r[2].geometricError = -0.03;  // 0.03 rad past its bound
    const Row rows[3] = {point, twist, limit};
    const ViolationByUnit v = jointViolationByUnit(rows, r);
    EXPECT_DOUBLE_EQ(v.linear, 0.002);
    EXPECT_DOUBLE_EQ(v.angular, 0.03);
    EXPECT_EQ(violationText(v), "0.002 m, 0.03 rad");
    EXPECT_DOUBLE_EQ(jointViolation(rows, r), 0.03);
    EXPECT_EQ(
        violationText(jointViolationByUnit(std::span<const Row>(rows, 1), std::span<const RowResult>(r, 1))),
        "0.002 m");
    EXPECT_EQ(violationText(jointViolationByUnit(std::span<const Row>(rows + 1, 2),
                                                 std::span<const RowResult>(r + 1, 2))),
              "0.03 rad");
    EXPECT_EQ(violationText(ViolationByUnit{}), "none (no hard row)");
}

TEST(JointDraw, ColoursRunGreenYellowRed) {
    EXPECT_EQ(errorColor(1e-5), colors::kGreen);
    EXPECT_EQ(errorColor(1e-2), colors::kYellow);
    EXPECT_EQ(errorColor(1.0), colors::kRed);
    EXPECT_EQ(loadColor(0.0), colors::kGreen);
    EXPECT_EQ(loadColor(0.5), colors::kYellow);
    EXPECT_EQ(loadColor(2.0), colors::kRed);
    JointDesc j;
    JointState st;
    st.force = Vec3(0, 30, 40);
    EXPECT_EQ(jointLoadFraction(j, st), 0.0);  // unbreakable
    j.breakForce = 100.0;
    EXPECT_DOUBLE_EQ(jointLoadFraction(j, st), 0.5);
}

TEST(JointDraw, AutomaticArrowsScaleWithTheHeaviestWeight) {
    Scene s = hinged("fixed");
    s.bodies[0].mass = 10.0;
    World world(s);
    const ArrowScales a = arrowScales(world, ViewOptions{});
    EXPECT_NEAR(a.force * 10.0 * 9.81, kWeightArrow, 1e-5);
    ViewOptions manual;
    manual.autoArrowScale = false;
    EXPECT_EQ(arrowScales(world, manual).force, manual.forceScale);
}

}  // namespace
}  // namespace jl::app
