// History (jointlab/history.h): every step of a run again, bit for bit, across mouse forces, edits
// and setting changes; branches that keep the old future; a budget that drops the oldest first.
#include "jointlab/history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "jointlab/engine_version.h"
#include "jointlab/history_io.h"
#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_files.h"
#include "test_util.h"

namespace jl {
namespace {

namespace fs = std::filesystem;

using test::exampleScenario;

std::vector<fs::path> examples() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios"))
        if (e.path().extension() == ".json") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// The first dynamic body (the one a user would pull), or −1.
int firstDynamic(const Scene& s) {
    for (size_t i = 0; i < s.bodies.size(); ++i)
        if (s.bodies[i].motion == MotionType::Dynamic) return static_cast<int>(i);
    return -1;
}

/// A live run of `steps` steps recorded into `h`: a pull on a body over steps 20–59, a setting
/// change at step 70 and a scene edit (gravity) at step 90. Returns the state hash after every
/// step (index = step count), and after each change at its step.
std::vector<uint64_t> recordRun(World& w, History& h, int steps) {
    h.start(w);
    std::vector<uint64_t> hashes(static_cast<size_t>(w.stepCount() + steps + 1), 0);
    hashes[static_cast<size_t>(w.stepCount())] = w.stateHash();
    const int pulled = firstDynamic(w.scene());
    for (int i = 0; i < steps; ++i) {
        const int64_t n = w.stepCount();
        if (n == 70) {
            w.settings().posIters += 3;
            h.changed(w, HistoryMark::Setting, "position iterations + 3");
        }
        if (n == 90) {
            Scene edited = w.scene();
            edited.settings.gravity = Vec3(0.5, -7.0, 0.0);
            const Scene previous = w.scene();
            w.applyScene(edited, previous);
            h.changed(w, HistoryMark::Edit, "gravity");
        }
        if (pulled >= 0 && n >= 20 && n < 60) {
            const BodyState& b = w.bodies()[static_cast<size_t>(pulled)];
            h.applyForce(w, pulled, Vec3(3.0 * std::sin(0.1 * static_cast<Real>(n)), 4.0, 1.0),
                         b.pose.p + Vec3(0.01, 0.0, 0.0));
        }
        w.step();
        h.stepped(w);
        hashes[static_cast<size_t>(w.stepCount())] = w.stateHash();
    }
    return hashes;
}

TEST(History, PackedSnapshotsReadBackExactlyAndDamageIsRefused) {
    std::string error;
    const Scene s = exampleScenario("bridge.json");
    World w(s);
    for (int i = 0; i < 200; ++i) w.step();
    const WorldSnapshot snap = w.snapshot();
    // Packed with its scene, as History does (the joints predict the bodies' positions and
    // velocities): read back with another scene or none, the predictions differ and the check
    // word refuses it.
    const std::vector<uint64_t> packed = packSnapshot(snap, &s);
    WorldSnapshot back;
    EXPECT_FALSE(unpackSnapshot(packed, back)) << "unpacked without the scene it was packed with";
    Scene other = s;
    other.joints[0].frame1.p.x += 1e-3;
    EXPECT_FALSE(unpackSnapshot(packed, back, &other)) << "unpacked with another scene";
    ASSERT_TRUE(unpackSnapshot(packed, back, &s));
    World again(s);
    again.restore(back);
    EXPECT_EQ(again.stateHash(), w.stateHash());
    EXPECT_EQ(back.broken, snap.broken);
    EXPECT_EQ(back.contactImpulses.size(), snap.contactImpulses.size());
    EXPECT_TRUE(
        std::equal(back.contactImpulses.begin(), back.contactImpulses.end(), snap.contactImpulses.begin()));
    // Damaged words never read as a snapshot: cut anywhere, one word more, any one bit flipped
    // (in the count, the coded words, the padding or the check word).
    for (size_t n = 0; n < packed.size(); ++n)
        EXPECT_FALSE(unpackSnapshot(std::span(packed).first(n), back, &s)) << "cut to " << n << " words";
    std::vector<uint64_t> longer = packed;
    longer.insert(longer.end() - 1, 0);
    EXPECT_FALSE(unpackSnapshot(longer, back, &s)) << "a word of padding more";
    for (size_t i = 0; i < packed.size(); ++i) {
        for (int bit : {0, 31, 63}) {
            std::vector<uint64_t> flipped = packed;
            flipped[i] ^= uint64_t{1} << bit;
            EXPECT_FALSE(unpackSnapshot(flipped, back, &s)) << "word " << i << " bit " << bit;
        }
    }
    const std::vector<uint64_t> huge = {uint64_t{1} << 40, 0, 0};
    EXPECT_FALSE(unpackSnapshot(huge, back, &s)) << "a count beyond any world";
}

// Every example, both solvers, mid-run: the packed keyframe reads back to the same bits, packed
// with its scene (every joint type's bodies predicted or not) and without. And swinging chains of
// boxes (the history benchmark's scene, 10 chains of 10 instead of 100) pack into fewer words
// than their bodies' 13 doubles each: a link's field XORed with the link before's mostly starts
// with the zero nibbles of a shared sign and exponent, w with its prediction from x, y, z more so
// (keyframe_packing.cpp). With the scene, a link's position and velocity XORed with the ones its
// hinge to the link before implies share more: the hinge holds them to its drift. Format 1 took
// all the words; docs/bench_history.md has the benchmark's 1000 bodies.
TEST(History, PackingIsExactOnEveryExampleAndSmallerForAChain) {
    for (const fs::path& path : examples()) {
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario(path.string(), scene, error)) << error;
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            scene.settings.solver = solver;
            World w(scene);
            for (int i = 0; i < 90; ++i) w.step();
            for (const Scene* with :
                 {static_cast<const Scene*>(nullptr), static_cast<const Scene*>(&scene)}) {
                const std::vector<uint64_t> packed = packSnapshot(w.snapshot(), with);
                WorldSnapshot back;
                ASSERT_TRUE(unpackSnapshot(packed, back, with)) << path.filename();
                World again(scene);
                again.restore(back);
                EXPECT_EQ(again.stateHash(), w.stateHash())
                    << path.filename() << " " << kSolverTypeNames[int(solver)]
                    << (with ? " with" : " without") << " the scene";
                EXPECT_EQ(back.stepCount, w.stepCount());
            }
        }
    }
    Scene chains;
    chains.settings.groundPlane = false;
    const Quat hinge = glm::angleAxis(-kPi / 2, Vec3(0, 1, 0)), tilt = glm::angleAxis(kPi / 6, Vec3(0, 0, 1));
    for (int c = 0; c < 10; ++c) {
        const Vec3 top(2.0 * c, 12.0, 0.0);
        for (int i = 0; i < 10; ++i) {
            BodyDesc b;
            b.name = "c";  // (appended: GCC 12 warns about "c" + std::string, wrongly)
            b.name += std::to_string(c) + '_' + std::to_string(i);
            b.shape = ShapeType::Box;
            b.halfExtents = Vec3(0.05, 0.2, 0.05);
            b.position = top + tilt * Vec3(0.0, -0.4 * i - 0.2, 0.0);
            b.orientation = tilt;
            chains.bodies.push_back(b);
            JointDesc j;
            j.name = "j" + b.name;
            j.body0 = i == 0 ? "" : chains.bodies[chains.bodies.size() - 2].name;
            j.body1 = b.name;
            j.frame0 = i == 0 ? Transform{top + tilt * Vec3(0.0, -0.4 * i, 0.0), tilt * hinge}
                              : Transform{Vec3(0.0, -0.2, 0.0), hinge};
            j.frame1 = Transform{Vec3(0.0, 0.2, 0.0), hinge};
            j.params = RevoluteJoint{};
            chains.joints.push_back(j);
        }
    }
    World w(chains);
    for (int i = 0; i < 120; ++i) w.step();
    const std::vector<uint64_t> alone = packSnapshot(w.snapshot()),
                                packed = packSnapshot(w.snapshot(), &chains);
    WorldSnapshot back;
    ASSERT_TRUE(unpackSnapshot(packed, back, &chains));
    World again(chains);
    again.restore(back);
    EXPECT_EQ(again.stateHash(), w.stateHash());
    const double bodyWords = 13.0 * static_cast<double>(chains.bodies.size());
    EXPECT_LT(static_cast<double>(alone.size()), 0.95 * bodyWords);
    // Measured: 0.962 of the words without the scene after these 2 s (0.91 on the benchmark's 1000
    // bodies after minutes of swinging); a wrong anchor or lever arm would make it larger.
    EXPECT_LT(static_cast<double>(packed.size()), 0.98 * static_cast<double>(alone.size()));
    std::printf(
        "[ packed   ] 100 swinging boxes: %zu words for %.0f words of bodies (%.3f); %zu without the "
        "scene (%.3f)\n",
        packed.size(), bodyWords, static_cast<double>(packed.size()) / bodyWords, alone.size(),
        static_cast<double>(alone.size()) / bodyWords);
}

// The test: every example, both solvers, across a mouse drag, a setting change and an
// edit; every step reached in a scrambled order gives the state the run had, to the bit.
TEST(History, ScrubbingGivesTheRunsStateOnEveryExampleAndBothSolvers) {
    int checked = 0;
    for (const fs::path& path : examples()) {
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario(path.string(), scene, error)) << error;
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            scene.settings.solver = solver;
            World w(scene);
            History h(History::Budget{size_t{64} << 20, 16});
            const std::vector<uint64_t> hashes = recordRun(w, h, 130);
            const int64_t first = h.firstStep(), last = h.lastStep();
            ASSERT_EQ(last - first, 130) << path.filename();
            std::vector<int64_t> order;
            for (int64_t s = first; s <= last; ++s) order.push_back(s);
            std::mt19937 rng(7);
            std::shuffle(order.begin(), order.end(), rng);
            for (int64_t s : order) {
                ASSERT_EQ(h.seek(s).stateHash(), hashes[static_cast<size_t>(s)])
                    << path.filename().string() << " " << kSolverTypeNames[int(solver)] << " step " << s;
                ++checked;
            }
            // Stepping forward one at a time (the → key) as well.
            for (int64_t s = first; s <= last; ++s)
                ASSERT_EQ(h.seek(s).stateHash(), hashes[static_cast<size_t>(s)])
                    << path.filename() << " step " << s;
        }
    }
    EXPECT_GT(checked, 2000);
}

// A scrubbed step shows that step's rows: the same row results as the live run had then.
TEST(History, AScrubbedStepHasTheRowsOfThatStep) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    World w(scene);
    History h(History::Budget{size_t{64} << 20, 10});
    h.start(w);
    std::vector<std::vector<Real>> impulses;
    impulses.emplace_back();
    for (int i = 0; i < 60; ++i) {
        w.step();
        h.stepped(w);
        std::vector<Real> row;
        for (const RowResult& r : w.rowResults()) row.push_back(r.impulse);
        impulses.push_back(row);
    }
    for (int64_t s : {57, 13, 40, 1, 30, 31}) {
        const World& then = h.seek(s);
        std::vector<Real> row;
        for (const RowResult& r : then.rowResults()) row.push_back(r.impulse);
        EXPECT_EQ(row, impulses[static_cast<size_t>(s)]) << "step " << s;
    }
}

// Continuing from a scrubbed step with nothing changed retakes the recorded run, its pulls and
// its edits included: no branch, the same states, and live again past the end.
TEST(History, ResumingWithoutAChangeRetakesTheSameRun) {
    std::string error;
    const Scene scene = exampleScenario("showcase.json");
    World w(scene);
    History h(History::Budget{size_t{64} << 20, 8});
    const std::vector<uint64_t> hashes = recordRun(w, h, 120);
    std::unique_ptr<World> live = h.worldAt(35);
    for (int i = 0; i < 100; ++i) {
        if (h.changeAt(live->stepCount())) live = h.worldAt(live->stepCount());
        EXPECT_EQ(h.replayForces(*live), live->stepCount() < 120);
        live->step();
        h.stepped(*live);
        if (live->stepCount() <= 120) {
            EXPECT_EQ(live->stateHash(), hashes[static_cast<size_t>(live->stepCount())]);
        }
    }
    EXPECT_EQ(h.branches().size(), 1u);
    EXPECT_EQ(h.lastStep(), 135) << "live again past the end: the branch grows";
    EXPECT_TRUE(h.changeAt(70) && h.changeAt(90) && !h.changeAt(71));
}

// Editing at a scrubbed step starts a branch; the old future stays reachable in its branch.
TEST(History, AnEditInThePastBranchesAndKeepsTheOldFuture) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    World w(scene);
    History h(History::Budget{size_t{64} << 20, 12});
    const std::vector<uint64_t> old = recordRun(w, h, 120);

    std::unique_ptr<World> live = h.worldAt(50);
    live->settings().solver = live->settings().solver == SolverType::PGS ? SolverType::TGS : SolverType::PGS;
    h.changed(*live, HistoryMark::Setting, "solver");
    std::vector<uint64_t> fresh(200, 0);
    fresh[50] = live->stateHash();
    ASSERT_EQ(h.branches().size(), 2u);
    EXPECT_EQ(h.currentBranch(), 1);
    EXPECT_EQ(h.branches()[1].fork, 50);
    for (int i = 0; i < 100; ++i) {
        live->step();
        h.stepped(*live);
        fresh[static_cast<size_t>(live->stepCount())] = live->stateHash();
    }
    EXPECT_EQ(h.lastStep(), 150);
    EXPECT_NE(fresh[100], old[100]);
    // The new branch: its own steps, and its parent's before the fork.
    for (int64_t s : {149, 51, 120, 50}) EXPECT_EQ(h.seek(s).stateHash(), fresh[static_cast<size_t>(s)]) << s;
    for (int64_t s : {49, 10, 0}) EXPECT_EQ(h.seek(s).stateHash(), old[static_cast<size_t>(s)]) << s;
    // The old future.
    ASSERT_TRUE(h.switchBranch(0));
    EXPECT_EQ(h.lastStep(), 120);
    for (int64_t s : {120, 51, 90, 70}) EXPECT_EQ(h.seek(s).stateHash(), old[static_cast<size_t>(s)]) << s;
    // A pull in the past of branch 0 branches too.
    std::unique_ptr<World> again = h.worldAt(100);
    h.applyForce(*again, firstDynamic(scene), Vec3(0, 50, 0), again->bodies()[0].pose.p);
    EXPECT_EQ(h.branches().size(), 3u);
    EXPECT_EQ(h.branches()[2].parent, 0);
    // Deleting: not the current one, not one another starts from.
    std::string why;
    EXPECT_FALSE(h.deleteBranch(2, why));
    EXPECT_FALSE(h.deleteBranch(0, why));
    ASSERT_TRUE(h.switchBranch(1));
    EXPECT_FALSE(h.deleteBranch(0, why)) << "branch 1 starts from it";
    const size_t before = h.bytes();
    EXPECT_TRUE(h.deleteBranch(2, why)) << why;
    EXPECT_LT(h.bytes(), before);
    EXPECT_EQ(h.seek(140).stateHash(), fresh[140]);
    const std::vector<HistoryEvent> marks = h.events();
    EXPECT_TRUE(std::any_of(marks.begin(), marks.end(), [](const HistoryEvent& e) {
        return e.kind == HistoryMark::Branch && e.step == 50;
    }));
}

// Another branch than the current one (what the app draws as a ghost): its states, its forces
// retaken step by step, and the step where two lineages part.
TEST(History, AnotherBranchIsReachableWhileOneIsCurrent) {
    const Scene scene = exampleScenario("chain20.json");
    World w(scene);
    History h(History::Budget{size_t{64} << 20, 12});
    const std::vector<uint64_t> old = recordRun(w, h, 120);  // a pull over steps 20–59
    std::unique_ptr<World> live = h.worldAt(30);
    live->settings().posIters += 5;
    h.changed(*live, HistoryMark::Setting, "position iterations");
    for (int i = 0; i < 40; ++i) {
        live->step();
        h.stepped(*live);
    }
    ASSERT_EQ(h.currentBranch(), 1);
    EXPECT_EQ(h.divergenceStep(1, 0), 30);
    EXPECT_EQ(h.divergenceStep(0, 1), 30);
    EXPECT_GT(h.divergenceStep(1, 1), h.lastStep(1)) << "a branch never parts from itself";
    EXPECT_EQ(h.lastStep(0), 120);
    EXPECT_EQ(h.lastStep(1), 70);
    // Branch 0 while branch 1 is current: a jump, then its own recorded pull retaken step by step.
    std::unique_ptr<World> ghost = h.worldAt(0, 25);
    ASSERT_NE(ghost, nullptr);
    EXPECT_EQ(ghost->stateHash(), old[25]);
    for (int64_t s = 25; s < 120; ++s) {
        if (h.changeAt(0, s)) ghost = h.worldAt(0, s);
        EXPECT_TRUE(h.replayForces(0, *ghost));
        ghost->step();
        ASSERT_EQ(ghost->stateHash(), old[static_cast<size_t>(s + 1)]) << "step " << s + 1;
    }
    EXPECT_FALSE(h.replayForces(0, *ghost)) << "past the branch's end";
    EXPECT_EQ(h.currentBranch(), 1) << "looking at another branch does not switch";
    // The live run goes on past periodic keyframes after that look at branch 0 (another scene):
    // its own keyframes still hold its scene, so going back in it gives what it ran.
    std::vector<uint64_t> mine(120, 0);
    for (int i = 0; i < 30; ++i) {
        live->step();
        h.stepped(*live);
        mine[static_cast<size_t>(live->stepCount())] = live->stateHash();
    }
    for (int64_t s : {100, 85, 71}) EXPECT_EQ(h.seek(s).stateHash(), mine[static_cast<size_t>(s)]) << s;
    EXPECT_EQ(h.worldAt(7, 10), nullptr) << "no such branch";
    // A third branch off branch 1 parts from branch 0 where branch 1 did.
    std::unique_ptr<World> third = h.worldAt(1, 50);
    third->settings().velIters += 1;
    h.changed(*third, HistoryMark::Setting, "velocity iterations");
    EXPECT_EQ(h.currentBranch(), 2);
    EXPECT_EQ(h.divergenceStep(2, 0), 30);
    EXPECT_EQ(h.divergenceStep(2, 1), 50);
}

// Over budget, the oldest keyframes go: the newest steps stay exact, the start moves up, and the
// total stays within the budget.
TEST(History, OverBudgetTheOldestIsDroppedNeverTheNewest) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    World probe(scene);
    const size_t key = packSnapshot(probe.snapshot(), &scene).size() * sizeof(uint64_t);
    History one(History::Budget{size_t{64} << 20, 5});
    one.start(probe);
    // The run's three scenes (start, setting, edit) and about a dozen keyframes.
    History h(History::Budget{3 * one.bytes() + 12 * key, 5});
    World w(scene);
    std::vector<uint64_t> hashes = recordRun(w, h, 300);
    EXPECT_LE(h.bytes(), h.budget().bytes);
    EXPECT_GT(h.droppedBefore(), 0);
    EXPECT_GT(h.firstStep(), 100) << "most of the 300 steps are gone";
    EXPECT_EQ(h.firstStep(), h.droppedBefore());
    EXPECT_EQ(h.lastStep(), 300);
    for (int64_t s = h.firstStep(); s <= 300; ++s)
        ASSERT_EQ(h.seek(s).stateHash(), hashes[static_cast<size_t>(s)]) << s;
    EXPECT_EQ(h.seek(0).stepCount(), h.firstStep()) << "a step before the history clamps to its start";
}

// The automatic interval fits 10 minutes at 60 Hz of the scene within the budget.
TEST(History, TheAutomaticIntervalFitsTenMinutes) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    World w(scene);
    History h(History::Budget{size_t{16} << 20, 0});
    h.start(w);
    EXPECT_LE(h.interval(), 64) << "jumps re-simulate at most 63 steps";
    const size_t key = packSnapshot(w.snapshot(), &scene).size() * sizeof(uint64_t);
    const Real steps = 600.0 / scene.settings.dt;
    EXPECT_GE(h.interval(), 1);
    EXPECT_LE(steps / h.interval() * static_cast<Real>(key), static_cast<Real>(h.budget().bytes));
}

// [SECTION] files

// Saved and read back, a history reaches the same bits, in every branch.
TEST(HistoryFile, ReadsBackToTheSameBits) {
    std::string error;
    const Scene scene = exampleScenario("showcase.json");
    World w(scene);
    History h(History::Budget{size_t{64} << 20, 9});
    const std::vector<uint64_t> old = recordRun(w, h, 120);
    std::unique_ptr<World> live = h.worldAt(60);
    live->settings().velIters += 2;
    h.changed(*live, HistoryMark::Setting, "velocity iterations + 2");
    std::vector<uint64_t> fresh(200, 0);
    fresh[60] = live->stateHash();
    for (int i = 0; i < 40; ++i) {
        live->step();
        h.stepped(*live);
        fresh[static_cast<size_t>(live->stepCount())] = live->stateHash();
    }
    const std::string text = serializeHistory(h, scene);
    History back;
    ASSERT_TRUE(parseHistory(text, scene, back, error)) << error;
    EXPECT_EQ(serializeHistory(back, scene), text) << "save, load, save: the same text";
    EXPECT_EQ(back.currentBranch(), 1);
    for (int64_t s : {100, 61, 60, 59, 3})
        EXPECT_EQ(back.seek(s).stateHash(),
                  s >= 60 ? fresh[static_cast<size_t>(s)] : old[static_cast<size_t>(s)])
            << s;
    ASSERT_TRUE(back.switchBranch(0));
    for (int64_t s : {120, 95, 71}) EXPECT_EQ(back.seek(s).stateHash(), old[static_cast<size_t>(s)]) << s;
    const std::vector<HistoryEvent> marks = back.events();
    ASSERT_EQ(marks.size(), 2u);
    EXPECT_TRUE(marks[0].step == 70 && marks[0].kind == HistoryMark::Setting);
    EXPECT_TRUE(marks[1].step == 90 && marks[1].kind == HistoryMark::Edit);
}

// A history that does not match the scenario it is opened with is refused, saying which.
TEST(HistoryFile, AMismatchIsRefusedSayingWhich) {
    std::string error;
    const Scene scene = exampleScenario("chain20.json");
    World w(scene);
    History h(History::Budget{size_t{64} << 20, 10});
    recordRun(w, h, 40);
    const std::string text = serializeHistory(h, scene);
    History out;
    auto refused = [&](const std::string& t, const Scene& s, const char* expect) {
        std::string e;
        EXPECT_FALSE(parseHistory(t, s, out, e)) << expect;
        EXPECT_NE(e.find(expect), std::string::npos) << e;
        EXPECT_FALSE(out.started()) << "a refused file changes nothing";
    };
    Scene other = scene;
    other.bodies[0].mass *= 2.0;
    refused(text, other, "scenarioHash: the history belongs to another scenario");
    std::string engine = text;
    const std::string version = "\"engineVersion\": " + std::to_string(kEngineResultsVersion);
    ASSERT_NE(engine.find(version), std::string::npos);
    engine.replace(engine.find(version), version.size(), "\"engineVersion\": 1");
    refused(engine, scene, "engineVersion: the history was recorded by engine results version 1");
    // Files of formats 1 and 2 (their keyframes packed the old ways), and one from a newer JointLab.
    std::string v1 = text, v2 = text, v4 = text;
    const std::string format = "\"version\": " + std::to_string(kHistoryFormatVersion);
    ASSERT_NE(v1.find(format), std::string::npos);
    v1.replace(v1.find(format), format.size(), "\"version\": 1");
    refused(v1, scene, "version: 1 packs its keyframes the way JointLab did before version 3");
    v2.replace(v2.find(format), format.size(), "\"version\": 2");
    refused(v2, scene, "version: 2 packs its keyframes the way JointLab did before version 3");
    v4.replace(v4.find(format), format.size(), "\"version\": 4");
    refused(v4, scene, "version: 4 is newer than this JointLab (3)");
    // A keyframe cut short.
    std::string cut = text;
    const size_t words = cut.find("\"words\": \"");
    ASSERT_NE(words, std::string::npos);
    cut.erase(words + 12, 16);
    refused(cut, scene, "branches[0].keyframes[0].words: a truncated or damaged keyframe");
    // One hexadecimal digit changed in the middle of a keyframe (its check word catches it).
    std::string damaged = text;
    const size_t middle = words + 10 + (damaged.find('"', words + 10) - words - 10) / 2;
    damaged[middle] = damaged[middle] == '0' ? '1' : '0';
    refused(damaged, scene, "branches[0].keyframes[0].words: a truncated or damaged keyframe");
    refused(text.substr(0, text.size() / 2), scene, "");
    refused("{\"format\": \"jointlab-scenario\"}", scene, "format: expected \"jointlab-history\"");
    EXPECT_EQ(historyPathFor("dir/run.json"), "dir/run.history.json");
    EXPECT_EQ(historyPathFor("run"), "run.history.json");
}

}  // namespace
}  // namespace jl
