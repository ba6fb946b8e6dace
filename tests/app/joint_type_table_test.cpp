// The app's side of the joint type table: for every type (walked through the table, none named),
// the viewport draws something and its limits and drive targets when the type says it has them,
// couplings get no error segment between their frames, and the joint tool places it sensibly.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>

#include "../joint_type_configs.h"
#include "editor/commands.h"
#include "editor/joint_tool.h"
#include "editor/placement.h"
#include "render/joint_draw.h"
#include "render/joint_frames.h"

namespace jl::app {
namespace {

constexpr std::string_view kA = "A", kB = "B";

/// Two boxes side by side, joined by `params` at the middle (frame B at body B's facing point).
Scene twoBoxes(const JointParams& params) {
    Scene s;
    s.settings.groundPlane = false;
    s.settings.gravity = Vec3(0.0);
    s.bodies.resize(2);
    s.bodies[0].name = std::string(kA);
    s.bodies[0].position = Vec3(-1, 2, 0);
    s.bodies[1].name = std::string(kB);
    s.bodies[1].position = Vec3(1, 2, 0);
    JointDesc j;
    j.name = std::string("j");
    j.body0 = std::string(kA);
    j.body1 = std::string(kB);
    j.frame0.p = Vec3(0.5, 0, 0);
    j.frame1.p = Vec3(-0.5, 0, 0);
    j.params = params;
    s.joints.push_back(j);
    return s;
}

long countColor(const DebugDraw& d, const Color& c) {
    long n = 0;
    for (auto layer : {DebugDraw::Layer::Scene, DebugDraw::Layer::Overlay})
        for (const LineVertex& v : d.vertices(layer)) n += v.rgba == packColor(c) ? 1 : 0;
    return n;
}

size_t vertexCount(const DebugDraw& d) {
    size_t n = 0;
    for (auto layer : {DebugDraw::Layer::Scene, DebugDraw::Layer::Outline, DebugDraw::Layer::Overlay})
        n += d.vertices(layer).size() + d.triangles(layer).size();
    return n;
}

ViewOptions only() {
    ViewOptions o;
    o.detailsForSelectedOnly = false;
    o.showAnchors = o.showJointFrames = o.showErrors = o.showLimits = o.showDriveTargets = o.showForces =
        o.showLoad = false;
    return o;
}

TEST(JointTypeTable, EveryTypeDrawsItsFiguresInEveryConfiguration) {
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        bool limitsDrawn = false, targetDrawn = false;
        for (const JointParams& p : test::switchedOnConfigs(t)) {
            World world(twoBoxes(p));
            world.step();
            ViewOptions all;
            all.detailsForSelectedOnly = false;
            DebugDraw d;
            drawJoints(d, world, Selection::joint(0), all);
            EXPECT_GT(vertexCount(d), 12u) << "anchors and frames at least";
            for (auto layer : {DebugDraw::Layer::Scene, DebugDraw::Layer::Overlay})
                for (const LineVertex& v : d.vertices(layer)) ASSERT_TRUE(isFinite(Vec3(v.position)));

            // Limits alone: magenta (or rope) lines exactly when the sketch has a limit figure.
            JointSketch sketch;
            sketchJoint(p, sketch);
            bool limitFigure = false, driveFigure = false;
            for (const SketchFigure& f : sketch) {
                if (std::holds_alternative<sketch::Coupling>(f)) continue;  // teeth: drawn with the bodies
                (std::holds_alternative<sketch::DriveTarget>(f) ? driveFigure : limitFigure) = true;
            }
            ViewOptions o = only();
            o.showLimits = true;
            d.clear();
            drawJoints(d, world, Selection::joint(0), o);
            const long limitLines = countColor(d, joint_colors::kLimit) + countColor(d, joint_colors::kRope);
            EXPECT_EQ(limitLines > 0, limitFigure);
            EXPECT_EQ(vertexCount(d) > 0, limitFigure) << "only the limits are drawn";
            limitsDrawn = limitsDrawn || limitLines > 0;

            o = only();
            o.showDriveTargets = true;
            d.clear();
            drawJoints(d, world, Selection::joint(0), o);
            EXPECT_EQ(vertexCount(d) > 0, driveFigure);
            targetDrawn = targetDrawn || vertexCount(d) > 0;
        }
        EXPECT_EQ(limitsDrawn, info.hasLimits);
        EXPECT_EQ(targetDrawn, info.hasDrive);
    }
}

TEST(JointTypeTable, OnlyJointsThatJoinFramesGetAnErrorSegment) {
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        World world(twoBoxes(makeJointParams(t)));
        world.step();
        ViewOptions o = only();
        o.showErrors = true;
        DebugDraw d;
        drawJoints(d, world, Selection::joint(0), o);
        // One segment from frame A's origin to frame B's, unless the type couples coordinates.
        EXPECT_EQ(d.vertices(DebugDraw::Layer::Overlay).size(), info.isCoupling ? 0u : 2u);
    }
}

TEST(JointTypeTable, TheJointToolPlacesEveryTypeByItsDefaults) {
    // First click on body B (the one that will hang) at its top, second on body A's side.
    Scene scene = twoBoxes(makeJointParams(0));
    scene.joints.clear();
    World world(scene);
    const Vec3 onB(1.0, 2.25, 0.0), onA(-0.75, 2.0, 0.0), planeNormal(0, 0, 1);
    const Vec3 along = glm::normalize(onB - onA);
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        JointToolClick click;
        click.typeIndex = t;
        click.planeNormal = planeNormal;
        click.first = JointToolFirst{1, onB, Vec3(0, 1, 0)};
        click.second = AnchorPick{AnchorPick::Kind::Body, 0, onA, Vec3(1, 0, 0)};
        JointPlacement p;
        ASSERT_TRUE(planJoint(click, scene, world.bodies(), p));
        EXPECT_EQ(p.body0, std::string(kA));  // what it hangs from
        EXPECT_EQ(p.body1, std::string(kB));  // what hangs
        const Vec3 axis = p.worldFrame.q * Vec3(1, 0, 0);
        EXPECT_LT(
            glm::length(axis - (info.placement.axis == JointAxisDefault::AlongAToB ? along : planeNormal)),
            1e-9);
        EXPECT_LT(glm::length(p.worldFrame.p - onA), 1e-12);  // the anchor at the second click
        const JointDesc j = makeJoint(scene, p);
        EXPECT_EQ(j.typeIndex(), t);
        EXPECT_EQ(validateJointParams(j.params), "");
        // A rope's frame B is where body B was clicked; every other type's frames meet at the anchor.
        const Vec3 frameB = scene.bodies[1].position + j.frame1.p;  // body B is not rotated
        EXPECT_LT(glm::length(frameB - (info.placement.frame1AtPointOnBody1 ? onB : onA)), 1e-12);
        // Made where the bodies are, every type holds at once.
        Scene s = scene;
        s.joints.push_back(j);
        World made(s);
        made.step();
        EXPECT_LT(jointViolation(made.jointRows(0), made.jointRowResults(0)), 1e-6);
    }
}

}  // namespace
}  // namespace jl::app
