// Telemetry: the records equal what the solver applied, stay bounded, and export as CSV (issue 8).
#include "jointlab/telemetry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

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

// Issue 28: deleting a joint keeps the others' records, renumbered; a joint that was not there
// reads as NaN; the serials stay, so readers' caches remain valid.
TEST(Telemetry, RemappingJointsKeepsTheirHistory) {
    Scene s = hanging(1.0);
    s.bodies.push_back(test::box("second", Vec3(2, 1.5, 0), Vec3(0.2, 0.2, 0.2), 2.0));
    s.joints.push_back(test::joint<SphericalJoint>(s, "hook2", "", "second", Vec3(2, 2.0, 0)));
    World w(s);
    Telemetry t(100);
    for (int i = 0; i < 10; ++i) {
        w.step();
        t.record(w);
    }
    const Vec3 second = t.at(3).joints[1].force;
    const int64_t serial = t.firstSerial();
    // "hook" deleted, a new joint added after "hook2": hook2 becomes 0, the new one is 1.
    const int newIndex[] = {-1, 0};
    t.remapJoints(newIndex, 2);
    EXPECT_EQ(t.size(), 10u);
    EXPECT_EQ(t.firstSerial(), serial);
    EXPECT_EQ(t.at(3).joints.size(), 2u);
    EXPECT_EQ(t.at(3).joints[0].force, second);
    EXPECT_TRUE(std::isnan(t.at(3).joints[1].force.x));
    for (const RowSample& r : t.at(3).rows) EXPECT_EQ(r.joint, 0);
    EXPECT_EQ(t.at(3).rows.size(), 3u);  // hook2's three rows; hook's are gone
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
        std::printf("%s: recorded impulse %.9f N·s, m·g·dt = %.9f N·s\n", kSolverTypeNames[int(solver)],
                    std::abs(vertical), mgdt);
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
        s.joints.push_back(test::joint<RevoluteJoint>(s, test::indexed("j", i),
                                                      i ? test::indexed("b", i - 1) : "",
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
    std::printf("after 100000 steps: %zu frames, %zu bytes (after warm-up %zu)\n", t.size(), t.memoryBytes(),
                bytesAfterWarmup);
    EXPECT_EQ(t.size(), 600u);
    EXPECT_EQ(t.memoryBytes(), bytesAfterWarmup);
    EXPECT_EQ(t.latest().step, 100000);
    EXPECT_EQ(t.at(0).step, 100000 - 599);
}

// A scene whose CSV has every kind of value: "hook" holds a 2 kg weight at a quarter of its break
// force; "arm" is a 1 m, 1 kg bar held at one end by a vertical hinge, so the hinge carries the
// bar's weight as a torque (some N·m), and its motor asks for far more speed than its torque
// limit gives, so the motor row sits on its bound (clamped); "fragile" holds a weight heavier than
// its break force, so it breaks in the first step (its rows of that step carry broken = 1) and
// has no rows after.
Scene csvScene() {
    Scene s = hanging(2.0);
    s.joints[0].breakForce = 4.0 * 2.0 * 9.81;
    s.bodies.push_back(test::box("arm", Vec3(2.5, 1, 0), Vec3(0.5, 0.05, 0.05), 1.0));
    RevoluteJoint motor;
    motor.motor.enabled = true;
    motor.motor.targetVelocity = 100.0;
    motor.motor.forceLimit = 0.05;
    const Quat vertical = test::axisAngle(Vec3(0, 0, 1), kPi / 2);  // joint X axis = world Y
    s.joints.push_back(test::joint(s, "arm hinge", "", "arm", Vec3(2, 1, 0), vertical, motor));
    s.bodies.push_back(test::box("heavy", Vec3(-2, 1.5, 0), Vec3(0.2, 0.2, 0.2), 5.0));
    JointDesc fragile = test::joint<SphericalJoint>(s, "fragile", "", "heavy", Vec3(-2, 2.0, 0));
    fragile.breakForce = 0.5 * 5.0 * 9.81;
    s.joints.push_back(fragile);
    return s;
}

std::vector<std::string> splitOn(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
    if (!text.empty() && text.back() == separator) parts.emplace_back();
    return parts;
}

// The CSV export parses back to the recorded numbers exactly (shortest round-trip formatting):
// every column of every line is the recorded row, its joint's sample and its step's sample.
TEST(Telemetry, CsvRoundTrip) {
    World w(csvScene());
    Telemetry t(30);
    for (int i = 0; i < 25; ++i) {
        w.step();
        t.record(w, 0.25 * i);  // a made-up step time, so that the column is seen to carry it
    }
    const std::string csv = t.csv(w.scene());
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line + "\n", kTelemetryCsvHeader);
    const size_t columns = splitOn(line, ',').size();
    EXPECT_EQ(columns, 24u);
    size_t frame = 0, row = 0, lines = 0, expectedLines = 0, clampedLines = 0, brokenLines = 0;
    for (size_t i = 0; i < t.size(); ++i) expectedLines += t.at(i).rows.size();
    while (std::getline(in, line)) {
        const std::vector<std::string> f = splitOn(line, ',');
        ASSERT_EQ(f.size(), columns) << line;
        ASSERT_LT(frame, t.size());
        const StepSample& sample = t.at(frame);
        const RowSample& r = sample.rows[row];
        const JointSample& js = sample.joints[static_cast<size_t>(r.joint)];
        const JointDesc& d = w.scene().joints[static_cast<size_t>(r.joint)];
        EXPECT_EQ(std::stoll(f[0]), sample.step);
        EXPECT_EQ(std::stod(f[1]), sample.time);
        EXPECT_EQ(f[2], d.name);
        EXPECT_EQ(f[3], d.typeInfo().name);
        EXPECT_EQ(std::stoi(f[4]), r.row);
        EXPECT_EQ(f[5], r.label);
        EXPECT_EQ(std::stod(f[6]), r.result.impulse);
        EXPECT_EQ(std::stod(f[7]), r.result.geometricError);
        EXPECT_EQ(std::stod(f[8]), r.result.velocityError);
        EXPECT_EQ(f[9], r.result.clamped ? "1" : "0");
        EXPECT_EQ(f[10], r.result.active ? "1" : "0");
        EXPECT_EQ(std::stod(f[11]), glm::length(js.force));
        EXPECT_EQ(std::stod(f[12]), glm::length(js.torque));
        EXPECT_EQ(std::stod(f[13]), js.forceFraction);
        EXPECT_EQ(std::stod(f[14]), js.torqueFraction);
        EXPECT_EQ(f[15], js.broken ? "1" : "0");
        EXPECT_EQ(std::stoi(f[16]), js.projections);
        EXPECT_EQ(std::stod(f[17]), sample.kineticEnergy);
        EXPECT_EQ(std::stod(f[18]), sample.potentialEnergy);
        EXPECT_EQ(std::stod(f[19]), sample.maxError);
        EXPECT_EQ(std::stod(f[20]), sample.rmsError);
        EXPECT_EQ(std::stoi(f[21]), sample.activeRows);
        EXPECT_EQ(std::stod(f[22]), sample.stepMs);
        const std::vector<std::string> residuals = splitOn(f[23], ';');
        ASSERT_EQ(residuals.size(), sample.residuals.size()) << f[23];
        for (size_t k = 0; k < residuals.size(); ++k) EXPECT_EQ(std::stod(residuals[k]), sample.residuals[k]);

        // The values the scene was built to produce.
        if (d.name == "hook") {
            EXPECT_NEAR(std::stod(f[13]), 0.25, 1e-6);
        }
        if (d.name == "arm hinge") {
            EXPECT_GT(std::stod(f[12]), 1.0);  // the hinge carries the bar's weight as a torque
            EXPECT_EQ(std::stod(f[14]), 0.0);  // unbreakable: no fraction of anything
        }
        clampedLines += f[9] == "1";
        if (f[15] == "1") {
            ++brokenLines;
            EXPECT_EQ(f[2], "fragile");
            EXPECT_EQ(std::stoll(f[0]), 1);
            EXPECT_GT(std::stod(f[13]), 1.0);  // it broke because the force passed the threshold
        }
        ++lines;
        if (++row == sample.rows.size()) {
            row = 0;
            ++frame;
        }
    }
    EXPECT_EQ(lines, expectedLines);
    EXPECT_EQ(frame, t.size());
    EXPECT_GE(clampedLines, 25u);                  // the motor row, every step
    EXPECT_EQ(brokenLines, 3u);                    // the fragile joint's three rows in the step it broke
    EXPECT_EQ(t.at(0).rows.size(), 3u + 6u + 3u);  // hook, arm hinge (5 + motor), fragile
    EXPECT_EQ(t.at(1).rows.size(), 3u + 6u);       // fragile is gone
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
