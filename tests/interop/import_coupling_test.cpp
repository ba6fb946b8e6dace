// Import of joint couplings on moving parents (interop/import_equalities.cpp, docs/import.md): two
// hinges on one parent geared to turn together keep the model's law exactly (checked against MuJoCo
// running the model itself), other couplings on moving parents are warned about. Multi-hinge bodies:
// multi_joint_test.cpp.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "interop/mjcf_export.h"
#include "interop/mjcf_import.h"
#include "interop/mujoco_model.h"
#include "jointlab/world.h"
#include "model_coordinates.h"

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

// The carrier falls from level and swings; the wheels are geared to turn together (multiplier 1,
// or −1 with the second axis reversed). JointLab's gear couples world angles, the model's
// equality angles relative to the carrier: the carrier's turn cancels, so the import keeps the law
// without a warning, and the imported scene moves as MuJoCo moves the model itself.
TEST(ImportCoupling, HingesOnOneParentTurningTogetherKeepTheModelsLaw) {
    struct Case {
        const char* multiplier;
        const char* axisB;
    };
    // Geared 2:1 the carrier's turn no longer cancels in a world gear; the axles are 0.8 m apart, so
    // the import gives a relative gear read through their positions (gear.h "Parallel axes").
    for (const Case c : {Case{"1", "0 1 0"}, Case{"-1", "0 -1 0"}, Case{"2", "0 1 0"}}) {
        SCOPED_TRACE(c.axisB);
        const std::string xml = carrierModel(c.multiplier, c.axisB);
        Scene s;
        std::string warning, error;
        ASSERT_TRUE(importMjcfText(xml, "carrier.xml", s, warning, error)) << error;
        EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
        EXPECT_EQ(std::get<GearJoint>(s.joints[static_cast<size_t>(s.findJoint("gear"))].params).relative,
                  std::string(c.multiplier) == "2");
        s.settings.solver = SolverType::TGS;
        World world(s);
        const ModelPtr m = compileMjcfText(xml, "carrier.xml", error);
        ASSERT_TRUE(m) << error;
        const DataPtr d = makeData(m.get());
        const Real start[3] = {test::coordinate(world, "pivot"), test::coordinate(world, "axleA"),
                               test::coordinate(world, "axleB")};
        const Real mult = std::stod(c.multiplier);
        Real worst = 0.0, turned = 0.0, law = 0.0, lawMj = 0.0;
        for (int i = 0; i < 2000; ++i) {
            world.step();
            mj_step(m.get(), d.get());
            int k = 0;
            Real jlq[3], mjq[3];
            for (const char* name : {"pivot", "axleA", "axleB"}) {
                const int jid = mj_name2id(m.get(), mjOBJ_JOINT, name);
                const Real mj = d->qpos[m->jnt_qposadr[jid]] - m->qpos0[m->jnt_qposadr[jid]];
                const Real jl = test::coordinate(world, name) - start[k];
                jlq[k] = jl;
                mjq[k++] = mj;
                worst = std::max(worst, std::abs(std::remainder(mj - jl, 2 * kPi)));  // jl in (−π, π]
                if (k == 2) turned = std::max(turned, std::abs(mj));
            }
            // The model's law axleA = multiplier·axleB (JointLab's angles are wrapped: mod 2π).
            law = std::max(law, std::abs(std::remainder(jlq[1] - mult * jlq[2], 2 * kPi)));
            lawMj = std::max(lawMj, std::abs(mjq[1] - mult * mjq[2]));
        }
        std::printf(
            "[ import ] wheels geared %s:1 on a swinging carrier (%s), 2 s at 1 ms: JointLab (imported) vs "
            "MuJoCo (the model): max joint angle difference %.3g rad; wheel A turned up to %.3g rad; the law "
            "held to %.3g rad (MuJoCo %.3g rad)\n",
            c.multiplier, c.axisB, worst, turned, law, lawMj);
        EXPECT_GT(turned, 0.3);  // the wheels turn on the carrier: the coupling is exercised
        EXPECT_LT(law, 1e-3);
        // Geared 2:1 the wheels spin up to 13.6 rad and the two engines' paths part (measured
        // 0.73 rad by the end, each keeping its law); together they stay within 0.011 rad.
        if (mult != 2.0) {
            EXPECT_LT(worst, 0.02);
        }
    }
}

}  // namespace
}  // namespace jl::interop
