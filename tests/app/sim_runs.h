// Shared by the app tests of the time machine, the compare and the stepper: a Simulation run with a
// mouse pull and an edit in it, so that going back, branching and stepping are tested across both.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "session/simulation.h"

namespace jl::app::sim_runs {

/// The first dynamic body (the one a user would pull), or −1.
inline int firstDynamic(const Scene& s) {
    for (size_t i = 0; i < s.bodies.size(); ++i)
        if (s.bodies[i].motion == MotionType::Dynamic) return static_cast<int>(i);
    return -1;
}

/// Runs `steps` frames of one step each (the clock must step once per frame), pulling body `pulled`
/// during steps [pullFrom, pullTo) and raising the position iterations by 4 through applyEdit at
/// step `editAt`; returns the state hash after each step, indexed by step (index 0: the start).
inline std::vector<uint64_t> runWithPullAndEdit(Simulation& sim, int steps, int pulled, int64_t pullFrom = 20,
                                                int64_t pullTo = 60, int64_t editAt = 80) {
    std::vector<uint64_t> hashes(static_cast<size_t>(steps + 1), 0);
    hashes[0] = sim.world()->stateHash();
    sim.clock.playing = true;
    for (int i = 0; i < steps; ++i) {
        const int64_t now = sim.world()->stepCount();
        if (now == pullFrom) {
            DragSpring d;
            d.bodyName = sim.scene().bodies[static_cast<size_t>(pulled)].name;
            d.target = sim.world()->bodies()[static_cast<size_t>(pulled)].pose.p + Vec3(0.3, 0.5, 0.0);
            d.stiffness = 200.0;
            d.damping = 10.0;
            sim.drag = d;
        }
        if (now == pullTo) sim.drag.reset();
        if (now == editAt) {
            Scene edited = sim.scene();
            edited.settings.posIters += 4;
            std::string error;
            EXPECT_TRUE(sim.applyEdit(edited, {}, {}, error)) << error;
        }
        sim.advance(1.0 / 60.0);
        hashes[static_cast<size_t>(sim.world()->stepCount())] = sim.world()->stateHash();
    }
    return hashes;
}

}  // namespace jl::app::sim_runs
