// JointLab app — a second run shown beside the live one: translucent bodies in the viewport and
// dashed lines in the plots.
//
// It is one of two things, never both at once:
//   - Compare (issue "Time machine", A/B compare): B is a copy of the live World (A) from the step
//     shown, with some fields of the scene changed (jl::compareWorld: "settings.solver=tgs", …),
//     stepping in lockstep with A and fed the same mouse forces. The live run never waits for B:
//     B takes exactly one step per step of A. Going back on the timeline, an edit, or a reset
//     starts B again from A's state at that moment with the same changes.
//   - Ghost: the future the live run left. After a branch starts (an edit at a past step) or the
//     person switches branch, the branch left behind is followed: at each live step s from the
//     step where the two lineages part, the ghost is that branch's state at s (History::worldAt
//     for a jump, then one re-simulated step at a time with that branch's recorded forces, exactly
//     as the live run retakes its own future). Where that branch ends, the ghost is gone.
//
// Both record their own Telemetry, so a plot draws its series for them beside the live ones.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jointlab/compare.h"
#include "jointlab/history.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"

namespace jl::app {

class ShadowRun {
public:
    enum class Kind { None, Ghost, Compare };

    /// One step of a compare: how far B is from A, and the energy of each.
    struct CompareSample {
        int64_t step = 0;
        Real divergence = 0.0;  ///< the largest distance between a body's centre in A and in B [m]
        Real energyA = 0.0, energyB = 0.0;  ///< kinetic + potential [J]
    };

    // [SECTION] compare

    /// Starts B from `a` now with `changes` ("PATH=VALUE,…", field paths as in the scenario file).
    /// On a bad entry `error` names it and nothing changes. An empty text compares A with itself
    /// (the two never differ by a bit).
    bool startCompare(const World& a, const std::string& changes, std::string& error);
    /// B from a scene and state of its own (Swap: B goes on as the old A); `changes` are what
    /// takes A's scene to `scene` (for the label and for starting again after a jump).
    bool startCompareFrom(const Scene& scene, const WorldSnapshot& state, std::vector<FieldChange> changes,
                          std::string& error);
    /// The changes that take B's scene back to `a` (A's): each changed field at A's value.
    std::vector<FieldChange> reversedChanges(const Scene& a) const;
    void stopCompare();
    bool comparing() const { return kind_ == Kind::Compare; }
    /// The changes B runs with, as typed (normalised: no spaces around the commas).
    const std::string& compareChanges() const { return changesText_; }
    /// Per step of B: the divergence and the energies, oldest first (bounded like the telemetry).
    const std::vector<CompareSample>& compareSamples() const { return samples_; }

    // [SECTION] ghost

    /// The branch whose future is shown as a ghost (−1: none). Ignored while comparing; the ghost
    /// comes back when the compare stops.
    void followBranch(int branch);
    int ghostBranch() const { return ghostBranch_; }

    // [SECTION] lockstep (Simulation calls these)

    /// A user force applied to A before its next step: B gets the same force on the same body.
    void applyForce(int body, const Vec3& force, const Vec3& worldPoint);
    /// The forces A retakes from its history (played on after going back): B gets them too.
    void replayForces(History& history);
    /// After A stepped, went back, or was edited: brings the shadow to A's step. `capacity` is the
    /// live telemetry's, so that both plots cover the same window. `jumped`: A did not just take
    /// one step (it went back, or was edited): B starts again from A, the ghost is looked up.
    void sync(const World& a, History& history, size_t capacity, bool jumped);
    /// Forgets everything (a new World: a file opened, a reset).
    void clear();
    /// Starts the record (telemetry and compare samples) again: the live record did (the run went
    /// on from a step it had gone back to). Until then a jump keeps the record, as the live
    /// plots keep theirs with a cursor at the step shown.
    void clearRecord();

    /// What is shown now: B, the ghost at A's step, or none (null).
    Kind kind() const { return world() ? kind_ : Kind::None; }
    const World* world() const { return shown_ ? world_.get() : nullptr; }
    const Telemetry& telemetry() const { return telemetry_; }
    /// For the legend and the viewport: "B: settings.solver=tgs" or "ghost: branch 'main'".
    std::string label(const History& history) const;

private:
    void syncCompare(const World& a);
    void syncGhost(const World& a, History& history);
    void restartCompare(const World& a);
    void record(const World& a);
    /// Drops B or the ghost, its record and the compare's changes.
    void forgetRun();

    Kind kind_ = Kind::None;
    std::unique_ptr<World> world_;
    bool shown_ = false;
    Telemetry telemetry_{600};

    std::vector<FieldChange> changes_;
    std::string changesText_;
    std::vector<CompareSample> samples_;
    size_t capacity_ = 600;

    int ghostBranch_ = -1;
};

}  // namespace jl::app
