// The app records telemetry after every step, in a bounded window, without changing the results.
#include <gtest/gtest.h>

#include <cstring>

#include "session/default_scene.h"
#include "session/simulation.h"

namespace jl::app {
namespace {

Simulation running(const Scene& scene) {
    Simulation sim;
    std::string error;
    EXPECT_TRUE(sim.setScene(scene, "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    return sim;
}

TEST(SimulationTelemetry, RecordsEveryStepInATenSecondWindow) {
    const Scene scene = makeBuiltInShowcase();
    Simulation sim = running(scene);
    for (int i = 0; i < 700; ++i) sim.advance(1.0 / 60.0);
    const Telemetry& t = sim.telemetry();
    EXPECT_EQ(t.capacity(), 600u);  // 10 s at the showcase's 60 Hz
    EXPECT_EQ(t.size(), 600u);
    EXPECT_EQ(t.latest().step, 700);
    EXPECT_EQ(t.at(0).step, 101);
    EXPECT_EQ(t.latest().joints.size(), scene.joints.size());
    EXPECT_GT(t.latest().stepMs, 0.0);
    EXPECT_GT(t.memoryBytes(), 0u);
}

TEST(SimulationTelemetry, RecordingDoesNotChangeTheResults) {
    const Scene scene = makeBuiltInShowcase();
    Simulation sim = running(scene);
    World plain(scene);
    for (int i = 0; i < 300; ++i) {
        sim.advance(1.0 / 60.0);
        plain.step();
    }
    ASSERT_EQ(sim.world()->bodies().size(), plain.bodies().size());
    for (size_t b = 0; b < plain.bodies().size(); ++b) {
        const BodyState &x = sim.world()->bodies()[b], &y = plain.bodies()[b];
        EXPECT_EQ(std::memcmp(&x.pose.p, &y.pose.p, sizeof x.pose.p), 0) << b;
        EXPECT_EQ(std::memcmp(&x.linearVelocity, &y.linearVelocity, sizeof x.linearVelocity), 0) << b;
    }
}

TEST(SimulationTelemetry, ResetAndNewWindowLengthsStartAFreshRecord) {
    Simulation sim = running(makeBuiltInShowcase());
    for (int i = 0; i < 50; ++i) sim.advance(1.0 / 60.0);
    std::string error;
    ASSERT_TRUE(sim.reset(error)) << error;
    EXPECT_EQ(sim.telemetry().size(), 0u);
    sim.setTelemetrySeconds(2.0);
    for (int i = 0; i < 200; ++i) sim.advance(1.0 / 60.0);
    EXPECT_EQ(sim.telemetry().capacity(), 120u);
    EXPECT_EQ(sim.telemetry().size(), 120u);
}

TEST(SimulationTelemetry, AnEditThatChangesTheJointsRenumbersTheRecord) {
    const Scene scene = makeBuiltInShowcase();
    Simulation sim = running(scene);
    for (int i = 0; i < 30; ++i) sim.advance(1.0 / 60.0);
    Scene tuned = sim.scene();
    tuned.settings.posIters = 8;  // same joints: the record goes on
    std::string error;
    ASSERT_TRUE(sim.applyEdit(tuned, {}, {}, error)) << error;
    sim.advance(1.0 / 60.0);
    EXPECT_EQ(sim.telemetry().size(), 31u);
    const uint64_t layout = sim.telemetryLayout();
    const Vec3 secondForce = sim.telemetry().at(5).joints[1].force;
    Scene fewer = sim.scene();
    fewer.joints.erase(fewer.joints.begin());  // indices shift: the old samples are renumbered (issue 28)
    ASSERT_TRUE(sim.applyEdit(fewer, {}, {}, error)) << error;
    sim.advance(1.0 / 60.0);
    EXPECT_EQ(sim.telemetry().size(), 32u);
    EXPECT_NE(sim.telemetryLayout(), layout);  // readers keeping state by index know
    EXPECT_EQ(sim.telemetry().latest().joints.size(), fewer.joints.size());
    EXPECT_EQ(sim.telemetry().at(5).joints.size(), fewer.joints.size());
    EXPECT_EQ(sim.telemetry().at(5).joints[0].force, secondForce);  // the second joint is the first now
    for (const RowSample& r : sim.telemetry().at(5).rows)
        EXPECT_LT(r.joint, static_cast<int>(fewer.joints.size()));
}

// Issue 7: the mouse spring's force is recorded with every step while a body is dragged, so the
// Plots panel can show it like a joint's force.
TEST(SimulationTelemetry, TheMouseSpringForceIsRecordedWithEachStep) {
    const Scene scene = makeBuiltInShowcase();
    Simulation sim = running(scene);
    sim.advance(1.0 / 60.0);
    EXPECT_FALSE(sim.telemetry().latest().pull.active);
    int body = -1;
    for (size_t b = 0; b < scene.bodies.size() && body < 0; ++b)
        if (sim.world()->inverseMass(static_cast<int>(b)) > 0.0) body = static_cast<int>(b);
    ASSERT_GE(body, 0);
    const Vec3 grabbed = sim.world()->bodies()[static_cast<size_t>(body)].pose.p;
    sim.drag = makeDragSpring(*sim.world(), body, grabbed);
    sim.drag->target = grabbed + Vec3(0.3, 0.2, 0.0);  // the mouse moved away: the spring pulls
    for (int i = 0; i < 5; ++i) sim.advance(1.0 / 60.0);
    const PullSample& pull = sim.telemetry().latest().pull;
    EXPECT_TRUE(pull.active);
    EXPECT_EQ(pull.body, body);
    EXPECT_GT(glm::length(pull.force), 0.0);
    EXPECT_EQ(pull.force, sim.drag->force);  // the force applied in that step
    EXPECT_EQ(pull.maxForce, sim.drag->maxForce);
    sim.drag.reset();  // let go
    sim.advance(1.0 / 60.0);
    EXPECT_FALSE(sim.telemetry().latest().pull.active);
}

}  // namespace
}  // namespace jl::app
