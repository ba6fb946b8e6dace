#include "session/sim_clock.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

int SimClock::stepsForFrame(double frameSeconds, double dt) {
    behind = false;
    if (!playing) {
        accumulator = 0.0;
        int steps = pendingSingleSteps;
        pendingSingleSteps = 0;
        return steps;
    }
    pendingSingleSteps = 0;
    if (fixedStepsPerFrame > 0) return fixedStepsPerFrame;
    if (!(dt > 0.0)) return 0;
    // A frame longer than a quarter second (window dragged, debugger) is not worth catching up.
    accumulator += std::min(frameSeconds, 0.25) * std::max(timeScale, 0.0);
    int steps = static_cast<int>(std::floor(accumulator / dt));
    if (steps > maxStepsPerFrame) {
        steps = maxStepsPerFrame;
        behind = true;
        accumulator = 0.0;
    } else {
        accumulator -= steps * dt;
    }
    return steps;
}

}  // namespace jl::app
