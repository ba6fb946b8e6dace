// Import of joint couplings on moving parents and of multi-hinge bodies (interop/import_builder.cpp,
// docs/import.md): two hinges on one parent geared to turn together keep the model's law exactly
// (checked against MuJoCo running the model itself), other couplings on moving parents are warned
// about; a body's three hinges become a D6 whose twist keeps its uneven range and whose swings get
// symmetric limits, and the twist limit holds a falling rod where the model's range says.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "interop/mjcf_export.h"
#include "interop/mjcf_import.h"
#include "interop/mujoco_model.h"
#include "jointlab/world.h"

namespace jl::interop {
namespace {

/// A carrier swinging on a horizontal world hinge with two off-centre wheels hinged on it, all
/// axes along the model's Y, the wheels coupled by a joint equality axleA = `multiplier`·axleB.
std::string carrierModel(const char* multiplier, const char* axisB = "0 1 0") {
    return std::string(
               "<mujoco><option timestep='0.001'/><worldbody>"
               "<body name='carrier' pos='0 0 2'><joint name='pivot' type='hinge' axis='0 1 0'/>"
               "<geom type='box' size='0.5 0.05 0.05' pos='0.5 0 0' mass='1'/>"
               "<body name='wheelA' pos='0.9 0 0'><joint name='axleA' type='hinge' axis='0 1 0'/>"
               "<geom type='box' size='0.1 0.1 0.1' pos='0 0 -0.1' mass='0.5'/></body>"
               "<body name='wheelB' pos='0.1 0 0'><joint name='axleB' type='hinge' axis='") +
           axisB +
           "'/>"
           "<geom type='box' size='0.1 0.1 0.1' pos='0 0 -0.1' mass='0.5'/></body>"
           "</body></worldbody><equality><joint name='gear' joint1='axleA' joint2='axleB' polycoef='0 " +
           multiplier + " 0 0 0'/></equality></mujoco>";
}

/// A revolute joint's angle in the World now (interop::jointCoordinate on the bodies' poses).
Real angle(const World& w, const std::string& name) {
    const Scene& s = w.scene();
    const JointDesc& j = s.joints[static_cast<size_t>(s.findJoint(name))];
    const auto pose = [&](const std::string& b) {
        return b.empty() ? Transform{} : w.bodies()[static_cast<size_t>(s.findBody(b))].pose;
    };
    return jointCoordinate(j, pose(j.body0), pose(j.body1));
}

// The carrier falls from level and swings; the wheels are geared to turn together (multiplier 1,
// or −1 with the second axis reversed). JointLab's gear couples world angles, the model's
// equality angles relative to the carrier: the carrier's turn cancels, so the import keeps the law
// without a warning, and the imported scene moves as MuJoCo moves the model itself.
TEST(ImportCoupling, HingesOnOneParentTurningTogetherKeepTheModelsLaw) {
    struct Case {
        const char* multiplier;
        const char* axisB;
    };
    for (const Case c : {Case{"1", "0 1 0"}, Case{"-1", "0 -1 0"}}) {
        SCOPED_TRACE(c.axisB);
        const std::string xml = carrierModel(c.multiplier, c.axisB);
        Scene s;
        std::string warning, error;
        ASSERT_TRUE(importMjcfText(xml, "carrier.xml", s, warning, error)) << error;
        EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
        s.settings.solver = SolverType::TGS;
        World world(s);
        const ModelPtr m = compileMjcfText(xml, "carrier.xml", error);
        ASSERT_TRUE(m) << error;
        const DataPtr d = makeData(m.get());
        const Real start[3] = {angle(world, "pivot"), angle(world, "axleA"), angle(world, "axleB")};
        Real worst = 0.0, turned = 0.0;
        for (int i = 0; i < 2000; ++i) {
            world.step();
            mj_step(m.get(), d.get());
            int k = 0;
            for (const char* name : {"pivot", "axleA", "axleB"}) {
                const int jid = mj_name2id(m.get(), mjOBJ_JOINT, name);
                const Real mj = d->qpos[m->jnt_qposadr[jid]] - m->qpos0[m->jnt_qposadr[jid]];
                const Real jl = angle(world, name) - start[k++];
                worst = std::max(worst, std::abs(std::remainder(mj - jl, 2 * kPi)));  // jl in (−π, π]
                if (k == 2) turned = std::max(turned, std::abs(mj));
            }
        }
        std::printf(
            "[ import ] wheels geared on a swinging carrier (%s), 2 s at 1 ms: JointLab (imported) vs "
            "MuJoCo (the model): max joint angle difference %.3g rad; wheel A turned up to %.3g rad\n",
            c.axisB, worst, turned);
        EXPECT_GT(turned, 0.3);  // the wheels turn on the carrier: the coupling is exercised
        EXPECT_LT(worst, 0.02);
    }
    // Geared 2:1 the carrier's turn no longer cancels: warned, naming the coupling.
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(carrierModel("2"), "carrier.xml", s, warning, error)) << error;
    EXPECT_NE(warning.find("couplings measure turns relative to the world"), std::string::npos) << warning;
    EXPECT_NE(warning.find("(gear)"), std::string::npos) << warning;
}

// Three hinges at one anchor (the humanoid's hip: x −25..5°, z −60..35°, y −110..20°) become a D6:
// the most uneven range (y) is its twist with both bounds, the others symmetric swing limits as
// wide as their larger side; the warning says which were widened. A rod on it, released level,
// falls about the twist axis and is held at the 20° bound.
TEST(ImportCoupling, MultiHingeRangesBecomeD6Limits) {
    const std::string xml =
        "<mujoco><option timestep='0.001'/><worldbody><body name='thigh' pos='0 0 2'>"
        "<joint name='hip_x' axis='1 0 0' range='-25 5' limited='true'/>"
        "<joint name='hip_z' axis='0 0 1' range='-60 35' limited='true'/>"
        "<joint name='hip_y' axis='0 1 0' range='-110 20' limited='true'/>"
        "<geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.04' mass='2'/></body></worldbody></mujoco>";
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(xml, "hip.xml", s, warning, error)) << error;
    ASSERT_EQ(s.joints.size(), 1u);
    const auto& d6 = std::get<D6Joint>(s.joints[0].params);
    const Real deg = kPi / 180.0;
    // Frame X along the model's Y (JointLab's −Z after the Y-up turn): the twist is hip_y's angle.
    const Transform f1 = Transform{s.bodies[0].position, s.bodies[0].orientation} * s.joints[0].frame1;
    EXPECT_LT(glm::length(f1.q * Vec3(1, 0, 0) - Vec3(0, 0, -1)), 1e-9);
    EXPECT_EQ(d6.motion[kD6Twist], D6Motion::Limited);
    EXPECT_NEAR(d6.twistLimit.lower, -110 * deg, 1e-9);
    EXPECT_NEAR(d6.twistLimit.upper, 20 * deg, 1e-9);
    // Then by unevenness: Y is hip_z (25° uneven), ±60°; Z is hip_x (20° uneven), ±25°.
    EXPECT_EQ(d6.motion[kD6Swing1], D6Motion::Limited);
    EXPECT_EQ(d6.motion[kD6Swing2], D6Motion::Limited);
    EXPECT_NEAR(d6.swingLimit.yAngle, 60 * deg, 1e-9);
    EXPECT_NEAR(d6.swingLimit.zAngle, 25 * deg, 1e-9);
    EXPECT_NE(warning.find("widened to a symmetric"), std::string::npos) << warning;
    EXPECT_NE(warning.find("hip_x"), std::string::npos) << warning;
    EXPECT_EQ(warning.find("limits of hinges merged into a D6 are not modelled"), std::string::npos)
        << warning;

    // The rod lies along the model's +X; gravity turns it about +Y (X towards −Z): positive twist,
    // up to the 20° bound (free, it would swing through 90°).
    s.settings.solver = SolverType::TGS;
    World world(s);
    Real lowest = 0.0;
    for (int i = 0; i < 2000; ++i) {
        world.step();
        const Vec3 rod = world.bodies()[0].pose.q * (glm::conjugate(s.bodies[0].orientation) * Vec3(1, 0, 0));
        lowest = std::max(lowest, std::asin(std::clamp(-rod.y, -1.0, 1.0)));
    }
    std::printf("[ import ] rod on a 3-hinge D6, twist range -110..20 deg: fell to %.2f deg below level\n",
                lowest / deg);
    EXPECT_GT(lowest, 15 * deg);
    EXPECT_LT(lowest, 21 * deg);
}

}  // namespace
}  // namespace jl::interop
