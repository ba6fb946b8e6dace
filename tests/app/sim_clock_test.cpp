// The fixed-timestep accumulator: whole steps only, leftover carried, backlog capped.
#include "session/sim_clock.h"

#include <gtest/gtest.h>

namespace jl::app {
namespace {

constexpr double kDt = 1.0 / 60.0;

TEST(SimClock, RealTimeTakesOneStepPerStepOfWallTime) {
    SimClock clock;
    int steps = 0;
    // 1 s of wall time in frames of 7 ms: exactly 60 steps, never more than 1 per frame.
    for (int i = 0; i < 1000; ++i) {
        int n = clock.stepsForFrame(0.001, kDt);
        EXPECT_LE(n, 1);
        steps += n;
    }
    EXPECT_EQ(steps, 60);
    EXPECT_GE(clock.accumulator, 0.0);
    EXPECT_LT(clock.accumulator, kDt);
}

TEST(SimClock, LeftoverTimeIsCarriedToTheNextFrame) {
    SimClock clock;
    EXPECT_EQ(clock.stepsForFrame(1.5 * kDt, kDt), 1);
    EXPECT_NEAR(clock.accumulator, 0.5 * kDt, 1e-12);
    EXPECT_EQ(clock.stepsForFrame(0.5 * kDt, kDt), 1);
    EXPECT_NEAR(clock.accumulator, 0.0, 1e-12);
}

TEST(SimClock, SlowMotionScalesWallTime) {
    SimClock clock;
    clock.timeScale = 0.25;
    int steps = 0;
    for (int i = 0; i < 240; ++i) steps += clock.stepsForFrame(kDt, kDt);
    EXPECT_EQ(steps, 60);
}

TEST(SimClock, BacklogIsCappedAndDropped) {
    SimClock clock;
    clock.maxStepsPerFrame = 4;
    EXPECT_EQ(clock.stepsForFrame(0.2, kDt), 4);  // 12 steps due
    EXPECT_TRUE(clock.behind);
    EXPECT_EQ(clock.accumulator, 0.0);
    EXPECT_EQ(clock.stepsForFrame(kDt, kDt), 1);
    EXPECT_FALSE(clock.behind);
}

TEST(SimClock, PausedTakesOnlyRequestedSingleSteps) {
    SimClock clock;
    clock.playing = false;
    EXPECT_EQ(clock.stepsForFrame(1.0, kDt), 0);
    clock.requestSingleStep();
    clock.requestSingleStep();
    EXPECT_EQ(clock.stepsForFrame(1.0, kDt), 2);
    EXPECT_EQ(clock.stepsForFrame(1.0, kDt), 0);
}

TEST(SimClock, FixedStepsPerFrameIgnoresWallTime) {
    SimClock clock;
    clock.fixedStepsPerFrame = 1;
    EXPECT_EQ(clock.stepsForFrame(0.0, kDt), 1);
    EXPECT_EQ(clock.stepsForFrame(10.0, kDt), 1);
}

}  // namespace
}  // namespace jl::app
