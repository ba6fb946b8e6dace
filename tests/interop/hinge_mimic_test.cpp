// Hinge couplings on a moving parent with axes that are not parallel (a URDF <mimic> between two
// fingers hinged to a hand): the import maps them to a relative gear (jointlab/joints/gear.h,
// relative), which measures each finger's turn on the hand from the two fingers alone. The model is
// tests/data/interop/wrist_mimic.urdf: a hand swinging down about a tilted wrist axis, fingers on
// hinges 60° apart, finger_a = 0.5·finger_b.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "coupling_law_runs.h"
#include "interop/axes.h"
#include "interop/mjcf_export.h"
#include "interop/mjcf_import.h"
#include "interop/model_import.h"
#include "interop/reference_run.h"
#include "jointlab/world.h"
#include "model_coordinates.h"

namespace jl::interop {
namespace {

const std::string kModel = std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/wrist_mimic.urdf";
constexpr Real kMultiplier = 0.5;
const test::Law kLaw{"finger_a", "finger_b", kMultiplier};  // q_a = 0.5·q_b

// The mimic becomes one relative gear along the two hinges' axes, with the model's ratio, no
// warning about it; the model as imported runs 600 steps without a non-finite value.
TEST(HingeMimic, ImportsAsARelativeGearAndRuns) {
    std::string warning;
    const Scene s = test::importedModel(kModel, warning);
    // q_a + (−0.5)·q_b + 0 = 0
    const JointDesc* mimic = test::expectRelativeGear(s, warning, "finger_a_mimic", "finger_a_link",
                                                      "finger_b_link", -kMultiplier, 0.0);
    ASSERT_NE(mimic, nullptr);
    EXPECT_EQ(std::get<GearJoint>(mimic->params).mode, GearMode::Angular);
    // Each gear frame's X is its hinge's axis in the world (Y-up).
    const auto worldX = [&](const std::string& body, const Transform& frame) {
        const BodyDesc& b = s.bodies[static_cast<size_t>(s.findBody(body))];
        return b.orientation * frame.rotate(Vec3(1, 0, 0));
    };
    EXPECT_LT(glm::length(worldX(mimic->body0, mimic->frame0) - toYUp(Vec3(0.5, 0.0, 0.8660254))), 1e-7);
    EXPECT_LT(glm::length(worldX(mimic->body1, mimic->frame1) - toYUp(Vec3(1.0, 0.0, 0.0))), 1e-12);
    test::expectRunsFinite(s, 600);
}

// The hand swings down about its tilted wrist (released level); the fingers turn on it under
// gravity and the swing. Each finger's angle on the hand (the model's joint coordinate) keeps the
// model's law; rebuilt as a gear measuring the turns in the world, the same fingers break it.
TEST(HingeMimic, LawHoldsOnTheSwingingHand) {
    // The model's law: measured 7.2e-4 rad (PGS), 6.5e-5 rad (TGS), the time step's error as the
    // fingers whirl (tests/engine/relative_gear_test.cpp); checked to about three times that.
    for (SolverType solver : {SolverType::PGS, SolverType::TGS})
        test::expectLawHoldsOnlyRelative("hinge mimic", kModel, "finger_a_mimic", kLaw, "|q_a - 0.5 q_b|",
                                         "wrist", solver, solver == SolverType::PGS ? 2e-3 : 2e-4);
}

// The export writes the relative gear as a joint equality between the two hinges (polycoef
// 0 0.5), so the model runs beside MuJoCo (Reference: MuJoCo); both keep the law.
TEST(HingeMimic, ExportsAsAJointEqualityAndRunsBesideMuJoCo) {
    World world(test::modelToRun(kModel, SolverType::TGS, 0.001));
    const auto ref = test::startWithOneJointEquality(world);
    ASSERT_TRUE(ref);
    const mjModel_* m = ref->model();
    EXPECT_EQ(m->eq_obj1id[0], mj_name2id(m, mjOBJ_JOINT, "finger_a"));
    EXPECT_EQ(m->eq_obj2id[0], mj_name2id(m, mjOBJ_JOINT, "finger_b"));
    // polycoef a0..a4: finger_a = 0 + 0.5·finger_b, each axis written as the scene's (the signs σ = 1).
    EXPECT_NEAR(m->eq_data[0], 0.0, 1e-12);
    EXPECT_NEAR(m->eq_data[1], kMultiplier, 1e-12);
    // Measured: the law 6.5e-5 rad here, 6.0e-3 rad in MuJoCo (its equality is soft); the wrist
    // within 4.0e-3 rad of MuJoCo's, the fingers within 4.8e-3 rad.
    test::expectLawBesideMuJoCo("hinge mimic", world, *ref, kLaw, "|q_a - 0.5 q_b|", "wrist", 2e-4);
}

/// An MJCF carrier swinging on a world hinge with two fingers hinged on it (finger b at (0.4, 0, 0)
/// about the model's X, finger a at `posA` about `axisA`), coupled fingerA = 0.1 + 0.5·fingerB;
/// `nested`: finger a hangs from finger b instead of from the carrier.
std::string carrier(const char* axisA, bool nested, const char* posA = "0 0.05 0") {
    const std::string a = std::string("<body name='fa' pos='") + posA +
                          "'><joint name='ja' type='hinge' axis='" + axisA +
                          "'/><geom type='box' size='0.01 0.04 0.01' pos='0 0.04 0' mass='0.05'/></body>";
    return "<mujoco><option timestep='0.001'/><worldbody>"
           "<body name='carrier' pos='0 0 1'><joint name='pivot' type='hinge' axis='0 1 0'/>"
           "<geom type='box' size='0.2 0.05 0.05' pos='0.2 0 0' mass='1'/>"
           "<body name='fb' pos='0.4 0 0'><joint name='jb' type='hinge' axis='1 0 0'/>"
           "<geom type='box' size='0.01 0.04 0.01' pos='0 0.04 0' mass='0.05'/>" +
           (nested ? a : "") + "</body>" + (nested ? "" : a) +
           "</body></worldbody><equality><joint name='mimic' joint1='ja' joint2='jb' "
           "polycoef='0.1 0.5 0 0 0'/></equality></mujoco>";
}

// The MJCF joint equality maps the same way, its offset too (q_a − 0.5·q_b − 0.1 = 0), and exports
// back to the same polycoef; so do axes 0.5° apart (read through positions, gear.h "Parallel axes").
// Parallel hinges about one line, or a finger hanging from the other (their parents differ), keep
// the world-measured gear and its note.
TEST(HingeMimic, JointEqualityMapsAndTheOtherCasesAreNoted) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(carrier("0 0 1", false), "carrier.xml", s, warning, error)) << error;
    EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
    const GearJoint* g = std::get_if<GearJoint>(&test::findJoint(s, "mimic")->params);
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->relative);
    EXPECT_DOUBLE_EQ(g->ratio, -0.5);
    EXPECT_DOUBLE_EQ(g->offset, -0.1);
    World world(s);
    const auto ref = ReferenceRun::start(world, error);
    ASSERT_TRUE(ref) << error;
    ASSERT_EQ(ref->model()->neq, 1);
    // Written either way round: q_a = p0 + p1·q_b, or q_b = p0 + p1·q_a, i.e. q_a = −p0/p1 + q_b/p1.
    const mjModel_* m = ref->model();
    const bool aFirst = m->eq_obj1id[0] == mj_name2id(m, mjOBJ_JOINT, "ja");
    EXPECT_EQ(aFirst ? m->eq_obj2id[0] : m->eq_obj1id[0], mj_name2id(m, mjOBJ_JOINT, "jb"));
    const Real p0 = m->eq_data[0], p1 = m->eq_data[1];
    EXPECT_NEAR(aFirst ? p0 : -p0 / p1, 0.1, 1e-12);
    EXPECT_NEAR(aFirst ? p1 : 1.0 / p1, 0.5, 1e-12);
    const std::string close =  // 0.5° from finger b's axis, X
        std::to_string(std::cos(0.5 * kPi / 180.0)) + " 0 " + std::to_string(std::sin(0.5 * kPi / 180.0));
    ASSERT_TRUE(importMjcfText(carrier(close.c_str(), false), "carrier.xml", s, warning, error)) << error;
    EXPECT_TRUE(std::get<GearJoint>(test::findJoint(s, "mimic")->params).relative);
    EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
    for (const std::string& xml : {carrier("1 0 0", false, "0.2 0 0"), carrier("0 0 1", true)}) {
        ASSERT_TRUE(importMjcfText(xml, "carrier.xml", s, warning, error)) << error;
        EXPECT_FALSE(std::get<GearJoint>(test::findJoint(s, "mimic")->params).relative);
        EXPECT_NE(warning.find("couplings measure turns relative to the world"), std::string::npos)
            << warning;
    }
}

// A relative gear whose bodies do not hang from hinges of one parent is not a joint equality of the
// two hinges: the export says so instead of writing a different law.
TEST(HingeMimic, ExportRefusesARelativeGearOnDifferentParents) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(carrier("0 0 1", true), "carrier.xml", s, warning, error)) << error;
    const int mimic = s.findJoint("mimic");
    ASSERT_GE(mimic, 0);
    std::get<GearJoint>(s.joints[static_cast<size_t>(mimic)].params).relative = true;
    const MjcfExport out = exportScene(s);
    bool named = false;
    for (const std::string& line : out.omitted)
        named =
            named || line.find("its body 0 and its body 1 hang from different bodies") != std::string::npos;
    EXPECT_TRUE(named);
}

}  // namespace
}  // namespace jl::interop
