// PGS's pipelined position sweeps (solver/fast/pipeline.h, docs/performance.md §3): a plan that solves the
// visits of several sweeps side by side must leave every body and every impulse bit for bit where
// the plain sweeps leave them, on both kernels, through breaks and changes of the iteration count;
// and it must only be used where it saves batch solves.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "jointlab/joints/fixed.h"
#include "jointlab/joints/prismatic.h"
#include "jointlab/joints/revolute.h"
#include "jointlab/joints/spherical.h"
#include "jointlab/solver_kernel.h"
#include "jointlab/world.h"
#include "solver/fast/fast.h"
#include "test_util.h"

namespace jl {
namespace {

/// n boxes on revolute joints hanging from the world, starting horizontal (the benchmark's chain);
/// the last one `tipMass` kg, at height y.
Scene hingeChain(int n, Real tipMass = 1.0, Real y = 10.0) {
    Scene s;
    s.settings.groundPlane = false;
    // Links whose hinge breaks fall onto the others: without body contacts the scene keeps the
    // one part without contacts that the pipelined sweeps are for.
    s.settings.bodyCollisions = false;
    s.settings.solver = SolverType::PGS;
    const Quat hinge = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string prev;
    for (int i = 0; i < n; ++i) {
        const std::string name = test::indexed("link", i);
        s.bodies.push_back(
            test::box(name, Vec3(0.5 + i, y, 0), Vec3(0.5, 0.125, 0.125), i + 1 == n ? tipMass : 1.0));
        s.joints.push_back(
            test::joint<RevoluteJoint>(s, test::indexed("hinge", i), prev, name, Vec3(i, y, 0), hinge));
        prev = name;
    }
    return s;
}

/// Every kind of row the PGS kernel knows but contacts: a kinematic carriage driving a limb of
/// limited hinges, a coned ball joint and a sprung slider, with mass scales, beside a plain chain.
Scene mixedLimb() {
    Scene s;
    s.settings.groundPlane = false;
    s.settings.solver = SolverType::PGS;
    BodyDesc carriage = test::box("carriage", Vec3(0, 5, 0), Vec3(0.3, 0.1, 0.1), 5.0);
    carriage.motion = MotionType::Kinematic;
    carriage.linearVelocity = Vec3(0.5, 0, 0);
    carriage.angularVelocity = Vec3(0, 0.7, 0);
    s.bodies.push_back(carriage);
    std::string prev = "carriage";
    for (int i = 0; i < 8; ++i) {
        const std::string name = test::indexed("seg", i);
        const Vec3 p(0.4 * (i + 1), 5.0 - 0.1 * i, 0.05 * i);
        s.bodies.push_back(test::box(name, p, Vec3(0.2, 0.05, 0.05), 1.0 + 0.5 * i));
        const Vec3 anchor = p - Vec3(0.2, 0, 0);
        JointDesc j;
        if (i % 3 == 0) {
            RevoluteJoint r;
            r.limit = {true, -0.3, 0.4};
            r.drive = {true, 40.0, 2.0};
            r.driveTarget = 0.2;
            j = test::joint<RevoluteJoint>(s, test::indexed("hinge", i), prev, name, anchor,
                                           test::axisAngle(Vec3(0, 0, 1), 0.3), r);
        } else if (i % 3 == 1) {
            SphericalJoint b;
            b.cone.enabled = true;
            b.cone.yAngle = 0.4;
            b.cone.zAngle = 0.25;
            j = test::joint<SphericalJoint>(s, test::indexed("ball", i), prev, name, anchor, Quat(1, 0, 0, 0),
                                            b);
        } else {
            PrismaticJoint p2;
            p2.limit = {true, -0.1, 0.1};
            p2.drive = {true, 300.0, 5.0};
            j = test::joint<PrismaticJoint>(s, test::indexed("slider", i), prev, name, anchor,
                                            Quat(1, 0, 0, 0), p2);
        }
        j.invMassScale0 = 0.5 + 0.1 * i;
        j.invInertiaScale1 = 1.5;
        s.joints.push_back(j);
        prev = name;
    }
    return s;
}

uint64_t pipelinedSolves() {
    return solver::gPipelinedSolves.load();
}

/// Steps `a` with the pipeline and `b` without, `steps` times, asserting the same bits after every
/// step (and the same joint forces and residuals); returns the solves `a` ran pipelined.
uint64_t compareWithPlainSweeps(World& a, World& b, int steps, const char* what) {
    uint64_t used = 0;
    for (int i = 0; i < steps; ++i) {
        const uint64_t before = pipelinedSolves();
        a.step();
        used += pipelinedSolves() - before;
        solver::gPipeline = false;
        b.step();
        solver::gPipeline = true;
        EXPECT_EQ(a.stateHash(), b.stateHash()) << what << ": step " << i;
        if (a.stateHash() != b.stateHash()) return used;
        for (int j = 0; j < static_cast<int>(a.scene().joints.size()); ++j)
            EXPECT_EQ(std::memcmp(&a.jointState(j).force, &b.jointState(j).force, sizeof(Vec3)), 0)
                << what << ": joint " << j;
        // The residuals too: each visit's terms are kept apart and added in batch order.
        const auto ra = a.lastResiduals(), rb = b.lastResiduals();
        EXPECT_EQ(ra.size(), rb.size());
        for (size_t k = 0; k < std::min(ra.size(), rb.size()); ++k)
            EXPECT_EQ(ra[k], rb[k]) << what << ": step " << i << " sweep " << k;
    }
    return used;
}

TEST(Pipeline, GivesTheBitsOfThePlainSweeps) {
    for (SolverKernel kernel : {SolverKernel::Auto, SolverKernel::Scalar}) {
        setSolverKernel(kernel);
        for (int iterations : {2, 4, 10, 20}) {
            for (Scene s : {hingeChain(10), hingeChain(10, 100.0), hingeChain(6), mixedLimb()}) {
                s.settings.posIters = iterations;
                World a(s), b(s);
                const uint64_t used = compareWithPlainSweeps(a, b, 120, "scene");
                // The limb's limit rows come and go, and with them its batches' row counts: some
                // of its steps plan quads that save too little, and after a change the plan waits
                // (at most one plan per 8 solves); those steps are solved plainly.
                if (s.findBody("carriage") >= 0)
                    EXPECT_GE(used, 20u) << iterations << " iterations";
                else
                    EXPECT_EQ(used, 120u) << "the pipeline should solve every step of the chain at "
                                          << iterations << " iterations";
            }
        }
    }
    setSolverKernel(SolverKernel::Auto);
}

TEST(Pipeline, BothKernelsGiveTheSameBits) {
    Scene s = mixedLimb();
    s.settings.posIters = 6;
    World a(s), b(s);
    for (int i = 0; i < 200; ++i) {
        setSolverKernel(SolverKernel::Auto);
        a.step();
        setSolverKernel(SolverKernel::Scalar);
        b.step();
        ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << i;
        const auto ra = a.lastResiduals(), rb = b.lastResiduals();
        ASSERT_EQ(ra.size(), rb.size());
        for (size_t k = 0; k < ra.size(); ++k) ASSERT_EQ(ra[k], rb[k]) << "step " << i << " sweep " << k;
    }
    setSolverKernel(SolverKernel::Auto);
}

// The plan is rebuilt when the batches or the iteration count change: a joint that breaks and
// mends, and the count turned up and down, mid-run.
TEST(Pipeline, FollowsBreaksAndIterationChanges) {
    Scene s = hingeChain(12);
    s.settings.posIters = 4;
    World a(s), b(s);
    uint64_t used = compareWithPlainSweeps(a, b, 30, "start");
    for (World* w : {&a, &b}) w->setJointBroken(5, true);
    used += compareWithPlainSweeps(a, b, 30, "joint 5 broken");
    for (World* w : {&a, &b}) w->settings().posIters = 9;
    used += compareWithPlainSweeps(a, b, 30, "9 iterations");
    for (World* w : {&a, &b}) w->setJointBroken(5, false);
    used += compareWithPlainSweeps(a, b, 30, "mended");
    for (World* w : {&a, &b}) w->settings().posIters = 3;
    used += compareWithPlainSweeps(a, b, 30, "3 iterations");
    EXPECT_EQ(used, 150u);
    // A joint that breaks and mends every step: a new plan would be due every step, but one is
    // built at most every 8 solves (the plain sweeps in between, or the current plan on the steps
    // whose batches it matches), still with the same bits.
    const uint64_t plansBefore = solver::gPipelinePlansBuilt.load();
    uint64_t toggled = 0;
    for (int i = 0; i < 80; ++i) {
        for (World* w : {&a, &b}) w->setJointBroken(7, i % 2 == 0);
        toggled += compareWithPlainSweeps(a, b, 1, "joint 7 toggled");
    }
    const uint64_t plans = solver::gPipelinePlansBuilt.load() - plansBefore;
    EXPECT_LE(plans, 11u) << "at most one plan per 8 solves";
    EXPECT_GE(plans, 2u);
    EXPECT_GT(toggled, 0u) << "the steps whose batches match the current plan still use it";
}

// A joint with no dynamic body (a kinematic box welded to the world) orders none of its visits
// through a body: its own visits must still follow each other, each in its own quad. When they
// shared one (found by review), only one of them kept its lane, and the others' residual terms
// went unwritten: the residuals differed from the plain sweeps' once a break moved the joints.
TEST(Pipeline, AJointWithNoDynamicBodyKeepsEveryVisit) {
    Scene s = hingeChain(6);
    s.settings.posIters = 4;
    BodyDesc carriage = test::box("carriage", Vec3(0, 2, 3), Vec3(0.3, 0.1, 0.1), 5.0);
    carriage.motion = MotionType::Kinematic;
    s.bodies.push_back(carriage);
    s.joints.push_back(test::joint<FixedJoint>(s, "weld", "", "carriage", Vec3(0, 2, 3)));
    World a(s), b(s);
    uint64_t used = compareWithPlainSweeps(a, b, 20, "start");
    for (World* w : {&a, &b}) w->setJointBroken(0, true);
    used += compareWithPlainSweeps(a, b, 20, "joint 0 broken");
    EXPECT_EQ(used, 40u);
}

// Whether a step runs pipelined depends on the plan's history (at most one plan per 8 solves),
// not only on the state: a world restored from a snapshot into a fresh World plans at once, where
// the original is still waiting. Both must report the same residuals (found by review: they
// differed in the last bits while the residuals were summed per sweep in quad order).
TEST(Pipeline, ARestoredWorldReportsTheSameResiduals) {
    Scene s = hingeChain(10);
    s.settings.posIters = 6;
    World a(s);
    for (int i = 0; i < 20; ++i) a.step();
    a.setJointBroken(9, true);
    a.step();
    a.setJointBroken(9, false);
    const WorldSnapshot snap = a.snapshot();
    World b(s);
    b.restore(snap);
    const uint64_t before = pipelinedSolves();
    a.step();
    const uint64_t usedA = pipelinedSolves() - before;
    b.step();
    const uint64_t usedB = pipelinedSolves() - before - usedA;
    EXPECT_NE(usedA, usedB) << "the two should take different paths for this test to mean anything";
    ASSERT_EQ(a.stateHash(), b.stateHash());
    const auto ra = a.lastResiduals(), rb = b.lastResiduals();
    ASSERT_EQ(ra.size(), rb.size());
    for (size_t k = 0; k < ra.size(); ++k) EXPECT_EQ(ra[k], rb[k]) << "sweep " << k;
}

// Only where it pays: not for full batches (a ball grid), not with ground contacts, not with one
// iteration, not for TGS.
TEST(Pipeline, IsOnlyUsedWhereItSavesBatchSolves) {
    auto usedFor = [](Scene s, int steps) {
        World w(s);
        const uint64_t before = pipelinedSolves();
        for (int i = 0; i < steps; ++i) w.step();
        return pipelinedSolves() - before;
    };
    Scene grid;
    grid.settings.groundPlane = false;
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c)
            grid.bodies.push_back(
                test::sphere(test::indexed("ball", 100 * r + c), Vec3(0.5 * c, 5 - 0.5 * r, 0), 1.0));
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
            const std::string me = test::indexed("ball", 100 * r + c);
            const Vec3 p(0.5 * c, 5 - 0.5 * r, 0);
            if (r == 0) grid.joints.push_back(test::joint<SphericalJoint>(grid, me + " hold", "", me, p));
            if (c + 1 < 8)
                grid.joints.push_back(test::joint<SphericalJoint>(
                    grid, me + " right", me, test::indexed("ball", 100 * r + c + 1), p + Vec3(0.25, 0, 0)));
            if (r + 1 < 8)
                grid.joints.push_back(test::joint<SphericalJoint>(
                    grid, me + " down", me, test::indexed("ball", 100 * (r + 1) + c), p - Vec3(0, 0.25, 0)));
        }
    EXPECT_EQ(usedFor(grid, 10), 0u) << "a grid's batches are full";
    Scene ground = hingeChain(10, 1.0, 0.1);  // lying on the ground
    ground.settings.groundPlane = true;
    EXPECT_EQ(usedFor(ground, 30), 0u) << "contacts can touch any body";
    Scene one = hingeChain(10);
    one.settings.posIters = 1;
    EXPECT_EQ(usedFor(one, 10), 0u) << "one sweep has nothing to overlap";
    Scene tgs = hingeChain(10);
    tgs.settings.solver = SolverType::TGS;
    EXPECT_EQ(usedFor(tgs, 10), 0u);
    EXPECT_EQ(usedFor(hingeChain(10), 10), 10u);
}

// Placed level by level, the 10-link chain's visits fall into quads that repeat 5 joint sets (5
// quads per 2 sweeps); the start and end of the wave reuse those sets with lanes masked. So 20
// sweeps lay out at most 9 compositions (the sweep-order placement needed 20), and the masked
// quads still give the plain sweeps' bits (GivesTheBitsOfThePlainSweeps covers these plans).
TEST(Pipeline, RepeatsFewCompositions) {
    for (const int iters : {4, 10, 20}) {
        Scene s = hingeChain(10);
        s.settings.posIters = iters;
        World w(s);
        w.step();
        const int quads = solver::gPipelinePlanQuads.load(), comps = solver::gPipelinePlanComps.load();
        EXPECT_LE(quads, 5 * iters / 2 + 5) << iters << " sweeps";
        EXPECT_LE(comps, 9) << iters << " sweeps";
        EXPECT_GT(solver::gPipelinePlanMasked.load(), 0) << iters << " sweeps";
    }
}

// A plan whose rows are all hard rows (linear1 = linear0, impulseMul 1) lays its compositions out
// as hard batches, which the AVX2 kernel solves with fewer loads; a soft row (a drive) keeps the
// full layout. Both give the plain sweeps' bits (GivesTheBitsOfThePlainSweeps runs both scenes).
TEST(Pipeline, HardCompositionsOnlyWhenEveryRowIsHard) {
    if (activeSolverKernel() != SolverKernel::Avx2) GTEST_SKIP() << "hard compositions are the AVX2 kernel's";
    auto run = [](Scene s, uint64_t& pipelined, uint64_t& hard) {
        World w(s);
        const uint64_t p0 = solver::gPipelinedSolves.load(), h0 = solver::gPipelinedHardSolves.load();
        for (int i = 0; i < 20; ++i) w.step();
        pipelined = solver::gPipelinedSolves.load() - p0;
        hard = solver::gPipelinedHardSolves.load() - h0;
    };
    uint64_t pipelined = 0, hard = 0;
    run(hingeChain(10), pipelined, hard);
    EXPECT_EQ(pipelined, 20u);
    EXPECT_EQ(hard, 20u) << "a chain of plain hinges has only hard rows";
    run(mixedLimb(), pipelined, hard);
    EXPECT_GT(pipelined, 0u);
    EXPECT_EQ(hard, 0u) << "the sprung slider's drive row is soft";
}

// The physics the plain sweeps give carries over (it is the same bits), but check one number
// through the pipelined path itself: a 10-link chain at rest hangs from its top joint with the
// weight of its links, m·g = 10 · 9.81 N.
TEST(Pipeline, ARestingChainHangsFromItsTopJointWithItsWeight) {
    Scene s;
    s.settings.groundPlane = false;
    s.settings.solver = SolverType::PGS;
    s.settings.posIters = 10;
    std::string prev;
    for (int i = 0; i < 10; ++i) {  // hanging straight down, at rest
        const std::string name = test::indexed("link", i);
        s.bodies.push_back(test::box(name, Vec3(0, 10.0 - 0.5 - i, 0), Vec3(0.125, 0.5, 0.125), 1.0));
        s.joints.push_back(
            test::joint<RevoluteJoint>(s, test::indexed("hinge", i), prev, name, Vec3(0, 10.0 - i, 0)));
        prev = name;
    }
    World w(s);
    const uint64_t before = pipelinedSolves();
    for (int i = 0; i < 120; ++i) w.step();
    EXPECT_EQ(pipelinedSolves() - before, 120u);
    const Real g = glm::length(s.settings.gravity);
    EXPECT_NEAR(glm::length(w.jointState(0).force), 10.0 * g, 1e-6 * 10.0 * g);
    EXPECT_NEAR(glm::length(w.jointState(9).force), g, 1e-6 * g);
}

// The couplings (solver/fast/batch.h CouplingLanes): a batch solved through them is Gauss-Seidel row
// after row, as if every row had updated the bodies before the next read them. A reference that
// does exactly that, on random rows with bounds that bind, mass scales and a soft row, agrees to
// rounding; both kernels agree to the bit.
TEST(RowCouplings, GiveTheGaussSeidelOfRowByRowUpdates) {
    using namespace solver;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 64; ++trial) {
        const int slots = 1 + trial % kMaxBatchSlots;  // up to 16: the kernels' general path from 7
        alignas(32) Batch bt{};
        bt.slotCount = slots;
        bt.laneCount = kLanes;
        bt.layout = kLayoutFull;
        std::vector<RowLanes> rows(static_cast<size_t>(slots));
        for (int l = 0; l < kLanes; ++l) {
            bt.body0[l] = 1 + 2 * l;
            bt.body1[l] = 2 + 2 * l;
            bt.linScale0[l] = 0.5 + 0.5 * (u(rng) + 1.0);
            bt.angScale0[l] = 1.0 + 0.3 * u(rng);
            bt.linScale1[l] = l == 3 ? 0.0 : 0.7;  // lane 3: body 1 infinitely heavy
            bt.angScale1[l] = l == 3 ? 0.0 : 1.2;
        }
        for (int s = 0; s < slots; ++s) {
            RowLanes& r = rows[static_cast<size_t>(s)];
            for (int l = 0; l < kLanes; ++l) {
                for (int k = 0; k < 3; ++k) {
                    r.lin0[k][l] = u(rng);
                    r.ang0[k][l] = u(rng);
                    r.lin1[k][l] = u(rng);
                    r.ang1[k][l] = u(rng);
                }
                r.constant[l] = u(rng);
                r.unbiasedConstant[l] = u(rng);
                r.vMul[l] = -0.2 - 0.5 * (u(rng) + 1.0);
                r.impulseMul[l] = s == 1 ? 0.8 : 1.0;   // a soft row
                r.minImpulse[l] = s == 2 ? 0.0 : -0.3;  // one-sided, and bounds that bind
                r.maxImpulse[l] = 0.3;
                r.accum[l] = 0.1 * u(rng);
                r.response[l] = (s == 3 && l == 1) ? 0.0 : 1.0;  // one inactive row
            }
        }
        alignas(64) double bodies0[8 * 9];
        for (double& v : bodies0) v = u(rng);
        // The reference: row after row, the velocities updated before the next row reads them.
        std::vector<RowLanes> ref = rows;
        alignas(64) double refBodies[8 * 9];
        std::memcpy(refBodies, bodies0, sizeof bodies0);
        for (int l = 0; l < kLanes; ++l)
            for (int s = 0; s < slots; ++s) {
                RowLanes& r = ref[static_cast<size_t>(s)];
                double* a = refBodies + 8 * bt.body0[l];
                double* b = refBodies + 8 * bt.body1[l];
                double vel = 0.0;
                for (int k = 0; k < 3; ++k)
                    vel += r.lin0[k][l] * a[k] + r.ang0[k][l] * a[4 + k] - r.lin1[k][l] * b[k] -
                           r.ang1[k][l] * b[4 + k];
                const double na = std::clamp(r.constant[l] + r.vMul[l] * vel + r.impulseMul[l] * r.accum[l],
                                             r.minImpulse[l], r.maxImpulse[l]);
                const double dl = r.response[l] > 0.0 ? na - r.accum[l] : 0.0;
                if (r.response[l] > 0.0) r.accum[l] = na;
                for (int k = 0; k < 3; ++k) {
                    a[k] += dl * bt.linScale0[l] * r.lin0[k][l];
                    a[4 + k] += dl * bt.angScale0[l] * r.ang0[k][l];
                    b[k] -= dl * bt.linScale1[l] * r.lin1[k][l];
                    b[4 + k] -= dl * bt.angScale1[l] * r.ang1[k][l];
                }
            }
        for (bool avx : {false, true}) {
            if (avx && !avx2Available()) continue;
            std::vector<RowLanes> got = rows;
            alignas(64) double gotBodies[8 * 9];
            std::memcpy(gotBodies, bodies0, sizeof bodies0);
            std::vector<CouplingLanes> K(static_cast<size_t>(std::max(1, couplingCount(slots))));
            computeCouplings(bt, got.data(), nullptr, nullptr, K.data());
            LaneSums sums;
            if (avx)
                sweepBatchesAvx2(&bt, 0, 1, got.data(), nullptr, nullptr, K.data(), nullptr, gotBodies, true,
                                 sums);
            else
                sweepBatchesScalar(&bt, 0, 1, got.data(), K.data(), nullptr, gotBodies, true, sums);
            for (int i = 0; i < 8 * 9; ++i) {
                if (i % 4 == 3) continue;  // pads
                EXPECT_NEAR(gotBodies[i], refBodies[i], 1e-12) << "trial " << trial << " body double " << i;
            }
            for (int s = 0; s < slots; ++s)
                for (int l = 0; l < kLanes; ++l)
                    EXPECT_NEAR(got[static_cast<size_t>(s)].accum[l], ref[static_cast<size_t>(s)].accum[l],
                                1e-12)
                        << trial;
        }
    }
}

}  // namespace
}  // namespace jl
