// The MuJoCo compiler wrapper and the fixed Z-up -> Y-up rotation (interop/).
#include "interop/mujoco_model.h"

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include "interop/axes.h"

namespace jl::interop {
namespace {

// A model held in memory compiles; its option and one body arrive as written.
TEST(MujocoModel, CompilesTextFromMemory) {
    std::string error;
    const ModelPtr m = compileMjcfText(
        "<mujoco><option timestep='0.002'/><worldbody><body pos='0 0 1'><joint type='hinge' axis='0 1 0'/>"
        "<geom type='sphere' size='0.1' mass='2'/></body></worldbody></mujoco>",
        "pendulum.xml", error);
    ASSERT_TRUE(m) << error;
    EXPECT_EQ(m->nbody, 2);  // the world and the pendulum
    EXPECT_EQ(m->njnt, 1);
    EXPECT_DOUBLE_EQ(m->opt.timestep, 0.002);
    EXPECT_NEAR(m->body_mass[1], 2.0, 1e-12);
}

// A broken model is refused with MuJoCo's own message, which names the line.
TEST(MujocoModel, MalformedTextGivesMujocosMessageWithTheLine) {
    std::string error;
    const ModelPtr m = compileMjcfText(
        "<mujoco>\n<worldbody>\n<body><geom type='nosuch'/></body>\n</worldbody></mujoco>", "bad.xml", error);
    EXPECT_FALSE(m);
    EXPECT_NE(error.find("line"), std::string::npos) << error;
    EXPECT_NE(error.find("nosuch"), std::string::npos) << error;
}

// Up is up: Z-up's +Z is Y-up's +Y, gravity (0, 0, -9.81) becomes (0, -9.81, 0), a right-handed
// frame stays right-handed, and the vector and quaternion forms agree.
TEST(Axes, ZUpBecomesYUp) {
    EXPECT_EQ(toYUp(Vec3(0, 0, 1)), Vec3(0, 1, 0));
    EXPECT_EQ(toYUp(Vec3(0, 0, -9.81)), Vec3(0, -9.81, 0));
    const Vec3 x = toYUp(Vec3(1, 0, 0)), y = toYUp(Vec3(0, 1, 0)), z = toYUp(Vec3(0, 0, 1));
    EXPECT_NEAR(glm::dot(glm::cross(x, y), z), 1.0, 1e-15);
    for (const Vec3& v : {Vec3(1, 0, 0), Vec3(0.3, -2, 5)}) {
        const Vec3 byQuat = zUpToYUp() * v;
        EXPECT_NEAR(glm::length(byQuat - toYUp(v)), 0.0, 1e-12);
        EXPECT_NEAR(glm::length(toZUp(toYUp(v)) - v), 0.0, 0.0);
    }
    const Quat q = glm::angleAxis(0.7, glm::normalize(Vec3(1, 2, 3)));
    EXPECT_NEAR(glm::length(toYUp(q) * Vec3(0, 0, 1) - toYUp(q * Vec3(0, 0, 1))), 0.0, 1e-12);
    EXPECT_NEAR(std::abs(glm::dot(toZUp(toYUp(q)), q)), 1.0, 1e-12);
}

}  // namespace
}  // namespace jl::interop
