// The parallel solve (WorldSettings::threads, docs/performance.md "Threads"): the worker pool, the
// partition of the joints into parts that share no dynamic body, and the physics and
// determinism of a solve split that way.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "jointlab/joints/revolute.h"
#include "jointlab/joints/spherical.h"
#include "jointlab/solver_kernel.h"
#include "jointlab/world.h"
#include "solver/fast/fast.h"
#include "support/worker_pool.h"
#include "test_util.h"

namespace jl {
namespace {

// [SECTION] the pool

TEST(WorkerPool, RunsEveryTaskExactlyOnceOnEveryRun) {
    for (int workers : {0, 1, 2}) {
        solver::WorkerPool pool(workers);
        std::vector<std::atomic<int>> count(8);
        int expected[8] = {};
        for (int run = 0; run < 1000; ++run) {
            const int tasks = 1 + run % 5;
            auto task = [&](int t) { count[static_cast<size_t>(t)].fetch_add(1, std::memory_order_relaxed); };
            pool.run(tasks, task);
            for (int t = 0; t < tasks; ++t) ++expected[t];
        }
        for (int t = 0; t < 8; ++t)
            EXPECT_EQ(count[static_cast<size_t>(t)].load(), expected[t]) << workers << " workers, task " << t;
    }
}

// Two threads running the same pool at once: the second does its tasks itself, each once.
TEST(WorkerPool, ASecondCallerRunsItsTasksItself) {
    solver::WorkerPool& pool = solver::WorkerPool::shared(1);
    std::atomic<int> a{0}, b{0};
    std::thread other([&] {
        auto task = [&](int) { b.fetch_add(1, std::memory_order_relaxed); };
        for (int i = 0; i < 2000; ++i) pool.run(3, task);
    });
    auto task = [&](int) { a.fetch_add(1, std::memory_order_relaxed); };
    for (int i = 0; i < 2000; ++i) pool.run(3, task);
    other.join();
    EXPECT_EQ(a.load(), 6000);
    EXPECT_EQ(b.load(), 6000);
}

// A World steps right after it makes its pool: the first run must not be missed by a worker
// that starts late (it once was, and the step waited for ever).
TEST(WorkerPool, TheFirstRunAfterConstructionIsNotMissed) {
    for (int i = 0; i < 300; ++i) {
        solver::WorkerPool pool(1);
        std::atomic<int> ran{0};
        auto task = [&](int) { ran.fetch_add(1, std::memory_order_relaxed); };
        pool.run(2, task);
        ASSERT_EQ(ran.load(), 2) << "pool " << i;
    }
}

// [SECTION] the partition

/// Which run (0..parts-1) each live constraint falls in, before the shared ones are taken out.
std::vector<int> runsOf(const std::vector<uint8_t>& skip, int parts) {
    const int64_t live = std::count(skip.begin(), skip.end(), uint8_t{0});
    std::vector<int> run(skip.size(), -1);
    int64_t seen = 0;
    for (size_t c = 0; c < skip.size(); ++c)
        if (!skip[c]) run[c] = static_cast<int>(seen++ * parts / live);
    return run;
}

TEST(Partition, PartsShareNoDynamicBodyAndOnlyTheNeededJointsAreShared) {
    std::mt19937 rng(12345);
    solver::ColourScratch scratch;
    for (int trial = 0; trial < 300; ++trial) {
        const int count = 1 + static_cast<int>(rng() % 600), keys = 1 + static_cast<int>(rng() % 400);
        const int parts = 2 + static_cast<int>(rng() % 4);
        std::vector<int> k0(static_cast<size_t>(count)), k1(static_cast<size_t>(count));
        std::vector<uint8_t> skip(static_cast<size_t>(count));
        for (int c = 0; c < count; ++c) {
            // mostly near neighbours (as scenes are built), some far, some on static bodies (-1)
            const int a = static_cast<int>(rng() % static_cast<unsigned>(keys));
            const int near = std::min(keys - 1, a + 1 + static_cast<int>(rng() % 3));
            k0[static_cast<size_t>(c)] = rng() % 10 == 0 ? -1 : a;
            k1[static_cast<size_t>(c)] =
                rng() % 10 == 0
                    ? -1
                    : (rng() % 8 == 0 ? static_cast<int>(rng() % static_cast<unsigned>(keys)) : near);
            skip[static_cast<size_t>(c)] = rng() % 12 == 0;
        }
        if (std::count(skip.begin(), skip.end(), uint8_t{0}) == 0) continue;
        std::vector<uint8_t> group;
        solver::partitionConstraints(k0.data(), k1.data(), skip.data(), count, keys, parts, group, scratch);
        ASSERT_EQ(group.size(), static_cast<size_t>(count));
        const std::vector<int> run = runsOf(skip, parts);
        // Per key: the parts (not the shared group) of the constraints on it, and the runs.
        std::vector<std::set<int>> partsOn(static_cast<size_t>(keys)), runsOn(static_cast<size_t>(keys));
        for (int c = 0; c < count; ++c) {
            const size_t u = static_cast<size_t>(c);
            if (skip[u]) {
                ASSERT_EQ(group[u], parts + 1) << "a skipped constraint is in no group";
                continue;
            }
            ASSERT_TRUE(group[u] == run[u] || group[u] == parts)
                << "a constraint stays in its run or is shared";
            for (int k : {k0[u], k1[u]})
                if (k >= 0) {
                    runsOn[static_cast<size_t>(k)].insert(run[u]);
                    if (group[u] < parts) partsOn[static_cast<size_t>(k)].insert(group[u]);
                }
        }
        for (int k = 0; k < keys; ++k) {
            const size_t u = static_cast<size_t>(k);
            ASSERT_LE(partsOn[u].size(), 1u) << "key " << k << " is in two parts";
            // The key's recorded run (TGS integrates the body in that part's task) is the part
            // that touches it, and the first run that did.
            if (!partsOn[u].empty()) {
                ASSERT_EQ(scratch.last[u], *partsOn[u].begin()) << "key " << k;
            }
            const int first = runsOn[u].empty() ? solver::kNoRun : *runsOn[u].begin();
            ASSERT_EQ(scratch.last[u], first) << "key " << k;
        }
        for (int c = 0; c < count; ++c) {
            const size_t u = static_cast<size_t>(c);
            if (skip[u] || group[u] != parts) continue;
            const bool needed = (k0[u] >= 0 && runsOn[static_cast<size_t>(k0[u])].size() > 1) ||
                                (k1[u] >= 0 && runsOn[static_cast<size_t>(k1[u])].size() > 1);
            ASSERT_TRUE(needed) << "constraint " << c << " was shared without touching a body of two runs";
        }
        std::vector<uint8_t> again;
        solver::partitionConstraints(k0.data(), k1.data(), skip.data(), count, keys, parts, again, scratch);
        ASSERT_EQ(group, again);
    }
}

TEST(Partition, AChainIsCutInTheMiddle) {
    constexpr int n = 1000;
    std::vector<int> k0(n), k1(n);
    for (int c = 0; c < n; ++c)
        k0[c] = c - 1, k1[c] = c;  // joint c: body c-1 (the world for c = 0) to body c
    solver::ColourScratch scratch;
    std::vector<uint8_t> group;
    solver::partitionConstraints(k0.data(), k1.data(), nullptr, n, n, 2, group, scratch);
    // Runs 0..499 and 500..999; body 499 is on joints 499 and 500 and belongs to run 0, so joint
    // 500 alone is shared.
    EXPECT_EQ(std::count(group.begin(), group.end(), uint8_t{0}), 500);
    EXPECT_EQ(std::count(group.begin(), group.end(), uint8_t{1}), 499);
    EXPECT_EQ(group[499], 0);
    EXPECT_EQ(group[500], 2);
}

// [SECTION] scenes

/// A chain of n boxes on revolute joints, hanging from the world at height y, starting
/// horizontal (as the benchmark's chains).
Scene hingeChain(int n, Real y = 30.0) {
    Scene s;
    s.settings.groundPlane = false;
    const Quat hinge = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string prev;
    for (int i = 0; i < n; ++i) {
        const std::string name = test::indexed("link", i);
        s.bodies.push_back(test::box(name, Vec3(0.5 + i, y, 0), Vec3(0.5, 0.125, 0.125), 1.0));
        s.joints.push_back(test::joint<RevoluteJoint>(s, test::indexed("hinge", i), prev, name, Vec3(i, y, 0),
                                                      hinge, RevoluteJoint{}));
        prev = name;
    }
    return s;
}

/// An n×n grid of 1 kg balls 0.5 m apart, each joined to its right and lower neighbours by
/// spherical joints, the top row's every fourth ball held by the world (the benchmark's grid).
Scene ballGrid(int n) {
    Scene s;
    s.settings.groundPlane = false;
    auto name = [](int r, int c) { return test::indexed("ball", r * 1000 + c); };
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            s.bodies.push_back(test::sphere(name(r, c), Vec3(0.5 * c, 20.0 - 0.5 * r, 0), 1.0, 0.1));
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            const Vec3 p(0.5 * c, 20.0 - 0.5 * r, 0);
            if (r == 0 && c % 4 == 0)
                s.joints.push_back(test::joint<SphericalJoint>(s, name(r, c) + " hold", "", name(r, c), p));
            if (c + 1 < n)
                s.joints.push_back(test::joint<SphericalJoint>(s, name(r, c) + " right", name(r, c),
                                                               name(r, c + 1), p + Vec3(0.25, 0, 0)));
            if (r + 1 < n)
                s.joints.push_back(test::joint<SphericalJoint>(s, name(r, c) + " down", name(r, c),
                                                               name(r + 1, c), p - Vec3(0, 0.25, 0)));
        }
    return s;
}

/// A kinematic carriage moving at 1 m/s with four 20-link ball-joint chains hanging from it: every
/// part has a chain joined to the carriage (which no row moves but every batch on it stores back).
Scene carriageChains() {
    Scene s;
    s.settings.groundPlane = false;
    BodyDesc carriage = test::box("carriage", Vec3(0, 20, 0), Vec3(2.0, 0.1, 0.1), 10.0);
    carriage.motion = MotionType::Kinematic;
    carriage.linearVelocity = Vec3(1.0, 0, 0);
    s.bodies.push_back(carriage);
    for (int c = 0; c < 4; ++c) {
        std::string prev = "carriage";
        for (int i = 0; i < 20; ++i) {
            const std::string name = test::indexed("bob", c * 100 + i);
            const Vec3 p(-1.5 + c, 20.0 - 0.3 * (i + 1), 0.1 * i);
            s.bodies.push_back(test::sphere(name, p, 1.0, 0.05));
            s.joints.push_back(
                test::joint<SphericalJoint>(s, name + " link", prev, name, p + Vec3(0, 0.15, -0.05)));
            prev = name;
        }
    }
    return s;
}

/// A 100-link hinge chain hung 1 m above the ground plane: it lands and drags, so the step has
/// contact batches, which every part waits for (solver::sweepParts).
Scene chainOnTheGround() {
    Scene s = hingeChain(100, 1.0);
    s.settings.groundPlane = true;
    return s;
}

/// Largest and RMS distance between the two anchors of every joint.
void separation(const World& w, Real& maxSep, Real& rms) {
    maxSep = 0.0;
    Real sum = 0.0;
    const int n = static_cast<int>(w.scene().joints.size());
    for (int j = 0; j < n; ++j) {
        const Real d = glm::length(test::anchor0(w, j) - test::anchor1(w, j));
        maxSep = std::max(maxSep, d);
        sum += d * d;
    }
    rms = std::sqrt(sum / n);
}

// [SECTION] determinism

// The same thread count gives the same bits: run to run, and with the AVX2 or the plain kernel.
// A different count gives a different (but as valid) result: the joints between parts move to
// the start of each sweep, and the other parts sweep the batches that share no body with them
// at the same time.
TEST(Threads, TheSameCountGivesTheSameBitsOnBothKernels) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS})
        for (Scene s : {hingeChain(100), ballGrid(12), carriageChains(), chainOnTheGround()})
            for (int threads : {2, 3}) {
                s.settings.solver = solver;
                Scene one = s;
                one.settings.threads = 1;
                s.settings.threads = threads;
                World a(s), b(s), c(s), d(s), single(one);
                bool differs = false;
                int contactRows = 0;
                for (int i = 0; i < 240; ++i) {
                    setSolverKernel(SolverKernel::Auto);
                    a.step();
                    c.step();
                    single.step();
                    // TGS's substeps in one fork, or (d) a fork per substep (solver::sweepPartsTogether)
                    solver::gSweepTogether = false;
                    d.step();
                    solver::gSweepTogether = true;
                    setSolverKernel(SolverKernel::Scalar);
                    b.step();
                    ASSERT_EQ(a.stateHash(), b.stateHash())
                        << "kernels differ, step " << i << ", " << threads << " threads";
                    ASSERT_EQ(a.stateHash(), c.stateHash()) << "runs differ, step " << i;
                    ASSERT_EQ(a.stateHash(), d.stateHash())
                        << "one fork per solve and one per substep differ, step " << i;
                    differs = differs || a.stateHash() != single.stateHash();
                    contactRows = std::max(contactRows, a.contactRowCount());
                    if (i % 60 != 59) continue;
                    // The rows (the AVX2 lock batches build theirs on request, the threads sharing
                    // the batches) and the joint forces worked out from them.
                    const auto ra = a.rows(), rb = b.rows();
                    ASSERT_EQ(ra.size(), rb.size());
                    for (size_t k = 0; k < ra.size(); ++k)
                        ASSERT_EQ(std::memcmp(&ra[k].linear0, &rb[k].linear0, 16 * sizeof(Real)), 0)
                            << "step " << i << " row " << k;
                    for (int j = 0; j < static_cast<int>(s.joints.size()); ++j)
                        ASSERT_EQ(std::memcmp(&a.jointState(j).force, &b.jointState(j).force, sizeof(Vec3)),
                                  0)
                            << "joint " << j;
                    ASSERT_EQ(a.activeJointRowCount(), b.activeJointRowCount());
                }
                EXPECT_TRUE(differs) << "the split changed nothing: was the scene solved in parts at all?";
                // (links of the chain in the air may also touch each other: body contacts)
                if (s.settings.groundPlane)
                    EXPECT_GT(contactRows, 0) << "the chain on the ground should touch it";
                // Every body moved once per substep: the kinematic carriage (a body two parts
                // share, integrated by task 0) is where 1 m/s puts it after 4 s, and every
                // dynamic body has moved.
                if (const int carriage = s.findBody("carriage"); carriage >= 0) {
                    EXPECT_NEAR(a.bodies()[static_cast<size_t>(carriage)].pose.p.x, 4.0, 1e-9);
                }
                for (size_t k = 0; k < s.bodies.size(); ++k) {
                    if (s.bodies[k].motion != MotionType::Dynamic) continue;
                    ASSERT_GT(glm::length(a.bodies()[k].pose.p - s.bodies[k].position), 1e-3)
                        << s.bodies[k].name;
                }
                // and the residuals, summed part after part
                ASSERT_EQ(a.lastResiduals().size(), b.lastResiduals().size());
                for (size_t k = 0; k < a.lastResiduals().size(); ++k)
                    EXPECT_EQ(a.lastResiduals()[k], b.lastResiduals()[k]);
            }
    setSolverKernel(SolverKernel::Auto);
}

// Breaking joints, snapshots and changing the count mid-run: two worlds that do the same
// things stay bit-identical, and a restored snapshot continues as the run did.
TEST(Threads, BreakingRestoringAndSwitchingCountsStayDeterministic) {
    Scene s = hingeChain(100);
    s.joints[75].breakForce = 60.0;  // breaks as the chain swings down
    s.settings.threads = 2;
    World a(s), b(s);
    WorldSnapshot snap;
    uint64_t at300 = 0;
    const int counts[] = {2, 3, 1, 2};
    for (int i = 0; i < 400; ++i) {
        if (i % 100 == 0) a.settings().threads = b.settings().threads = counts[i / 100];
        a.step();
        b.step();
        ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << i;
        if (i == 250) snap = a.snapshot();
        if (i == 299) at300 = a.stateHash();
    }
    EXPECT_FALSE(a.breakEvents().empty()) << "the weak joint should have broken";
    a.restore(snap);
    a.settings().threads = 1;  // the count of steps 200..299
    for (int i = 251; i < 300; ++i) a.step();
    EXPECT_EQ(a.stateHash(), at300);
}

// A part has at least 32 joints: a smaller scene is solved in fewer parts (a 10-link chain in
// one, the one-thread bits), a larger one in as many as asked for.
TEST(Threads, SmallScenesAreNotSplit) {
    // Whether a chain of `links` hinges on two threads ends 2 s as on one, bit for bit.
    auto sameAsOneThread = [](int links) {
        Scene s = hingeChain(links);
        Scene two = s;
        two.settings.threads = 2;
        World a(s), b(two);
        for (int i = 0; i < 120; ++i) {
            a.step();
            b.step();
        }
        return a.stateHash() == b.stateHash();
    };
    EXPECT_TRUE(sameAsOneThread(10));
    EXPECT_TRUE(sameAsOneThread(63));
    EXPECT_FALSE(sameAsOneThread(64)) << "64 links: two parts of 32";
}

// [SECTION] physics

// A chain hanging at rest: the top joint carries the whole chain's weight, also when the chain is
// solved as two parts with the joints between them first. Averaged over two seconds the momentum
// balance makes it exact up to the chain's remaining motion. 16 iterations leave a 64-link
// chain stretched (the bias and the iterations balance): two parts stretch it as one does.
TEST(Threads, AHangingChainReportsItsWholeWeightAtTheTop) {
    constexpr int n = 64;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Real stretch[2] = {};
        for (int threads : {1, 2}) {
            Scene s;
            s.settings.groundPlane = false;
            s.settings.solver = solver;
            s.settings.threads = threads;
            s.settings.posIters = 16;  // (at 4 a 64-link chain still sways after 30 s)
            std::string prev;
            for (int i = 0; i < n; ++i) {
                const std::string name = test::indexed("bob", i);
                s.bodies.push_back(test::sphere(name, Vec3(0, 20.0 - 0.5 * (i + 1), 0), 1.0, 0.1));
                s.joints.push_back(test::joint<SphericalJoint>(s, test::indexed("link", i), prev, name,
                                                               Vec3(0, 20.0 - 0.5 * i - 0.25, 0)));
                prev = name;
            }
            World w(s);
            for (int i = 0; i < 1800; ++i) w.step();
            Vec3 sum(0.0);
            for (int i = 0; i < 120; ++i) {
                w.step();
                sum += w.jointState(0).force;
            }
            const Vec3 f = sum / 120.0;
            const Real weight = n * 9.81;
            // Force on body 1 (the top bob) from the world: up, the whole chain's weight.
            EXPECT_NEAR(f.y, weight, 1e-3 * weight)
                << kSolverTypeNames[int(solver)] << ", " << threads << " threads";
            EXPECT_NEAR(f.x, 0.0, 1e-6 * weight);
            EXPECT_NEAR(f.z, 0.0, 1e-6 * weight);
            // the bottom bob's height: the chain's stretch
            stretch[threads - 1] = (20.0 - 0.5 * n) - w.bodies()[n - 1].pose.p.y;
        }
        EXPECT_GT(stretch[0], 0.0);
        EXPECT_NEAR(stretch[1], stretch[0], 0.1 * stretch[0]) << kSolverTypeNames[int(solver)];
        std::printf("%s: hanging 64-link chain stretched by %.4g m (1 thread), %.4g m (2 threads)\n",
                    kSolverTypeNames[int(solver)], stretch[0], stretch[1]);
    }
}

// The grid solved in parts holds together about as well as in one, and loses energy as the
// one-thread solve does (PGS and TGS never add it here). Four parts of the 32×32 grid keep the
// ordered colours too: a part's colours are judged over the windows that hold its joints (when
// every window of the scene counted, the parts took plain colours and stretched twice as much
// under TGS: 0.0318 m against 0.0165 m on one thread).
TEST(Threads, AGridInPartsHoldsTogetherAsWellAsInOne) {
    struct Case {
        int n, threads;
    };
    for (const Case c : {Case{16, 2}, Case{32, 4}})
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            Scene s = ballGrid(c.n);
            s.settings.solver = solver;
            Real rms[2] = {}, energy[2] = {};
            for (int k : {0, 1}) {
                s.settings.threads = k == 0 ? 1 : c.threads;
                World w(s);
                const Real e0 = w.kineticEnergy() + w.potentialEnergy();
                for (int i = 0; i < 120; ++i) w.step();
                Real maxSep;
                separation(w, maxSep, rms[k]);
                energy[k] = w.kineticEnergy() + w.potentialEnergy() - e0;
            }
            EXPECT_LT(rms[1], 1.25 * rms[0] + 1e-4)
                << kSolverTypeNames[int(solver)] << " " << c.n << ": 1 thread " << rms[0] << " m, "
                << c.threads << ": " << rms[1];
            EXPECT_LE(energy[1], 1e-6) << kSolverTypeNames[int(solver)];
            std::printf(
                "%s grid %dx%d after 2 s: separation RMS %.4g m (1 thread) %.4g m (%d), energy change %.4g J "
                "/ %.4g J\n",
                kSolverTypeNames[int(solver)], c.n, c.n, rms[0], rms[1], c.threads, energy[0], energy[1]);
        }
}

// [SECTION] the one-fork solve (solver::sweepPartsTogether)

// Three parts, each on a thread of its own (the core count raised for the test, so the pool has
// two workers on this 2-core machine): the one-fork solve gives the bits of a fork per sweep.
TEST(Threads, OneForkPerSolveGivesTheBitsOfAForkPerSweepInThreeParts) {
    solver::WorkerPool::overrideUsableCores(3);
    for (SolverType solver : {SolverType::PGS, SolverType::TGS})
        for (Scene s : {hingeChain(150), chainOnTheGround()}) {
            s.settings.solver = solver;
            s.settings.threads = 3;
            World a(s), b(s);
            for (int i = 0; i < 90; ++i) {
                a.step();
                solver::gSweepTogether = false;
                b.step();
                solver::gSweepTogether = true;
                ASSERT_EQ(a.stateHash(), b.stateHash()) << kSolverTypeNames[int(solver)] << ", step " << i;
            }
        }
    solver::WorkerPool::overrideUsableCores(0);
}

// Task 0 sweeps sweep k's joints between parts only once the other parts have finished sweep
// k − 1, whatever the sweep count says: with the count 2^31 or more past a part's flag (a part
// that appears late, or that many sweeps forked one by one) the flag read as already reached.
TEST(Threads, TheJointsBetweenPartsWaitForTheOtherPartsAtAnySweepCount) {
    for (const uint32_t start : {0u, 0x7ffffff0u, 0x80000005u, 0xfffffffeu}) {
        solver::Data data;       // (its flags at 0)
        data.batches.resize(5);  // part 0: [0, 2), part 1: [2, 4), the joints between them: [4, 5)
        data.partStart = {0, 2, 4};
        data.partWait = {0, 4};
        data.jointBatchEnd = 5;
        data.pool = &solver::WorkerPool::shared(1);
        data.sweepTicket = start;
        std::atomic<int> partOneDone{-1};
        int early = 0;
        auto range = [&](int k, int begin, int end, solver::LaneSums&) {
            if (begin == 2 && end == 4) {  // part 1: slow
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                partOneDone = k;
            }
            if (begin == 4 && end == 5 && partOneDone.load() < k - 1) ++early;  // the joints between parts
        };
        std::vector<Real> residuals;
        ASSERT_TRUE(solver::sweepPartsTogether(
            data, 4, range, [](int, int) {}, residuals));
        EXPECT_EQ(early, 0) << "sweep count started at " << start;
        EXPECT_EQ(residuals.size(), 4u);
        EXPECT_EQ(data.sweepTicket, start + 4u);
    }
}

}  // namespace
}  // namespace jl
