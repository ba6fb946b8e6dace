// The built-in showcase is a valid scene whose joints start assembled (no initial joint error).
#include "session/default_scene.h"

#include <gtest/gtest.h>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"

namespace jl::app {
namespace {

TEST(BuiltInShowcase, IsValidAndUsesEveryShape) {
    Scene s = makeBuiltInShowcase();
    EXPECT_EQ(validateScene(s), "");
    bool shapes[3] = {false, false, false};
    for (const BodyDesc& b : s.bodies) shapes[static_cast<int>(b.shape)] = true;
    EXPECT_TRUE(shapes[0] && shapes[1] && shapes[2]);
}

TEST(BuiltInShowcase, JointOriginsCoincideAtTheStart) {
    Scene s = makeBuiltInShowcase();
    auto pose = [&](const std::string& name) {
        if (name.empty()) return Transform{};
        const BodyDesc& b = s.bodies[s.findBody(name)];
        return Transform{b.position, b.orientation};
    };
    for (const JointDesc& j : s.joints) {
        if (j.typeIndex() == findJointType("distance")) continue;  // a spring, stretched on purpose
        Vec3 a = (pose(j.body0) * j.frame0).p, b = (pose(j.body1) * j.frame1).p;
        EXPECT_LT(glm::length(a - b), 1e-9) << j.name;
    }
}

TEST(BuiltInShowcase, SimulatesWithoutBlowingUp) {
    World world(makeBuiltInShowcase());
    for (int i = 0; i < 300; ++i) world.step();
    for (const BodyState& b : world.bodies()) {
        EXPECT_TRUE(isFinite(b.pose.p));
        EXPECT_LT(glm::length(b.pose.p), 20.0);
    }
}

}  // namespace
}  // namespace jl::app
