// settings.correction = soft (issue 25 point 3; docs/solvers.md "Position correction"): under TGS,
// relax plus Box2D v3's soft joint rows — a joint's hard rows correct position as a stiff, heavily
// damped spring (solver/soft_contact.h softJointHertz, kSoftJointDampingRatio) instead of α·C/h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "jointlab/row_equation.h"
#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "solver/soft_contact.h"
#include "test_scenes.h"
#include "test_util.h"

namespace jl {
namespace {

// The coefficients' closed form: from a row velocity v0 and error C, one soft update of a lone row
// (λ = 0, K = 1/m) leaves v' = v0 − massScale·(v0 + biasRate·C), and that is implicit Euler of the
// damped spring C'' + 2ζω·C' + ω²·C = 0 over h: v'·(1 + 2ζωh + ω²h²) = v0 − hω²·C. It is also the
// fixed point of the update whatever λ it starts from (massScale + impulseScale = 1).
TEST(SoftJoint, CoefficientsAreImplicitEulerOfTheDampedSpring) {
    for (Real hertz : {15.0, 60.0, 120.0})
        for (Real zeta : {0.0, 1.0, 2.0, 10.0})
            for (Real h : {1.0 / 60.0, 1.0 / 240.0, 1.0 / 480.0}) {
                const solver::SoftCoefficients k = solver::softCoefficients(hertz, zeta, h);
                const Real w = 2.0 * kPi * hertz, v0 = 0.3, C = -0.02;
                const Real soft = v0 - k.massScale * (v0 + k.biasRate * C);
                const Real euler = (v0 - h * w * w * C) / (1.0 + 2.0 * zeta * w * h + w * w * h * h);
                EXPECT_NEAR(soft, euler, 1e-14 * (std::abs(v0) + w * std::abs(C)))
                    << hertz << " Hz, zeta " << zeta << ", h " << h;
                EXPECT_NEAR(k.massScale + k.impulseScale, 1.0, 1e-15);
                // a lone row (K = 1/m, m = 1) iterated from any λ: λ ← λ + Δλ, v = v0 + λ
                Real lambda = 5.0;
                for (int i = 0; i < 200; ++i)
                    lambda =
                        lambda - k.massScale * ((v0 + lambda) + k.biasRate * C) - k.impulseScale * lambda;
                EXPECT_NEAR(v0 + lambda, euler, 1e-12) << hertz << " Hz, zeta " << zeta << ", h " << h;
            }
    // the joints' choice: twice the soft contact's stiffness, within half the substep rate
    EXPECT_EQ(solver::softJointHertz(1.0 / 480.0), 120.0);  // 8 substeps of a 60 Hz step
    EXPECT_EQ(solver::softJointHertz(1.0 / 240.0), 60.0);   // 4 substeps
    EXPECT_LE(solver::softJointHertz(1.0 / 60.0), 30.0);    // 1 substep: at most half its rate
}

/// test::ballOffItsAnchor (its three rows have K = 1/m and are independent) under TGS soft.
Scene ballAtItsAnchor(const Vec3& offset, int substeps, KernelType kernel, bool gravity) {
    Scene s = test::ballOffItsAnchor(offset);
    if (!gravity) s.settings.gravity = Vec3(0.0);
    s.settings.solver = SolverType::TGS;
    s.settings.posIters = substeps;
    s.settings.velIters = 1;
    s.settings.correction = Correction::Soft;
    s.settings.kernel = kernel;
    return s;
}

// A displaced ball, no gravity: each substep's soft update from rest moves it by
// −h²ω²/(1 + a2)·C (implicit Euler of the spring from rest, above), then the relax sweep takes the
// velocity out, so the error follows C_k = ρ^k·C0 with ρ = 1 − h²ω²/(1 + 2ζωh + ω²h²) per substep:
// ρ = 0.747 at 4 substeps of a 60 Hz step (60 Hz, ζ = 2), where relax at α = 0.5 gives 0.5. The
// recurrence is exact arithmetic on a row with no lever arm, so 1e-12 of C0 after 10 steps; the
// ball ends each step at rest (the relax sweep and the velocity iteration solve Jv = 0).
TEST(SoftJoint, ADisplacedBallClosesAsTheSoftSpringFromRest) {
    const Vec3 c0(0.01, -0.02, 0.005);
    for (int substeps : {4, 8})
        for (KernelType kernel : {KernelType::Reference, KernelType::Fast}) {
            World w(ballAtItsAnchor(c0, substeps, kernel, false));
            const Real h = (1.0 / 60.0) / substeps;
            const Real f = solver::softJointHertz(h), zeta = solver::kSoftJointDampingRatio;
            const Real om = 2.0 * kPi * f;
            const Real rho = 1.0 - h * h * om * om / (1.0 + 2.0 * zeta * om * h + om * om * h * h);
            for (int step = 1; step <= 10; ++step) {
                w.step();
                const Vec3 error = w.bodies()[0].pose.p - Vec3(0.0, 1.0, 0.0);
                const Vec3 expected = std::pow(rho, substeps * step) * c0;
                EXPECT_LT(glm::length(error - expected), 1e-12 * glm::length(c0))
                    << kKernelTypeNames[int(kernel)] << " " << substeps << " substeps, step " << step;
                EXPECT_LT(glm::length(w.bodies()[0].linearVelocity), 1e-14);
            }
            std::printf("%s, %d substeps: %.0f Hz, rho %.4f per substep, error after a step %.3e of C0\n",
                        kKernelTypeNames[int(kernel)], substeps, f, rho, std::pow(rho, substeps));
        }
}

// The same ball hanging under gravity comes to rest where the spring holds its weight:
// m·g = m·ω²·C, so it sags by g/ω² whatever ζ — 69.0 µm at 4 substeps (60 Hz), 17.3 µm at 8
// (120 Hz). At rest each substep's gravity h·g is met by the soft update alone (v' = (h·g −
// hω²·C)/(1 + a2) = 0), and the relax sweep and velocity iteration find nothing left to take out.
// The error converges by ρ per substep (ρ^480 < 1e-60 in 2 s): 1e-9 of the sag is rounding.
TEST(SoftJoint, AHangingBallSagsByTheSpringsStaticDeflection) {
    for (int substeps : {4, 8})
        for (KernelType kernel : {KernelType::Reference, KernelType::Fast}) {
            World w(ballAtItsAnchor(Vec3(0.0), substeps, kernel, true));
            for (int i = 0; i < 120; ++i) w.step();
            const Real h = (1.0 / 60.0) / substeps, om = 2.0 * kPi * solver::softJointHertz(h);
            const Real sag = 9.81 / (om * om);
            const Vec3 error = w.bodies()[0].pose.p - Vec3(0.0, 1.0, 0.0);
            std::printf("%s, %d substeps: sag %.4e m (g/w^2 = %.4e m)\n", kKernelTypeNames[int(kernel)],
                        substeps, -error.y, sag);
            EXPECT_NEAR(error.y, -sag, 1e-9 * sag) << kKernelTypeNames[int(kernel)] << " " << substeps;
            EXPECT_LT(std::abs(error.x) + std::abs(error.z), 1e-15);
            EXPECT_LT(glm::length(w.bodies()[0].linearVelocity), 1e-12);
            // the joint's force is the ball's weight (the step's impulse / dt)
            Real impulse = 0.0;
            for (const auto& r : w.jointRowResults(0)) impulse = std::max(impulse, std::abs(r.impulse));
            EXPECT_NEAR(impulse / (1.0 / 60.0), 9.81, 1e-9)
                << kKernelTypeNames[int(kernel)] << " " << substeps;
        }
}

Real largestJointError(const World& w) {
    Real e = 0.0;
    for (int j = 0; j < static_cast<int>(w.scene().joints.size()); ++j)
        e = std::max(e, glm::length(test::anchor0(w, j) - test::anchor1(w, j)));
    return e;
}

// The fast kernel sweeps a batch with a soft joint row with its plain C++ kernel, which does the
// reference's arithmetic: on a whipping chain of the example links, with 1 and 2 solver threads,
// the two give the same bits (state hash) for 60 steps.
TEST(SoftJoint, KernelsGiveTheSameBits) {
    for (int threads : {1, 2})
        for (PointSolve point : {PointSolve::Block, PointSolve::Rows}) {
            Scene s = test::exampleChain(80);
            s.settings.solver = SolverType::TGS;
            s.settings.correction = Correction::Soft;
            s.settings.threads = threads;
            s.settings.pointSolve = point;
            s.settings.kernel = KernelType::Fast;
            World fast(s);
            s.settings.kernel = KernelType::Reference;
            World reference(s);
            for (int i = 0; i < 60; ++i) {
                fast.step();
                reference.step();
                ASSERT_EQ(fast.stateHash(), reference.stateHash())
                    << "step " << i << ", " << threads << " thread(s), " << kPointSolveNames[int(point)];
            }
            EXPECT_GT(largestJointError(fast), 0.0);  // the rows worked
        }
}

// Every example (limits, drives, motors, gears, contacts) under TGS soft: the kernels give the same
// bits for 30 steps and nothing diverges.
TEST(SoftJoint, KernelsGiveTheSameBitsOnEveryExample) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (const auto& f : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios"))
        if (f.path().extension() == ".json") files.push_back(f.path());
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 10u);
    for (const fs::path& file : files) {
        Scene s;
        std::string error;
        ASSERT_TRUE(loadScenario(file.string(), s, error)) << error;
        s.settings.solver = SolverType::TGS;
        s.settings.correction = Correction::Soft;
        s.settings.kernel = KernelType::Fast;
        World fast(s);
        s.settings.kernel = KernelType::Reference;
        World reference(s);
        for (int i = 0; i < 30; ++i) {
            fast.step();
            reference.step();
        }
        EXPECT_EQ(fast.stateHash(), reference.stateHash()) << file.filename();
        EXPECT_EQ(fast.stepCount(), 30) << file.filename();  // never diverged and reset
    }
}

TEST(SoftJoint, PgsSolvesSoftAsBaumgarte) {
    EXPECT_EQ(test::chainHashUnder(SolverType::PGS, Correction::Baumgarte),
              test::chainHashUnder(SolverType::PGS, Correction::Soft));
}

TEST(SoftJoint, ChangesTgsAndIsSavedWithTheScenario) {
    EXPECT_NE(test::chainHashUnder(SolverType::TGS, Correction::Relax),
              test::chainHashUnder(SolverType::TGS, Correction::Soft));
    Scene s = test::exampleChain(12);
    s.settings.solver = SolverType::TGS;
    s.settings.correction = Correction::Soft;
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(s), back, error)) << error;
    EXPECT_EQ(back.settings.correction, Correction::Soft);
    EXPECT_NE(serializeScenario(s).find("\"correction\": \"soft\""), std::string::npos);
}

// The trace shows the soft update's bias biasRate·C in the substeps' sweeps and no bias in the
// relax sweeps.
TEST(SoftJoint, TheTraceShowsTheSoftBias) {
    const Vec3 c0(0.01, 0.0, 0.0);
    World w(ballAtItsAnchor(c0, 4, KernelType::Reference, false));
    const Real h = (1.0 / 60.0) / 4.0;
    const Real biasRate = solver::softJointCoefficients(h).biasRate;
    int biased = 0, relax = 0;
    w.setRowTrace([&](const World::RowTrace& t) {
        if (t.phase == 2) {
            ++relax;
            EXPECT_EQ(t.bias, 0.0);
        } else if (t.phase == 0) {
            ++biased;
            EXPECT_NEAR(t.bias, biasRate * t.C, 1e-15 * biasRate);
        }
    });
    w.step();
    EXPECT_EQ(biased, 4 * 3);
    EXPECT_EQ(relax, 4 * 3);
}

// The equation panel's row: a soft joint row shows the soft coefficients and bias it was solved with.
TEST(SoftJoint, TheRowEquationShowsTheSoftRow) {
    World w(ballAtItsAnchor(Vec3(0.01, 0.0, 0.0), 4, KernelType::Fast, false));
    w.step();
    const Real h = (1.0 / 60.0) / 4.0;
    const solver::SoftCoefficients k = solver::softJointCoefficients(h);
    for (int row = 0; row < 3; ++row) {
        RowEquation e;
        ASSERT_TRUE(w.rowEquation(0, row, e));
        EXPECT_TRUE(e.substepImpulses);
        EXPECT_EQ(e.softHertz, 60.0);
        EXPECT_EQ(e.softMassScale, k.massScale);
        EXPECT_EQ(e.bias, k.biasRate * e.row.geometricError);
    }
    Scene relax = ballAtItsAnchor(Vec3(0.01, 0.0, 0.0), 4, KernelType::Fast, false);
    relax.settings.correction = Correction::Relax;
    World r(relax);
    r.step();
    RowEquation e;
    ASSERT_TRUE(r.rowEquation(0, 0, e));
    EXPECT_EQ(e.softHertz, 0.0);
    EXPECT_FALSE(e.substepImpulses);
}

/// Two 1 m boxes of 1 kg hinged end to end about Z, the first to the world at (0, 2, 0),
/// released horizontal (EnergyDefaults' double pendulum).
Scene doublePendulum() {
    Scene s = test::doublePendulum();
    s.settings.solver = SolverType::TGS;
    s.settings.correction = Correction::Soft;
    return s;
}

// Energy does not grow under soft: the double pendulum over 60 s and the 100-link chain over 10 s,
// at 4 + 1 and 8 + 1, gain at most 1% (issue 25's bound on the defaults).
TEST(SoftJoint, EnergyDoesNotGrow) {
    for (int iters : {4, 8}) {
        Scene p = doublePendulum();
        p.settings.posIters = iters;
        const test::EnergyRun pendulum = test::runEnergy(p, 60.0);
        const Real range = 2.0 * 9.81;
        std::printf("double pendulum soft %d+1: after 60 s %+.1f%%, largest rise %.2f%% of the range\n",
                    iters, 100.0 * pendulum.change / range, 100.0 * pendulum.maxGain / range);
        EXPECT_TRUE(pendulum.finite);
        EXPECT_LE(pendulum.maxGain, 0.01 * range) << iters;
        EXPECT_LT(pendulum.change, 0.0) << iters;

        Scene chain = test::exampleChain(100);
        chain.settings.solver = SolverType::TGS;
        chain.settings.correction = Correction::Soft;
        chain.settings.posIters = iters;
        const Real drop = test::chainDrop(100);
        const test::EnergyRun e = test::runEnergy(chain, 10.0);
        std::printf("chain100 soft %d+1: largest gain %.3f%%, after 10 s %+.1f%% of the drop\n", iters,
                    100.0 * e.maxGain / drop, 100.0 * e.change / drop);
        EXPECT_TRUE(e.finite);
        EXPECT_LE(e.maxGain, 0.01 * drop) << iters;
    }
}

}  // namespace
}  // namespace jl
