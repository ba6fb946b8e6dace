// The direct solve along joint trees (settings.pointSolve = tree, issue 25; solver/tree.h,
// docs/solvers.md "Limits across a light body"):
//
//  * §13's reduced scene, a limit on a light body (0.0037 kg·m² about the limited axis) holding a
//    10 kg body beyond it, holds its bound under PGS's and TGS's defaults (block: degrees past);
//  * one body on a world hinge or ball joint is solved in one sweep, every row of the joint;
//  * the 100-link chain of the examples' links stays closed and gains no energy over 10 s at 60 Hz;
//  * a joint that closes a loop stays on Gauss–Seidel (as a block) and the loop still holds;
//  * both kernels agree, AVX2 and plain give the same bits, and a run repeats bit for bit;
//  * "tree" is read and written in scenario files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "jointlab/correction.h"
#include "jointlab/scenario_io.h"
#include "jointlab/solver_kernel.h"
#include "jointlab/world.h"
#include "test_scenes.h"
#include "test_util.h"

namespace jl {
namespace {

using test::anchor0;
using test::anchor1;

constexpr Real kDeg = kPi / 180.0;

/// docs/solvers.md §13's reduced scene: a light body L (0.585 kg, moments 0.0051) on a world hinge
/// about Y; lower_waist W (2.26 kg; 0.0099, 0.0099 and 0.0037 kg·m² about the limited axis Z) on a
/// hinge about Z to L, limited to ±30°; a 10 kg body P (0.1 kg·m²) 0.4 m beyond a hinge about X on
/// W. dt = 5 ms; P, released level, swings W down onto the lower bound. Joint 1 is the limited one.
Scene lightBodyLimit(SolverType solver, PointSolve point) {
    Scene s = test::emptyScene(false);
    s.settings.dt = 0.005;
    s.settings.solver = solver;
    s.settings.pointSolve = point;
    BodyDesc l = test::sphere("L", Vec3(0.0), 0.585, 0.05);
    l.inertia = Vec3(0.0051);
    BodyDesc w = test::sphere("W", Vec3(0.0), 2.26, 0.05);
    w.inertia = Vec3(0.0099, 0.0099, 0.0037);
    BodyDesc p = test::sphere("P", Vec3(0.4, 0.0, 0.0), 10.0, 0.1);
    p.inertia = Vec3(0.1);
    s.bodies = {l, w, p};
    const Quat aboutY = test::axisAngle(Vec3(0, 0, 1), kPi / 2);   // frame X along Y
    const Quat aboutZ = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);  // frame X along Z
    s.joints.push_back(test::joint<RevoluteJoint>(s, "yaw", "", "L", Vec3(0.0), aboutY));
    RevoluteJoint limited;
    limited.limit.enabled = true;
    limited.limit.lower = -kPi / 6;
    limited.limit.upper = kPi / 6;
    s.joints.push_back(test::joint(s, "waist", "L", "W", Vec3(0.0), aboutZ, limited));
    s.joints.push_back(test::joint<RevoluteJoint>(s, "roll", "W", "P", Vec3(0.0)));
    return s;
}

/// Hinge j's angle: frame 1's turn about frame 0's X (the revolute's twist), from the poses.
Real hingeAngle(const World& w, int j) {
    Quat r = glm::conjugate(test::frame0(w, j).q) * test::frame1(w, j).q;
    if (r.w < 0.0) r = -r;
    return 2.0 * std::atan2(r.x, r.w);
}

struct LimitRun {
    Real overrun = 0.0;  ///< farthest past the ±30° bound [rad]
    Real lowest = 0.0;   ///< the lowest angle reached [rad] (the swing does reach the bound)
    uint64_t hash = 0;
};

LimitRun runLimit(const Scene& s, int steps) {
    World w(s);
    LimitRun out;
    for (int i = 0; i < steps; ++i) {
        w.step();
        const Real q = hingeAngle(w, 1);
        out.lowest = std::min(out.lowest, q);
        out.overrun = std::max({out.overrun, -kPi / 6 - q, q - kPi / 6});
    }
    EXPECT_EQ(w.divergence(), nullptr);
    out.hash = w.stateHash();
    return out;
}

TEST(TreeSolve, ALimitOnALightBodyHoldsTheHeavyOneBeyondIt) {
    // 2 s: P falls through 30° and rests on the bound. What the tree leaves is the bias's: a limit
    // row lets the joint approach its bound at C/dt while still apart (speculative) and pushes back
    // by α·C/dt once past it, so a hold that is exact at the velocity level leaves only the turn
    // within one step that the linearised angle misses, ω²·dt²-small: 0.05° is 10⁻³ rad.
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Real past[3] = {};
        for (PointSolve point : {PointSolve::Rows, PointSolve::Block, PointSolve::Tree}) {
            const LimitRun r = runLimit(lightBodyLimit(solver, point), 400);
            past[int(point)] = r.overrun;
            std::printf("light-body limit, %s defaults, %s: %.3g deg past the bound (lowest %.2f deg)\n",
                        kSolverTypeNames[int(solver)], kPointSolveNames[int(point)], r.overrun / kDeg,
                        r.lowest / kDeg);
            EXPECT_LT(r.lowest, -29.0 * kDeg) << "the swing reaches the bound";
        }
        EXPECT_LT(past[int(PointSolve::Tree)], 0.05 * kDeg) << kSolverTypeNames[int(solver)];
        EXPECT_LT(past[int(PointSolve::Tree)], 0.1 * past[int(PointSolve::Block)])
            << kSolverTypeNames[int(solver)];
    }
}

TEST(TreeSolve, OneBodyOnAHingeOrBallJointIsSolvedInOneSweep) {
    // Every row of the joint, the hinge's angular locks too (the block leaves those to Gauss–
    // Seidel): the second sweep, position or velocity, finds nothing to do. Kicked off the
    // constraint in every direction so that every row has work.
    for (KernelType kernel : {KernelType::Fast, KernelType::Reference})
        for (SolverType solver : {SolverType::PGS, SolverType::TGS})
            for (bool hinge : {true, false})
                for (Real lever : {0.1, 2.0}) {
                    Scene s = test::lever(lever, 0.05, hinge);
                    s.settings.solver = solver;
                    s.settings.kernel = kernel;
                    s.settings.pointSolve = PointSolve::Tree;
                    s.settings.posIters = 2;
                    s.settings.velIters = 2;
                    s.bodies[0].linearVelocity = Vec3(0.3, -1.0, 0.5);
                    s.bodies[0].angularVelocity = Vec3(1.0, 2.0, -0.5);
                    World w(s);
                    w.step();
                    const auto res = w.lastResiduals();
                    ASSERT_EQ(res.size(), 4u);
                    std::printf("%s %s %s lever %.1f: residuals %.3g %.3g %.3g %.3g\n",
                                kKernelTypeNames[int(kernel)], kSolverTypeNames[int(solver)],
                                hinge ? "hinge" : "ball", lever, res[0], res[1], res[2], res[3]);
                    EXPECT_GT(res[0], 1e-2);
                    // rounding, amplified by the lever's β = m·L²/I up to 4000: 1e-10 of ~5 m/s
                    EXPECT_LE(res[3], 1e-10) << kSolverTypeNames[int(solver)] << (hinge ? " hinge" : " ball");
                    if (solver == SolverType::PGS) {  // (TGS's second substep has moved the bodies)
                        EXPECT_LE(res[1], 1e-10) << (hinge ? "hinge" : "ball");
                    }
                }
}

struct ChainRun {
    Real opening = 0.0;      ///< the largest distance between a joint's two anchors [m]
    Real meanOpening = 0.0;  ///< that distance's largest over the joints, averaged over the steps [m]
    test::EnergyRun energy;
};

ChainRun runChain(int n, SolverType solver, Correction correction, PointSolve point) {
    Scene s = test::exampleChain(n);
    s.settings.solver = solver;
    s.settings.correction = correction;
    s.settings.pointSolve = point;
    ChainRun out;
    const Real steps = 10.0 / s.settings.dt;
    out.energy = test::runEnergy(s, 10.0, [&](const World& w) {
        Real open = 0.0;
        for (int j = 0; j < n; ++j) open = std::max(open, glm::length(anchor0(w, j) - anchor1(w, j)));
        out.opening = std::max(out.opening, open);
        out.meanOpening += open / steps;
    });
    return out;
}

TEST(TreeSolve, TheHundredLinkChainAndWhatKeepsItClosed) {
    // The examples' links (0.2 kg capsules 0.2 m apart on hinges), released horizontal, 10 s at
    // 60 Hz. The tree leaves every hinge exact at the velocity level after every sweep; what still
    // opens the chain is the step itself: the links of the whipping end turn by a radian and more
    // in a step (up to the 100 rad/s cap, which holds them against the joints), and the hinges,
    // exact along the step's start tangent, come apart along the arc. So the correction decides:
    //  * PGS with Baumgarte (its default): no better than block (the exact correction of a torn
    //    hinge spins the links further); printed, not held;
    //  * PGS with ngs (the position pass at the end-of-step poses): closed within 10 cm, where
    //    block opens by metres;
    //  * TGS (relax, its default; substeps make the turn per solve 8 times smaller): on average 10
    //    times closer than block.
    // Energy: no more than 1% of the 1962 J the chain has to spend under any of them (the
    // defaults' promise, EnergyDefaults.ChainsOfTheExampleLinksNeverGainEnergy).
    const Real drop = test::chainDrop(100);
    struct Case {
        SolverType solver;
        Correction correction;
    };
    for (const Case c : {Case{SolverType::PGS, Correction::Relax}, Case{SolverType::PGS, Correction::Ngs},
                         Case{SolverType::TGS, Correction::Relax}}) {
        const ChainRun block = runChain(100, c.solver, c.correction, PointSolve::Block);
        const ChainRun tree = runChain(100, c.solver, c.correction, PointSolve::Tree);
        const char* name = kCorrectionNames[int(effectiveCorrection(c.solver, c.correction))];
        std::printf(
            "chain100, %s %s: opening block %.3g m (mean %.3g), tree %.3g m (mean %.3g); largest gain block "
            "%.3g J, tree %.3g J (of %.0f J), after 10 s tree %+.1f%%\n",
            kSolverTypeNames[int(c.solver)], name, block.opening, block.meanOpening, tree.opening,
            tree.meanOpening, block.energy.maxGain, tree.energy.maxGain, drop,
            100.0 * tree.energy.change / drop);
        EXPECT_TRUE(tree.energy.finite);
        EXPECT_LE(tree.energy.maxGain, 0.01 * drop) << kSolverTypeNames[int(c.solver)] << " " << name;
        if (c.correction == Correction::Ngs) {
            EXPECT_LT(tree.opening, 0.1);
            EXPECT_LT(tree.opening, 0.1 * block.opening);
        }
        if (c.solver == SolverType::TGS) {
            EXPECT_LT(tree.meanOpening, 0.1 * block.meanOpening);
        }
    }
}

/// A ring: four boxes hinged end to end about Z between two world anchors 3 m apart (a hanging
/// bridge). The world's second hinge closes the loop through the ground.
Scene bridge(SolverType solver) {
    Scene s = test::emptyScene(false);
    s.settings.solver = solver;
    s.settings.pointSolve = PointSolve::Tree;
    const Quat hinge = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string previous;
    for (int i = 0; i < 4; ++i) {
        const std::string body = test::indexed("plank", i);
        s.bodies.push_back(test::box(body, Vec3(0.375 + 0.75 * i, 5, 0), Vec3(0.375, 0.05, 0.2), 1.0));
        s.joints.push_back(test::joint<RevoluteJoint>(s, test::indexed("hinge", i), previous, body,
                                                      Vec3(0.75 * i, 5, 0), hinge));
        previous = body;
    }
    s.joints.push_back(test::joint<RevoluteJoint>(s, "hinge4", previous, "", Vec3(3.0, 5, 0), hinge));
    return s;
}

struct BridgeRun {
    Real opening = 0.0, gain = 0.0;
};

BridgeRun runBridge(Scene s, PointSolve point) {
    s.settings.pointSolve = point;
    World w(s);
    BridgeRun out;
    const Real e0 = w.kineticEnergy() + w.potentialEnergy();
    for (int i = 0; i < 300; ++i) {
        w.step();
        for (int j = 0; j < 5; ++j)
            out.opening = std::max(out.opening, glm::length(anchor0(w, j) - anchor1(w, j)));
        out.gain = std::max(out.gain, w.kineticEnergy() + w.potentialEnergy() - e0);
    }
    EXPECT_EQ(w.divergence(), nullptr);
    if (point == PointSolve::Tree)
        for (int j = 0; j < 5; ++j) {  // the forest's joints are in no block; the loop's closer is one
            int inBlock = 0;
            for (const RowResult& r : w.jointRowResults(j)) inBlock += r.blockSize > 0;
            EXPECT_EQ(inBlock, j == 4 ? 3 : 0) << "joint " << j;
        }
    return out;
}

TEST(TreeSolve, AJointThatClosesALoopStaysOnGaussSeidel) {
    // The first four hinges form a tree (a chain from the world); the fifth joins its end to the
    // world again and closes a loop: it stays a block on the sweeps, the others are the forest's.
    // The loop holds as well as with blocks everywhere (within 1 cm more, the closer's Gauss–Seidel
    // against an exact rest) and gains no energy (1% of 1 m of drop for the 4 kg).
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        const BridgeRun block = runBridge(bridge(solver), PointSolve::Block);
        const BridgeRun tree = runBridge(bridge(solver), PointSolve::Tree);
        std::printf(
            "bridge, %s: largest opening block %.3g m, tree %.3g m; largest energy gain %.3g J, %.3g J\n",
            kSolverTypeNames[int(solver)], block.opening, tree.opening, block.gain, tree.gain);
        EXPECT_LT(tree.opening, block.opening + 0.01);
        EXPECT_LE(tree.gain, 0.01 * 4 * 9.81 * 1.0);
    }
}

TEST(TreeSolve, KernelsAgreeAndRepeat) {
    // The reference and the fast kernel run the same forest pass after sweeps of the same rows:
    // rounding apart, the same result (the 1e-9 of BlockSolve's kernel tests). AVX2 and the plain
    // fast kernel: the same bits; and a run repeats bit for bit.
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene limit = lightBodyLimit(solver, PointSolve::Tree);
        Scene chain = test::exampleChain(20);
        chain.settings.solver = solver;
        chain.settings.pointSolve = PointSolve::Tree;
        for (const Scene* s : {&limit, &chain}) {
            const Real d = test::kernelsApart(*s, 120, true);
            std::printf("%s, tree: the kernels differ by %.2g over 120 steps\n",
                        kSolverTypeNames[int(solver)], d);
            EXPECT_LE(d, 1e-9) << kSolverTypeNames[int(solver)];
        }
        EXPECT_LE(test::kernelsApart(bridge(solver), 120, true), 1e-9) << kSolverTypeNames[int(solver)];
        uint64_t hashes[2] = {};
        for (int k = 0; k < 2; ++k) {
            setSolverKernel(k == 0 ? SolverKernel::Auto : SolverKernel::Scalar);
            hashes[k] = runLimit(limit, 200).hash;
            EXPECT_EQ(runLimit(limit, 200).hash, hashes[k]) << "a run repeats";
        }
        setSolverKernel(SolverKernel::Auto);
        EXPECT_EQ(hashes[0], hashes[1]) << "AVX2 and plain: the same bits";
    }
}

TEST(TreeSolve, ScenarioFilesSayTree) {
    Scene s = lightBodyLimit(SolverType::PGS, PointSolve::Tree);
    const std::string text = serializeScenario(s);
    EXPECT_NE(text.find("\"pointSolve\": \"tree\""), std::string::npos);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(text, back, error)) << error;
    EXPECT_EQ(back.settings.pointSolve, PointSolve::Tree);
}

}  // namespace
}  // namespace jl
