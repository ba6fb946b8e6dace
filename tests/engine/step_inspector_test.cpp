// Stepping inside a step (jointlab/step_inspector.h): the recorded step, walked row by row and
// sweep by sweep to its end, is the step the world then takes, bit for bit — on several examples,
// PGS and TGS, rows and block point solves, Baumgarte, relax and split impulse corrections. The
// velocities recorded after each body's last visit are its final velocities, a block steps as one
// unit with its K, and the convergence residuals fill in as a prefix of the step's.
#include "jointlab/step_inspector.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_files.h"
#include "test_util.h"

namespace jl {
namespace {

using test::exampleScenario;

bool sameBits(Real a, Real b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}
bool sameBits(const Vec3& a, const Vec3& b) {
    return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

struct Case {
    const char* file;
    SolverType solver;
    PointSolve point;
    Correction correction;
};

std::string label(const Case& c) {
    return std::string(c.file) + " " + kSolverTypeNames[int(c.solver)] + " " +
           kPointSolveNames[int(c.point)] + " " + kCorrectionNames[int(c.correction)];
}

/// Walks the inspector to the end unit by unit, checking the cursor and residuals as it goes.
void walk(StepInspector& ins, const std::string& what) {
    size_t lastResiduals = 0;
    EXPECT_EQ(ins.residualsSoFar().size(), 0u) << what << ": nothing is complete before the first row";
    while (ins.nextUnit()) {
        const size_t r = ins.residualsSoFar().size();
        EXPECT_GE(r, lastResiduals) << what;
        EXPECT_LE(r, lastResiduals + 1) << what << ": sweeps complete one at a time";
        lastResiduals = r;
    }
    ASSERT_TRUE(ins.atEnd());
    const auto all = ins.stepped().lastResiduals();
    ASSERT_EQ(ins.residualsSoFar().size(), all.size()) << what;
    EXPECT_FALSE(ins.nextUnit());
}

TEST(StepInspector, FinishingTheStepGivesTheNormalStepBitForBit) {
    const std::vector<Case> cases = {
        {"showcase.json", SolverType::PGS, PointSolve::Rows, Correction::Baumgarte},
        {"showcase.json", SolverType::TGS, PointSolve::Block, Correction::Relax},
        {"showcase.json", SolverType::PGS, PointSolve::Block, Correction::SplitImpulse},
        {"chain20.json", SolverType::TGS, PointSolve::Rows, Correction::Baumgarte},
        {"chain20.json", SolverType::PGS, PointSolve::Block, Correction::Baumgarte},
        {"gear_train.json", SolverType::PGS, PointSolve::Rows, Correction::Baumgarte},
        {"gear_train.json", SolverType::TGS, PointSolve::Block, Correction::Relax},
        {"d6_ragdoll_shoulder.json", SolverType::TGS, PointSolve::Block, Correction::Relax},
        {"driven_arm.json", SolverType::PGS, PointSolve::Block, Correction::SplitImpulse},
        {"driven_arm.json", SolverType::TGS, PointSolve::Rows, Correction::Relax},
        // body–body and ground contacts (soft contacts under PGS)
        {"box_stack.json", SolverType::PGS, PointSolve::Block, Correction::Relax},
        {"box_stack.json", SolverType::TGS, PointSolve::Rows, Correction::Baumgarte},
        {"gears_contact.json", SolverType::PGS, PointSolve::Rows, Correction::SplitImpulse},
        {"gears_contact.json", SolverType::TGS, PointSolve::Block, Correction::Relax},
    };
    for (const Case& c : cases) {
        const std::string what = label(c);
        Scene s = exampleScenario(c.file);
        s.settings.solver = c.solver;
        s.settings.pointSolve = c.point;
        s.settings.correction = c.correction;
        s.settings.kernel = KernelType::Reference;
        World w(s);
        for (int i = 0; i < 7; ++i) w.step();  // under way: warm starts, tracked angles, motion
        const uint64_t before = w.stateHash();

        StepInspector ins(StepInspector::clone(w));
        EXPECT_EQ(w.stateHash(), before) << what << ": inspecting does not touch the world";
        EXPECT_EQ(ins.fromStep(), w.stepCount()) << what;
        ASSERT_GT(ins.units().size(), 4u) << what;
        walk(ins, what);

        w.step();  // finish step: the normal step
        const World& r = ins.stepped();
        ASSERT_EQ(r.stepCount(), w.stepCount()) << what;
        EXPECT_EQ(r.stateHash(), w.stateHash()) << what;
        const auto ra = r.rowResults(), wa = w.rowResults();
        ASSERT_EQ(ra.size(), wa.size()) << what;
        for (size_t k = 0; k < ra.size(); ++k)
            EXPECT_TRUE(sameBits(ra[k].impulse, wa[k].impulse)) << what << " row " << k;
        // Contact rows are stepped too: every one is visited, each visit names its row, and the λ
        // after a row's last visit is the impulse the step ends with, bit for bit.
        const auto rc = r.contactRowResults(), wc = w.contactRowResults();
        ASSERT_EQ(rc.size(), wc.size()) << what;
        for (size_t k = 0; k < rc.size(); ++k)
            EXPECT_TRUE(sameBits(rc[k].impulse, wc[k].impulse)) << what << " contact row " << k;
        std::vector<int> visited(rc.size(), 0);
        std::vector<Real> lastLambda(rc.size(), 0.0);
        for (const StepInspector::Visit& v : ins.visits()) {
            if (v.joint >= 0) {
                EXPECT_EQ(v.contactRow, -1) << what;
                continue;
            }
            ASSERT_GE(v.contactRow, 0) << what;
            ASSERT_LT(static_cast<size_t>(v.contactRow), rc.size()) << what;
            EXPECT_EQ(v.row, v.contactRow % 3) << what << ": normal, friction 1, friction 2";
            visited[static_cast<size_t>(v.contactRow)] = 1;
            lastLambda[static_cast<size_t>(v.contactRow)] = v.lambdaAfter;
        }
        for (size_t k = 0; k < rc.size(); ++k) {
            if (!rc[k].active) continue;
            EXPECT_TRUE(visited[k]) << what << " contact row " << k << " is stepped";
            EXPECT_TRUE(sameBits(lastLambda[k], wc[k].impulse)) << what << " contact row " << k;
        }
        if (std::string(c.file).rfind("box_stack", 0) == 0 ||
            std::string(c.file).rfind("gears_contact", 0) == 0)
            EXPECT_GT(rc.size(), 0u) << what << ": the scene has contacts";
        const auto rr = r.lastResiduals(), wr = w.lastResiduals();
        ASSERT_EQ(rr.size(), wr.size()) << what;
        for (size_t k = 0; k < rr.size(); ++k) EXPECT_TRUE(sameBits(rr[k], wr[k])) << what << " sweep " << k;

        // The arrows the stepper draws end where the step ends: each body's velocity after its
        // last visit is its final velocity.
        std::vector<int> seen(w.bodies().size(), 0);
        for (const StepInspector::Visit& v : ins.visits())
            for (int b : {v.body0, v.body1})
                if (b >= 0) seen[static_cast<size_t>(b)] = 1;
        int checked = 0;
        for (size_t b = 0; b < seen.size(); ++b) {
            if (!seen[b] || w.scene().bodies[b].motion != MotionType::Dynamic) continue;
            Vec3 lin, ang;
            ins.bodyVelocity(static_cast<int>(b), lin, ang);
            EXPECT_TRUE(sameBits(lin, w.bodies()[b].linearVelocity)) << what << " body " << b;
            EXPECT_TRUE(sameBits(ang, w.bodies()[b].angularVelocity)) << what << " body " << b;
            ++checked;
        }
        EXPECT_GT(checked, 0) << what;
    }
}

TEST(StepInspector, AUserForceAppliedToTheCloneTooKeepsTheStepsEqual) {
    Scene s = exampleScenario("chain20.json");
    s.settings.kernel = KernelType::Reference;
    World w(s);
    for (int i = 0; i < 3; ++i) w.step();
    const Vec3 force(40.0, 0.0, 15.0), point = w.bodies()[5].pose.p + Vec3(0.0, 0.05, 0.0);
    std::unique_ptr<World> next = StepInspector::clone(w);
    next->applyForce(5, force, point);
    StepInspector ins(std::move(next));
    w.applyForce(5, force, point);
    w.step();
    EXPECT_EQ(ins.stepped().stateHash(), w.stateHash());
}

TEST(StepInspector, ABlockStepsAsOneUnitWithItsK) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = exampleScenario("chain20.json");
        s.settings.solver = solver;
        s.settings.pointSolve = PointSolve::Block;
        World w(s);
        w.step();
        StepInspector ins(StepInspector::clone(w));
        int blocks = 0;
        for (const StepInspector::Unit& u : ins.units()) {
            const StepInspector::Visit& first = ins.visits()[u.first];
            if (u.count == 1) {
                EXPECT_EQ(first.block, 0);
                continue;
            }
            ++blocks;
            ASSERT_EQ(u.count, first.block);
            for (int i = 0; i < u.count; ++i) {
                const StepInspector::Visit& v = ins.visits()[u.first + static_cast<size_t>(i)];
                EXPECT_EQ(v.joint, first.joint);
                EXPECT_EQ(v.row, first.row + i) << "a block's rows in order";
                EXPECT_EQ(v.blockK[i], v.K) << "K's diagonal is the row's unit response";
                for (int j = 0; j < u.count; ++j)  // K is symmetric
                    EXPECT_EQ(v.blockK[j], ins.visits()[u.first + static_cast<size_t>(j)].blockK[i]);
            }
        }
        EXPECT_GT(blocks, 19) << kSolverTypeNames[int(solver)] << ": every link's point is a block";
        // nextSweep goes from a sweep's first unit to its last.
        ASSERT_TRUE(ins.nextSweep());
        const StepInspector::Visit& end = ins.visits()[ins.current()->first];
        EXPECT_EQ(end.phase, 0);
        EXPECT_EQ(end.sweep, 0);
        EXPECT_EQ(ins.residualsSoFar().size(), 1u);
        ASSERT_TRUE(ins.nextUnit());
        EXPECT_EQ(ins.visits()[ins.current()->first].sweep, solver == SolverType::TGS ? 0 : 1)
            << "TGS relaxes after substep 1's sweep (phase 2, sweep 0)";
    }
}

}  // namespace
}  // namespace jl
