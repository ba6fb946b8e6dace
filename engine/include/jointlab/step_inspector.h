// JointLab engine — stepping inside a step: the reference kernel's row visits of one step, one
// at a time (the app's stepper: "next row", "next sweep", "finish step").
//
// The design, and why. The inspector does not pause the solver half-way through a step. It takes
// a World of its own at the state the step starts from (clone(): the scene and the snapshot, as
// History's keyframes and the A/B compare rebuild a world), switches it to the reference kernel
// and steps it once with the row trace on (World::setRowTrace), keeping every visit: the trace's
// numbers plus the two bodies' velocities right after it. "Next row" and "next sweep" then move a
// cursor through that list; "finish step" is for the caller to take the real step, as a normal
// step (the app: a single step, which the history records like any other).
//
// So there is one copy of the solver maths (solver/reference/), run exactly as a normal step runs
// it, and nothing is replayed by hand: what the stepper shows is what the step does. The cost is
// one extra step per inspected step, nothing in a normal run. Finishing the step gives the state
// of the recorded world, bit for bit, when the live world also runs the reference kernel and its
// next step adds nothing the clone lacks (a user force: apply it to the clone too; the app's
// stepper applies the history's recorded forces, tests/engine/step_inspector_test.cpp checks it).
//
//     StepInspector s(StepInspector::clone(world));
//     while (s.nextUnit()) show(s.visits()[s.unit(s.cursor() - 1).first]);
//     world.step();  // == s.stepped(), bit for bit (settings.kernel = reference)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "jointlab/world.h"

namespace jl {

class StepInspector {
public:
    using Visit = World::RowTrace;

    /// A unit of stepping: one row's visit, or a block's visits (its rows solved at once).
    struct Unit {
        size_t first = 0;  ///< index of its first visit in visits()
        int count = 1;     ///< visits in it: 1, or the block's row count
    };

    /// A World of its own at `w`'s state (its scene and snapshot): the world the inspector records.
    static std::unique_ptr<World> clone(const World& w);

    /// Records the next step of `next` (taken over; settings.kernel is set to reference): steps it
    /// once with every row visit traced. The cursor starts before the first visit.
    explicit StepInspector(std::unique_ptr<World> next);

    /// Every row visit of the step, in the order the kernel made them.
    const std::vector<Visit>& visits() const { return visits_; }
    const std::vector<Unit>& units() const { return units_; }
    /// Units shown so far: 0 before the first, units().size() when all are.
    size_t cursor() const { return cursor_; }
    /// The unit shown last (cursor() − 1), or null before the first.
    const Unit* current() const { return cursor_ > 0 ? &units_[cursor_ - 1] : nullptr; }
    bool atEnd() const { return cursor_ >= units_.size(); }

    /// Shows the next unit; false (nothing changes) when all are shown.
    bool nextUnit();
    /// Shows every unit up to the end of the current sweep (the next one's, before the first
    /// unit or at a sweep's end); false when all are shown.
    bool nextSweep();

    /// The residuals (World::lastResiduals) of the sweeps completed so far: a prefix of the
    /// stepped world's, growing sweep by sweep (position sweeps, then velocity sweeps; split
    /// impulse's pseudo sweeps and TGS relax sweeps have none).
    std::span<const Real> residualsSoFar() const;
    /// Number of sweeps with a residual (all of them: stepped().lastResiduals().size()).
    size_t sweepCount() const { return stepped_->lastResiduals().size(); }

    /// The recorded world after the step: the state finishing the step gives, its rows and results.
    const World& stepped() const { return *stepped_; }
    /// The step count the step starts from (stepped().stepCount() − 1).
    int64_t fromStep() const { return fromStep_; }

    /// Velocity of scene body `body` right after the last unit shown (before any: at the start
    /// of the step, as the world it was cloned from had it). −1: zero (the world).
    void bodyVelocity(int body, Vec3& linear, Vec3& angular) const;

private:
    /// Index in the residuals of the sweep of visit v; −1 for sweeps without one.
    int residualIndex(const Visit& v) const;

    std::unique_ptr<World> stepped_;
    std::vector<BodyState> start_;  ///< the bodies at the start of the step
    std::vector<Visit> visits_;
    std::vector<Unit> units_;
    size_t cursor_ = 0;
    int64_t fromStep_ = 0;
    int posIters_ = 1;
};

}  // namespace jl
