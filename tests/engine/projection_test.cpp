// Joint projection (JointDesc::projection, world/stages/projection.cpp; docs/solvers.md
// "Projection"): after the solve, a joint whose error passes a tolerance has its bodies moved back
// onto it, poses only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "test_util.h"

namespace jl::test {
namespace {

// A 100 kg ball hung from the world through a 1 g link, both joints spherical, with two position
// iterations: a mass ratio of 1e5 the solver cannot hold, so the ball drags the link away from the
// world's anchor (the top joint opens by ~120 m in 5 s). Joint 0 ("top") is the one under test.
Scene heavyLoad(bool project) {
    Scene s = emptyScene(false);
    s.settings.posIters = 2;
    s.settings.velIters = 1;
    s.bodies.push_back(sphere("link", Vec3(0.0, -0.5, 0.0), 0.001));
    BodyDesc ball = sphere("ball", Vec3(0.6, -1.0, 0.0), 100.0, 0.2);
    ball.linearVelocity = Vec3(0.0, 0.0, 3.0);
    s.bodies.push_back(ball);
    s.joints.push_back(joint<SphericalJoint>(s, "top", "", "link", Vec3(0.0, 0.0, 0.0)));
    s.joints.push_back(joint<SphericalJoint>(s, "bottom", "link", "ball", Vec3(0.0, -0.5, 0.0)));
    s.joints[0].projection.enabled = project;
    s.joints[0].projection.linearTolerance = 0.01;
    return s;
}

Real originError(const World& w, int j) {
    return glm::length(anchor1(w, j) - anchor0(w, j));
}

TEST(Projection, HeavyLoadStretchesAJointProjectionSnapsItBack) {
    ASSERT_EQ(validateScene(heavyLoad(true)), "");
    World free(heavyLoad(false)), projected(heavyLoad(true));
    Real freeMax = 0.0, projectedMax = 0.0;
    int projections = 0;
    for (int i = 0; i < 300; ++i) {
        free.step();
        projected.step();
        freeMax = std::max(freeMax, originError(free, 0));
        const Real e = originError(projected, 0);
        projectedMax = std::max(projectedMax, e);
        ASSERT_LE(e, 0.01) << "step " << i + 1;  // within the tolerance every step
        projections += projected.jointProjections(0);
        // A step that projected put the origins together, up to rounding (positions ~1 m).
        if (projected.jointProjections(0)) {
            EXPECT_LT(e, 1e-12) << "step " << i + 1;
        }
        EXPECT_EQ(projected.jointProjections(1), 0);  // projection off on "bottom"
        EXPECT_EQ(free.jointProjections(0), 0);
    }
    std::printf(
        "top joint origin error over 300 steps: without projection max %.4g m, with %.3g m; "
        "%d projections\n",
        freeMax, projectedMax, projections);
    EXPECT_GT(freeMax, 0.01);  // the load does stretch the joint past the tolerance
    EXPECT_GT(projections, 0);
}

// Two free bodies, 1 kg and 3 kg, no gravity, whose joint starts 0.1 m open; one position
// iteration leaves most of it. Projection moves poses only, shared by inverse mass, so the centre
// of mass stays where the solve left it and every velocity is the solve's, bit for bit.
Scene openPair(bool project) {
    Scene s = emptyScene(false);
    s.settings.gravity = Vec3(0.0);
    s.settings.posIters = 1;
    s.settings.velIters = 0;
    s.bodies.push_back(sphere("a", Vec3(0.0), 1.0));
    s.bodies.push_back(sphere("b", Vec3(1.0, 0.0, 0.0), 3.0));
    s.joints.push_back(joint<SphericalJoint>(s, "j", "a", "b", Vec3(0.45, 0.0, 0.0)));
    s.joints[0].frame1.p.x += 0.1;  // origin B 0.1 m right of origin A
    s.joints[0].projection.enabled = project;
    s.joints[0].projection.linearTolerance = 1e-6;
    return s;
}

TEST(Projection, MovesPosesNotVelocitiesSharedByInverseMass) {
    World free(openPair(false)), projected(openPair(true));
    free.step();
    projected.step();
    ASSERT_EQ(projected.jointProjections(0), 1);
    EXPECT_GT(originError(free, 0), 0.01);
    EXPECT_LT(originError(projected, 0), 1e-12);
    for (size_t b = 0; b < 2; ++b) {
        const BodyState &f = free.bodies()[b], &p = projected.bodies()[b];
        EXPECT_EQ(f.linearVelocity, p.linearVelocity) << b;
        EXPECT_EQ(f.angularVelocity, p.angularVelocity) << b;
    }
    const Vec3 da = projected.bodies()[0].pose.p - free.bodies()[0].pose.p;
    const Vec3 db = projected.bodies()[1].pose.p - free.bodies()[1].pose.p;
    EXPECT_NEAR(glm::length(da) / glm::length(db), 3.0, 1e-9);  // the 1 kg body moves 3 times as far
    EXPECT_NEAR(glm::length(1.0 * da + 3.0 * db), 0.0, 1e-12);  // the centre of mass stays
}

// A hinge about world X from the world to a 1 g rod welded to a 100 kg block 1 m along the axis:
// the block's weight bends the hinge axis down (its angular rows cannot hold 1e5 times their
// body's weight in two iterations). Projection turns the rod back onto the axis.
Scene bentHinge(bool project) {
    Scene s = emptyScene(false);
    s.settings.posIters = 2;
    s.settings.velIters = 1;
    s.bodies.push_back(box("rod", Vec3(0.5, 0.0, 0.0), Vec3(0.5, 0.02, 0.02), 0.001));
    s.bodies.push_back(box("block", Vec3(1.0, 0.0, 0.0), Vec3(0.1, 0.1, 0.1), 100.0));
    s.joints.push_back(joint<RevoluteJoint>(s, "hinge", "", "rod", Vec3(0.0), Quat(1, 0, 0, 0)));
    s.joints.push_back(joint<FixedJoint>(s, "weld", "rod", "block", Vec3(1.0, 0.0, 0.0)));
    s.joints[0].projection.enabled = project;
    s.joints[0].projection.linearTolerance = 0.01;
    s.joints[0].projection.angularTolerance = 0.02;
    return s;
}

Real axisError(const World& w, int j) {
    const Vec3 a0 = basisX(frame0(w, j).q), a1 = basisX(frame1(w, j).q);
    return std::atan2(glm::length(glm::cross(a0, a1)), glm::dot(a0, a1));
}

TEST(Projection, RevoluteAxisSnappedBack) {
    World free(bentHinge(false)), projected(bentHinge(true));
    Real freeMax = 0.0, projectedMax = 0.0;
    int projections = 0;
    for (int i = 0; i < 120; ++i) {
        free.step();
        projected.step();
        freeMax = std::max(freeMax, axisError(free, 0));
        const Real e = axisError(projected, 0);
        projectedMax = std::max(projectedMax, e);
        ASSERT_LE(e, 0.02) << "step " << i + 1;
        ASSERT_LE(originError(projected, 0), 0.01) << "step " << i + 1;
        projections += projected.jointProjections(0);
        if (projected.jointProjections(0)) {  // axes aligned and origins together, up to rounding
            EXPECT_LT(e, 1e-12) << "step " << i + 1;
            EXPECT_LT(originError(projected, 0), 1e-12) << "step " << i + 1;
        }
    }
    std::printf(
        "hinge axis error over 120 steps: without projection max %.4g rad, with %.3g rad; "
        "%d projections\n",
        freeMax, projectedMax, projections);
    EXPECT_GT(freeMax, 0.02);
    EXPECT_GT(projections, 0);
}

TEST(Projection, Deterministic) {
    World a(heavyLoad(true)), b(heavyLoad(true));
    int countA = 0, countB = 0;
    for (int i = 0; i < 200; ++i) {
        a.step();
        b.step();
        countA += a.jointProjections(0);
        countB += b.jointProjections(0);
        ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << i + 1;
    }
    EXPECT_EQ(countA, countB);
    EXPECT_GT(countA, 0);
}

TEST(Projection, CountedInTheTelemetryCsv) {
    World w(openPair(true));
    w.step();
    StepSample sample;
    captureStep(w, 0.0, sample);
    EXPECT_EQ(sample.joints[0].projections, 1);
    std::string csv;
    appendCsvRows(w.scene(), sample, csv);
    // Column 17 (projections): 1 on every line of the joint.
    size_t lines = 0;
    for (size_t at = 0; at < csv.size();) {
        const size_t end = csv.find('\n', at);
        const std::string line = csv.substr(at, end - at);
        size_t col = 0, p = 0;
        for (; col < 16; ++col) p = line.find(',', p) + 1;
        const std::string value = line.substr(p, line.find(',', p) - p);
        EXPECT_EQ(value, "1") << line;
        ++lines;
        at = end + 1;
    }
    EXPECT_GT(lines, 0u);
}

// [SECTION] the scenario file

TEST(Projection, SavedOnlyWhenEnabled) {
    Scene off = heavyLoad(false);
    off.joints[1].projection.linearTolerance = 0.5;  // not written while projection is off
    const std::string offText = serializeScenario(off);
    EXPECT_EQ(offText.find("projection"), std::string::npos);
    EXPECT_EQ(offText, serializeScenario(heavyLoad(false)));

    Scene on = heavyLoad(true);
    on.joints[0].projection.linearTolerance = 0.025;
    on.joints[0].projection.angularTolerance = 0.125;
    const std::string onText = serializeScenario(on);
    EXPECT_NE(onText.find("\"projection\""), std::string::npos);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(onText, back, error)) << error;
    EXPECT_TRUE(back.joints[0].projection.enabled);
    EXPECT_EQ(back.joints[0].projection.linearTolerance, 0.025);
    EXPECT_EQ(back.joints[0].projection.angularTolerance, 0.125);
    EXPECT_FALSE(back.joints[1].projection.enabled);
    EXPECT_EQ(serializeScenario(back), onText);
}

TEST(Projection, BadValuesNameTheField) {
    Scene s = heavyLoad(true);
    s.joints[1].projection.linearTolerance = -1.0;
    EXPECT_EQ(validateScene(s), "joints[1].projection.linearTolerance: must be > 0, got -1");
    s = heavyLoad(true);
    s.joints[1].projection.angularTolerance = 4.0;
    EXPECT_NE(validateScene(s).find("joints[1].projection.angularTolerance: must be <= 3.14"),
              std::string::npos)
        << validateScene(s);
    s = heavyLoad(false);
    s.joints[1].params = DistanceJoint{};
    s.joints[1].projection.enabled = true;
    EXPECT_NE(validateScene(s).find("joints[1].projection.enabled: a distance joint has no hard lock"),
              std::string::npos)
        << validateScene(s);

    const std::string text = serializeScenario(heavyLoad(true));
    std::string bad = text;
    const size_t at = bad.find("\"linearTolerance\"");
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, bad.find_first_of(",}\n", at) - at, "\"linearTolerance\": 0");
    Scene out = heavyLoad(false);
    std::string error;
    EXPECT_FALSE(parseScenario(bad, out, error));
    EXPECT_NE(error.find("projection.linearTolerance"), std::string::npos) << error;
    EXPECT_FALSE(out.joints[0].projection.enabled);  // unchanged
}

}  // namespace
}  // namespace jl::test
