// Ray casts used for click-to-select: exact distances against each shape.
#include "viewport/picking.h"

#include <gtest/gtest.h>

#include <cmath>

#include "render/scene_bounds.h"

namespace jl::app {
namespace {

BodyDesc shape(ShapeType type) {
    BodyDesc b;
    b.shape = type;
    b.halfExtents = Vec3(1.0, 0.5, 0.25);
    b.radius = 0.5;
    b.halfHeight = 1.0;
    return b;
}

Transform at(Vec3 p, Quat q = Quat(1, 0, 0, 0)) {
    Transform t;
    t.p = p;
    t.q = q;
    return t;
}

const Ray kDownFromAbove{glm::vec3(0, 10, 0), glm::vec3(0, -1, 0)};

TEST(Picking, BoxTopFace) {
    EXPECT_NEAR(rayCastBody(kDownFromAbove, shape(ShapeType::Box), at(Vec3(0, 0, 0))), 9.5f, 1e-5f);
}

TEST(Picking, RotatedBoxUsesItsOrientation) {
    // 90° about Z: the box's local X half extent (1.0) now points up.
    Quat q(std::cos(kPi / 4), 0, 0, std::sin(kPi / 4));
    EXPECT_NEAR(rayCastBody(kDownFromAbove, shape(ShapeType::Box), at(Vec3(0, 0, 0), q)), 9.0f, 1e-5f);
}

TEST(Picking, Sphere) {
    EXPECT_NEAR(rayCastBody(kDownFromAbove, shape(ShapeType::Sphere), at(Vec3(0, 2, 0))), 7.5f, 1e-5f);
    EXPECT_LT(rayCastBody(kDownFromAbove, shape(ShapeType::Sphere), at(Vec3(0.6, 2, 0))), 0.0f);
}

TEST(Picking, CapsuleSideAndEndCaps) {
    const BodyDesc capsule = shape(ShapeType::Capsule);  // segment x in [-1, 1], radius 0.5
    EXPECT_NEAR(rayCastBody(kDownFromAbove, capsule, at(Vec3(0, 0, 0))), 9.5f, 1e-5f);  // cylinder
    EXPECT_NEAR(rayCastBody(kDownFromAbove, capsule, at(Vec3(-1.0, 0, 0))), 9.5f,
                1e-5f);  // over the +X cap centre
    const float capT = 10.0f - std::sqrt(0.25f - 0.3f * 0.3f);
    EXPECT_NEAR(rayCastBody(kDownFromAbove, capsule, at(Vec3(-1.3, 0, 0))), capT,
                1e-4f);                                                           // on the cap's slope
    EXPECT_LT(rayCastBody(kDownFromAbove, capsule, at(Vec3(-1.6, 0, 0))), 0.0f);  // past the cap
}

TEST(Picking, NearestBodyWins) {
    Scene scene;
    scene.bodies = {shape(ShapeType::Sphere), shape(ShapeType::Box), shape(ShapeType::Sphere)};
    std::vector<BodyState> states(3);
    states[0].pose = at(Vec3(0, 1, 0));
    states[1].pose = at(Vec3(0, 4, 0));  // highest: hit first from above
    states[2].pose = at(Vec3(5, 4, 0));  // off the ray
    EXPECT_EQ(pickBody(kDownFromAbove, scene, states), 1);
    const Ray miss{glm::vec3(20, 10, 0), glm::vec3(0, -1, 0)};
    EXPECT_EQ(pickBody(miss, scene, states), -1);
}

// A compound with a hull child (issue 31) is picked over its hull child too: its bounding sphere
// reaches the child's farthest point (the collider's shapeRadius), and the Inspector's line
// says what the compound holds.
TEST(Picking, CompoundWithAHullChild) {
    BodyDesc b;
    b.shape = ShapeType::Compound;
    ShapeDesc box;
    box.halfExtents = Vec3(0.2);
    ShapeDesc hull;
    hull.shape = ShapeType::Hull;
    hull.hullPoints = {Vec3(0.3, 0, 0), Vec3(-0.3, 0, 0), Vec3(0, 0.3, 0), Vec3(0, 0, 0.3), Vec3(0, 0, -0.3)};
    hull.position = Vec3(1.2, 0, 0);
    b.children = {box, hull};
    EXPECT_NEAR(boundingRadius(b), 1.5f, 1e-6f);
    EXPECT_GT(rayCastBody(Ray{glm::vec3(1.4, 10, 0), glm::vec3(0, -1, 0)}, b, at(Vec3(0, 0, 0))), 0.0f);
    EXPECT_LT(rayCastBody(Ray{glm::vec3(1.6, 10, 0), glm::vec3(0, -1, 0)}, b, at(Vec3(0, 0, 0))), 0.0f);
    EXPECT_EQ(shapeListSummary(b), "2 children: 1 box, 1 hull (5 points)");
    b.children.push_back(hull);
    EXPECT_EQ(shapeListSummary(b), "3 children: 1 box, 2 hulls (10 points)");
    BodyDesc h;
    h.shape = ShapeType::Hull;
    h.hullPoints = hull.hullPoints;
    EXPECT_EQ(shapeListSummary(h), "hull of 5 points");
    EXPECT_EQ(shapeListSummary(shape(ShapeType::Box)), "");
}

}  // namespace
}  // namespace jl::app
