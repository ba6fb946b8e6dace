// Defaults that never gain energy (issue 25 point 4; docs/solvers.md "Defaults").
//
// JointLab's defaults (8 + 1 iterations, α "auto" = 0.3 for PGS and 0.5 for TGS, TGS's relax
// correction) and the examples' own 4 + 1 iterations:
//  * no passive example and no chain of 100 or 1000 of the chain examples' links, released
//    horizontal, gains more than 1% of the energy it has to spend (its potential energy drop)
//    over 10 s, under either solver;
//  * TGS keeps the double pendulum swinging: it loses at most 10% of the potential range in 60 s;
//  * one body on a world hinge or ball joint, any lever from 0.1 to 3 m and any tip from 2 to
//    50 cm, keeps its joint error under 2 mm (TGS) and 1 cm (PGS), and TGS swings it with the
//    large-amplitude period of a rigid pendulum (complete elliptic integral) within 0.2%.
// PGS's first-order energy loss (its velocity sweep projects onto the start-of-step tangent) is
// not fixed by any setting here: the tests print it, docs/solvers.md explains it.
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

/// The examples' own iterations (every file in assets/scenarios/ has 4 + 1), or the defaults.
enum class Iterations { Examples, Defaults };

void useIterations(WorldSettings& s, Iterations it) {
    const WorldSettings defaults;
    s.posIters = it == Iterations::Examples ? 4 : defaults.posIters;
    s.velIters = it == Iterations::Examples ? 1 : defaults.velIters;
    s.autoBaumgarte = true;
    s.correction = defaults.correction;
}

const char* name(Iterations it) {
    return it == Iterations::Examples ? "4+1" : "defaults";
}

TEST(EnergyDefaults, ChainsOfTheExampleLinksNeverGainEnergy) {
    // The chains: at 4 + 1 iterations PGS (α = 1) gained 698 J and TGS exploded (5.5e8 J)
    // on 100 links. The drop that counts is the chain's to hanging straight down,
    // Σ m·g·(0.1 + 0.2·i): 1962 J for 100 links, 196 kJ for 1000.
    for (int n : {100, 1000}) {
        const Scene chain = test::exampleChain(n);
        const Real drop = test::chainDrop(n);
        for (SolverType solver : {SolverType::PGS, SolverType::TGS})
            for (Iterations it : {Iterations::Examples, Iterations::Defaults}) {
                Scene s = chain;
                s.settings.solver = solver;
                useIterations(s.settings, it);
                const test::EnergyRun e = test::runEnergy(s, 10.0);
                std::printf(
                    "chain%d %s %s: largest gain %.3g J (%.4f%% of the %.0f J drop), after 10 s %+.1f%%\n", n,
                    kSolverTypeNames[int(solver)], name(it), e.maxGain, 100.0 * e.maxGain / drop, drop,
                    100.0 * e.change / drop);
                EXPECT_TRUE(e.finite);
                EXPECT_LE(e.maxGain, 0.01 * drop)
                    << "chain" << n << " " << kSolverTypeNames[int(solver)] << " " << name(it);
            }
    }
}

// A stack of boxes rocks under PGS with 4 iterations (docs/contacts.md): box_stack.json is held to
// PGS at the default iterations (8; the example itself uses 16) and to TGS at both.
bool stackRocks(const std::string& file, SolverType solver, bool examplesIterations) {
    return file == "box_stack.json" && solver == SolverType::PGS && examplesIterations;
}

TEST(EnergyDefaults, NoPassiveExampleGainsEnergy) {
    // The energy an example has to spend: its potential energy drop, or its starting kinetic
    // energy where nothing falls (a door pushed about a vertical hinge, a slider on a level line).
    int checked = 0;
    // The examples that put energy in on purpose (a motor, a drive to a moving target) or start
    // with energy the count leaves out are not passive (test::passiveExamples).
    for (const fs::path& path : test::passiveExamples()) {
        const std::string file = path.filename().string();
        Scene base;
        std::string error;
        ASSERT_TRUE(loadScenario(path.string(), base, error)) << error;
        for (SolverType solver : {SolverType::PGS, SolverType::TGS})
            for (Iterations it : {Iterations::Examples, Iterations::Defaults}) {
                if (stackRocks(file, solver, it == Iterations::Examples)) continue;
                Scene s = base;
                s.settings.solver = solver;
                useIterations(s.settings, it);
                const test::EnergyRun e = test::runEnergy(s, 10.0);
                const Real budget = std::max(e.maxDrop, e.kinetic0);
                std::printf("%-26s %s %-8s largest gain %.3g J of %.3g J (%.3f%%)\n", file.c_str(),
                            kSolverTypeNames[int(solver)], name(it), e.maxGain, budget,
                            budget > 0.0 ? 100.0 * e.maxGain / budget : 0.0);
                EXPECT_TRUE(e.finite) << file;
                EXPECT_LE(e.maxGain, 0.01 * budget + 1e-9)
                    << file << " " << kSolverTypeNames[int(solver)] << " " << name(it);
                ++checked;
            }
    }
    EXPECT_GE(checked, 4 * 15);
}

/// Two 1 m boxes of 1 kg hinged end to end about Z, the first to the world at (0, 2, 0),
/// released horizontal: the double pendulum of issue 25.
Scene doublePendulum(SolverType solver) {
    Scene s = test::doublePendulum();
    s.settings.solver = solver;
    return s;
}

TEST(EnergyDefaults, TgsKeepsTheDoublePendulumSwinging) {
    // The issue measured a 43% loss over 60 s under TGS (4 + 1, α = 1/2, Baumgarte), 82% under PGS.
    const Real range = 2.0 * 9.81;  // both centres 1 m lower when hanging
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        const test::EnergyRun e = test::runEnergy(doublePendulum(solver), 60.0);
        std::printf(
            "double pendulum %s defaults: energy after 60 s %+.1f%% of the potential range, largest "
            "rise %.2f%%\n",
            kSolverTypeNames[int(solver)], 100.0 * e.change / range, 100.0 * e.maxGain / range);
        EXPECT_TRUE(e.finite);
        EXPECT_LE(e.maxGain, 0.01 * range);
        if (solver == SolverType::TGS) {
            EXPECT_GE(e.change, -0.10 * range);
        }
    }
}

TEST(EnergyDefaults, OneBodyJointsHoldAndKeepTheirPeriodAtAnyLeverAndTip) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Real worstError = 0.0, worstPeriod = 0.0;
        for (bool hinge : {true, false})
            for (Real length : {0.1, 0.3, 1.0, 2.0, 3.0})
                for (Real radius : {0.02, 0.05, 0.1, 0.25, 0.5}) {
                    Scene s = test::lever(length, radius, hinge);
                    s.settings.solver = solver;
                    const test::LeverSwing swing = test::swingLever(s, 600);
                    const Real error = swing.jointError;
                    const Real period = test::leverPeriod(length, radius);
                    ASSERT_GE(swing.passes.size(), 2u);
                    const Real off = std::abs(swing.period() - period) / period;
                    worstError = std::max(worstError, error);
                    worstPeriod = std::max(worstPeriod, off);
                    EXPECT_LE(error, solver == SolverType::TGS ? 0.002 : 0.01)
                        << (hinge ? "hinge" : "ball") << " lever " << length << " tip " << radius;
                    if (solver == SolverType::TGS) {
                        EXPECT_LE(off, 0.002)
                            << (hinge ? "hinge" : "ball") << " lever " << length << " tip " << radius;
                    }
                }
        std::printf("one body, %s defaults: largest joint error %.3g mm, period off by up to %.3f%%\n",
                    kSolverTypeNames[int(solver)], 1000.0 * worstError, 100.0 * worstPeriod);
    }
}

TEST(EnergyDefaults, AutoIsTheStableDefaultAndThePhysXPresetIsPhysXs) {
    WorldSettings s;
    EXPECT_TRUE(s.autoBaumgarte);
    EXPECT_EQ(s.effectiveBaumgarte(), kStableBaumgartePgs);
    s.solver = SolverType::TGS;
    EXPECT_EQ(s.effectiveBaumgarte(), kStableBaumgarteTgs);  // whatever the iterations
    s.posIters = 16;
    EXPECT_EQ(s.effectiveBaumgarte(), kStableBaumgarteTgs);
    // PhysX: 1 for PGS, 1/sqrt(position iterations) for TGS, at its 4 + 1 iterations
    s.applyPhysXPreset();
    EXPECT_EQ(s.posIters, 4);
    EXPECT_EQ(s.velIters, 1);
    EXPECT_FALSE(s.autoBaumgarte);
    EXPECT_EQ(s.effectiveBaumgarte(), 0.5);
    EXPECT_EQ(s.pointSolve, PointSolve::Rows);
    EXPECT_EQ(s.correction, Correction::Baumgarte);
    EXPECT_FALSE(s.gyroscopic);
    WorldSettings p;
    p.applyPhysXPreset();
    EXPECT_EQ(p.effectiveBaumgarte(), 1.0);
}

}  // namespace
}  // namespace jl
