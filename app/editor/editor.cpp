#include "editor/editor.h"

#include <utility>

namespace jl::app {

namespace {

Renames inverted(const Renames& renames) {
    Renames out;
    // Undo renames back in the opposite order (a → b then b → c undoes as c → b then b → a).
    for (auto it = renames.rbegin(); it != renames.rend(); ++it) out.emplace_back(it->second, it->first);
    return out;
}

}  // namespace

Editor::Editor(Simulation& sim, size_t depth) : sim_(sim), depth_(depth < 1 ? 1 : depth) {}

bool Editor::run(const Command& command, std::string& error, CommandEffects* effects) {
    Scene edited = sim_.scene();
    CommandEffects fx;
    if (std::string problem = command.apply(edited, fx); !problem.empty()) {
        error = command.label + ": " + problem;
        return false;
    }
    const bool coalesce = !command.coalesceKey.empty() && command.coalesceKey == openCoalesceKey_ && !undo_.empty();
    Scene before = coalesce ? Scene{} : sim_.scene();
    std::string problem;
    if (!sim_.applyEdit(std::move(edited), fx.bodyRenames, fx.jointRenames, problem)) {
        error = command.label + ": " + problem;
        return false;
    }
    if (coalesce) {
        Entry& top = undo_.back();
        top.bodyRenames.insert(top.bodyRenames.end(), fx.bodyRenames.begin(), fx.bodyRenames.end());
        top.jointRenames.insert(top.jointRenames.end(), fx.jointRenames.begin(), fx.jointRenames.end());
    } else {
        undo_.push_back(Entry{std::move(before), command.label, fx.bodyRenames, fx.jointRenames, revision_});
        while (undo_.size() > depth_) undo_.pop_front();
    }
    redo_.clear();
    revision_ = nextRevision_++;
    openCoalesceKey_ = command.coalesceKey;
    if (effects) *effects = std::move(fx);
    return true;
}

bool Editor::undo(std::string& error, CommandEffects* effects) {
    if (undo_.empty()) {
        error = "nothing to undo";
        return false;
    }
    return restore(undo_, redo_, false, error, effects);
}

bool Editor::redo(std::string& error, CommandEffects* effects) {
    if (redo_.empty()) {
        error = "nothing to redo";
        return false;
    }
    return restore(redo_, undo_, true, error, effects);
}

bool Editor::restore(std::deque<Entry>& from, std::deque<Entry>& to, bool forward, std::string& error,
                     CommandEffects* effects) {
    endCoalescing();
    Entry target = std::move(from.back());
    from.pop_back();
    Entry counterpart{sim_.scene(), target.label, target.bodyRenames, target.jointRenames, revision_};
    const Renames bodies = forward ? target.bodyRenames : inverted(target.bodyRenames);
    const Renames joints = forward ? target.jointRenames : inverted(target.jointRenames);
    std::string problem;
    if (!sim_.applyEdit(target.scene, bodies, joints, problem)) {
        error = (forward ? "redo " : "undo ") + target.label + ": " + problem;
        from.push_back(std::move(target));
        return false;
    }
    revision_ = target.revision;
    to.push_back(std::move(counterpart));
    if (effects) {
        *effects = CommandEffects{};
        effects->bodyRenames = bodies;
        effects->jointRenames = joints;
    }
    return true;
}

void Editor::resetHistory() {
    undo_.clear();
    redo_.clear();
    openCoalesceKey_.clear();
    revision_ = nextRevision_++;
    savedRevision_ = revision_;
}

}  // namespace jl::app
