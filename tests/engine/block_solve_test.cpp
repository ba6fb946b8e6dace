// Block-solved point constraints (issue 25 point 1; docs/solvers.md "Block-solved point
// constraints"): a joint's two or three linear lock rows solved at once, Δλ = K⁻¹·(−(J·v + b)),
// instead of one after another.
//
//  * One body on a world hinge or ball joint: one velocity iteration leaves the point's rows
//    satisfied to rounding at any lever and tip size (rows: Gauss–Seidel is left far off).
//  * The long lever (2 m to a 5 cm ball) released horizontal holds together and swings
//    with the large-amplitude period of a rigid pendulum (complete elliptic integral, by the AGM).
//  * Singular blocks fall back to rows; the kernels agree and the trace shows the block's rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <variant>
#include <vector>

#include "jointlab/solver_kernel.h"
#include "jointlab/world.h"
#include "test_scenes.h"
#include "test_util.h"

namespace jl {
namespace {

/// test::lever: a sphere of `radius` (1 kg) on a massless lever of `lever` m from a world hinge
/// (axis Z) or ball joint at (0, 10, 0), released horizontal along +X. The joint frame is turned
/// by 30° about Z, so that none of the point's rows lies along the lever: they are coupled.
Scene leverPendulum(Real lever, Real radius, bool hinge, SolverType solver, PointSolve point) {
    Scene s = test::lever(lever, radius, hinge);
    s.settings.solver = solver;
    s.settings.pointSolve = point;
    return s;
}

/// The largest |J·v + b − v_T| of joint 0's linear lock rows that the reference kernel's trace
/// sees at the start of the last velocity sweep: what the sweeps before it left.
struct LastSweep {
    Real velocityError = 0.0;
    int visits = 0;
};

LastSweep lastSweepError(Scene s, int velIters) {
    s.settings.kernel = KernelType::Reference;
    s.settings.posIters = 1;
    s.settings.velIters = velIters;
    // moving off the constraint, so that every row has work to do; on a hinge, in its plane (a
    // kick out of it is the hinge's two angular rows' to take, and they are Gauss–Seidel
    // partners of the block: the next sweeps finish that)
    const bool hinge = std::holds_alternative<RevoluteJoint>(s.joints[0].params);
    s.bodies[0].linearVelocity = Vec3(0.3, -1.0, hinge ? 0.0 : 0.5);
    s.bodies[0].angularVelocity = hinge ? Vec3(0.0, 0.0, 2.0) : Vec3(1.0, 2.0, -0.5);
    World w(s);
    LastSweep out;
    const int lastSweep = velIters - 1;
    w.setRowTrace([&](const World::RowTrace& t) {
        if (t.phase != 1 || t.sweep != lastSweep || t.row > 2) return;
        // the first row of the block sees the velocities every earlier sweep left; the others
        // those after the rows before them in this sweep, which change nothing once converged
        out.velocityError = std::max(out.velocityError, std::abs(t.jv + t.bias));
        ++out.visits;
    });
    w.step();
    return out;
}

TEST(BlockSolve, OneVelocityIterationSolvesAPointAtAnyLeverAndTipSize) {
    // With velIters = 2 the trace's second velocity sweep sees what the first left.
    Real worstBlock = 0.0, bestRows = kInf;
    for (bool hinge : {true, false})
        for (SolverType solver : {SolverType::PGS, SolverType::TGS})
            for (Real lever : {0.1, 0.3, 1.0, 2.0, 3.0})
                for (Real radius : {0.02, 0.05, 0.2, 0.5}) {
                    const LastSweep block =
                        lastSweepError(leverPendulum(lever, radius, hinge, solver, PointSolve::Block), 2);
                    const LastSweep rows =
                        lastSweepError(leverPendulum(lever, radius, hinge, solver, PointSolve::Rows), 2);
                    EXPECT_EQ(block.visits, 3);
                    EXPECT_LE(block.velocityError, 1e-11)
                        << (hinge ? "hinge " : "ball ") << kSolverTypeNames[int(solver)] << " lever " << lever
                        << " radius " << radius;
                    worstBlock = std::max(worstBlock, block.velocityError);
                    if (lever / radius >= 10.0) bestRows = std::min(bestRows, rows.velocityError);
                }
    std::printf(
        "after one velocity iteration: block leaves at most %.2g m/s; rows, with lever/radius >= 10, "
        "at least %.2g m/s\n",
        worstBlock, bestRows);
    EXPECT_GT(bestRows, 1e-3);  // Gauss–Seidel row by row is far from it
}

TEST(BlockSolve, BothKernelsSolveTheBlockInOneSweep) {
    // The fast kernel's residuals (World::lastResiduals): the second velocity sweep has nothing
    // left to do. Two position iterations: in PGS, the second has nothing to do either.
    for (KernelType kernel : {KernelType::Fast, KernelType::Reference})
        for (SolverKernel simd : {SolverKernel::Auto, SolverKernel::Scalar})
            for (SolverType solver : {SolverType::PGS, SolverType::TGS})
                for (bool hinge : {true, false}) {
                    setSolverKernel(simd);
                    Scene s = leverPendulum(2.0, 0.05, hinge, solver, PointSolve::Block);
                    s.settings.kernel = kernel;
                    s.settings.posIters = 2;
                    s.settings.velIters = 2;
                    World w(s);
                    w.step();
                    const auto res = w.lastResiduals();
                    ASSERT_EQ(res.size(), 4u);
                    std::printf("%s %s %s %s: residuals %.3g %.3g %.3g %.3g\n", kKernelTypeNames[int(kernel)],
                                simd == SolverKernel::Auto ? "auto" : "scalar", kSolverTypeNames[int(solver)],
                                hinge ? "hinge" : "ball", res[0], res[1], res[2], res[3]);
                    EXPECT_GT(res[0], 1e-3);
                    EXPECT_LE(res[3], 1e-12)
                        << kKernelTypeNames[int(kernel)] << " " << kSolverTypeNames[int(solver)];
                    if (solver == SolverType::PGS) {
                        EXPECT_LE(res[1], 1e-12);
                    }
                }
    setSolverKernel(SolverKernel::Auto);
}

using test::ellipticK;

struct Swing {
    Real maxJointError = 0.0;  ///< largest anchor separation [m]
    Real period = 0.0;         ///< mean time between the tip's passes through the bottom in one direction [s]
    Real lastPeriod = 0.0;     ///< the last such time [s]
    int periods = 0;
};

/// Runs the lever pendulum for `seconds` and measures its joint error and period.
Swing swing(Scene s, Real seconds) {
    World w(s);
    Swing out;
    std::vector<Real> passes;  // times the tip crosses x = 0 moving towards −X
    Real lastX = w.bodies()[0].pose.p.x;
    const int steps = static_cast<int>(std::lround(seconds / s.settings.dt));
    for (int i = 0; i < steps; ++i) {
        w.step();
        out.maxJointError =
            std::max(out.maxJointError, glm::length(test::anchor0(w, 0) - test::anchor1(w, 0)));
        const Real x = w.bodies()[0].pose.p.x;
        if (lastX > 0.0 && x <= 0.0) passes.push_back(w.time() - s.settings.dt * x / (x - lastX));
        lastX = x;
    }
    out.periods = static_cast<int>(passes.size()) - 1;
    if (out.periods >= 1) {
        out.period = (passes.back() - passes.front()) / out.periods;
        out.lastPeriod = passes.back() - passes[passes.size() - 2];
    }
    return out;
}

TEST(BlockSolve, TheLongLeverHoldsTogetherAndKeepsItsPeriod) {
    // The case: a 5 cm ball on a 2 m lever, released horizontal, 60 Hz, 4 + 1 iterations,
    // 10 s. Period of a rigid pendulum from θ0 = 90°: T = 4·√(I/(m·g·d))·K(sin(θ0/2)).
    const Real lever = 2.0, radius = 0.05, g = 9.81;
    const Real inertia = 0.4 * radius * radius + lever * lever;  // about the pivot, m = 1
    const Real period = 4.0 * std::sqrt(inertia / (g * lever)) * ellipticK(std::sin(kPi / 4));
    for (bool hinge : {true, false})
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            const Swing rows = swing(leverPendulum(lever, radius, hinge, solver, PointSolve::Rows), 10.0);
            const Swing block = swing(leverPendulum(lever, radius, hinge, solver, PointSolve::Block), 10.0);
            const Real error = (block.period - period) / period, firstError = 0.0;
            (void)firstError;
            std::printf(
                "%s %s: joint error rows %.3g m, block %.3g m; period %.5f s (%d swings; rows %.5f s), "
                "expected %.5f s: %+.3f%% (last swing %+.3f%%)\n",
                hinge ? "hinge" : "ball ", kSolverTypeNames[int(solver)], rows.maxJointError,
                block.maxJointError, block.period, block.periods, rows.period, period, 100.0 * error,
                100.0 * (block.lastPeriod - period) / period);
            EXPECT_LE(block.maxJointError, solver == SolverType::TGS ? 0.002 : 0.01);
            EXPECT_GE(block.periods, 2);
        }
}

}  // namespace
}  // namespace jl

namespace jl {
namespace {

using test::exampleChain;

/// The residual of each sweep (World::lastResiduals: the velocity change the rows still asked
/// for) of step `at`, with `posIters` position iterations and one velocity iteration; the steps
/// before it solve blocks (so that both ways start that step from the same state).
std::vector<Real> sweepResiduals(Scene s, SolverType solver, PointSolve point, int posIters, int at) {
    s.settings.solver = solver;
    s.settings.pointSolve = PointSolve::Block;
    s.settings.posIters = posIters;
    s.settings.velIters = 1;
    World w(s);
    for (int i = 0; i + 1 < at; ++i) w.step();
    w.settings().pointSolve = point;
    w.step();
    const auto r = w.lastResiduals();
    return std::vector<Real>(r.begin(), r.end());
}

TEST(BlockSolve, ConvergencePerSweep) {
    // Mid-swing (step 40, 2/3 s), 8 position iterations + 1 velocity iteration, 60 Hz.
    struct Case {
        const char* name;
        Scene scene;
    };
    const Case cases[] = {
        {"2 m lever, 5 cm ball, hinge", leverPendulum(2.0, 0.05, true, SolverType::PGS, PointSolve::Block)},
        {"100-link chain", exampleChain(100)}};
    for (const Case& c : cases)
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            const std::vector<Real> rows = sweepResiduals(c.scene, solver, PointSolve::Rows, 8, 40);
            const std::vector<Real> block = sweepResiduals(c.scene, solver, PointSolve::Block, 8, 40);
            for (const auto& [label, r] : {std::pair{"rows ", &rows}, std::pair{"block", &block}}) {
                std::printf("%s, %s, %s: residual per sweep [m/s]", c.name, kSolverTypeNames[int(solver)],
                            label);
                for (Real x : *r) std::printf(" %.2g", x);
                std::printf("\n");
            }
            if (c.name[0] == '2' && solver == SolverType::PGS) {  // one joint: block is done after one sweep
                EXPECT_LE(block[1], 1e-9);
                EXPECT_GT(rows[7], 1e-3);
            }
        }
}

}  // namespace
}  // namespace jl

namespace jl {
namespace {

TEST(BlockSolve, EveryPointLockIsABlock) {
    // spherical, revolute, fixed: three rows; prismatic: its two; a D6 with X and Y locked (Z
    // limited, written after them): two; a D6 with one locked axis: none (a row on its own).
    D6Joint d6xy;
    d6xy.motion[kD6Z] = D6Motion::Limited;
    d6xy.linearLimit[kD6Z] = {true, -0.1, 0.1};
    D6Joint d6x;
    d6x.motion[kD6Y] = d6x.motion[kD6Z] = D6Motion::Free;
    const JointParams params[] = {
        SphericalJoint{}, RevoluteJoint{}, FixedJoint{}, PrismaticJoint{}, d6xy, d6x};
    const int blockRows[] = {3, 3, 3, 2, 2, 0};
    for (size_t k = 0; k < std::size(params); ++k)
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            Scene s = test::emptyScene(false);
            s.settings.solver = solver;
            s.bodies.push_back(test::box("a", Vec3(0.5, 5.0, 0.0), Vec3(0.3, 0.1, 0.1), 1.0));
            s.bodies.push_back(test::box("b", Vec3(1.5, 5.0, 0.1), Vec3(0.3, 0.1, 0.1), 2.0));
            std::visit(
                [&](const auto& p) {
                    s.joints.push_back(test::joint(s, "j", "a", "b", Vec3(1.0, 5.0, 0.05),
                                                   test::axisAngle(Vec3(0.3, 1.0, 0.2), 0.4), p));
                },
                params[k]);
            s.joints.push_back(test::joint<SphericalJoint>(s, "hook", "", "a", Vec3(0.0, 5.0, 0.0)));
            World w(s);
            w.step();
            const auto rows = w.jointRows(0);
            const auto results = w.jointRowResults(0);
            int inBlock = 0;
            for (size_t r = 0; r < results.size(); ++r) {
                if (results[r].blockSize == 0) continue;
                EXPECT_EQ(results[r].blockIndex, inBlock++) << "the block's rows follow each other";
                EXPECT_EQ(results[r].blockSize, blockRows[k]);
                EXPECT_FALSE(rows[r].flags & kRowAngular) << rows[r].label;
                EXPECT_EQ(results[r].blockK[results[r].blockIndex], results[r].unitResponse);
            }
            EXPECT_EQ(inBlock, blockRows[k]) << jointTypeInfo(static_cast<int>(params[k].index())).name;
            EXPECT_LE(test::kernelsApart(s, 20, true), 1e-9)
                << jointTypeInfo(static_cast<int>(params[k].index())).name;
        }
}

TEST(BlockSolve, ASingularBlockIsSolvedRowByRow) {
    // With invMassScale1 = 0 the ball's anchor cannot move along its lever (only turn about it):
    // K has rank 2. The block falls back to rows, in both kernels alike, and nothing blows up.
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = leverPendulum(1.0, 0.1, false, solver, PointSolve::Block);
        s.joints[0].invMassScale1 = 0.0;
        World w(s);
        for (int i = 0; i < 30; ++i) w.step();
        for (const RowResult& r : w.jointRowResults(0)) EXPECT_EQ(r.blockSize, 0);
        EXPECT_TRUE(std::isfinite(w.bodies()[0].pose.p.x));
        EXPECT_LE(test::kernelsApart(s, 30, true), 1e-9) << kSolverTypeNames[int(solver)];
    }
}

TEST(BlockSolve, KernelsAgreeOnTheLongLever) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS})
        for (bool hinge : {true, false}) {
            const Real d =
                test::kernelsApart(leverPendulum(2.0, 0.05, hinge, solver, PointSolve::Block), 120, true);
            std::printf("%s %s: reference and fast kernel differ by %.2g over 2 s\n",
                        kSolverTypeNames[int(solver)], hinge ? "hinge" : "ball", d);
            EXPECT_LE(d, 1e-9);
        }
}

}  // namespace
}  // namespace jl
