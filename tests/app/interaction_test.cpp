// Viewport interaction maths without a window: the mouse spring, the move/rotate gizmo, surface
// and joint-anchor picking, and the placement helpers used when adding bodies and joints.
#include <gtest/gtest.h>

#include <cmath>

#include "editor/placement.h"
#include "viewport/drag_spring.h"
#include "viewport/gizmo.h"
#include "viewport/picking.h"

namespace jl::app {
namespace {

Scene oneBox(Vec3 position, bool gravity) {
    Scene s;
    s.settings.groundPlane = false;
    if (!gravity) s.settings.gravity = Vec3(0.0);
    BodyDesc b;
    b.name = "box";
    b.mass = 2.0;
    b.position = position;
    s.bodies.push_back(b);
    return s;
}

// [SECTION] Mouse spring

TEST(DragSpring, ForceIsStiffnessTimesOffsetMinusDampingTimesPointVelocity) {
    World world(oneBox(Vec3(0, 1, 0), false));
    DragSpring s = makeDragSpring(world, 0, Vec3(0.25, 1, 0));
    EXPECT_GT(s.stiffness, 0.0);
    EXPECT_GT(s.damping, 0.0);
    s.target = Vec3(0.25, 1.5, 0);
    BodyState state = world.bodies()[0];
    EXPECT_LT(glm::length(dragSpringForce(s, state) - Vec3(0, 0.5 * s.stiffness, 0)), 1e-9);
    // Spinning about Y moves the grabbed point (r = +X) along −Z: damping pushes back along +Z.
    state.angularVelocity = Vec3(0, 2, 0);
    const Vec3 f = dragSpringForce(s, state);
    EXPECT_NEAR(f.z, s.damping * 2.0 * 0.25, 1e-9);
    // The force is capped.
    s.target = Vec3(1e6, 0, 0);
    EXPECT_NEAR(glm::length(dragSpringForce(s, world.bodies()[0])), s.maxForce, 1e-6);
}

TEST(DragSpring, PullsABodyToTheMouseWithoutBlowingUp) {
    for (Real dt : {1.0 / 240.0, 1.0 / 60.0, 1.0 / 20.0}) {
        SCOPED_TRACE(dt);
        Scene scene = oneBox(Vec3(0, 1, 0), false);
        scene.settings.dt = dt;
        World world(scene);
        // Grabbed at a corner: the point's effective mass is far below the body's.
        DragSpring s = makeDragSpring(world, 0, Vec3(0.25, 1.25, 0.25));
        s.target = Vec3(1.25, 2.25, 0.25);
        Real largest = 0.0;
        InputLog log;
        for (int i = 0; i < static_cast<int>(4.0 / dt); ++i) {
            applyDragSpring(world, s, log);
            world.step();
            largest = std::max(largest, glm::length(world.bodies()[0].linearVelocity));
        }
        const BodyState& st = world.bodies()[0];
        const Vec3 point = st.pose.p + st.pose.q * s.localPoint;
        EXPECT_LT(glm::length(point - s.target), 0.02);
        EXPECT_LT(largest,
                  20.0);  // a 1.4 m jerk at a corner; an unstable explicit spring would grow without bound
    }
}

TEST(DragSpring, HoldsAgainstGravityWithASmallSag) {
    World world(oneBox(Vec3(0, 1, 0), true));
    DragSpring s = makeDragSpring(world, 0, Vec3(0, 1, 0));
    InputLog log;
    for (int i = 0; i < 600; ++i) {
        applyDragSpring(world, s, log);
        world.step();
    }
    // Held at its centre: sag = m·g/k.
    EXPECT_NEAR(world.bodies()[0].pose.p.y, 1.0 - 2.0 * 9.81 / s.stiffness, 1e-3);
    EXPECT_NEAR(s.force.y, 2.0 * 9.81, 1e-2);
}

TEST(DragSpring, StaticBodiesAreNotPulled) {
    Scene scene = oneBox(Vec3(0, 1, 0), false);
    scene.bodies[0].motion = MotionType::Static;
    World world(scene);
    DragSpring s = makeDragSpring(world, 0, Vec3(0, 1, 0));
    s.target = Vec3(3, 3, 3);
    InputLog log;
    applyDragSpring(world, s, log);
    EXPECT_EQ(s.force, Vec3(0.0));
    EXPECT_TRUE(log.empty());  // nothing recorded either
}

// [SECTION] Gizmo

ViewportProjection frontView() {
    OrbitCamera c;
    c.target = glm::vec3(0, 0, 0);
    c.distance = 10.0f;
    c.yaw = 0.0f;  // looking down −Z, X to the right, Y up
    c.pitch = 0.0f;
    return ViewportProjection::of(c, 800.0f, 600.0f);
}

TEST(Gizmo, HandlesAreHitWhereTheyAreDrawn) {
    const ViewportProjection view = frontView();
    const glm::vec3 origin(0.0f);
    const float size = gizmoSize(view, origin);
    glm::vec2 centre, xTip, yTip;
    ASSERT_TRUE(view.toScreen(origin, centre));
    ASSERT_TRUE(view.toScreen(origin + glm::vec3(size * 0.7f, 0, 0), xTip));
    ASSERT_TRUE(view.toScreen(origin + glm::vec3(0, size * 0.7f, 0), yTip));
    EXPECT_NEAR(glm::length(xTip - centre), 0.7f * kGizmoPixels, 2.0f);
    EXPECT_EQ(hitGizmo(view, GizmoMode::Move, origin, xTip), 0);
    EXPECT_EQ(hitGizmo(view, GizmoMode::Move, origin, yTip), 1);
    EXPECT_EQ(hitGizmo(view, GizmoMode::Move, origin, centre + glm::vec2(60, -60)), -1);
    // The Z ring faces the camera: a point on it at 45° is a hit.
    glm::vec2 ring;
    const float r = kGizmoRingFraction * size * 0.70710678f;
    ASSERT_TRUE(view.toScreen(origin + glm::vec3(r, r, 0), ring));
    EXPECT_EQ(hitGizmo(view, GizmoMode::Rotate, origin, ring), 2);
}

TEST(Gizmo, MoveFollowsTheMouseAlongTheAxis) {
    const ViewportProjection view = frontView();
    Transform pose{Vec3(0.0), kIdentityQuat};
    glm::vec2 grab, there;
    ASSERT_TRUE(view.toScreen(glm::vec3(0.5f, 0, 0), grab));
    ASSERT_TRUE(view.toScreen(glm::vec3(1.7f, 0.4f, 0), there));  // off the axis: only X counts
    auto drag = beginGizmoDrag(GizmoMode::Move, 0, pose, pose.p, view.ray(grab));
    ASSERT_TRUE(drag);
    const Transform moved = updateGizmoDrag(*drag, view.ray(there), false);
    EXPECT_NEAR(moved.p.x, 1.2, 1e-2);  // perspective: the nearest axis point is not under the mouse exactly
    EXPECT_NEAR(moved.p.y, 0.0, 1e-12);
    EXPECT_NEAR(updateGizmoDrag(*drag, view.ray(there), true).p.x, 1.2, 1e-9);  // snapped to 5 cm
    // The Z axis points at the camera: it cannot be dragged from this view.
    glm::vec2 centre;
    ASSERT_TRUE(view.toScreen(glm::vec3(0.0f), centre));
    EXPECT_FALSE(beginGizmoDrag(GizmoMode::Move, 2, pose, pose.p, view.ray(centre)));
}

TEST(Gizmo, RotateTurnsByTheSweptAngle) {
    const ViewportProjection view = frontView();
    Transform pose{Vec3(0.0), kIdentityQuat};
    glm::vec2 grab, there;
    ASSERT_TRUE(view.toScreen(glm::vec3(1, 0, 0), grab));
    ASSERT_TRUE(view.toScreen(glm::vec3(0, 2, 0), there));
    auto drag = beginGizmoDrag(GizmoMode::Rotate, 2, pose, pose.p, view.ray(grab));
    ASSERT_TRUE(drag);
    const Transform turned = updateGizmoDrag(*drag, view.ray(there), false);
    const Vec3 x = turned.q * Vec3(1, 0, 0);
    EXPECT_NEAR(x.x, 0.0, 1e-4);
    EXPECT_NEAR(x.y, 1.0, 1e-4);  // 90° about +Z
    // About a centre that is not the body's: the position swings round too.
    Transform offset{Vec3(1, 0, 0), kIdentityQuat};
    auto drag2 = beginGizmoDrag(GizmoMode::Rotate, 2, offset, Vec3(0.0), view.ray(grab));
    ASSERT_TRUE(drag2);
    EXPECT_LT(glm::length(updateGizmoDrag(*drag2, view.ray(there), false).p - Vec3(0, 1, 0)), 1e-4);
}

// [SECTION] Picking and placement

TEST(Picking, SurfaceHitFindsTheGroundOrTheNearerBody) {
    Scene scene = oneBox(Vec3(0, 1, 0), true);
    World world(scene);
    const Ray down{glm::vec3(0, 5, 0), glm::vec3(0, -1, 0)};
    SurfaceHit hit = pickSurface(down, scene, world.bodies(), true);
    ASSERT_TRUE(hit.hit);
    EXPECT_EQ(hit.body, 0);
    EXPECT_NEAR(hit.point.y, 1.25, 1e-5);
    EXPECT_NEAR(hit.normal.y, 1.0, 1e-9);
    const Ray beside{glm::vec3(3, 5, 0), glm::vec3(0, -1, 0)};
    hit = pickSurface(beside, scene, world.bodies(), true);
    ASSERT_TRUE(hit.hit);
    EXPECT_EQ(hit.body, -1);
    EXPECT_NEAR(hit.point.x, 3.0, 1e-5);
    EXPECT_EQ(hit.point.y, 0.0);
    EXPECT_FALSE(pickSurface(beside, scene, world.bodies(), false).hit);
}

TEST(Picking, JointAnchorsArePickedOnScreen) {
    Scene scene = oneBox(Vec3(0, 0, 0), true);
    JointDesc j;
    j.name = "pin";
    j.body0 = "";
    j.body1 = "box";
    j.frame0.p = Vec3(1, 0, 0);
    j.frame1.p = Vec3(1, 0, 0);
    j.params = makeJointParams(findJointType("spherical"));
    scene.joints.push_back(j);
    World world(scene);
    SceneIndex index;
    index.sync(scene, 1);
    const ViewportProjection view = frontView();
    glm::vec2 anchor;
    ASSERT_TRUE(view.toScreen(glm::vec3(1, 0, 0), anchor));
    EXPECT_EQ(pickJointAnchor(view, scene, index, world.bodies(), anchor + glm::vec2(3, -2), 8.0f), 0);
    EXPECT_EQ(pickJointAnchor(view, scene, index, world.bodies(), anchor + glm::vec2(30, 0), 8.0f), -1);
}

TEST(Placement, RotationFromXToAnyAxis) {
    for (const Vec3& axis : {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, -3), Vec3(1, 2, 3)}) {
        const Quat q = rotationFromXTo(axis);
        EXPECT_NEAR(glm::length(q), 1.0, 1e-12);
        EXPECT_LT(glm::length(q * Vec3(1, 0, 0) - glm::normalize(axis)), 1e-12);
    }
}

TEST(Placement, SurfaceNormalsAndSupport) {
    BodyDesc box;
    box.halfExtents = Vec3(0.5, 0.25, 0.25);
    const Transform pose{Vec3(0, 1, 0), glm::angleAxis(kPi / 2, Vec3(0, 0, 1))};
    // Turned 90° about Z: the box's local +X face now faces +Y.
    EXPECT_LT(glm::length(surfaceNormal(box, pose, Vec3(0, 1.5, 0)) - Vec3(0, 1, 0)), 1e-12);
    EXPECT_NEAR(supportDistance(box, pose.q, Vec3(0, 1, 0)), 0.5, 1e-12);
    BodyDesc capsule;
    capsule.shape = ShapeType::Capsule;
    capsule.radius = 0.1;
    capsule.halfHeight = 0.4;
    EXPECT_NEAR(supportDistance(capsule, kIdentityQuat, Vec3(1, 0, 0)), 0.5, 1e-12);
    EXPECT_NEAR(supportDistance(capsule, kIdentityQuat, Vec3(0, 1, 0)), 0.1, 1e-12);
    EXPECT_LT(glm::length(surfaceNormal(capsule, Transform{}, Vec3(0.2, 0.1, 0)) - Vec3(0, 1, 0)), 1e-12);
}

}  // namespace
}  // namespace jl::app
