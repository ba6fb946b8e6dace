// Slide couplings on a moving body (a gripper's fingers on a hand): the import's differential pinion
// (interop/import_chain.h, DifferentialPinion) and the relative rack rows it uses
// (jointlab/joints/rack_pinion.h, relative). The law is checked against the model's own joint
// coordinates, the dynamics against a closed form and against MuJoCo running the model itself.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "coupling_law_runs.h"
#include "interop/import_chain.h"
#include "interop/mjcf_export.h"
#include "interop/mjcf_import.h"
#include "interop/model_import.h"
#include "interop/mujoco_model.h"
#include "interop/reference_run.h"
#include "jointlab/advisor.h"
#include "jointlab/world.h"
#include "model_coordinates.h"

namespace jl::interop {
namespace {

/// A hand swinging on a world hinge about the model's Y (released level, 0.35 m long), with two
/// fingers on slides coupled by a joint equality fa = multiplier·fb. Finger a (0.1 kg) slides along
/// the hand, finger b (0.05 kg) along `axisB`, with a 50 N/m spring on its slide; no contacts.
std::string swingingHand(const char* multiplier, const char* axisB) {
    return std::string(
               "<mujoco><option timestep='0.001'><flag contact='disable'/></option><worldbody>"
               "<body name='hand' pos='0 0 1'><joint name='swing' type='hinge' axis='0 1 0'/>"
               "<geom type='box' size='0.15 0.03 0.03' pos='0.15 0 0' mass='1'/>"
               "<body name='fa' pos='0.3 0 0.04'><joint name='ga' type='slide' axis='1 0 0'/>"
               "<geom type='box' size='0.02 0.01 0.01' mass='0.1'/></body>"
               "<body name='fb' pos='0.3 0 -0.04'><joint name='gb' type='slide' axis='") +
           axisB +
           "' stiffness='50'/>"
           "<geom type='box' size='0.02 0.01 0.01' mass='0.05'/></body>"
           "</body></worldbody><equality><joint name='mimic' joint1='ga' joint2='gb' polycoef='0 " +
           multiplier + " 0 0 0' solref='0.002 1'/></equality></mujoco>";
}

// The hand swings (falls from level: it turns up to 9 rad/s and its fingers' anchors travel along
// an arc), the fingers slide on it under gravity, the centrifugal force and the spring. Imported,
// the coupling becomes a pinion and two relative racks: the model's law holds relative to the hand
// to 1e-4 m: three times the worst error measured (3e-5 m), a tenth of a millimetre, where a
// world-measured gear breaks it by metres (AWorldMeasuredGearWouldBreakTheLaw).
// MuJoCo runs the model itself beside it. The same fingers without the coupling slide within
// 0.9 mm of MuJoCo's on this hand (checked to 5 mm: the two engines' integrators differ at 1 ms,
// and the hand turns at 9 rad/s); before the prismatic's slide rows took body 0's lever arm at the
// finger (docs/solvers.md §1) they differed by centimetres. The coupled fingers' paths are printed,
// not checked: the light pinion's inertia, which MuJoCo's equality does not have, moves them by
// centimetres.
TEST(Gripper, MimicOnASwingingHandHolds) {
    struct Case {
        const char* multiplier;
        const char* axisB;
        Real m;
    };
    for (const Case c : {Case{"-1", "1 0 0", -1.0}, Case{"0.5", "0 0 1", 0.5}}) {
        SCOPED_TRACE(std::string(c.multiplier) + ", finger b along " + c.axisB);
        const std::string xml = swingingHand(c.multiplier, c.axisB);
        Scene s;
        std::string warning, error;
        ASSERT_TRUE(importMjcfText(xml, "hand.xml", s, warning, error)) << error;
        EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
        EXPECT_NE(warning.find("light pinion"), std::string::npos) << warning;
        ASSERT_NE(test::findJoint(s, "mimic"), nullptr);
        EXPECT_TRUE(std::get<RackPinionJoint>(test::findJoint(s, "mimic")->params).relative);
        s.settings.solver = SolverType::TGS;
        World world(s);
        const ModelPtr model = compileMjcfText(xml, "hand.xml", error);
        ASSERT_TRUE(model) << error;
        const DataPtr d = makeData(model.get());
        const auto mjq = [&](const char* name) {
            const int a = model->jnt_qposadr[mj_name2id(model.get(), mjOBJ_JOINT, name)];
            return d->qpos[a] - model->qpos0[a];
        };
        const Real start[2] = {test::coordinate(world, "ga"), test::coordinate(world, "gb")};
        Real law = 0.0, lawMj = 0.0, apart = 0.0, travelled = 0.0, turned = 0.0;
        for (int i = 0; i < 2000; ++i) {
            world.step();
            mj_step(model.get(), d.get());
            const Real qa = test::coordinate(world, "ga") - start[0],
                       qb = test::coordinate(world, "gb") - start[1];
            law = std::max(law, std::abs(qa - c.m * qb));
            lawMj = std::max(lawMj, std::abs(mjq("ga") - c.m * mjq("gb")));
            apart = std::max({apart, std::abs(qa - mjq("ga")), std::abs(qb - mjq("gb"))});
            travelled = std::max(travelled, std::abs(qb));
            turned = std::max(turned, std::abs(d->qvel[model->jnt_dofadr[0]]));
        }
        std::printf(
            "[ gripper ] fa = %s·fb on a swinging hand (turning up to %.2f rad/s), 2 s at 1 ms, TGS: "
            "|qa - m·qb| <= %.3g m (MuJoCo's soft equality: %.3g m); fingers within %.3g m of MuJoCo's; "
            "finger b travelled up to %.3g m\n",
            c.multiplier, turned, law, lawMj, apart, travelled);
        // The same fingers uncoupled, in both engines: how far plain sliders on this hand differ.
        std::string plain = xml.substr(0, xml.find("<equality>")) + "</mujoco>";
        Scene ps;
        ASSERT_TRUE(importMjcfText(plain, "plain.xml", ps, warning, error)) << error;
        ps.settings.solver = SolverType::TGS;
        World pw(ps);
        const ModelPtr pm = compileMjcfText(plain, "plain.xml", error);
        ASSERT_TRUE(pm) << error;
        const DataPtr pd = makeData(pm.get());
        const Real pstart = test::coordinate(pw, "gb");
        Real apartPlain = 0.0;
        for (int i = 0; i < 2000; ++i) {
            pw.step();
            mj_step(pm.get(), pd.get());
            const int adr = pm->jnt_qposadr[mj_name2id(pm.get(), mjOBJ_JOINT, "gb")];
            apartPlain = std::max(
                apartPlain, std::abs(test::coordinate(pw, "gb") - pstart - (pd->qpos[adr] - pm->qpos0[adr])));
        }
        std::printf("[ gripper ]   the same fingers uncoupled: finger b within %.3g m of MuJoCo's\n",
                    apartPlain);
        EXPECT_GT(turned, 3.0);       // the hand turns fast: a world-measured law would break
        EXPECT_GT(travelled, 0.005);  // the fingers slide on it: the coupling carries load
        EXPECT_LT(law, 1e-4);
        EXPECT_LT(apartPlain, 5e-3);
    }
}

// What the relative rack replaced: the world-measured gear between the same fingers. Rebuilt with
// it, the law breaks by centimetres as soon as the hand swings (the reason the importer used to
// warn); the pinion keeps it to the tolerance above.
TEST(Gripper, AWorldMeasuredGearWouldBreakTheLaw) {
    const std::string xml = swingingHand("-1", "1 0 0");
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(xml, "hand.xml", s, warning, error)) << error;
    // The fingers' own frames on their slides, coupled in the world: q_a + q_b = 0.
    Scene g = s;
    const JointDesc ga = *test::findJoint(s, "ga"), gb = *test::findJoint(s, "gb");
    std::erase_if(g.joints,
                  [](const JointDesc& j) { return std::holds_alternative<RackPinionJoint>(j.params); });
    JointDesc gear;
    gear.name = "world_gear";
    gear.body0 = ga.body1;
    gear.body1 = gb.body1;
    gear.frame0 = ga.frame1;
    gear.frame1 = gb.frame1;
    GearJoint gp;
    gp.mode = GearMode::Linear;
    gp.ratio = 1.0;
    gear.params = gp;
    g.joints.push_back(gear);
    g.settings.solver = s.settings.solver = SolverType::TGS;
    for (const Scene* scene : {&s, &g}) {
        World world(*scene);
        const Real a0 = test::coordinate(world, "ga"), b0 = test::coordinate(world, "gb");
        Real law = 0.0;
        for (int i = 0; i < 1000; ++i) {
            world.step();
            law = std::max(
                law, std::abs((test::coordinate(world, "ga") - a0) + (test::coordinate(world, "gb") - b0)));
        }
        std::printf("[ gripper ] %s: |qa + qb| <= %.3g m over 1 s\n",
                    scene == &s ? "pinion and relative racks" : "world-measured gear", law);
        if (scene == &s)
            EXPECT_LT(law, 1e-4);
        else
            EXPECT_GT(law, 0.01);
    }
}

/// A 1 kg hand on a world slide along the model's X, pulled by a 100 N/m spring towards 0.1 m
/// (no gravity, no contacts), with a 0.1 kg finger a and a 0.05 kg finger b sliding along X on it,
/// coupled fa = −fb. `armatureA`, `armatureB` and `handMass` are for the MuJoCo copy that carries
/// what the import's pinion adds (MuJoCo armature on the slides, the pinion's mass on the hand).
std::string oscillatingHand(const char* armatureA = "0", const char* armatureB = "0",
                            const char* handMass = "1") {
    return std::string(
               "<mujoco><option timestep='0.001' gravity='0 0 0'><flag "
               "contact='disable'/></option><worldbody>"
               "<body name='hand' pos='0 0 1'><joint name='rail' type='slide' axis='1 0 0' stiffness='100' "
               "springref='0.1'/><geom type='box' size='0.1 0.05 0.03' mass='") +
           handMass +
           "'/><body name='fa' pos='0.15 0.03 0'><joint name='ga' type='slide' axis='1 0 0' armature='" +
           armatureA +
           "'/><geom type='box' size='0.02 0.01 0.01' mass='0.1'/></body>"
           "<body name='fb' pos='0.15 -0.03 0'><joint name='gb' type='slide' axis='1 0 0' armature='" +
           armatureB +
           "'/><geom type='box' size='0.02 0.01 0.01' mass='0.05'/></body>"
           "</body></worldbody><equality><joint name='mimic' joint1='ga' joint2='gb' polycoef='0 -1 0 0 0' "
           "solref='0.002 1'/></equality></mujoco>";
}

// Free sliding, in closed form. The hand oscillates along the fingers' axis; in its frame each
// finger feels −m·a_h, so on the coupled coordinate s = fb (fa = −fb) the force is
// −m_b·a_h + m_a·a_h against the fingers' inertia m_b + m_a plus the pinion's, which
// DifferentialPinion makes kPinionInertiaFraction of it: s̈ = κ·ẍ_h with
// κ = (m_a − m_b)/((1 + kPinionInertiaFraction)·(m_a + m_b)) = 0.30303 (1/3 without the pinion),
// and from rest s = κ·Δx_h at every instant, whatever the hand's motion (the fingers' reaction
// on the hand included). The test allows 1% of the largest s, a tenth of the pinion's own effect;
// the row's error (|fa + fb| ≤ 1e-4 m, checked) is a further 0.1%.
// Beside MuJoCo: the same model with what the pinion adds — armature 0.1·m on each finger's slide
// and the pinion's 0.1 kg on the hand (it rides there, at the slides' middle) — is the same
// mechanism in joint coordinates; its fingers stay within 1% of the largest s of ours under TGS
// and 5% under PGS, whose drive on the rail gives the hand a slightly different period (the
// closed form, relative to the hand's own motion, holds in both). (Without
// the hand's extra 0.1 kg the hand's period differs by 4% and the two drift apart by 36% of s in
// 2 s; MuJoCo's soft equality, solref 0.002 s, gives a little under the fingers' load.)
TEST(Gripper, FingersOnAMovingHandSlideAsTheClosedFormAndAsMuJoCo) {
    const Real ma = 0.1, mb = 0.05;
    const Real kappa = (ma - mb) / ((1.0 + kPinionInertiaFraction) * (ma + mb));
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(oscillatingHand(), "hand.xml", s, warning, error)) << error;
    const std::string withArmature = oscillatingHand("0.01", "0.005", "1.1");
    const ModelPtr model = compileMjcfText(withArmature, "hand.xml", error);
    ASSERT_TRUE(model) << error;
    for (const SolverType solver : {SolverType::TGS, SolverType::PGS}) {
        s.settings.solver = solver;
        World world(s);
        const DataPtr d = makeData(model.get());
        const auto mjq = [&](const char* name) {
            const int a = model->jnt_qposadr[mj_name2id(model.get(), mjOBJ_JOINT, name)];
            return d->qpos[a] - model->qpos0[a];
        };
        const Real h0 = test::coordinate(world, "rail"), a0 = test::coordinate(world, "ga"),
                   b0 = test::coordinate(world, "gb");
        Real worst = 0.0, largest = 0.0, law = 0.0, apart = 0.0, hand = 0.0;
        for (int i = 0; i < 2000; ++i) {
            world.step();
            mj_step(model.get(), d.get());
            const Real sb = test::coordinate(world, "gb") - b0, xh = test::coordinate(world, "rail") - h0;
            worst = std::max(worst, std::abs(sb - kappa * xh));
            largest = std::max(largest, std::abs(sb));
            hand = std::max(hand, std::abs(xh));
            law = std::max(law, std::abs(test::coordinate(world, "ga") - a0 + sb));
            apart = std::max(
                {apart, std::abs(sb - mjq("gb")), std::abs(test::coordinate(world, "ga") - a0 - mjq("ga"))});
        }
        std::printf(
            "[ gripper ] fingers on an oscillating hand (travel up to %.3g m), %s, 2 s at 1 ms: s up to %.4g "
            "m, "
            "|s - kappa·x_h| <= %.3g m (kappa %.5f; without the pinion's inertia 1/3); |fa + fb| <= %.3g m; "
            "MuJoCo with armature 0.1·m: fingers within %.3g m\n",
            hand, solver == SolverType::TGS ? "TGS" : "PGS", largest, worst, kappa, law, apart);
        EXPECT_GT(hand, 0.1);
        EXPECT_LT(worst, 0.01 * largest);
        EXPECT_LT(law, 1e-4);
        EXPECT_LT(apart, (solver == SolverType::TGS ? 0.01 : 0.05) * largest);
    }
}

// Both kernels solve the relative rack rows alike (the standard of tests/engine/kernels_test.cpp:
// 10 steps, bodies and row impulses within 1e-9), on the swinging hand with both couplings.
TEST(Gripper, KernelsAgreeOnThePinionAndRacks) {
    for (const char* axisB : {"1 0 0", "0 0 1"}) {
        Scene s;
        std::string warning, error;
        ASSERT_TRUE(importMjcfText(swingingHand("-1", axisB), "hand.xml", s, warning, error)) << error;
        for (const SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            s.settings.solver = solver;
            s.settings.kernel = KernelType::Fast;
            World fast(s);
            s.settings.kernel = KernelType::Reference;
            World reference(s);
            Real position = 0.0, impulse = 0.0;
            for (int i = 0; i < 10; ++i) {
                fast.step();
                reference.step();
                for (size_t b = 0; b < fast.bodies().size(); ++b)
                    position = std::max(position,
                                        glm::length(fast.bodies()[b].pose.p - reference.bodies()[b].pose.p));
                const auto ra = fast.rowResults(), rb = reference.rowResults();
                ASSERT_EQ(ra.size(), rb.size());
                for (size_t k = 0; k < ra.size(); ++k)
                    impulse = std::max(impulse, std::abs(ra[k].impulse - rb[k].impulse) /
                                                    std::max(1.0, std::abs(ra[k].impulse)));
            }
            EXPECT_LE(position, 1e-9) << axisB;
            EXPECT_LE(impulse, 1e-9) << axisB;
        }
    }
}

// The imported arm of tests/data/interop (a URDF <mimic> between opposed fingers on the forearm)
// exports to MJCF with each relative rack as a joint equality between the pinion's hinge and a
// finger's slide, so it now runs beside MuJoCo (before, the export refused the world-measured
// gear). Contacts off (folded at the elbow, the arm's fingers hit its upper arm, and the two contact
// models differ): the forearm falls about its elbow for 2 s at 1 ms; the shoulder's servo turning
// the arm pushes both fingers the same way, which the coupling forbids.
TEST(Gripper, ImportedArmRunsBesideMuJoCo) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(
        importModel(std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/arm.urdf", s, warning, error))
        << error;
    s.settings.dt = 0.001;
    s.settings.solver = SolverType::TGS;
    s.settings.groundPlane = s.settings.bodyCollisions = false;
    World world(s);
    const auto ref = ReferenceRun::start(world, error);
    ASSERT_TRUE(ref) << error;
    EXPECT_EQ(ref->model()->neq, 2);  // the two racks, as joint equalities
    // The law q_left = −q_right; the fingers ride on the forearm, which turns about the elbow.
    const test::BesideMuJoCo r =
        test::runBesideMuJoCo(world, *ref, test::Law{"grip_left", "grip_right", -1.0}, "elbow");
    std::printf(
        "[ gripper ] imported arm.urdf beside MuJoCo, no contacts, 2 s at 1 ms: elbow up to %.3g rad, "
        "within %.3g rad of MuJoCo's; |grip_left + grip_right| <= %.3g m (MuJoCo %.3g m); fingers within "
        "%.3g m of MuJoCo's; bodies within %.3g m\n",
        r.carrierTravel, r.carrierApart, r.law, r.lawMj, r.joints, r.position);
    EXPECT_FALSE(ref->diverged());
    EXPECT_GT(r.carrierTravel, 1.0);
    EXPECT_LT(r.law, 1e-4);
    // MuJoCo's soft equalities hold the law through its light pinion only loosely (2·dt time
    // constant, as exported: 0.019 m measured; its default 0.02 s: 0.042 m).
    EXPECT_LT(r.lawMj, 0.025);
}

// The pinion's sizes keep every ratio the conditioning advisor checks across its joints (its hinge
// on the forearm, its racks to the fingers) at or below the same ratio across the fingers' own
// sliders on the forearm: importing the mimic as a pinion adds findings no worse than the model's.
TEST(Gripper, PinionIsNoWorseConditionedThanTheFingers) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(
        importModel(std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/arm.urdf", s, warning, error))
        << error;
    std::map<AdviceKind, Real> fingers;
    std::vector<const Advice*> pinion;
    const std::vector<Advice> advice = adviseScene(s);
    for (const Advice& a : advice) {
        const std::string& name = s.joints[static_cast<size_t>(a.joint)].name;
        std::printf("[ gripper ] advisor on the imported arm: %s\n", a.title.c_str());
        if (name == "grip_left" || name == "grip_right")
            fingers[a.kind] = std::max(fingers[a.kind], a.value);
        else if (name.rfind("grip_right_mimic", 0) == 0)
            pinion.push_back(&a);
    }
    EXPECT_FALSE(fingers.empty());
    for (const Advice* a : pinion) {
        ASSERT_TRUE(fingers.count(a->kind)) << a->title << ": a kind of finding the fingers do not have";
        EXPECT_LE(a->value, fingers[a->kind] * (1.0 + 1e-9)) << a->title;
    }
}

}  // namespace
}  // namespace jl::interop
