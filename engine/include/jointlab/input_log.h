// JointLab engine — recorded user input (mouse drags), replayable bit for bit.
//
// The app applies a drag as a force at a world point on a body for the next step
// (World::applyForce). Going through an InputLog records each such force with the step it acts
// in; replaying the log into a World built from the same scene reproduces the run exactly, since
// the world sums the same forces in the same order:
//
//     InputLog log;                                  // recording
//     log.applyForce(world, body, force, point);     // instead of world.applyForce(...)
//     world.step();
//
//     World again(scene);                            // replay
//     for (...) { log.replay(again); again.step(); }
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "jointlab/math.h"

namespace jl {

class World;

/// One user force: applied during the step taken when the world's stepCount() was `step`.
struct InputEvent {
    int64_t step = 0;
    int body = -1;         ///< scene body index
    Vec3 force{0.0};       ///< [N], world axes
    Vec3 worldPoint{0.0};  ///< where it acts [m]
};

class InputLog {
public:
    /// Records the force for the world's next step and applies it (World::applyForce). Events
    /// recorded for later steps are dropped: after a rewind the new input replaces the old.
    void applyForce(World& world, int body, const Vec3& force, const Vec3& worldPoint);

    /// Applies every event recorded for the world's next step (its current stepCount()), in the
    /// order they were recorded. Call once before each World::step().
    void replay(World& world) const;

    /// Drops the events of step `step` and later (e.g. the user rewound to `step` and the old
    /// input of that step should not replay).
    void discardFrom(int64_t step);

    /// Appends an event without applying it (reading a saved log). Refused (false, nothing
    /// changes) if its step is before the last event's: events stay in step order.
    bool append(const InputEvent& event);

    void clear() { events_.clear(); }
    std::span<const InputEvent> events() const { return events_; }
    bool empty() const { return events_.empty(); }

private:
    std::vector<InputEvent> events_;  ///< in recording order; steps never decrease
};

}  // namespace jl
