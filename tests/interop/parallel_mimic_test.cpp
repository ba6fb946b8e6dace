// Hinge couplings on a moving parent with parallel axes (a URDF <mimic> between the two mirrored
// fingers of a gripper, multiplier −1): the import maps them to a relative gear, which reads each
// finger's turn on the arm from the two fingers' hinge origins (jointlab/joints/gear.h, "Parallel
// axes"). The model is tests/data/interop/gripper_mimic.urdf: an arm swinging down about a tilted
// shoulder axis, fingers on hinges about parallel axes 0.06 m apart, finger_right = −finger_left.
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

const std::string kModel = std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/gripper_mimic.urdf";
constexpr Real kMultiplier = -1.0;
const test::Law kLaw{"finger_right", "finger_left", kMultiplier};  // q_r = −q_l

// The mimic becomes one relative gear (ratio 1: q_right + q_left = 0) along the two parallel
// hinges, with no coupling warning; the model as imported runs 600 steps without a non-finite value.
TEST(ParallelMimic, ImportsAsARelativeGearAndRuns) {
    std::string warning;
    const Scene s = test::importedModel(kModel, warning);
    const JointDesc* mimic = test::expectRelativeGear(s, warning, "finger_right_mimic", "finger_right_link",
                                                      "finger_left_link", -kMultiplier, 0.0);
    ASSERT_NE(mimic, nullptr);
    EXPECT_EQ(std::get<GearJoint>(mimic->params).mode, GearMode::Angular);
    // Each gear frame's X is its hinge's axis in the world (Y-up), its origin the hinge's origin.
    const Transform f0 = test::startFrame(s, mimic->body0, mimic->frame0),
                    f1 = test::startFrame(s, mimic->body1, mimic->frame1);
    EXPECT_LT(glm::length(f0.rotate(Vec3(1, 0, 0)) - toYUp(Vec3(0, 0, 1))), 1e-12);
    EXPECT_LT(glm::length(f1.rotate(Vec3(1, 0, 0)) - toYUp(Vec3(0, 0, 1))), 1e-12);
    EXPECT_LT(glm::length(f1.p - f0.p - toYUp(Vec3(0.06, 0, 0))), 1e-12);
    test::expectRunsFinite(s, 600);
}

// The arm swings down about its tilted shoulder (released level); the fingers turn on it under
// gravity and the swing. Their angles on the arm (the model's joint coordinates) keep the model's
// law; rebuilt as a gear measuring the turns in the world, the same fingers break it.
TEST(ParallelMimic, LawHoldsOnTheSwingingArm) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        test::expectLawHoldsOnlyRelative("parallel mimic", kModel, "finger_right_mimic", kLaw, "|q_r + q_l|",
                                         "shoulder", solver, solver == SolverType::PGS ? 2e-3 : 2e-4);
        // At the import's own step (60 Hz) and at 240 Hz: the law's error is the time step's,
        // shrinking about as dt² (measured: PGS 0.10, 6.4e-3 rad; TGS 1.2e-2, 7.5e-4 rad).
        Real coarse[2] = {0.0, 0.0};
        for (int k = 0; k < 2; ++k) {
            const Scene s = test::modelToRun(kModel, solver, k == 1 ? 1.0 / 240.0 : 0.0);
            coarse[k] =
                test::runLaw(s, kLaw, "shoulder", static_cast<int>(std::lround(2.0 / s.settings.dt))).law;
        }
        std::printf("[ parallel mimic ] %s: |q_r + q_l| <= %.3g rad at 60 Hz, %.3g rad at 240 Hz\n",
                    kSolverTypeNames[static_cast<int>(solver)], coarse[0], coarse[1]);
        EXPECT_LT(coarse[0], solver == SolverType::PGS ? 0.2 : 0.03);
        EXPECT_LT(coarse[1], 0.5 * coarse[0]);
    }
}

// The export writes the gear as a joint equality between the two hinges (polycoef 0 −1), so the
// model runs beside MuJoCo (Reference: MuJoCo); both keep the law and move alike. Measured: the law
// 4.4e-5 rad here, 5.7e-3 rad in MuJoCo (its equality is soft); the shoulder within 3.6e-3 rad of
// MuJoCo's, the fingers within 1.2e-2 rad, the bodies within 1.3 mm.
TEST(ParallelMimic, ExportsAsAJointEqualityAndRunsBesideMuJoCo) {
    World world(test::modelToRun(kModel, SolverType::TGS, 0.001));
    const auto ref = test::startWithOneJointEquality(world);
    ASSERT_TRUE(ref);
    const mjModel_* m = ref->model();
    // Either way round: with multiplier −1 and no offset, q_r = −q_l and q_l = −q_r are one law.
    const int r0 = mj_name2id(m, mjOBJ_JOINT, "finger_right"), l0 = mj_name2id(m, mjOBJ_JOINT, "finger_left");
    EXPECT_TRUE((m->eq_obj1id[0] == r0 && m->eq_obj2id[0] == l0) ||
                (m->eq_obj1id[0] == l0 && m->eq_obj2id[0] == r0));
    EXPECT_NEAR(m->eq_data[0], 0.0, 1e-12);
    EXPECT_NEAR(m->eq_data[1], kMultiplier, 1e-12);
    test::expectLawBesideMuJoCo("parallel mimic", world, *ref, kLaw, "|q_r + q_l|", "shoulder", 2e-4);
}

}  // namespace
}  // namespace jl::interop
