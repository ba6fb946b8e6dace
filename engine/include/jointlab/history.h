// JointLab engine — the history of a run: any step of it again, bit for bit, and branches.
//
// A run is a sequence of steps of one World. History keeps
//   - keyframes: the World's whole state (WorldSnapshot, packed) with the scene it ran, every
//     `interval` steps, and at every change made between steps (an edit, a setting, a restore: the
//     caller says so with changed()), so that no change has to be replayed;
//   - the user forces of every step (the mouse spring), in the order they were applied;
//   - marks for the timeline (a joint broke, an edit, a setting changed, …).
// Any step is then the nearest keyframe before it plus a deterministic re-simulation of the steps
// in between with their forces (seek()), which gives exactly the state the run had.
//
// Branches. Changing anything at a step before the end of the current branch (after seeking back)
// starts a new branch there: its steps from that step on are its own, the steps before it are its
// parent's, and the old future stays in the parent. Branches form a tree; switching branch is
// seeking in another one.
//
// Budget. Keyframes are packed (each word XORed with a prediction, then the leading zero nibbles
// and the runs of zero words left out: packSnapshot) and counted with the forces and the
// scenes; when the total passes the budget the oldest keyframes go first, whatever their branch,
// never the newest: droppedBefore() says from which step the history still reaches back.
//
//     History h;
//     h.start(world);                            // a keyframe of the state now
//     h.applyForce(world, body, force, point);   // instead of world.applyForce
//     world.step(); h.stepped(world);
//     world.applyScene(edited, previous); h.changed(world, HistoryMark::Edit, "mass of bob");
//     const World& then = h.seek(120);           // the state after step 120, its rows too
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "jointlab/input_log.h"
#include "jointlab/scene.h"
#include "jointlab/snapshot.h"

namespace jl {

class World;

/// What a timeline mark says happened at its step.
enum class HistoryMark : uint8_t {
    Edit,            ///< the scene was edited between steps
    Setting,         ///< a solver or world setting changed
    Break,           ///< a joint broke in this step
    Restore,         ///< a broken joint was restored
    LimitHit,        ///< a limit row started to push
    DriveSaturated,  ///< a drive reached its force limit
    RowDropped,      ///< a row was dropped (its bodies cannot move along it)
    NonFinite,       ///< the step diverged and the world put its bodies back
    Branch,          ///< a branch starts here
};
inline constexpr const char* kHistoryMarkNames[] = {"edit",  "setting",     "break",      "restore", "limit",
                                                    "drive", "row dropped", "non-finite", "branch"};

struct HistoryEvent {
    int64_t step = 0;  ///< the world's step count when it happened (after that step for Break …)
    HistoryMark kind = HistoryMark::Edit;
    std::string what;  ///< for the tooltip: "joint 'hinge' broke (412 N > 400 N)"
};

/// The state of a World at one step, packed: its scene (shared with the other keyframes that ran
/// the same one) and its WorldSnapshot.
struct HistoryKeyframe {
    int64_t step = 0;
    bool change = false;  ///< taken after a change between steps (not a periodic one)
    std::shared_ptr<const Scene> scene;
    std::vector<uint64_t> packed;  ///< packSnapshot()
};

/// WorldSnapshot ⇄ words, exactly (history file format 3): each word XORed with a prediction from
/// the words before it (the same field of the body before; a quaternion's w from its x, y, z; with
/// `scene`, a body's position and velocity from the body its first fixed, spherical or revolute
/// joint holds it to), then coded without its leading zero nibbles, runs of zero words as their
/// length (keyframe_packing.cpp). A keyframe of 1000 swinging boxes: 73 KB (format 2: 88 KB,
/// format 1: 104 KB). Unpack with the scene it was packed with (the snapshot's own).
std::vector<uint64_t> packSnapshot(const WorldSnapshot& s, const Scene* scene = nullptr);
/// False (and `out` unspecified) when the words are not a packed snapshot (of `scene`).
bool unpackSnapshot(std::span<const uint64_t> words, WorldSnapshot& out, const Scene* scene = nullptr);

class History {
public:
    struct Budget {
        size_t bytes = size_t{256} << 20;  ///< keyframes + forces + scenes
        /// Steps between periodic keyframes; 0: chosen from the mean size of the keyframes so far,
        /// so that 10 minutes at the scene's dt fit in `bytes` (at most 64, at least 1).
        int interval = 0;
    };
    struct Branch {
        int id = 0;
        std::string name;
        int parent = -1;                    ///< the branch it left (−1: the first)
        int64_t fork = 0;                   ///< its first own step: steps before it are its parent's
        int64_t end = 0;                    ///< the last step it reached
        std::vector<HistoryKeyframe> keys;  ///< in step order; keys.front().step == fork until dropped
        std::vector<InputEvent> forces;     ///< in step order
        std::vector<HistoryEvent> events;   ///< in step order
        bool deleted = false;
    };

    History();
    explicit History(Budget budget);
    ~History();
    History(const History&) = delete;
    History(History&&) noexcept;
    History& operator=(History&&) noexcept;
    History& operator=(const History&) = delete;

    // [SECTION] recording the live run

    /// Forgets everything; the first branch starts with a keyframe of `world` now.
    void start(const World& world);
    bool started() const { return !branches_.empty(); }
    /// Records a user force for the world's next step and applies it (World::applyForce). At a step
    /// before the current branch's end, a new branch starts first.
    void applyForce(World& world, int body, const Vec3& force, const Vec3& worldPoint);
    /// The same for a force the caller applied itself (or is about to): recorded, not applied.
    void recordForce(const World& world, int body, const Vec3& force, const Vec3& worldPoint);
    /// After World::step(): a keyframe every interval() steps; a divergence is marked. A step taken
    /// at the end of the current branch extends it; a step inside it (resumed after seeking back,
    /// nothing changed) is the one the branch already has and records nothing.
    void stepped(const World& world);
    /// After a change between steps (applyScene, a setting, restoreJoint, setBodyState, …): a
    /// keyframe of the state now, and a mark. At a step before the current branch's end, a new
    /// branch starts there first (the old future is kept).
    void changed(const World& world, HistoryMark kind, std::string what);
    /// Adds a mark without a keyframe (a break, a limit hit: they come from the steps themselves).
    /// After a step that retook one the branch already had, nothing: it has its marks.
    void mark(int64_t step, HistoryMark kind, std::string what);

    // [SECTION] going back

    /// The state the current branch had after `step` steps (its rows and results those of that
    /// step, re-simulated from the keyframe before it), clamped to [firstStep(), lastStep()].
    /// The World is History's own scratch world, valid until the next seek or change.
    const World& seek(int64_t step);
    /// A World of its own at that state, with that step's rows (for the live run to continue from,
    /// or a comparison); the next seek builds its scratch world again.
    std::unique_ptr<World> worldAt(int64_t step);
    /// A run resumed at an earlier step retakes the current branch's recorded future: before each
    /// step, the forces recorded for the world's next step are applied (not recorded again), and at
    /// a step where changeAt() is true the run continues from worldAt(that step), which has the
    /// change. Returns false (nothing applied) at or past the branch's end: the run is live again.
    bool replayForces(World& world);
    /// True when the current branch changed (an edit, a setting, a restore) at `step`, between
    /// step − 1 and step.
    bool changeAt(int64_t step) const;
    /// The earliest step the current branch can still reach (raised when the budget drops keyframes).
    int64_t firstStep() const;
    /// The last step of the current branch.
    int64_t lastStep() const;

    /// The same for another branch (the future the current one left: the app draws it as a ghost
    /// beside the live run). `branch` must be a live branch id.
    std::unique_ptr<World> worldAt(int branch, int64_t step);
    bool replayForces(int branch, World& world);
    bool changeAt(int branch, int64_t step) const;
    int64_t firstStep(int branch) const;
    int64_t lastStep(int branch) const;
    /// True when `branch` is a branch that has not been deleted.
    bool hasBranch(int branch) const;
    /// The first step at which the two branches' lineages differ: the step where the later of
    /// them forked off the other's line (0 when they share nothing but the start).
    int64_t divergenceStep(int a, int b) const;
    /// Steps before this were dropped to stay within the budget (0: nothing dropped).
    int64_t droppedBefore() const { return droppedBefore_; }

    // [SECTION] branches

    int currentBranch() const { return current_; }
    std::span<const Branch> branches() const { return branches_; }
    /// Makes branch `id` the current one (its future is what lastStep() and seek() see).
    bool switchBranch(int id);
    /// Deletes a branch that is not the current one and has no live children; its memory is freed.
    bool deleteBranch(int id, std::string& error);
    void renameBranch(int id, std::string name);
    /// The marks of the current branch's lineage, in step order.
    std::vector<HistoryEvent> events() const;

    /// Takes over a history read from a file (history_io.h checks it first): its branches,
    /// interval and where it reaches back to; the byte count is worked out again.
    void adopt(Budget budget, int interval, int current, int64_t droppedBefore, std::vector<Branch> branches);

    // [SECTION] budget

    int interval() const { return interval_; }
    size_t bytes() const { return bytes_; }
    const Budget& budget() const { return budget_; }
    size_t keyframeCount() const;

private:
    struct Piece {
        const Branch* branch;
        int64_t from, to;  ///< steps [from, to) of the lineage are this branch's (to: its end + 1)
    };
    std::vector<Piece> lineage() const { return lineage(current_); }
    std::vector<Piece> lineage(int branch) const;
    const World& seekIn(int branch, int64_t step);
    /// The branch whose keyframes and forces hold step `step` in the current lineage.
    const Branch* owner(const std::vector<Piece>& pieces, int64_t step) const;
    /// Applies the forces recorded for the world's next step.
    void applyForcesOf(const std::vector<Piece>& pieces, World& world) const;
    /// The first step the pieces can reach (see firstStep()).
    int64_t reachableFrom(const std::vector<Piece>& pieces, int64_t last) const;
    void branchAt(int64_t step);
    void addKeyframe(Branch& b, const World& world, bool change);
    void enforceBudget();
    /// Budget::interval 0: the interval from the mean size of the keyframes so far.
    void adaptInterval(const HistoryKeyframe& key);
    void restoreInto(const HistoryKeyframe& key);
    static size_t sceneBytes(const Scene& scene);

    Budget budget_;
    int interval_ = 1;
    Real stepsFor10Minutes_ = 36000.0;
    size_t packedWords_ = 0, packedKeys_ = 0;  ///< periodic keyframes' sizes so far (adaptInterval)
    std::vector<Branch> branches_;
    int current_ = -1;
    size_t bytes_ = 0;
    int64_t droppedBefore_ = 0;
    std::shared_ptr<const Scene> lastScene_;     ///< the scene of the newest keyframe (shared by the next)
    std::unique_ptr<World> scratch_;             ///< seek()'s world
    std::shared_ptr<const Scene> scratchScene_;  ///< the keyframe scene scratch_ was built from
    /// The scratch world of the scene seen before (kept, with its scene, when a seek crosses an
    /// edit): seeking back across the edit restores it instead of building a world and setting up
    /// its first step again (~10 ms for 1000 bodies, a fifth of a jump's 50 ms).
    std::unique_ptr<World> spare_;
    std::shared_ptr<const Scene> spareScene_;
    int scratchBranch_ = -1;
    bool retaking_ = false;  ///< the last step stepped() saw was one the branch already had
};

}  // namespace jl
