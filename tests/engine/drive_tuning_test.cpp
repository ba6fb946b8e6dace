// The drive tuner (jointlab/drive_tuning.h): ω_n, ζ ⇄ gains round trip; the effective mass of a
// drive against closed forms (a slider's mass, a hinge's I_axis + m·r⊥²); the implicit-Euler
// prediction against the simulated drive of one body on a world slider or hinge, PGS and TGS;
// the continuous solution as the limit of the recurrence (first order in h).
#include "jointlab/drive_tuning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "jointlab/row_equation.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

using test::axisAngle;

TEST(DriveTuning, ModesAndGainsRoundTrip) {
    for (Real m : {0.05, 1.0, 37.0})
        for (Real k : {0.5, 200.0, 1e5})
            for (Real c : {0.0, 3.0, 400.0}) {
                const DriveModes md = driveModes(k, c, m);
                EXPECT_NEAR(md.omegaN, std::sqrt(k / m), 1e-12 * md.omegaN);
                EXPECT_NEAR(md.zeta, c / (2.0 * std::sqrt(k * m)), 1e-12 * (1.0 + md.zeta));
                const DriveGains g = driveGains(md.omegaN, md.zeta, m);
                EXPECT_NEAR(g.stiffness, k, 1e-12 * k);
                EXPECT_NEAR(g.damping, c, 1e-12 * (1.0 + c));
            }
    for (Real w : {0.3, 6.0, 90.0})
        for (Real z : {0.0, 0.2, 1.0, 3.0}) {
            const DriveModes md =
                driveModes(driveGains(w, z, 2.5).stiffness, driveGains(w, z, 2.5).damping, 2.5);
            EXPECT_NEAR(md.omegaN, w, 1e-12 * w);
            EXPECT_NEAR(md.zeta, z, 1e-12 * (1.0 + z));
        }
    EXPECT_EQ(driveModes(0.0, 2.0, 1.0).omegaN, 0.0);
    EXPECT_TRUE(std::isinf(driveModes(0.0, 2.0, 1.0).zeta)) << "a pure damper is overdamped";
}

/// One box on a drive from the world, no gravity: a slider along X, or a hinge about Z through a
/// point `offset` from its centre. Drive towards 0 from −0.3 (m or rad).
Scene driven(bool hinge, SolverType solver, int posIters, Real offset, Real k, Real c) {
    Scene s = test::emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = solver;
    s.settings.posIters = posIters;
    s.settings.gyroscopic = false;
    s.bodies.push_back(test::box("body", Vec3(0.0, 1.0, 0.0), Vec3(0.2, 0.1, 0.05), 2.0));
    if (hinge) {
        RevoluteJoint rj;
        rj.drive.enabled = true;
        rj.drive.stiffness = k;
        rj.drive.damping = c;
        rj.driveTarget = 0.3;  // the body starts at angle 0: the error is −0.3 rad
        s.joints.push_back(test::joint<RevoluteJoint>(s, "hinge", "", "body", Vec3(offset, 1.0, 0.0),
                                                      axisAngle(Vec3(0, 1, 0), -kPi / 2), rj));
    } else {
        PrismaticJoint pj;
        pj.drive.enabled = true;
        pj.drive.stiffness = k;
        pj.drive.damping = c;
        pj.driveTarget = 0.3;
        s.joints.push_back(
            test::joint<PrismaticJoint>(s, "rail", "", "body", Vec3(0.0, 1.0, 0.0), Quat(1, 0, 0, 0), pj));
    }
    return s;
}

int driveRow(const World& w) {
    const auto rows = w.jointRows(0);
    for (size_t k = 0; k < rows.size(); ++k)
        if (rows[k].flags & kRowSpring) return static_cast<int>(k);
    return -1;
}

TEST(DriveTuning, EffectiveMassOfASliderAndAHingeOffItsCentre) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World slider(driven(false, solver, 4, 0.0, 100.0, 1.0));
        slider.step();
        EXPECT_NEAR(driveEffectiveMass(slider, 0, driveRow(slider)), 2.0, 1e-12);
        for (Real r : {0.0, 0.15, 0.4}) {
            World hinge(driven(true, solver, 4, r, 100.0, 1.0));
            hinge.step();
            const Real Iz = hinge.localInertia(0).z, m = 2.0;
            EXPECT_NEAR(driveEffectiveMass(hinge, 0, driveRow(hinge)), Iz + m * r * r,
                        1e-9 * (Iz + m * r * r))
                << "I_axis + m·r² for r = " << r;
            RowEquation e;
            ASSERT_TRUE(hinge.rowEquation(0, driveRow(hinge), e));
            EXPECT_NEAR(1.0 / e.K, Iz, 1e-12) << "the drive row's own 1/K ignores the lever";
        }
    }
}

TEST(DriveTuning, ImplicitEulerPredictionIsTheSimulatedDrive) {
    struct Case {
        bool hinge;
        SolverType solver;
        int posIters;
        Real k, c;
    };
    for (const Case& cs :
         {Case{false, SolverType::PGS, 1, 200.0, 5.0}, Case{false, SolverType::PGS, 8, 900.0, 2.0},
          Case{false, SolverType::TGS, 4, 200.0, 5.0}, Case{true, SolverType::PGS, 4, 3.0, 0.1},
          Case{true, SolverType::TGS, 8, 3.0, 0.4}}) {
        World w(driven(cs.hinge, cs.solver, cs.posIters, 0.0, cs.k, cs.c));
        DriveResponseInput in;
        in.e0 = -0.3;
        in.stiffness = cs.k;
        in.damping = cs.c;
        in.mEff = cs.hinge ? w.localInertia(0).z : 2.0;
        in.dt = w.settings().dt;
        in.substeps = cs.solver == SolverType::TGS ? cs.posIters : 1;
        in.steps = 180;
        const std::vector<Real> predicted = driveResponseImplicit(in);
        // A hinge's angle advances by 2·atan(ω·h/2) a (sub)step, not ω·h (the quaternion update
        // q' = normalize(q + ½h·ω·q), math.h integrateRotation): (ω·h)³/12 less. The recurrence is
        // exact for a slider; for a hinge it is exact up to that, summed over the substeps.
        Real rotationBound = 0.0;
        const Real h = in.dt / in.substeps;
        for (int i = 0; cs.hinge && i < in.steps; ++i) {
            const Real w =
                std::abs(predicted[static_cast<size_t>(i) + 1] - predicted[static_cast<size_t>(i)]) / in.dt;
            rotationBound += in.substeps * std::pow(w * h, 3) / 12.0;
        }
        Real worst = 0.0, amplitude = 0.0;
        for (int i = 1; i <= in.steps; ++i) {
            w.step();
            const BodyState& b = w.bodies()[0];
            const Real x = cs.hinge ? 2.0 * std::atan2(b.pose.q.z, b.pose.q.w) : b.pose.p.x;
            worst = std::max(worst, std::abs((x - 0.3) - predicted[static_cast<size_t>(i)]));
            amplitude = std::max(amplitude, std::abs(predicted[static_cast<size_t>(i)]));
        }
        std::printf(
            "%s %s posIters %d: max |e_sim − e_pred| over 3 s %.3e (amplitude %.3f, Σ(ωh)³/12 %.3e)\n",
            cs.hinge ? "hinge" : "slider", kSolverTypeNames[int(cs.solver)], cs.posIters, worst, amplitude,
            rotationBound);
        EXPECT_LT(worst, 1e-12 + 2.0 * rotationBound) << "the solver runs this recurrence";
        EXPECT_GT(amplitude, 0.05);
    }
}

/// Two free boxes (no gravity) on a slider along X whose axis runs 0.35 m above both centres, with
/// an acceleration drive: the drive row's J has a lever (κ = r × x), the rotation rows hold it.
Scene accelerationPair(SolverType solver, int posIters, Real k, Real c) {
    Scene s = test::emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = solver;
    s.settings.posIters = posIters;
    s.settings.gyroscopic = false;
    s.bodies.push_back(test::box("a", Vec3(0.0, 1.0, 0.0), Vec3(0.2, 0.1, 0.15), 2.0));
    s.bodies.push_back(test::box("b", Vec3(0.6, 1.0, 0.0), Vec3(0.15, 0.25, 0.1), 0.7));
    PrismaticJoint pj;
    pj.drive.enabled = true;
    pj.drive.acceleration = true;
    pj.drive.stiffness = k;
    pj.drive.damping = c;
    pj.driveTarget = 0.25;
    s.joints.push_back(
        test::joint<PrismaticJoint>(s, "rail", "a", "b", Vec3(0.3, 1.35, 0.0), Quat(1, 0, 0, 0), pj));
    return s;
}

// An acceleration drive between two dynamic bodies: its m_eff is K/K_eff (drive_tuning.h), not 1,
// and with it the implicit-Euler recurrence predicts the simulated drive error; with m_eff = 1 it
// does not. The residual is the solver's: the prediction assumes the joint's other rows held
// exactly within each step, which PGS's and TGS's finite sweeps only approach.
TEST(DriveTuning, AnAccelerationDriveBetweenTwoBodiesAnswersWithKOverKEff) {
    struct Case {
        SolverType solver;
        int posIters;
        Real k, c;
    };
    for (const Case& cs : {Case{SolverType::PGS, 16, 60.0, 2.0}, Case{SolverType::PGS, 8, 200.0, 25.0},
                           Case{SolverType::TGS, 8, 60.0, 2.0}, Case{SolverType::TGS, 4, 200.0, 25.0}}) {
        const std::string what = std::string(kSolverTypeNames[int(cs.solver)]) + " posIters " +
                                 std::to_string(cs.posIters) + " k " + std::to_string(cs.k);
        World w(accelerationPair(cs.solver, cs.posIters, cs.k, cs.c));
        std::vector<Real> simulated;
        Real mEff = 0.0, K = 0.0;
        for (int i = 0; i <= 150; ++i) {
            w.step();
            const int row = driveRow(w);
            ASSERT_GE(row, 0) << what;
            simulated.push_back(w.jointRows(0)[static_cast<size_t>(row)].geometricError);
            if (i > 0) continue;
            mEff = driveEffectiveMass(w, 0, row);
            RowEquation e;
            ASSERT_TRUE(w.rowEquation(0, row, e));
            K = e.K;
        }
        // K_eff with the rotation held: the two masses along the axis only.
        const Real kEff = w.inverseMass(0) + w.inverseMass(1);
        EXPECT_NEAR(mEff, K / kEff, 1e-9 * K / kEff) << what << ": m_eff = K/K_eff";
        EXPECT_GT(mEff, 1.3) << what << ": the lever matters";
        DriveResponseInput in;
        in.e0 = simulated.front();
        in.stiffness = cs.k;
        in.damping = cs.c;
        in.dt = w.settings().dt;
        in.substeps = cs.solver == SolverType::TGS ? cs.posIters : 1;
        in.steps = static_cast<int>(simulated.size()) - 1;
        auto worstOff = [&](Real m) {
            in.mEff = m;
            const std::vector<Real> predicted = driveResponseImplicit(in);
            Real worst = 0.0;
            for (size_t i = 0; i < simulated.size(); ++i)
                worst = std::max(worst, std::abs(simulated[i] - predicted[i]));
            return worst;
        };
        const Real withKeff = worstOff(mEff), withOne = worstOff(1.0);
        std::printf("%s: m_eff = %.4f, max |e_sim − e_pred| over 2.5 s: %.3e (m_eff = 1: %.3e), e0 = %.3f\n",
                    what.c_str(), mEff, withKeff, withOne, in.e0);
        EXPECT_LT(withKeff, 0.01 * std::abs(in.e0)) << what;
        EXPECT_GT(withOne, 10.0 * withKeff) << what << ": m_eff = 1 is not the response";
    }
}

TEST(DriveTuning, TheContinuousResponseIsTheLimitOfTheRecurrence) {
    for (Real zeta : {0.1, 1.0, 2.5}) {
        DriveResponseInput in;
        in.e0 = 0.4;
        in.de0 = -1.0;
        in.mEff = 1.5;
        const DriveGains g = driveGains(8.0, zeta, in.mEff);
        in.stiffness = g.stiffness;
        in.damping = g.damping;
        in.steps = 120;
        const std::vector<Real> exact = driveResponseContinuous(in);
        EXPECT_DOUBLE_EQ(exact[0], in.e0);
        EXPECT_NEAR((exact[1] - exact[0]) / in.dt, in.de0, 0.2) << "starts at ė0 (to O(dt))";
        Real last = 0.0;
        for (int n : {4, 8, 16}) {
            in.substeps = n;
            const std::vector<Real> rec = driveResponseImplicit(in);
            Real err = 0.0;
            for (size_t i = 0; i < rec.size(); ++i) err = std::max(err, std::abs(rec[i] - exact[i]));
            if (last > 0.0) {
                EXPECT_NEAR(last / err, 2.0, 0.3) << "first order: halving h halves the error";
            }
            last = err;
        }
        EXPECT_LT(last, 0.02);
        // Settles where the damper's pull towards v_T balances the spring: e = c·v_T/k.
        in.vT = 0.2;
        in.steps = 2000;
        EXPECT_NEAR(driveResponseContinuous(in).back(), g.damping * in.vT / g.stiffness, 1e-9);
    }
}

}  // namespace
}  // namespace jl
