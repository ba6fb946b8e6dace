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

// The mimic becomes one relative gear (ratio 1: q_right + q_left = 0) along the two parallel
// hinges, with no coupling warning; the model as imported runs 600 steps without a non-finite value.
TEST(ParallelMimic, ImportsAsARelativeGearAndRuns) {
    std::string warning;
    const Scene s = test::importedModel(kModel, warning);
    EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
    const JointDesc* mimic = test::findJoint(s, "finger_right_mimic");
    ASSERT_NE(mimic, nullptr);
    const auto* g = std::get_if<GearJoint>(&mimic->params);
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->relative);
    EXPECT_EQ(g->mode, GearMode::Angular);
    EXPECT_DOUBLE_EQ(g->ratio, -kMultiplier);
    EXPECT_DOUBLE_EQ(g->offset, 0.0);
    EXPECT_EQ(mimic->body0, "finger_right_link");
    EXPECT_EQ(mimic->body1, "finger_left_link");
    // Each gear frame's X is its hinge's axis in the world (Y-up), its origin the hinge's origin.
    const Transform f0 = test::startFrame(s, mimic->body0, mimic->frame0),
                    f1 = test::startFrame(s, mimic->body1, mimic->frame1);
    EXPECT_LT(glm::length(f0.rotate(Vec3(1, 0, 0)) - toYUp(Vec3(0, 0, 1))), 1e-12);
    EXPECT_LT(glm::length(f1.rotate(Vec3(1, 0, 0)) - toYUp(Vec3(0, 0, 1))), 1e-12);
    EXPECT_LT(glm::length(f1.p - f0.p - toYUp(Vec3(0.06, 0, 0))), 1e-12);
    World w(s);
    for (int i = 0; i < 600; ++i) w.step();
    test::expectFinite(w);
}

// The arm swings down about its tilted shoulder (released level); the fingers turn on it under
// gravity and the swing. Their angles on the arm (the model's joint coordinates) keep the model's
// law; rebuilt as a gear measuring the turns in the world, the same fingers break it.
TEST(ParallelMimic, LawHoldsOnTheSwingingArm) {
    std::string warning;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Real law[2] = {0.0, 0.0}, travel = 0.0, swing = 0.0;
        for (bool relative : {true, false}) {
            Scene s = test::importedModel(kModel, warning);
            s.settings.dt = 0.001;
            s.settings.solver = solver;
            s.settings.groundPlane = s.settings.bodyCollisions = false;
            const int mimic = s.findJoint("finger_right_mimic");
            ASSERT_GE(mimic, 0);
            std::get<GearJoint>(s.joints[static_cast<size_t>(mimic)].params).relative = relative;
            World w(s);
            for (int i = 0; i < 2000; ++i) {
                w.step();
                const Real qr = test::coordinate(w, "finger_right"), ql = test::coordinate(w, "finger_left");
                law[relative ? 0 : 1] = std::max(law[relative ? 0 : 1], std::abs(qr - kMultiplier * ql));
                if (relative) {
                    travel = std::max(travel, std::abs(ql));
                    swing = std::max(swing, std::abs(test::coordinate(w, "shoulder")));
                }
            }
        }
        std::printf(
            "[ parallel mimic ] gripper_mimic.urdf, %s, 2 s at 1 ms: arm swings up to %.3g rad, finger_left "
            "turns up to %.3g rad on it; |q_r + q_l| <= %.3g rad (relative gear), %.3g rad (the same gear "
            "measured in the world)\n",
            kSolverTypeNames[static_cast<int>(solver)], swing, travel, law[0], law[1]);
        EXPECT_GT(swing, 1.0);   // the arm swings: a world-measured law would break
        EXPECT_GT(travel, 0.1);  // the fingers turn on it: the coupling carries load
        EXPECT_LT(law[0], solver == SolverType::PGS ? 2e-3 : 2e-4);
        EXPECT_GT(law[1], 0.1);  // which the world-measured gear does not keep
        // At the import's own step (60 Hz) and at 240 Hz: the law's error is the time step's,
        // shrinking about as dt² (measured: PGS 0.10, 6.4e-3 rad; TGS 1.2e-2, 7.5e-4 rad).
        Real coarse[2] = {0.0, 0.0};
        for (int k = 0; k < 2; ++k) {
            Scene s = test::importedModel(kModel, warning);
            s.settings.solver = solver;
            s.settings.groundPlane = s.settings.bodyCollisions = false;
            if (k == 1) s.settings.dt = 1.0 / 240.0;
            World w(s);
            const int steps = static_cast<int>(std::lround(2.0 / s.settings.dt));
            for (int i = 0; i < steps; ++i) {
                w.step();
                coarse[k] = std::max(coarse[k], std::abs(test::coordinate(w, "finger_right") -
                                                         kMultiplier * test::coordinate(w, "finger_left")));
            }
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
    std::string warning, error;
    Scene s = test::importedModel(kModel, warning);
    s.settings.dt = 0.001;
    s.settings.solver = SolverType::TGS;
    s.settings.groundPlane = s.settings.bodyCollisions = false;
    World world(s);
    const auto ref = ReferenceRun::start(world, error);
    ASSERT_TRUE(ref) << error;
    const mjModel_* m = ref->model();
    ASSERT_EQ(m->neq, 1);
    EXPECT_EQ(m->eq_type[0], mjEQ_JOINT);
    // Either way round: with multiplier −1 and no offset, q_r = −q_l and q_l = −q_r are one law.
    const int r0 = mj_name2id(m, mjOBJ_JOINT, "finger_right"), l0 = mj_name2id(m, mjOBJ_JOINT, "finger_left");
    EXPECT_TRUE((m->eq_obj1id[0] == r0 && m->eq_obj2id[0] == l0) ||
                (m->eq_obj1id[0] == l0 && m->eq_obj2id[0] == r0));
    EXPECT_NEAR(m->eq_data[0], 0.0, 1e-12);
    EXPECT_NEAR(m->eq_data[1], kMultiplier, 1e-12);
    const int r = test::comparedIndex(*ref, s, "finger_right");
    const int l = test::comparedIndex(*ref, s, "finger_left");
    const int shoulder = test::comparedIndex(*ref, s, "shoulder");
    ASSERT_GE(r, 0);
    ASSERT_GE(l, 0);
    ASSERT_GE(shoulder, 0);
    const auto at = [](const std::vector<Real>& v, int k) { return v[static_cast<size_t>(k)]; };
    Real law = 0.0, lawMj = 0.0, fingers = 0.0, shoulderApart = 0.0, position = 0.0;
    for (int i = 0; i < 2000; ++i) {
        world.step();
        ref->step();
        const std::vector<Real> jl = ref->jointlabCoordinates(world), mj = ref->mujocoCoordinates();
        law = std::max(law, std::abs(at(jl, r) - kMultiplier * at(jl, l)));
        lawMj = std::max(lawMj, std::abs(at(mj, r) - kMultiplier * at(mj, l)));
        fingers = std::max({fingers, std::abs(at(jl, r) - at(mj, r)), std::abs(at(jl, l) - at(mj, l))});
        shoulderApart = std::max(shoulderApart, std::abs(at(jl, shoulder) - at(mj, shoulder)));
        position = std::max(position, ref->maxPositionDivergence(world));
    }
    std::printf(
        "[ parallel mimic ] beside MuJoCo, TGS, 2 s at 1 ms: |q_r + q_l| <= %.3g rad (MuJoCo's soft "
        "equality %.3g rad); shoulder within %.3g rad of MuJoCo's, fingers within %.3g rad; bodies within "
        "%.3g m\n",
        law, lawMj, shoulderApart, fingers, position);
    EXPECT_FALSE(ref->diverged());
    EXPECT_LT(law, 2e-4);
    EXPECT_LT(lawMj, 0.02);  // MuJoCo's equality is soft (solref 0.02 s)
    EXPECT_LT(shoulderApart, 0.02);
    EXPECT_LT(fingers, 0.02);
}

}  // namespace
}  // namespace jl::interop
