// settings.correction = rattle (PGS; docs/solvers.md §9 "rattle"): the position pass of ngs moves
// the bodies along the rows of the start of the step, feeds the displacement into the velocity
// (Δv = Δx/dt) and projects the velocity onto the rows at the end-of-step poses, which removes PGS's
// first-order energy loss on one and two bodies; K along the start-of-step rows is symmetric and a
// joint whose body turned more than 0.3 rad in the step moves along its current rows, which keeps
// long whipping chains from exploding. Closed forms: a point on a circle keeps its speed, the
// large-amplitude period of a rigid pendulum (complete elliptic integral), energy bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_scenes.h"
#include "test_util.h"

namespace jl {
namespace {

namespace fs = std::filesystem;

Scene withRattle(Scene s, int posIters, Real rate = 60.0) {
    s.settings.solver = SolverType::PGS;
    s.settings.correction = Correction::Rattle;
    s.settings.posIters = posIters;
    s.settings.velIters = 1;
    s.settings.autoBaumgarte = true;
    s.settings.dt = 1.0 / rate;
    return s;
}

// A 1 kg ball (radius 5 cm) on a ball joint 1 m from its pivot, no gravity, turning rigidly about
// the pivot at ω = 3 rad/s (0.05 rad a step): its kinetic energy is a constant of the motion. PGS's
// velocity sweep projects the velocity onto the start-of-step tangent, and ngs keeps that: each
// step takes a share of order (ω·dt)² of the energy out. Under rattle the chord's velocity along
// the end-of-step tangent is exactly the speed (docs/solvers.md §9): with α = 1 by hand the energy
// is kept to the pass's convergence (measured 4e-13 relative over 10 s), at auto α (0.5, the pass
// closes 1 − 0.5⁸ of a step's error) to 1e-3.
TEST(Rattle, APointOnACircleKeepsItsSpeed) {
    const Real omega = 3.0;
    Real lost[3] = {0.0, 0.0, 0.0};
    for (int variant = 0; variant < 3; ++variant) {
        Scene s = test::emptyScene(false);
        s.settings.gravity = Vec3(0.0);
        s = withRattle(s, 8);
        if (variant == 0) s.settings.correction = Correction::Ngs;
        if (variant == 2) {
            s.settings.autoBaumgarte = false;
            s.settings.baumgarte = 1.0;
        }
        BodyDesc ball = test::sphere("ball", Vec3(1.0, 10.0, 0.0), 1.0, 0.05);
        ball.linearVelocity = Vec3(0.0, omega * 1.0, 0.0);  // ω × r about Z
        ball.angularVelocity = Vec3(0.0, 0.0, omega);
        s.bodies.push_back(ball);
        s.joints.push_back(test::joint<SphericalJoint>(s, "pivot", "", "ball", Vec3(0.0, 10.0, 0.0)));
        World w(s);
        const Real e0 = w.kineticEnergy();
        for (int i = 0; i < 600; ++i) w.step();
        lost[variant] = (e0 - w.kineticEnergy()) / e0;
        std::printf("%s: kinetic energy lost in 10 s %.3e of its start, joint error %.2e m\n",
                    variant == 0   ? "ngs"
                    : variant == 1 ? "rattle, auto alpha"
                                   : "rattle, alpha 1",
                    lost[variant], glm::length(test::anchor0(w, 0) - test::anchor1(w, 0)));
    }
    EXPECT_GT(lost[0], 0.5);  // ngs: (ω·dt)² = 0.0025 a step, most of it in 600 steps
    EXPECT_LT(std::abs(lost[1]), 1e-3);
    EXPECT_LT(std::abs(lost[2]), 1e-10);
}

// A ball hanging at rest under a ball joint stays exactly at rest: gravity's first half kick
// enters the velocity before the kernel, whose velocity solve (one block: exact in one sweep)
// carries the weight, the pass has nothing to move, and the end-of-step projection takes the second
// half kick out. (When the pass moved the bodies back by ½·g·dt² after a whole kick instead, it had
// that much to close every step and closed 1 − (1 − α)^n of it: at α = 0.5 and 4 iterations the ball
// would rest ½·g·dt²/15 = 91 µm high. A door on a hinge is not exact this way: the kernel's 4 sweeps
// over its point block and two angular rows do not converge, and it rests 20 µm out of its hinge.)
TEST(Rattle, ABallHangingAtRestStaysAtRest) {
    Scene s = test::emptyScene(false);
    s.bodies.push_back(test::sphere("ball", Vec3(0.0, 1.0, 0.0), 1.0, 0.05));
    s.joints.push_back(test::joint<SphericalJoint>(s, "pivot", "", "ball", Vec3(0.0, 2.0, 0.0)));
    World w(withRattle(s, 4));
    Real error = 0.0, speed = 0.0;
    for (int i = 0; i < 60; ++i) {
        w.step();
        error = std::max(error, glm::length(test::anchor0(w, 0) - test::anchor1(w, 0)));
        speed = std::max(
            speed, glm::length(w.bodies()[0].linearVelocity) + glm::length(w.bodies()[0].angularVelocity));
    }
    std::printf("ball at rest under rattle 4+1: joint error %.2e m, speed %.2e m/s\n", error, speed);
    EXPECT_LE(error, 1e-12);
    EXPECT_LE(speed, 1e-12);
}

// The lever grid (levers 0.1–3 m × tips 2–50 cm, hinge and ball joint, released horizontal, 10 s):
// the joint holds under 1 cm and the period is the elliptic integral's to within what RATTLE's
// own discretisation leaves: the pass moves the tip along the start-of-step normal, so a step turns
// the lever by asin(ω·dt) instead of ω·dt and the period is short by about (ω·dt)²/6 at the
// fastest point — on the 0.1 m lever (ω·dt up to 0.23 rad at 60 Hz) 0.38% when the pass converges
// (a two-dimensional point pendulum integrated the same way, with RATTLE's half kicks of gravity,
// gives 0.393%). Measured: worst −0.40% at 8 + 1, −0.79% at 4 + 1 (the pass closes 1 − 0.5⁴ of a
// step's error), −0.133% (4 + 1) and −0.096% (8 + 1) at 120 Hz; Baumgarte and ngs are short by
// 3–13%. (Before the half kick entered the velocity: −0.47%, −1.28%, −0.21%, −0.105%.) The bounds
// are those with a margin: the 0.2% is met at 120 Hz only.
TEST(Rattle, TheLeverGridKeepsItsPeriod) {
    struct Case {
        int posIters;
        Real rate, bound;
    };
    for (const Case c :
         {Case{8, 60.0, 0.005}, Case{4, 60.0, 0.01}, Case{4, 120.0, 0.002}, Case{8, 120.0, 0.0015}}) {
        Real worstError = 0.0, worstOff = 0.0;
        for (bool hinge : {true, false})
            for (Real length : {0.1, 0.3, 1.0, 2.0, 3.0})
                for (Real radius : {0.02, 0.05, 0.1, 0.25, 0.5}) {
                    const test::LeverSwing swing =
                        test::swingLever(withRattle(test::lever(length, radius, hinge), c.posIters, c.rate),
                                         static_cast<int>(std::lround(10.0 * c.rate)));
                    const Real error = swing.jointError;
                    const Real period = test::leverPeriod(length, radius);
                    ASSERT_GE(swing.passes.size(), 2u);
                    const Real off = (swing.period() - period) / period;
                    worstError = std::max(worstError, error);
                    if (std::abs(off) > std::abs(worstOff)) worstOff = off;
                    EXPECT_LE(error, 0.01) << length << " " << radius;
                    EXPECT_LE(std::abs(off), c.bound)
                        << (hinge ? "hinge" : "ball") << " lever " << length << " tip " << radius << " "
                        << c.posIters << "+1 at " << c.rate << " Hz";
                }
        std::printf("rattle %d+1 at %.0f Hz: largest joint error %.3g mm, period off by up to %+.3f%%\n",
                    c.posIters, c.rate, 1000.0 * worstError, 100.0 * worstOff);
    }
}

// The chains of EnergyDefaults (the chain examples' links, released horizontal, 10 s): moving
// along the start-of-step rows with SHAKE's unsymmetric K exploded both (the 100-link chain gained
// 10⁹ times its drop); with the symmetric K and the turn bound neither gains more than 1% of its
// drop (measured: neither rises above its start at 4 + 1 or 8 + 1; before the kernels' velocity
// iterations left the joints to the pass, the 100-link chain rose 0.47% at 8 + 1).
TEST(Rattle, ChainsDoNotGainEnergy) {
    for (int n : {100, 1000})
        for (int posIters : {4, 8}) {
            const Real drop = test::chainDrop(n);
            const test::EnergyRun e = test::runEnergy(withRattle(test::exampleChain(n), posIters), 10.0);
            std::printf(
                "chain%d rattle %d+1: largest gain %.3g J (%.3f%% of the %.0f J drop), after %+.0f%%\n", n,
                posIters, e.maxGain, 100.0 * e.maxGain / drop, drop, 100.0 * e.change / drop);
            EXPECT_TRUE(e.finite);
            EXPECT_LE(e.maxGain, 0.01 * drop) << "chain" << n << " " << posIters << "+1";
        }
}

// Issue 25's double pendulum over 60 s: Baumgarte loses 82% of the potential range at 60 Hz (the
// first-order loss); rattle keeps more (measured 67.5% lost at 4 + 1, 28.1% at 8 + 1). Its energy
// never rises above the start (measured: not at all; 0.26% before the kernels' velocity iterations
// left the joints to the pass, 2.2% with the whole kick of gravity at the start of the step); the
// bound 0.1% of the range is a margin for rounding and the pass's convergence.
TEST(Rattle, TheDoublePendulumKeepsMoreThanUnderBaumgarte) {
    const Real range = 2.0 * 9.81;
    for (int posIters : {4, 8}) {
        Scene base = test::doublePendulum();
        base.settings.solver = SolverType::PGS;
        base.settings.posIters = posIters;
        base.settings.correction = Correction::Baumgarte;
        const test::EnergyRun baumgarte = test::runEnergy(base, 60.0);
        const test::EnergyRun rattle = test::runEnergy(withRattle(test::doublePendulum(), posIters), 60.0);
        std::printf("double pendulum %d+1: rattle %+.1f%% (largest rise %.2f%%), baumgarte %+.1f%%\n",
                    posIters, 100.0 * rattle.change / range, 100.0 * rattle.maxGain / range,
                    100.0 * baumgarte.change / range);
        EXPECT_TRUE(rattle.finite);
        EXPECT_GT(rattle.change, baumgarte.change + 0.1 * range);
        EXPECT_LE(rattle.change, 0.0);
        EXPECT_LE(rattle.maxGain, 0.001 * range);
    }
}

/// One example under rattle for 10 s: its largest rise of energy above the start, the energy it
/// has to spend (the largest potential drop, or its kinetic energy at the start if larger) and the
/// largest joint error.
struct ExampleRun {
    Real maxGain = 0.0, budget = 0.0, jointError = 0.0;
    bool finite = true;
};

ExampleRun runExample(const Scene& base, int posIters, int velIters = 1) {
    Scene s = withRattle(base, posIters, 1.0 / base.settings.dt);
    s.settings.velIters = velIters;
    ExampleRun out;
    const test::EnergyRun e = test::runEnergy(s, 10.0, [&](const World& w) {
        for (int j = 0; j < static_cast<int>(s.joints.size()); ++j)
            out.jointError = std::max(out.jointError, glm::length(test::anchor0(w, j) - test::anchor1(w, j)));
    });
    out.maxGain = e.maxGain;
    out.budget = std::max(e.maxDrop, e.kinetic0);
    out.finite = e.finite;
    return out;
}

Scene example(const char* file) {
    Scene s;
    std::string error;
    EXPECT_TRUE(
        loadScenario((fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios" / file).string(), s, error))
        << error;
    return s;
}

// No passive example gains more than 1% of the energy it has to spend in 10 s under rattle, at the
// examples' 4 + 1 and at 8 + 1 (box_stack at 8 + 1 only, as under the defaults: its stack rocks
// under PGS with 4 iterations). Measured: the largest is showcase, 0.20% / 0.44%; every other
// example under 0.03%. (welded_pair gained 8.8% and door_hinge 1.4% until the two fixes that
// Rattle.WeldedPairAndDoorHingeKeepTheirEnergy pins; without the half kicks of gravity the
// pendulums gained 2%.)
TEST(Rattle, NoPassiveExampleGainsEnergy) {
    int checked = 0;
    for (const fs::path& path : test::passiveExamples()) {
        const std::string file = path.filename().string();
        Scene base;
        std::string error;
        ASSERT_TRUE(loadScenario(path.string(), base, error)) << error;
        for (int posIters : {4, 8}) {
            if (file == "box_stack.json" && posIters == 4) continue;
            const ExampleRun r = runExample(base, posIters);
            std::printf("%-26s rattle %d+1 largest gain %.3g J of %.3g J (%.3f%%)\n", file.c_str(), posIters,
                        r.maxGain, r.budget, r.budget > 0.0 ? 100.0 * r.maxGain / r.budget : 0.0);
            EXPECT_TRUE(r.finite) << file;
            EXPECT_LE(r.maxGain, 0.01 * r.budget + 1e-9) << file << " " << posIters << "+1";
            ++checked;
        }
    }
    EXPECT_GE(checked, 2 * 15);
}

// The two examples rattle did not keep, and why (docs/solvers.md §9 "What welded_pair and
// door_hinge gained"):
//  * welded_pair (a box welded to a box that hangs on a ball joint) gained 8.8% of its drop in
//    10 s at 4 + 1, 4.2% at 8 + 1, 23% at 4 + 4. PGS's velocity iterations ran on the joints after
//    the integration: they changed the velocity without moving the bodies, and the pass, which
//    builds the velocity from the chord (x1 − x0)/dt, counted that impulse a second time, along
//    the start-of-step rows, which at the end of the step lean into the motion. Under rattle the
//    kernels now sweep only the contacts in their velocity iterations: measured 0 at 4 + 1 and
//    4 + 4, 6e-5 J (0.002%) at 8 + 1. The bound, 0.05% of the budget, is 25 times that and 80
//    times below the smallest gain of before; it also checks that more velocity iterations no
//    longer add energy.
//  * door_hinge (a door spun about a vertical hinge) rose 1.4% in its first three steps at 4 + 1
//    and rested 0.53 mm out of its hinge: the pass moved the bodies back by ½·g·dt² after a whole
//    kick of gravity, an error it had to close and closed only in part, so the door sat 0.9 mm
//    high. The first half kick now enters the velocity: no gain (measured 0) and 0.03 mm of joint
//    error; the bound 0.1 mm is a fifth of the error of before.
TEST(Rattle, WeldedPairAndDoorHingeKeepTheirEnergy) {
    const Scene welded = example("welded_pair.json");
    struct Case {
        int posIters, velIters;
    };
    for (const Case c : {Case{4, 1}, Case{8, 1}, Case{4, 4}}) {
        const ExampleRun r = runExample(welded, c.posIters, c.velIters);
        std::printf("welded_pair rattle %d+%d: largest gain %.3g J of %.3g J (%.4f%%), joint error %.3g mm\n",
                    c.posIters, c.velIters, r.maxGain, r.budget, 100.0 * r.maxGain / r.budget,
                    1000.0 * r.jointError);
        EXPECT_TRUE(r.finite);
        EXPECT_LE(r.maxGain, 0.0005 * r.budget) << c.posIters << "+" << c.velIters;
    }
    const ExampleRun door = runExample(example("door_hinge.json"), 4);
    std::printf("door_hinge rattle 4+1: largest gain %.3g J of %.3g J, joint error %.3g mm\n", door.maxGain,
                door.budget, 1000.0 * door.jointError);
    EXPECT_LE(door.maxGain, 0.0005 * door.budget);
    EXPECT_LE(door.jointError, 1e-4);
}

TEST(Rattle, TgsSolvesRattleAsRelax) {
    EXPECT_EQ(test::chainHashUnder(SolverType::TGS, Correction::Relax),
              test::chainHashUnder(SolverType::TGS, Correction::Rattle));
}

// The pass runs after either kernel, one copy of the maths: the kernels agree under rattle as under
// ngs (an 80-link chain, 10 steps, 1 and 2 threads; Kernels.ReferenceAndFastAgreeUnderRattle checks
// every example). They are not bit-identical under any correction (kernels_test.cpp says why).
TEST(Rattle, KernelsAgree) {
    for (int threads : {1, 2}) {
        Scene s = withRattle(test::exampleChain(80), 4);
        s.settings.threads = threads;
        const Real worst = test::kernelsApart(s, 10);
        std::printf("rattle, %d thread(s): kernels within %.1e m\n", threads, worst);
        EXPECT_LE(worst, 1e-9);
    }
}

// Saved and loaded with the scenario; auto α under rattle is its own stable value (0.5), and a
// value set by hand is kept.
TEST(Rattle, IsSavedWithTheScenarioAndHasItsOwnAutoAlpha) {
    Scene s = withRattle(test::exampleChain(3), 8);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(s), back, error)) << error;
    EXPECT_EQ(back.settings.correction, Correction::Rattle);
    EXPECT_NE(serializeScenario(s).find("\"correction\": \"rattle\""), std::string::npos);
    EXPECT_EQ(s.settings.effectiveBaumgarte(), 0.5);
    s.settings.autoBaumgarte = false;
    s.settings.baumgarte = 0.2;
    EXPECT_EQ(s.settings.effectiveBaumgarte(), 0.2);
    s.settings.autoBaumgarte = true;
    s.settings.solver = SolverType::TGS;
    EXPECT_EQ(s.settings.effectiveBaumgarte(), kStableBaumgarteTgs);
}

}  // namespace
}  // namespace jl
