// Position correction as a choice (issue 25 point 3; docs/solvers.md "Position correction"):
// settings.correction = baumgarte (the bias stays in the velocity), relax (TGS: after each
// substep's motion an unbiased sweep takes it back out, Box2D v3's relax iterations) or
// splitImpulse (PGS: the velocity is solved without the bias, which only moves the bodies).
#include "jointlab/correction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_scenes.h"
#include "test_util.h"

namespace jl {
namespace {

/// test::ballOffItsAnchor, no gravity: its three rows are linear with no lever arm, so a substep's
/// biased solve moves the ball by exactly α·C and the error follows C_k = (1 − α)^k·C0.
Scene displacedBall(const Vec3& offset, Correction correction, KernelType kernel) {
    Scene s = test::ballOffItsAnchor(offset);
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = SolverType::TGS;
    s.settings.posIters = 4;
    s.settings.velIters = 0;  // what the substeps leave in the velocity, not a velocity sweep's
    s.settings.autoBaumgarte = false;
    s.settings.baumgarte = 0.5;
    s.settings.correction = correction;
    s.settings.kernel = kernel;
    return s;
}

TEST(Correction, RelaxTakesTheBiasOutOfTheVelocity) {
    const Vec3 c0(0.01, -0.02, 0.005);
    const Real alpha = 0.5, h = (1.0 / 60.0) / 4.0;
    for (KernelType kernel : {KernelType::Reference, KernelType::Fast})
        for (Correction correction : {Correction::Baumgarte, Correction::Relax}) {
            World w(displacedBall(c0, correction, kernel));
            w.step();
            // after 4 substeps the error is (1 − α)⁴·C0 either way: the positions do not change
            const Vec3 error = w.bodies()[0].pose.p - Vec3(0.0, 1.0, 0.0);
            const Vec3 expected = std::pow(1.0 - alpha, 4) * c0;
            EXPECT_LT(glm::length(error - expected), 1e-12 * glm::length(c0));
            // Baumgarte keeps the last substep's bias velocity, −α·C_3/h; relax leaves none
            const Vec3 v = w.bodies()[0].linearVelocity;
            const Vec3 bias = -(alpha / h) * std::pow(1.0 - alpha, 3) * c0;
            std::printf("%s %s: error %.3e m, velocity %.3e m/s (bias velocity %.3e m/s)\n",
                        kKernelTypeNames[int(kernel)], kCorrectionNames[int(correction)], glm::length(error),
                        glm::length(v), glm::length(bias));
            if (correction == Correction::Baumgarte)
                EXPECT_LT(glm::length(v - bias), 1e-12 * glm::length(bias));
            else
                EXPECT_LT(glm::length(v), 1e-14);
        }
}

TEST(Correction, SplitImpulseMovesTheBodiesAndLeavesNoVelocity) {
    // The same ball under PGS, one position iteration, no velocity iteration: Baumgarte's bias
    // velocity −α·C0/dt moves the ball by α·C0 and stays; split impulse moves it as far and leaves
    // the velocity the unbiased solve gives a ball at rest: none. Both kernels, 1e-12.
    const Vec3 c0(0.01, -0.02, 0.005);
    const Real alpha = 0.5, dt = 1.0 / 60.0;
    for (KernelType kernel : {KernelType::Reference, KernelType::Fast})
        for (Correction correction : {Correction::Baumgarte, Correction::SplitImpulse}) {
            Scene s = displacedBall(c0, correction, kernel);
            s.settings.solver = SolverType::PGS;
            s.settings.posIters = 1;
            World w(s);
            w.step();
            const Vec3 error = w.bodies()[0].pose.p - Vec3(0.0, 1.0, 0.0);
            EXPECT_LT(glm::length(error - (1.0 - alpha) * c0), 1e-12 * glm::length(c0));
            const Vec3 v = w.bodies()[0].linearVelocity;
            std::printf("PGS %s %s: error %.3e m, velocity %.3e m/s\n", kKernelTypeNames[int(kernel)],
                        kCorrectionNames[int(correction)], glm::length(error), glm::length(v));
            if (correction == Correction::Baumgarte)
                EXPECT_LT(glm::length(v + (alpha / dt) * c0), 1e-12 * glm::length(c0) / dt);
            else
                EXPECT_LT(glm::length(v), 1e-14);
            // the row reports the real impulse: none for split impulse (nothing had to stop)
            const Real impulse = std::abs(w.jointRowResults(0)[0].impulse);
            if (correction == Correction::SplitImpulse) {
                EXPECT_LT(impulse, 1e-14);
            }
        }
}

// The kernels agree on a chain under split impulse, with 1 and 2 solver threads, over 10 steps as
// Kernels.* checks them (a whipping chain amplifies the last bits' difference afterwards: over 60
// steps 1.5e-8 m with one thread and 4e-5 m with two; under Baumgarte, 9e-10 m with two: the
// difference grows about a hundredfold every 10 steps either way, from 3e-19 m at step 10).
TEST(Correction, KernelsAgreeUnderSplitImpulse) {
    for (int threads : {1, 2}) {
        Scene s = test::exampleChain(80);
        s.settings.solver = SolverType::PGS;
        s.settings.correction = Correction::SplitImpulse;
        s.settings.threads = threads;
        const Real worst = test::kernelsApart(s, 10);
        std::printf("split impulse, %d thread(s): kernels within %.1e m\n", threads, worst);
        EXPECT_LE(worst, 1e-9);
    }
}

TEST(Correction, PgsSolvesRelaxAsBaumgarte) {
    EXPECT_EQ(test::chainHashUnder(SolverType::PGS, Correction::Baumgarte),
              test::chainHashUnder(SolverType::PGS, Correction::Relax));
}

TEST(Correction, TgsSolvesSplitImpulseAsBaumgarte) {
    EXPECT_EQ(test::chainHashUnder(SolverType::TGS, Correction::Baumgarte),
              test::chainHashUnder(SolverType::TGS, Correction::SplitImpulse));
}

TEST(Correction, RelaxChangesTgsAndIsSavedWithTheScenario) {
    EXPECT_NE(test::chainHashUnder(SolverType::TGS, Correction::Baumgarte),
              test::chainHashUnder(SolverType::TGS, Correction::Relax));
    Scene s = test::exampleChain(12);
    s.settings.solver = SolverType::TGS;
    for (Correction c : {Correction::Baumgarte, Correction::Relax, Correction::SplitImpulse, Correction::Ngs,
                         Correction::Rattle}) {
        s.settings.correction = c;
        Scene back;
        std::string error;
        ASSERT_TRUE(parseScenario(serializeScenario(s), back, error)) << error;
        EXPECT_EQ(back.settings.correction, c);
    }
    // a bad value is refused with the field named, and changes nothing
    s.settings.correction = Correction::Relax;
    std::string text = serializeScenario(s);
    const std::string key = "\"correction\": \"relax\"";
    const size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, key.size(), "\"correction\": \"shake\"");
    Scene bad;
    std::string error;
    EXPECT_FALSE(parseScenario(text, bad, error));
    EXPECT_NE(error.find("correction"), std::string::npos) << error;
}

// The reference kernel traces a relax sweep's visits as phase 2, one per substep.
TEST(Correction, TheTraceShowsTheRelaxSweeps) {
    Scene s = displacedBall(Vec3(0.01, 0.0, 0.0), Correction::Relax, KernelType::Reference);
    World w(s);
    int relaxVisits = 0, lastSweep = -1;
    w.setRowTrace([&](const World::RowTrace& t) {
        if (t.phase != 2) return;
        ++relaxVisits;
        lastSweep = t.sweep;
        EXPECT_EQ(t.bias, 0.0);
    });
    w.step();
    EXPECT_EQ(relaxVisits, 4 * 3);  // 4 substeps, the point's 3 rows
    EXPECT_EQ(lastSweep, 3);
}

}  // namespace
}  // namespace jl

namespace jl {
namespace {

// ngs (PGS): the velocity solve carries no joint bias; after it a position pass rebuilds the
// joints' rows at the bodies' current poses and moves the bodies onto them (Δx = M⁻¹Jᵀ·Δλ,
// stages/position_pass.cpp). The displaced ball of above, whose three rows have no lever arm:
// each of n iterations takes α·C off, so the error after one step is (1 − α)^n·C0, and the
// velocity is the unbiased solve's for a ball at rest: none. The pass runs after either kernel,
// so the two kernels give the same bits.
TEST(Correction, NgsMovesTheBodyBackOntoItsJointAndLeavesNoVelocity) {
    const Vec3 c0(0.01, -0.02, 0.005);
    const Real alpha = 0.5;
    for (int n : {1, 3}) {
        Vec3 pose[2];
        for (KernelType kernel : {KernelType::Reference, KernelType::Fast}) {
            Scene s = displacedBall(c0, Correction::Ngs, kernel);
            s.settings.solver = SolverType::PGS;
            s.settings.posIters = n;
            s.settings.velIters = 1;
            World w(s);
            w.step();
            const Vec3 error = w.bodies()[0].pose.p - Vec3(0.0, 1.0, 0.0);
            const Vec3 v = w.bodies()[0].linearVelocity;
            std::printf("PGS ngs %s, %d iteration(s): error %.3e m (expected %.3e), velocity %.1e m/s\n",
                        kKernelTypeNames[int(kernel)], n, glm::length(error),
                        std::pow(1.0 - alpha, n) * glm::length(c0), glm::length(v));
            EXPECT_LT(glm::length(error - std::pow(1.0 - alpha, n) * c0), 1e-12 * glm::length(c0));
            EXPECT_EQ(glm::length(v), 0.0);  // the pass never touches a velocity
            EXPECT_EQ(glm::length(w.bodies()[0].angularVelocity), 0.0);
            EXPECT_EQ(w.jointRowResults(0)[0].impulse, 0.0);  // no velocity impulse: nothing had to stop
            pose[int(kernel)] = w.bodies()[0].pose.p;
        }
        EXPECT_EQ(pose[0], pose[1]);
    }
}

// One iteration moves a row by at most 0.2 m (Box2D's b2_maxLinearCorrection): a ball 0.5 m off
// its joint with α = 1 is 0.3 m off after one iteration and 0.1 m after two, along the error.
TEST(Correction, NgsMovesAtMostTheMaximumCorrectionPerIteration) {
    const Vec3 c0(0.3, -0.4, 0.0);  // 0.5 m
    for (int n : {1, 2}) {
        Scene s = displacedBall(c0, Correction::Ngs, KernelType::Fast);
        s.settings.solver = SolverType::PGS;
        s.settings.posIters = n;
        s.settings.baumgarte = 1.0;
        World w(s);
        w.step();
        const Vec3 error = w.bodies()[0].pose.p - Vec3(0.0, 1.0, 0.0);
        EXPECT_LT(glm::length(error - (0.5 - 0.2 * n) / 0.5 * c0), 1e-12);
    }
}

// The rows are rebuilt at the current poses, so the pass follows the joint's non-linearity: a 1 m
// arm, turned 0.3 rad about its length and pulled 5 cm off its pivot, at rest, no gravity, α = 1.
// On a ball joint the pass is Newton's method on the point's three rows (one block): back on the
// joint to 1e-12 m after one step of 12 iterations. On a hinge the point block and the two angular
// rows take turns (Gauss–Seidel between them, as Jolt's hinge): the error falls by a constant factor
// per iteration (measured 0.82), to 1.2e-5 m and 9.2e-5 rad after 60. Neither leaves a velocity.
TEST(Correction, NgsFollowsTheJointsNonLinearity) {
    for (bool hinge : {false, true}) {
        Scene s = test::emptyScene(false);
        s.settings.gravity = Vec3(0.0);
        s.settings.solver = SolverType::PGS;
        s.settings.correction = Correction::Ngs;
        s.settings.posIters = hinge ? 60 : 12;
        s.settings.autoBaumgarte = false;
        s.settings.baumgarte = 1.0;
        s.bodies.push_back(test::box("arm", Vec3(0.5, 1.0, 0.0), Vec3(0.5, 0.05, 0.05), 1.0));
        const Quat axes = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);  // hinge axis Z
        if (hinge)
            s.joints.push_back(test::joint<RevoluteJoint>(s, "pivot", "", "arm", Vec3(0.0, 1.0, 0.0), axes));
        else
            s.joints.push_back(test::joint<SphericalJoint>(s, "pivot", "", "arm", Vec3(0.0, 1.0, 0.0), axes));
        BodyDesc& arm = s.bodies[0];  // the joint's frames were taken from the pose above
        arm.orientation = test::axisAngle(Vec3(1, 0, 0), 0.3);
        arm.position += Vec3(0.0, 0.05, 0.02);
        for (KernelType kernel : {KernelType::Reference, KernelType::Fast}) {
            s.settings.kernel = kernel;
            World w(s);
            const Real before = glm::length(test::anchor0(w, 0) - test::anchor1(w, 0));
            w.step();
            const Real linear = glm::length(test::anchor0(w, 0) - test::anchor1(w, 0));
            const Vec3 a0 = basisX(test::frame0(w, 0).q), a1 = basisX(test::frame1(w, 0).q);
            const Real angular = glm::length(glm::cross(a0, a1));
            std::printf("ngs on a %s, %s: joint error %.3g m -> %.3g m, axes %.3g rad apart\n",
                        hinge ? "hinge" : "ball joint", kKernelTypeNames[int(kernel)], before, linear,
                        angular);
            EXPECT_LT(linear, hinge ? 2e-5 : 1e-12);
            if (hinge) {
                EXPECT_LT(angular, 2e-4);
            }
            EXPECT_EQ(glm::length(w.bodies()[0].linearVelocity), 0.0);
            EXPECT_EQ(glm::length(w.bodies()[0].angularVelocity), 0.0);
        }
    }
}

// What ngs buys and what it does not (docs/solvers.md "Position correction", measured over the whole
// lever grid of EnergyDefaults.*): a 2 cm ball on a 2 m and a 3 m massless lever and a 50 cm one on a
// 0.1 m lever, world hinge, released horizontal, 10 s at the defaults (8 + 1, α 0.3). The pass holds
// the joint to under 0.5 mm (measured 0.16 mm; Baumgarte 8.6 mm on the 3 m lever), but the velocity
// is still projected onto the start-of-step tangent, so the period is as short as under Baumgarte
// (within 0.5% of it; both are short of the elliptic-integral period by 3–13%).
TEST(Correction, NgsHoldsTheLongLeverButKeepsPgssPeriod) {
    struct Case {
        Real lever, radius;
    };
    for (const Case c : {Case{2.0, 0.02}, Case{3.0, 0.02}, Case{0.1, 0.5}}) {
        Real error[2] = {0.0, 0.0}, period[2] = {0.0, 0.0};
        for (Correction correction : {Correction::Baumgarte, Correction::Ngs}) {
            Scene s = test::lever(c.lever, c.radius);
            s.settings.correction = correction;
            const int k = correction == Correction::Ngs ? 1 : 0;
            const test::LeverSwing swing = test::swingLever(s, 600);
            error[k] = swing.jointError;
            ASSERT_GE(swing.passes.size(), 2u);
            period[k] = swing.period();
        }
        const Real exact = test::leverPeriod(c.lever, c.radius);
        std::printf(
            "lever %.1f m, tip %.2f m: joint error %.3g mm (baumgarte %.3g mm), period %+.2f%% "
            "(baumgarte %+.2f%%)\n",
            c.lever, c.radius, 1000.0 * error[1], 1000.0 * error[0], 100.0 * (period[1] / exact - 1.0),
            100.0 * (period[0] / exact - 1.0));
        EXPECT_LT(error[1], 0.0005);
        EXPECT_LT(std::abs(period[1] - period[0]), 0.005 * exact);
        EXPECT_LT(period[1], exact);  // short: the first-order loss of §10
    }
}

// ngs never gains energy on the 100-link chain of the example links (at 4 + 1 and 8 + 1, α auto),
// as EnergyDefaults.ChainsOfTheExampleLinksNeverGainEnergy asks of the defaults; its joints open
// by 35–40 m (Baumgarte 4–6 m): the unbiased velocity solve lets them drift, and a few Gauss–Seidel
// position iterations along a 100-link chain take back only part of it.
TEST(Correction, NgsNeverGainsEnergyOnTheHundredLinkChain) {
    const Real drop = test::chainDrop(100);
    for (int iterations : {4, 8}) {
        Scene s = test::exampleChain(100);
        s.settings.correction = Correction::Ngs;
        s.settings.posIters = iterations;
        World w(s);
        const Real e0 = w.kineticEnergy() + w.potentialEnergy();
        Real gain = 0.0;
        for (int i = 0; i < 600; ++i) {
            w.step();
            gain = std::max(gain, w.kineticEnergy() + w.potentialEnergy() - e0);
        }
        std::printf("chain100 ngs %d+1: largest gain %.3g J of the %.0f J drop\n", iterations, gain, drop);
        EXPECT_LE(gain, 0.01 * drop);
        EXPECT_EQ(w.divergence(), nullptr);
    }
}

TEST(Correction, TgsSolvesNgsAsRelax) {
    EXPECT_EQ(test::chainHashUnder(SolverType::TGS, Correction::Relax),
              test::chainHashUnder(SolverType::TGS, Correction::Ngs));
}

// The kernels agree on a chain under ngs as under split impulse (10 steps, 1 and 2 threads).
TEST(Correction, KernelsAgreeUnderNgs) {
    for (int threads : {1, 2}) {
        Scene s = test::exampleChain(80);
        s.settings.solver = SolverType::PGS;
        s.settings.correction = Correction::Ngs;
        s.settings.threads = threads;
        const Real worst = test::kernelsApart(s, 10);
        std::printf("ngs, %d thread(s): kernels within %.1e m\n", threads, worst);
        EXPECT_LE(worst, 1e-9);
    }
}

// What each solver runs for each choice (jointlab/correction.h), the table docs/solvers.md §9 gives
// and the Solver panel shows ("runs as ..."): a solver's own choices run as chosen, the other's as
// its nearest. The tests above check that a mapped choice gives the mapped one's bits
// (TGS ngs = relax, PGS soft = baumgarte, ...); this pins the table itself.
TEST(Correction, EachSolverRunsItsOwnChoicesAndMapsTheOthers) {
    using C = Correction;
    const C pgs[] = {C::Baumgarte, C::Baumgarte, C::SplitImpulse, C::Baumgarte, C::Ngs, C::Rattle};
    const C tgs[] = {C::Baumgarte, C::Relax, C::Baumgarte, C::Soft, C::Relax, C::Relax};
    for (int c = 0; c < static_cast<int>(std::size(kCorrectionNames)); ++c) {
        EXPECT_EQ(effectiveCorrection(SolverType::PGS, static_cast<C>(c)), pgs[c]) << kCorrectionNames[c];
        EXPECT_EQ(effectiveCorrection(SolverType::TGS, static_cast<C>(c)), tgs[c]) << kCorrectionNames[c];
    }
}

}  // namespace
}  // namespace jl
