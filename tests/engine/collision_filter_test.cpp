// Who collides: joined bodies, bodies joined through bodies that touch nothing, and a
// non-colliding hub (jointlab/collision_filter.h; docs/contacts.md "Who collides").
#include "jointlab/collision_filter.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "contact_scenes.h"
#include "jointlab/joints/fixed.h"
#include "jointlab/world.h"

namespace jl {
namespace {

/// Height of the upper of two boxes dropped onto each other after 1 s, with a fixed joint between
/// them that holds them 0.3 m apart while they are 0.5 m tall (they overlap by 0.2 m).
Real overlapSeparation(bool collideConnected, int maskOfUpper) {
    Scene s = test::emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    s.bodies.push_back(test::box("a", Vec3(0, 0, 0), Vec3(0.25), 1.0));
    s.bodies.push_back(test::box("b", Vec3(0, 0.3, 0), Vec3(0.25), 1.0));
    s.bodies[1].collisionMask = maskOfUpper;
    JointDesc j = test::joint<FixedJoint>(s, "weld", "a", "b", Vec3(0, 0.15, 0));
    j.collideConnected = collideConnected;
    j.startBroken = true;  // the joint only decides who collides; it holds nothing
    s.joints.push_back(j);
    World w(s);
    for (int i = 0; i < 60; ++i) w.step();
    return w.bodies()[1].pose.p.y - w.bodies()[0].pose.p.y;
}

// Joined bodies pass through each other unless the joint's collideConnected is set (PhysX's
// default); the collision filter keeps apart only bodies whose group and mask agree.
TEST(Contacts, JoinedBodiesCollideOnlyWhenAsked) {
    EXPECT_EQ(overlapSeparation(false, 0xFFFF), 0.3);  // untouched: no contact
    EXPECT_GT(overlapSeparation(true, 0xFFFF), 0.45);  // pushed apart
    EXPECT_EQ(overlapSeparation(true, 0xFFFE), 0.3);   // b's mask leaves out a's group 1
}

/// As overlapSeparation, the two boxes joined through a third, small body far away (two broken
/// fixed joints: a–frame, frame–b) whose collision filter is `frameGroup`.
Real separationThroughFrame(int frameGroup) {
    Scene s = test::emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    s.bodies.push_back(test::box("a", Vec3(0, 0, 0), Vec3(0.25), 1.0));
    s.bodies.push_back(test::box("b", Vec3(0, 0.3, 0), Vec3(0.25), 1.0));
    s.bodies.push_back(test::box("frame", Vec3(5, 0, 0), Vec3(0.05), 0.1));
    s.bodies[2].collisionGroup = frameGroup;
    for (const char* other : {"a", "b"}) {
        JointDesc j = test::joint<FixedJoint>(s, std::string("weld_") + other, other, "frame", Vec3(5, 0, 0));
        j.startBroken = true;
        s.joints.push_back(j);
    }
    World w(s);
    for (int i = 0; i < 60; ++i) w.step();
    return w.bodies()[1].pose.p.y - w.bodies()[0].pose.p.y;
}

// Bodies joined through a body that touches nothing (an imported multi-joint body's chain of
// frames, interop/import_chain.h) pass through each other as joined bodies do; through a body that
// collides they are not joined, and their overlap pushes them apart.
TEST(Contacts, BodiesJoinedThroughAFrameThatTouchesNothingDoNotCollide) {
    EXPECT_EQ(separationThroughFrame(0), 0.3);
    EXPECT_GT(separationThroughFrame(1), 0.45);
}

// The rule is for chains: a non-colliding body holding many (a mount bar with pendulums) is not a
// joint between them. Three overlapping boxes welded (broken welds) to one non-colliding hub still
// push apart, and the excluded pairs are the three welds alone; a hub holding 20,000 bodies
// excludes 5,000 pairs, not 12.5 million.
TEST(Contacts, ANonCollidingHubDoesNotJoinTheBodiesItHolds) {
    Scene s = test::emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    for (int i = 0; i < 3; ++i)
        s.bodies.push_back(test::box("box" + std::to_string(i), Vec3(0, 0.3 * i, 0), Vec3(0.25), 1.0));
    s.bodies.push_back(test::box("hub", Vec3(5, 0, 0), Vec3(0.05), 0.1));
    s.bodies.back().collisionGroup = 0;
    for (int i = 0; i < 3; ++i) {
        JointDesc j = test::joint<FixedJoint>(s, "weld" + std::to_string(i), "box" + std::to_string(i), "hub",
                                              Vec3(5, 0, 0));
        j.startBroken = true;
        s.joints.push_back(j);
    }
    const std::vector<std::pair<int, int>> pairs = jointExcludedPairs(s);
    EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 3}, {1, 3}, {2, 3}}));
    World w(s);
    for (int i = 0; i < 60; ++i) w.step();
    EXPECT_GT(w.bodies()[1].pose.p.y - w.bodies()[0].pose.p.y, 0.45);
    EXPECT_GT(w.bodies()[2].pose.p.y - w.bodies()[1].pose.p.y, 0.45);

    Scene big = test::emptyScene(false);
    big.bodies.push_back(test::box("hub", Vec3(0), Vec3(0.05), 0.1));
    big.bodies[0].collisionGroup = 0;
    for (int i = 0; i < 5000; ++i) {
        big.bodies.push_back(test::box("b" + std::to_string(i), Vec3(i, 1, 0), Vec3(0.1), 1.0));
        big.joints.push_back(test::joint<SphericalJoint>(big, "j" + std::to_string(i), "hub",
                                                         "b" + std::to_string(i), Vec3(i, 0, 0)));
    }
    EXPECT_EQ(jointExcludedPairs(big).size(), 5000u);
}

}  // namespace
}  // namespace jl
