// The joint tool without a window (issue 28, point 2): a pendulum in three clicks. The second
// click's point (in the air on the work plane, on the ground, on another body), the hinge axis
// from the view, Shift's anchor on the first body, and that the pendulum made that way holds
// from its first step and swings with the period of a physical pendulum.
#include "editor/joint_tool.h"

#include <gtest/gtest.h>

#include <cmath>

#include "editor/editor.h"
#include "jointlab/world.h"

namespace jl::app {
namespace {

/// A sphere of radius 0.25 m and 1 kg at (0, 1, 0) over the ground.
Scene sphereScene() {
    Scene s;
    BodyDesc b;
    b.name = "sphere";
    b.shape = ShapeType::Sphere;
    b.radius = 0.25;
    b.mass = 1.0;
    b.position = Vec3(0, 1, 0);
    s.bodies.push_back(b);
    return s;
}

/// A camera looking along −Z from (0, 1.5, 8) at the origin, level.
OrbitCamera frontCamera() {
    OrbitCamera c;
    c.target = glm::vec3(0, 1.5f, 0);
    c.distance = 8.0f;
    c.yaw = 0.0f;
    c.pitch = 0.0f;
    return c;
}

Ray rayThroughWorldPoint(const OrbitCamera& c, const Vec3& p) {
    const glm::vec3 eye = c.eye();
    return Ray{eye, glm::normalize(glm::vec3(p) - eye)};
}

TEST(JointTool, TheViewPlaneIsUprightAndFacesThePerson) {
    // Looking along −Z, slightly down: the work plane is the upright XY plane, its normal towards the person.
    const Vec3 n = workPlaneNormal(WorkPlane::View, glm::normalize(Vec3(0, -0.3, -1)));
    EXPECT_LT(glm::length(n - Vec3(0, 0, 1)), 1e-12);
    // Looking straight down, the plane lies flat.
    EXPECT_EQ(workPlaneNormal(WorkPlane::View, Vec3(0.01, -1, 0)), Vec3(0, 1, 0));
    EXPECT_EQ(workPlaneNormal(WorkPlane::XZ, Vec3(0, 0, -1)), Vec3(0, 1, 0));
}

TEST(JointTool, TheSecondClickFindsTheAirTheGroundOrAnotherBody) {
    Scene scene = sphereScene();
    BodyDesc box;
    box.name = "box";
    box.position = Vec3(2, 1, 0);
    scene.bodies.push_back(box);
    World world(scene);
    const OrbitCamera cam = frontCamera();
    const Vec3 centre(0, 1, 0), normal(0, 0, 1);
    // In the air above the sphere: on the work plane through its centre.
    AnchorPick p = pickAnchor(rayThroughWorldPoint(cam, Vec3(0, 2.5, 0)), world.scene(), world.bodies(), 0,
                              centre, normal);
    EXPECT_EQ(p.kind, AnchorPick::Kind::Plane);
    EXPECT_LT(glm::length(p.point - Vec3(0, 2.5, 0)), 1e-5);
    // The sphere itself is looked through: the point behind it on the plane.
    p = pickAnchor(rayThroughWorldPoint(cam, centre), world.scene(), world.bodies(), 0, centre, normal);
    EXPECT_EQ(p.kind, AnchorPick::Kind::Plane);
    // Another body: its surface, facing the camera.
    p = pickAnchor(rayThroughWorldPoint(cam, Vec3(2, 1, 0)), world.scene(), world.bodies(), 0, centre,
                   normal);
    EXPECT_EQ(p.kind, AnchorPick::Kind::Body);
    EXPECT_EQ(p.body, 1);
    EXPECT_NEAR(p.point.z, 0.25, 1e-5);
    // The ground in front of the plane.
    OrbitCamera above = cam;
    above.pitch = 0.6f;
    p = pickAnchor(rayThroughWorldPoint(above, Vec3(0, 0, 2)), world.scene(), world.bodies(), 0, centre,
                   normal);
    EXPECT_EQ(p.kind, AnchorPick::Kind::Ground);
    EXPECT_NEAR(p.point.y, 0.0, 1e-12);
}

/// + Joint, click the sphere, click 1.5 m above it in the air: the placement the app makes.
JointPlacement threeClickPendulum(const Scene& scene, const World& world, bool shift) {
    const OrbitCamera cam = frontCamera();
    JointToolClick c;
    c.typeIndex = kDefaultJointType;  // a hinge
    c.planeNormal = workPlaneNormal(WorkPlane::View, Vec3(cam.target - cam.eye()));
    c.first = JointToolFirst{0, Vec3(0, 1, 0.25), Vec3(0, 0, 1)};  // where the ray met the sphere
    c.second = pickAnchor(rayThroughWorldPoint(cam, Vec3(0, 2.5, 0)), scene, world.bodies(), 0, Vec3(0, 1, 0),
                          c.planeNormal);
    c.anchorOnFirst = shift;
    JointPlacement p;
    EXPECT_TRUE(planJoint(c, scene, world.bodies(), p));
    return p;
}

TEST(JointTool, APendulumInThreeClicks) {
    const Scene scene = sphereScene();
    World world(scene);
    const JointPlacement p = threeClickPendulum(scene, world, false);
    EXPECT_EQ(p.body0, "");  // hung from the world
    EXPECT_EQ(p.body1, "sphere");
    EXPECT_LT(glm::length(p.worldFrame.p - Vec3(0, 2.5, 0)), 1e-5);
    // The hinge axis is the view's normal, and frame Y points down the arm to the sphere: angle 0
    // is where it hangs.
    EXPECT_LT(glm::length(p.worldFrame.q * Vec3(1, 0, 0) - Vec3(0, 0, 1)), 1e-9);
    EXPECT_LT(glm::length(p.worldFrame.q * Vec3(0, 1, 0) - Vec3(0, -1, 0)), 1e-5);

    // Made in the editor, it holds at once, and swings across the screen (in the XY plane) with
    // the period of a physical pendulum, T = 2π·sqrt(I / (m·g·L)), I = 2/5·m·r² + m·L².
    Simulation sim;
    std::string error;
    Scene tilted = scene;
    ASSERT_TRUE(sim.setScene(tilted, "", error)) << error;
    Editor editor(sim);
    ASSERT_TRUE(editor.run(addJoint(p), error)) << error;
    ASSERT_EQ(sim.scene().joints.size(), 1u);
    World& w = *sim.world();
    BodyState s = w.bodies()[0];
    const Real L = 1.5, r = 0.25, g = 9.81;
    s.linearVelocity = Vec3(0.3, 0, 0);  // a small push along the screen
    s.angularVelocity = Vec3(0, 0, 0.3 / L);
    w.setBodyState(0, s);
    w.step();
    const Real dt = w.scene().settings.dt;
    Real maxOffPlane = 0.0, firstCrossing = -1.0, secondCrossing = -1.0, lastX = w.bodies()[0].pose.p.x;
    for (int i = 0; i < 600 && secondCrossing < 0.0; ++i) {
        w.step();
        const Vec3 pos = w.bodies()[0].pose.p;
        maxOffPlane = std::max(maxOffPlane, std::abs(pos.z));
        EXPECT_NEAR(glm::length(pos - Vec3(0, 2.5, 0)), L, 2e-3);
        if (lastX > 0.0 && pos.x <= 0.0) (firstCrossing < 0.0 ? firstCrossing : secondCrossing) = w.time();
        lastX = pos.x;
    }
    EXPECT_LT(maxOffPlane, 1e-6);
    const Real period = 2.0 * kPi * std::sqrt((0.4 * r * r + L * L) / (g * L));
    ASSERT_GT(secondCrossing, 0.0);
    EXPECT_NEAR(secondCrossing - firstCrossing, period, 2.0 * dt);
}

TEST(JointTool, ShiftPutsTheAnchorOnTheFirstBody) {
    const Scene scene = sphereScene();
    World world(scene);
    const JointPlacement p = threeClickPendulum(scene, world, true);
    EXPECT_LT(glm::length(p.worldFrame.p - Vec3(0, 1, 0.25)), 1e-12);
    EXPECT_EQ(p.body0, "");
    EXPECT_EQ(p.body1, "sphere");
}

TEST(JointTool, ARopeSpansFromTheAnchorToTheBody) {
    const Scene scene = sphereScene();
    World world(scene);
    JointToolClick c;
    c.typeIndex = findJointType("distance");
    c.planeNormal = Vec3(0, 0, 1);
    c.first = JointToolFirst{0, Vec3(0, 1.25, 0), Vec3(0, 1, 0)};
    c.second = AnchorPick{AnchorPick::Kind::Plane, -1, Vec3(0, 3, 0), Vec3(0, 0, 1)};
    JointPlacement p;
    ASSERT_TRUE(planJoint(c, scene, world.bodies(), p));
    EXPECT_LT(glm::length(p.worldFrame.q * Vec3(1, 0, 0) - Vec3(0, -1, 0)), 1e-9);  // along the rope
    Scene withRope = scene;
    withRope.joints.push_back(makeJoint(scene, p));
    World w(withRope);
    for (int i = 0; i < 120; ++i) w.step();
    // It hangs 1.75 m below the anchor at its top point, as drawn: the rope's length is the gap.
    EXPECT_NEAR(w.bodies()[0].pose.p.y, 3.0 - 1.75 - 0.25, 2e-3);
}

}  // namespace
}  // namespace jl::app
