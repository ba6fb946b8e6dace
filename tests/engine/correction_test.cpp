// Position correction as a choice (issue 25 point 3; docs/solvers.md "Position correction"):
// settings.correction = baumgarte (the bias stays in the velocity), relax (TGS: after each
// substep's motion an unbiased sweep takes it back out, Box2D v3's relax iterations) or
// splitImpulse (PGS: the velocity is solved without the bias, which only moves the bodies).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

/// A ball on a ball joint to the world whose anchor is the ball's centre, displaced by `offset`
/// from it, at rest, no gravity: its three rows are linear with no lever arm, so a substep's
/// biased solve moves the ball by exactly α·C and the error follows C_k = (1 − α)^k·C0.
Scene displacedBall(const Vec3& offset, Correction correction, KernelType kernel) {
    Scene s = test::emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = SolverType::TGS;
    s.settings.posIters = 4;
    s.settings.velIters = 0;  // what the substeps leave in the velocity, not a velocity sweep's
    s.settings.autoBaumgarte = false;
    s.settings.baumgarte = 0.5;
    s.settings.correction = correction;
    s.settings.kernel = kernel;
    s.bodies.push_back(test::sphere("ball", Vec3(0.0, 1.0, 0.0) + offset, 1.0, 0.1));
    JointDesc j = test::joint<SphericalJoint>(s, "pivot", "", "ball", Vec3(0.0, 1.0, 0.0));
    j.frame1 = Transform{};  // the ball's centre
    s.joints.push_back(j);
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
        s.settings.kernel = KernelType::Fast;
        World fast(s);
        s.settings.kernel = KernelType::Reference;
        World reference(s);
        Real worst = 0.0;
        for (int i = 0; i < 10; ++i) {
            fast.step();
            reference.step();
            for (size_t b = 0; b < fast.bodies().size(); ++b)
                worst = std::max(worst, glm::length(fast.bodies()[b].pose.p - reference.bodies()[b].pose.p));
        }
        std::printf("split impulse, %d thread(s): kernels within %.1e m\n", threads, worst);
        EXPECT_LE(worst, 1e-9);
    }
}

TEST(Correction, PgsSolvesRelaxAsBaumgarte) {
    Scene s = test::exampleChain(12);
    s.settings.solver = SolverType::PGS;
    s.settings.correction = Correction::Baumgarte;
    World a(s);
    s.settings.correction = Correction::Relax;
    World b(s);
    for (int i = 0; i < 120; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.stateHash(), b.stateHash());
}

TEST(Correction, TgsSolvesSplitImpulseAsBaumgarte) {
    Scene s = test::exampleChain(12);
    s.settings.solver = SolverType::TGS;
    s.settings.correction = Correction::Baumgarte;
    World a(s);
    s.settings.correction = Correction::SplitImpulse;
    World b(s);
    for (int i = 0; i < 120; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.stateHash(), b.stateHash());
}

TEST(Correction, RelaxChangesTgsAndIsSavedWithTheScenario) {
    Scene s = test::exampleChain(12);
    s.settings.solver = SolverType::TGS;
    s.settings.correction = Correction::Baumgarte;
    World a(s);
    s.settings.correction = Correction::Relax;
    World b(s);
    for (int i = 0; i < 120; ++i) {
        a.step();
        b.step();
    }
    EXPECT_NE(a.stateHash(), b.stateHash());
    for (Correction c : {Correction::Baumgarte, Correction::Relax, Correction::SplitImpulse}) {
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
    text.replace(at, key.size(), "\"correction\": \"ngs\"");
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
