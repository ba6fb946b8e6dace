// The App's edit requests: commands through the Editor, undo and redo, and the selection
// following renames, deletions and new objects.
#include <cstdio>
#include <utility>

#include "editor/reseat.h"
#include "render/joint_frames.h"
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
        world && r.restoreJoint >= 0 && static_cast<size_t>(r.restoreJoint) < world->scene().joints.size())
        restoreBrokenJoint(r.restoreJoint, r.restoreMode, r.restoreSteps);
}

void App::restoreBrokenJoint(int j, RestoreMode mode, int steps) {
    const World& world = *state_.sim.world();
    const JointDesc joint = world.scene().joints[static_cast<size_t>(j)];
    const Transform pose0 = bodyPose(world.bodies(), world.jointBody0(j));
    const Transform pose1 = bodyPose(world.bodies(), world.jointBody1(j));
    const Reseat seat = reseatJoint(joint, pose0, pose1, world.scene().settings.dt);
    const std::string gap = holdGapText(seat.gapBefore);
    if (seat.errorBefore < 1e-6) {  // still where it holds: nothing to re-seat
        state_.sim.restoreJoint(j);
        setMessage("restored joint '" + joint.name + "'", false);
        return;
    }
    if (mode == RestoreMode::Pull) {
        state_.sim.restoreJoint(j, true);
        state_.sim.pullJointTogether(joint.name, seat.joint.frame0, seat.joint.frame1, steps);
        setMessage("restored '" + joint.name + "': pulling its bodies together over " +
                       std::to_string(steps) + " steps (they were " + gap + ")",
                   false);
        return;
    }
    std::string error;
    if (!state_.editor.run(reseatJoint(joint.name, seat.joint), error)) {
        setMessage("cannot re-seat: " + error, true);
        return;
    }
    state_.sim.restoreJoint(j, true);  // (the re-seat keeps the joint's index)
    setMessage("restored '" + joint.name + "', re-seated where its bodies are (they were " + gap +
                   "; Undo puts its frames back)",
               false);
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
    // An edit that went through: a refusal shown before is answered (StatusLine).
    setMessage(command.label, false);
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
    for (const auto& [from, to] : effects.bodyRenames) state_.index.renameBody(from, to);  // colours stay
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
