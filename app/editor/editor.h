// JointLab editor — runs commands on the Simulation's scene, with undo and redo.
//
//   Editor editor(sim);
//   std::string error;
//   if (!editor.run(setField(FieldOwner::body("door"), "mass", 20.0), error)) show(error);
//   editor.undo(error);
//
// Each command runs on a copy of the scene; the result must pass jl::validateScene, otherwise it
// is refused with the validator's message and the scene stays as it was. An accepted scene is
// applied to the running World between steps (World::applyScene), so an edit made while the
// simulation runs does not reset it. Undo keeps whole-scene snapshots (a Scene is small; this is
// the simplest thing that is obviously right) up to `depth` levels; consecutive commands with the
// same coalescing key (one slider drag) share one level until endCoalescing().
//
// Undo also puts back where bodies were: a command records the running state of every body, and
// undoing (or redoing) an edit of a body's pose or velocity returns that body to the state it had
// when the command ran, instead of to its initial pose.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "editor/commands.h"
#include "session/simulation.h"

namespace jl::app {

class Editor {
public:
    static constexpr size_t kDefaultDepth = 256;

    explicit Editor(Simulation& sim, size_t depth = kDefaultDepth);

    /// Runs a command. On success the scene is replaced, the World patched and the old scene
    /// recorded for undo; `effects` (optional) receives what the command reported. On failure
    /// `error` says why ("set mass: bodies[0].mass: must be > 0, got -1") and nothing changes.
    bool run(const Command& command, std::string& error, CommandEffects* effects = nullptr);

    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    /// Label of the command undo / redo would revert / repeat ("set mass"); "" when none.
    std::string undoLabel() const { return undo_.empty() ? std::string() : undo_.back().label; }
    std::string redoLabel() const { return redo_.empty() ? std::string() : redo_.back().label; }
    size_t undoCount() const { return undo_.size(); }
    size_t redoCount() const { return redo_.size(); }

    /// Steps back / forward one command. The World is patched like for any edit.
    bool undo(std::string& error, CommandEffects* effects = nullptr);
    bool redo(std::string& error, CommandEffects* effects = nullptr);

    /// The current gesture (slider drag, viewport drag) is over: the next command starts a new
    /// undo level even if it has the same coalescing key.
    void endCoalescing() { openCoalesceKey_.clear(); }

    /// True when the scene differs from the last one saved or opened (by history, not content:
    /// undoing back to the saved state makes it clean again).
    bool dirty() const { return revision_ != savedRevision_; }
    void markSaved() { savedRevision_ = revision_; }
    /// The scene now differs from the saved file without an edit (a recovered autosave, a
    /// dropped start state): dirty until the next save, also after undoing back.
    void markUnsaved() { savedRevision_ = kNeverSaved; }
    /// Changes with every edit, undo and redo (autosave: has the scene changed since?).
    uint64_t revision() const { return revision_; }

    /// Forgets all history; the current scene counts as saved. Call after New and Open.
    void resetHistory();

private:
    struct Entry {
        Scene scene;        ///< the scene before the command (undo stack) or after it (redo stack)
        std::string label;  ///< the command's label
        Renames bodyRenames, jointRenames;                          ///< the command's renames, old → new
        uint64_t revision = 0;                                      ///< revision of `scene`
        std::vector<std::pair<std::string, BodyState>> bodyStates;  ///< running state when `scene` was left
    };

    std::vector<std::pair<std::string, BodyState>> runningStates() const;

    bool restore(std::deque<Entry>& from, std::deque<Entry>& to, bool forward, std::string& error,
                 CommandEffects* effects);

    Simulation& sim_;
    size_t depth_;
    std::deque<Entry> undo_, redo_;
    std::string openCoalesceKey_;
    static constexpr uint64_t kNeverSaved = ~uint64_t{0};
    uint64_t revision_ = 0, savedRevision_ = 0, nextRevision_ = 1;
};

}  // namespace jl::app
