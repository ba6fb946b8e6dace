// Telemetry: the records equal what the solver applied, stay bounded, and export as CSV (issue 8).
#include <gtest/gtest.h>

#include <sstream>

#include "jointlab/telemetry.h"
#include "test_util.h"

namespace jl {
namespace {

Scene hanging(Real mass) {
    Scene s = test::emptyScene();
    s.bodies.push_back(test::box("weight", Vec3(0, 1.5, 0), Vec3(0.2, 0.2, 0.2), mass));
    JointDesc j = test::joint<SphericalJoint>(s, "hook", "", "weight", Vec3(0, 2.0, 0));
    s.joints.push_back(j);
    return s;
}

// A body hanging at rest: the vertical row's recorded impulse is m·g·dt (the row holds the
// weight for one step), and the reported force is m·g.
TEST(Telemetry, HangingBodyRowImpulseIsWeightTimesDt) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = hanging(3.0);
        s.settings.solver = solver;
        World w(s);
        Telemetry t(100);
        for (int i = 0; i < 60; ++i) {
            w.step();
            t.record(w);
        }
        const StepSample& last = t.latest();
        Real vertical = 0;
        for (const RowSample& r : last.rows)
            if (std::string(r.label) == "linear Y lock") vertical = r.result.impulse;
        const Real mgdt = 3.0 * 9.81 * s.settings.dt;
        std::printf("%s: recorded impulse %.9f N·s, m·g·dt = %.9f N·s\n", kSolverTypeNames[int(solver)], std::abs(vertical), mgdt);
        EXPECT_NEAR(std::abs(vertical), mgdt, 1e-6 * mgdt);
        EXPECT_NEAR(glm::length(last.joints[0].force), 3.0 * 9.81, 1e-6);
        EXPECT_EQ(last.step, 60);
        EXPECT_LT(last.maxError, 1e-6);
        EXPECT_EQ(last.residuals.size(), size_t(s.settings.posIters + s.settings.velIters));
    }
}

TEST(Telemetry, BuffersStayWithinTheirBound) {
    Scene s = test::emptyScene();
    for (int i = 0; i < 5; ++i) {
        s.bodies.push_back(test::box(test::indexed("b", i), Vec3(i + 0.5, 3, 0), Vec3(0.5, 0.1, 0.1), 1.0));
        s.joints.push_back(test::joint<RevoluteJoint>(s, test::indexed("j", i), i ? test::indexed("b", i - 1) : "",
                                                      test::indexed("b", i), Vec3(i, 3, 0)));
    }
    World w(s);
    Telemetry t(600);
    size_t bytesAfterWarmup = 0;
    for (int i = 0; i < 100000; ++i) {
        w.step();
        t.record(w);
        if (i == 1200) bytesAfterWarmup = t.memoryBytes();
    }
    std::printf("after 100000 steps: %zu frames, %zu bytes (after warm-up %zu)\n", t.size(), t.memoryBytes(), bytesAfterWarmup);
    EXPECT_EQ(t.size(), 600u);
    EXPECT_EQ(t.memoryBytes(), bytesAfterWarmup);
    EXPECT_EQ(t.latest().step, 100000);
    EXPECT_EQ(t.at(0).step, 100000 - 599);
}

// The CSV export parses back to the recorded numbers exactly (shortest round-trip formatting).
TEST(Telemetry, CsvRoundTrip) {
    World w(hanging(2.0));
    Telemetry t(10);
    for (int i = 0; i < 25; ++i) {
        w.step();
        t.record(w);
    }
    const std::string csv = t.csv(w.scene());
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line + "\n", kTelemetryCsvHeader);
    size_t frame = 0, row = 0, lines = 0;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream ls(line);
        for (std::string cell; std::getline(ls, cell, ',');) f.push_back(cell);
        ASSERT_EQ(f.size(), 13u) << line;
        const StepSample& sample = t.at(frame);
        const RowSample& r = sample.rows[row];
        EXPECT_EQ(std::stoll(f[0]), sample.step);
        EXPECT_EQ(std::stod(f[1]), sample.time);
        EXPECT_EQ(f[2], "hook");
        EXPECT_EQ(f[3], "spherical");
        EXPECT_EQ(std::stoi(f[4]), r.row);
        EXPECT_EQ(f[5], r.label);
        EXPECT_EQ(std::stod(f[6]), r.result.impulse);
        EXPECT_EQ(std::stod(f[7]), r.result.geometricError);
        EXPECT_EQ(std::stod(f[8]), r.result.velocityError);
        EXPECT_EQ(std::stod(f[10]), glm::length(sample.joints[0].force));
        ++lines;
        if (++row == sample.rows.size()) {
            row = 0;
            ++frame;
        }
    }
    EXPECT_EQ(lines, 10u * 3u);  // 10 frames × 3 rows
}

// Serials let a reader (the app's plots) read only the steps recorded since it last looked, and
// see when the record started over; a pulled force is kept with its step.
TEST(Telemetry, SerialsCountRecordedStepsAndClearLeavesAHole) {
    World w(hanging(1.0));
    Telemetry t(10);
    EXPECT_EQ(t.firstSerial(), 0);
    for (int i = 0; i < 25; ++i) {
        w.step();
        PullSample pull;
        pull.active = i % 2 == 0;
        pull.body = 0;
        pull.force = Vec3(0, Real(i), 0);
        t.record(w, 0.0, pull);
    }
    EXPECT_EQ(t.size(), 10u);
    EXPECT_EQ(t.firstSerial(), 15);  // steps 15..24 of the 25 recorded are in the ring
    EXPECT_EQ(t.latest().pull.force.y, 24.0);
    EXPECT_TRUE(t.latest().pull.active);
    EXPECT_FALSE(t.at(8).pull.active);
    const int64_t next = t.firstSerial() + static_cast<int64_t>(t.size());
    t.clear();
    w.step();
    t.record(w);
    EXPECT_GT(t.firstSerial(), next);  // not the serial the next step would have had: a reader starts over
    EXPECT_FALSE(t.latest().pull.active);  // nothing pulled unless the caller says so
}

}  // namespace
}  // namespace jl
