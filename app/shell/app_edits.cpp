// The App's edit requests: commands through the Editor, undo and redo, and the selection
// following renames, deletions and new objects.
#include <utility>

#include "shell/app.h"

namespace jl::app {

void App::applyEditRequests(const UiRequests& r) {
    const bool hadStartState = state_.sim.startState().has_value();
    for (const Command& c : r.commands) runCommand(c);
    if (r.endCoalescing) state_.editor.endCoalescing();
    if (r.undo) undoRedo(false);
    if (r.redo) undoRedo(true);
    if (hadStartState && !state_.sim.startState())
        setMessage(
            "the file's saved run state no longer fits the edited bodies and joints and is dropped: Reset "
            "now starts at t = 0",
            false);
    if (const World* world = state_.sim.world();
        world && r.restoreJoint >= 0 && static_cast<size_t>(r.restoreJoint) < world->scene().joints.size()) {
        state_.sim.restoreJoint(r.restoreJoint);
        setMessage("restored joint '" + world->scene().joints[static_cast<size_t>(r.restoreJoint)].name + "'",
                   false);
    }
}

void App::runCommand(const Command& command) {
    const Selection::Kind kind = state_.selection.kind;
    std::string name = selectedName(state_.sim.scene(), state_.selection);
    CommandEffects effects;
    std::string error;
    if (!state_.editor.run(command, error, &effects)) {
        setMessage("refused: " + error, true);
        return;
    }
    // A slider being dragged should not wipe a refusal the person has not read yet.
    if (command.coalesceKey.empty() || !state_.messageIsError) setMessage(command.label, false);
    followSelection(kind, std::move(name), effects);
}

void App::undoRedo(bool redo) {
    const Selection::Kind kind = state_.selection.kind;
    std::string name = selectedName(state_.sim.scene(), state_.selection);
    const std::string label = redo ? state_.editor.redoLabel() : state_.editor.undoLabel();
    CommandEffects effects;
    std::string error;
    const bool ok = redo ? state_.editor.redo(error, &effects) : state_.editor.undo(error, &effects);
    if (!ok) {
        setMessage(error, true);
        return;
    }
    setMessage((redo ? "redo " : "undo ") + label, false);
    followSelection(kind, std::move(name), effects);
}

void App::followSelection(Selection::Kind kind, std::string name, const CommandEffects& effects) {
    const Scene& scene = state_.sim.scene();
    if (effects.selectKind != Selection::Kind::None) {
        state_.selection = findSelection(scene, effects.selectKind, effects.selectName);
        return;
    }
    if (effects.clearSelection) {
        state_.selection = Selection{};
        return;
    }
    const Renames& renames = kind == Selection::Kind::Body ? effects.bodyRenames : effects.jointRenames;
    for (const auto& [from, to] : renames)
        if (from == name) name = to;
    state_.selection = findSelection(scene, kind, name);
}

}  // namespace jl::app
