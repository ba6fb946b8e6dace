// Recorded mouse-drag input replays bit for bit (issue 10 item 4).
#include "jointlab/input_log.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_util.h"

namespace jl {
namespace {

/// A hinged chain with a ball at its end, resting on the ground.
Scene chain() {
    Scene s;
    std::string prev;
    for (int i = 0; i < 3; ++i) {
        const std::string name = test::indexed("link", i);
        s.bodies.push_back(test::box(name, Vec3(0.5 + i, 1.5, 0), Vec3(0.5, 0.1, 0.1), 1.0));
        s.joints.push_back(
            test::joint<SphericalJoint>(s, test::indexed("j", i), prev, name, Vec3(i, 1.5, 0)));
        prev = name;
    }
    return s;
}

/// A spring drag like the app's: pulls a point on the body towards a moving mouse target.
Vec3 dragForce(const World& w, int body, const Vec3& localPoint, const Vec3& target, Vec3& worldPoint) {
    const BodyState& b = w.bodies()[static_cast<size_t>(body)];
    worldPoint = b.pose.apply(localPoint);
    return 40.0 * (target - worldPoint) - 2.0 * b.linearVelocity;
}

TEST(InputLog, ARecordedDragReplaysBitIdentically) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = chain();
        s.settings.solver = solver;
        World live(s);
        InputLog log;
        std::vector<uint64_t> hashes;
        for (int i = 0; i < 400; ++i) {
            if (i >= 50 && i < 250) {  // the user drags the last link around a circle, then lets go
                const Real t = 0.05 * (i - 50);
                Vec3 point;
                const Vec3 target(2.5 + std::cos(t), 2.0 + 0.5 * std::sin(t), 0.3 * std::sin(2 * t));
                const Vec3 f = dragForce(live, 2, Vec3(0.4, 0.0, 0.0), target, point);
                log.applyForce(live, 2, f, point);
                if (i % 7 == 0)
                    log.applyForce(live, 0, Vec3(0.0, 0.0, 3.0), live.bodies()[0].pose.p);  // two in a step
            }
            live.step();
            hashes.push_back(live.stateHash());
        }
        EXPECT_EQ(log.events().size(), 200u + 28u);  // 28 steps in [50, 250) are multiples of 7

        World replayed(s);
        for (int i = 0; i < 400; ++i) {
            log.replay(replayed);
            replayed.step();
            ASSERT_EQ(replayed.stateHash(), hashes[static_cast<size_t>(i)]) << "step " << i + 1;
        }
        // Without the input the run is different: the test is not vacuous.
        World idle(s);
        for (int i = 0; i < 100; ++i) idle.step();
        EXPECT_NE(idle.stateHash(), hashes[99]);
    }
}

TEST(InputLog, ReplayFromASnapshotContinuesTheRecording) {
    Scene s = chain();
    World live(s);
    InputLog log;
    WorldSnapshot at100;
    for (int i = 0; i < 200; ++i) {
        if (i == 100) at100 = live.snapshot();
        log.applyForce(live, 1, Vec3(std::sin(0.1 * i), 5.0, 0.0), live.bodies()[1].pose.p + Vec3(0.2, 0, 0));
        live.step();
    }
    World resumed(s);
    resumed.restore(at100);
    for (int i = 100; i < 200; ++i) {
        log.replay(resumed);
        resumed.step();
    }
    EXPECT_EQ(resumed.stateHash(), live.stateHash());
}

TEST(InputLog, RecordingAfterARewindReplacesTheLaterInput) {
    Scene s = chain();
    World w(s);
    InputLog log;
    for (int i = 0; i < 10; ++i) {
        log.applyForce(w, 0, Vec3(1.0, 0, 0), w.bodies()[0].pose.p);
        w.step();
    }
    ASSERT_EQ(log.events().size(), 10u);
    World rewound(s);
    for (int i = 0; i < 4; ++i) {
        log.replay(rewound);
        rewound.step();
    }
    log.applyForce(rewound, 2, Vec3(0, 2.0, 0), rewound.bodies()[2].pose.p);  // a new drag at step 4
    ASSERT_EQ(log.events().size(), 6u);  // steps 0..4 of the old input, then the new event
    EXPECT_EQ(log.events().back().body, 2);
    EXPECT_EQ(log.events()[4].step, 4);
    log.discardFrom(3);
    EXPECT_EQ(log.events().size(), 3u);
}

}  // namespace
}  // namespace jl
