#include "editor/editor.h"

#include <regex>
#include <utility>

#include "jointlab/name_index.h"

namespace jl::app {

namespace {

Renames inverted(const Renames& renames) {
    Renames out;
    // Undo renames back in the opposite order (a → b then b → c undoes as c → b then b → a).
    for (auto it = renames.rbegin(); it != renames.rend(); ++it) out.emplace_back(it->second, it->first);
    return out;
}

/// The validator names places by index ("bodies[0].mass", "joints[2].params.limit.lower"); a person
/// editing knows them by name ("door.mass", "hinge.limit.lower").
std::string readable(const Scene& scene, const std::string& message) {
    const std::regex place(R"((bodies|joints)\[(\d+)\](\.params)?)");
    std::string out;
    auto begin = message.cbegin();
    for (std::sregex_iterator it(message.begin(), message.end(), place), end; it != end; ++it) {
        const std::smatch& m = *it;
        out.append(begin, m[0].first);
        const size_t i = std::stoul(m[2].str());
        const bool body = m[1] == "bodies";
        if (body && i < scene.bodies.size())
            out += scene.bodies[i].name;
        else if (!body && i < scene.joints.size())
            out += scene.joints[i].name;
        else
            out += m[0].str();
        begin = m[0].second;
    }
    out.append(begin, message.cend());
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
    const bool coalesce =
        !command.coalesceKey.empty() && command.coalesceKey == openCoalesceKey_ && !undo_.empty();
    Scene before = coalesce ? Scene{} : sim_.scene();
    auto states = coalesce ? std::vector<std::pair<std::string, BodyState>>{} : runningStates();
    std::string problem;
    if (!sim_.applyEdit(std::move(edited), fx.bodyRenames, fx.jointRenames, problem)) {
        error = command.label + ": " + readable(sim_.scene(), problem);
        return false;
    }
    if (coalesce) {
        Entry& top = undo_.back();
        top.bodyRenames.insert(top.bodyRenames.end(), fx.bodyRenames.begin(), fx.bodyRenames.end());
        top.jointRenames.insert(top.jointRenames.end(), fx.jointRenames.begin(), fx.jointRenames.end());
    } else {
        undo_.push_back(Entry{std::move(before), command.label, fx.bodyRenames, fx.jointRenames, revision_,
                              std::move(states)});
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
    Entry counterpart{sim_.scene(),        target.label, target.bodyRenames,
                      target.jointRenames, revision_,    runningStates()};
    const Renames bodies = forward ? target.bodyRenames : inverted(target.bodyRenames);
    const Renames joints = forward ? target.jointRenames : inverted(target.jointRenames);
    // Undoing the edit that started a branch (made at a past step) goes back to the branch it
    // left, at that step: the run is where it was before the edit, not the edit reverted on top.
    const bool backToParent = !forward && sim_.undoBranch();
    std::string problem;
    if (!backToParent && !sim_.applyEdit(target.scene, bodies, joints, problem)) {
        error = (forward ? "redo " : "undo ") + target.label + ": " + problem;
        from.push_back(std::move(target));
        return false;
    }
    // Bodies whose pose or velocity the step changes go back to where they were at the time.
    if (World* world = backToParent ? nullptr : sim_.world()) {
        const Scene& left = counterpart.scene;
        // Every body's state may be listed: look names up hashed, not by a scan per body.
        const NameIndex nowIndex(world->scene().bodies), beforeIndex(left.bodies);
        for (const auto& [name, state] : target.bodyStates) {
            const int now = nowIndex.find(name), before = beforeIndex.find(name);
            if (now < 0 || before < 0) continue;
            const BodyDesc& a = left.bodies[static_cast<size_t>(before)];
            const BodyDesc& b = world->scene().bodies[static_cast<size_t>(now)];
            if (a.position != b.position || a.orientation != b.orientation ||
                a.linearVelocity != b.linearVelocity || a.angularVelocity != b.angularVelocity)
                world->setBodyState(now, state);
        }
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

std::vector<std::pair<std::string, BodyState>> Editor::runningStates() const {
    std::vector<std::pair<std::string, BodyState>> states;
    const World* world = sim_.world();
    if (!world) return states;
    states.reserve(world->bodies().size());
    for (size_t i = 0; i < world->bodies().size(); ++i)
        states.emplace_back(world->scene().bodies[i].name, world->bodies()[i]);
    return states;
}

void Editor::resetHistory() {
    undo_.clear();
    redo_.clear();
    openCoalesceKey_.clear();
    revision_ = nextRevision_++;
    savedRevision_ = revision_;
}

}  // namespace jl::app
