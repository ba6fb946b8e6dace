// The row tables (the Rows tab's row inspector and the Inspector's Rows section, issue 8 item 4)
// list every row the selected joint produced, with the label, impulse and state the solver gave it.
#include "session/row_table.h"

#include <gtest/gtest.h>

#include <map>

namespace jl::app {
namespace {

BodyDesc box(const std::string& name, const Vec3& position, Real mass) {
    BodyDesc b;
    b.name = name;
    b.position = position;
    b.mass = mass;
    return b;
}

/// A joint from the world at `anchor` to `body` (at `bodyPosition`), joint axes the world's.
JointDesc fromWorld(const std::string& name, const char* type, const std::string& body, const Vec3& anchor,
                    const Vec3& bodyPosition) {
    JointDesc j;
    j.name = name;
    j.params = makeJointParams(findJointType(type));
    j.body1 = body;
    j.frame0.p = anchor;
    j.frame1.p = anchor - bodyPosition;
    return j;
}

/// "hook": a 3 kg box hanging at rest from a spherical joint. "axle": a box on a hinge through its
/// centre, whose motor asks for 100 rad/s with 0.05 N·m at most (its row stays on the bound).
/// "fragile": a 5 kg box on a spherical joint that holds only half its weight.
Scene scene() {
    Scene s;
    s.settings.groundPlane = false;
    s.bodies.push_back(box("weight", Vec3(0, 1.5, 0), 3.0));
    s.joints.push_back(fromWorld("hook", "spherical", "weight", Vec3(0, 2, 0), Vec3(0, 1.5, 0)));
    s.bodies.push_back(box("wheel", Vec3(3, 1, 0), 1.0));
    JointDesc axle = fromWorld("axle", "revolute", "wheel", Vec3(3, 1, 0), Vec3(3, 1, 0));
    RevoluteJoint& hinge = std::get<RevoluteJoint>(axle.params);
    hinge.motor.enabled = true;
    hinge.motor.targetVelocity = 100.0;
    hinge.motor.forceLimit = 0.05;
    s.joints.push_back(axle);
    s.bodies.push_back(box("heavy", Vec3(-3, 1.5, 0), 5.0));
    JointDesc fragile = fromWorld("fragile", "spherical", "heavy", Vec3(-3, 2, 0), Vec3(-3, 1.5, 0));
    fragile.breakForce = 0.5 * 5.0 * 9.81;
    s.joints.push_back(fragile);
    return s;
}

TEST(RowTable, EmptyBeforeTheFirstStepAndSaysWhy) {
    World world(scene());
    EXPECT_TRUE(rowTable(world, 0).empty());
    EXPECT_STREQ(emptyRowTableReason(world, 0), "not stepped yet (step the simulation once)");
}

// The hanging body: three linear locks, the vertical one holding the weight for one step
// (impulse m·g·dt), none of them clamped (an equality row has no finite bound).
TEST(RowTable, HangingBodyListsEveryRowWithItsImpulse) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = scene();
        s.settings.solver = solver;
        World world(s);
        for (int i = 0; i < 60; ++i) world.step();
        const std::vector<RowTableEntry> rows = rowTable(world, 0);
        const auto results = world.jointRowResults(0);
        ASSERT_EQ(rows.size(), 3u);
        ASSERT_EQ(rows.size(), results.size()) << "every row the joint produced";
        const char* labels[] = {"linear X lock", "linear Y lock", "linear Z lock"};
        const Real mgdt = 3.0 * 9.81 * s.settings.dt;
        for (size_t k = 0; k < rows.size(); ++k) {
            const RowTableEntry& e = rows[k];
            EXPECT_EQ(e.index, static_cast<int>(k));
            EXPECT_STREQ(e.label(), labels[k]);
            EXPECT_EQ(e.state, RowState::Active);
            EXPECT_FALSE(e.angular());
            EXPECT_EQ(e.result.impulse, results[k].impulse) << "the impulse the solver applied";
            EXPECT_EQ(e.result.geometricError, results[k].geometricError);
            EXPECT_EQ(e.result.unitResponse, results[k].unitResponse);
            EXPECT_EQ(e.row, &world.jointRows(0)[k]);
            EXPECT_EQ(rowFlagTags(e.row->flags), "force");
        }
        EXPECT_NEAR(std::abs(rows[1].result.impulse), mgdt, 1e-6 * mgdt) << kSolverTypeNames[int(solver)];
        EXPECT_NEAR(rows[0].result.impulse, 0.0, 1e-9 * mgdt);
        EXPECT_NEAR(rows[2].result.impulse, 0.0, 1e-9 * mgdt);
    }
}

// The saturated motor is listed as clamped with its impulse on the bound (limit × dt); the
// hinge's locks are not; a joint that broke lists no rows from the next step on.
TEST(RowTable, ClampedMotorAndBrokenJoint) {
    World world(scene());
    world.step();
    const std::vector<RowTableEntry> fragileBreaking = rowTable(world, 2);
    EXPECT_TRUE(world.jointState(2).broken);
    EXPECT_EQ(fragileBreaking.size(), 3u) << "the step it broke in keeps its rows";
    for (int i = 0; i < 10; ++i) world.step();

    const std::vector<RowTableEntry> axle = rowTable(world, 1);
    ASSERT_EQ(axle.size(), 6u);  // 3 linear locks, 2 angular locks, the motor
    std::map<std::string, RowState> states;
    for (const RowTableEntry& e : axle) states[e.label()] = e.state;
    EXPECT_EQ(states.at("angular Y lock"), RowState::Active);
    EXPECT_EQ(states.at("angular Z lock"), RowState::Active);
    ASSERT_EQ(states.count("motor"), 1u);
    EXPECT_EQ(states.at("motor"), RowState::Clamped);
    const RowTableEntry& motor = axle.back();
    ASSERT_STREQ(motor.label(), "motor");
    EXPECT_TRUE(motor.angular());
    EXPECT_TRUE(motor.boundsAreForces());
    EXPECT_NEAR(std::abs(motor.result.impulse), 0.05 * world.settings().dt, 1e-12);
    EXPECT_NE(rowFlagTags(motor.row->flags).find("drive-lim"), std::string::npos);

    EXPECT_TRUE(rowTable(world, 2).empty());
    EXPECT_STREQ(emptyRowTableReason(world, 2), "the joint is broken, so it produces no rows");
    EXPECT_STREQ(emptyRowTableReason(world, 1), "");
}

}  // namespace
}  // namespace jl::app

namespace jl::app {
namespace {

// A point constraint's three rows are solved at once (settings.pointSolve = block): the table
// brackets them and gives their K = J M⁻¹ Jᵀ, symmetric, the rows' unit responses on its diagonal.
// A hook off the body's centre in all three axes couples the rows (K has off-diagonal entries).
// With pointSolve = rows no row is in a block.
TEST(RowTable, APointConstraintsRowsFormABlockWithItsK) {
    for (PointSolve point : {PointSolve::Block, PointSolve::Rows}) {
        Scene s = scene();
        s.settings.pointSolve = point;
        s.joints[0].frame1.p = Vec3(0.2, 0.5, -0.1);  // body 1's anchor off its centre
        World world(s);
        world.step();
        const std::vector<RowTableEntry> rows = rowTable(world, 0);
        ASSERT_EQ(rows.size(), 3u);
        const std::vector<RowBlock> blocks = rowBlocks(rows);
        if (point == PointSolve::Rows) {
            EXPECT_TRUE(blocks.empty());
            EXPECT_STREQ(blockBracket(rows[0]), "");
            continue;
        }
        ASSERT_EQ(blocks.size(), 1u);
        const RowBlock& b = blocks[0];
        EXPECT_EQ(b.first, 0);
        EXPECT_EQ(b.size, 3);
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(b.K[i][i], rows[static_cast<size_t>(i)].result.unitResponse) << "the diagonal is r";
            for (int c = 0; c < 3; ++c) EXPECT_EQ(b.K[i][c], b.K[c][i]) << "K is symmetric";
        }
        EXPECT_GT(std::abs(b.K[0][1]) + std::abs(b.K[0][2]) + std::abs(b.K[1][2]), 1e-3) << "coupled rows";
        EXPECT_STREQ(blockBracket(rows[0]), "\u250c");
        EXPECT_STREQ(blockBracket(rows[1]), "\u2502");
        EXPECT_STREQ(blockBracket(rows[2]), "\u2514");
        // the hinge's point rows form a block, its two angular rows and its motor do not
        const std::vector<RowTableEntry> axle = rowTable(world, 1);
        ASSERT_GE(axle.size(), 6u);
        EXPECT_EQ(rowBlocks(axle).size(), 1u);
        for (size_t k = 3; k < axle.size(); ++k) EXPECT_EQ(axle[k].result.blockSize, 0) << k;
    }
}

// With a body selected the Rows tab lists its contact rows: a 0.5 m box resting on another on
// the ground has 4 points on the ground and 4 with the box above; the top box only the latter,
// each three rows (normal, friction 1, friction 2) naming the body on the other side.
TEST(RowTable, ContactRowsOfABodyNameTheOtherSide) {
    Scene s;
    s.settings.groundPlane = true;
    BodyDesc bottom = box("bottom", Vec3(0, 0.25, 0), 1.0), top = box("top", Vec3(0, 0.75, 0), 1.0);
    bottom.halfExtents = top.halfExtents = Vec3(0.25);
    s.bodies = {bottom, top};
    World w(s);
    for (int i = 0; i < 5; ++i) w.step();
    const std::vector<RowTableEntry> lower = contactRowTable(w, 0), upper = contactRowTable(w, 1);
    ASSERT_EQ(lower.size(), 24u);
    ASSERT_EQ(upper.size(), 12u);
    std::map<int, int> lowerOthers;
    for (const RowTableEntry& e : lower) ++lowerOthers[e.otherBody];
    EXPECT_EQ(lowerOthers[-1], 12);  // the ground
    EXPECT_EQ(lowerOthers[1], 12);   // the top box
    for (size_t k = 0; k < upper.size(); ++k) {
        EXPECT_EQ(upper[k].otherBody, 0);
        EXPECT_EQ(upper[k].row, &w.contactRows()[static_cast<size_t>(upper[k].index)]);
        EXPECT_STREQ(upper[k].label(), k % 3 == 0
                                           ? "contact normal"
                                           : (k % 3 == 1 ? "contact friction 1" : "contact friction 2"));
        if (k % 3 == 0) EXPECT_GT(upper[k].result.impulse, 0.0) << "the box rests on its normal rows";
        if (k % 3 != 0)  // a friction row's bound: μ times its point's normal impulse
            EXPECT_DOUBLE_EQ(upper[k].frictionBound,
                             s.settings.bodyFriction * upper[k - k % 3].result.impulse);
    }
}

}  // namespace
}  // namespace jl::app
