#include "session/scene_index.h"

namespace jl::app {

namespace {

int lookup(const std::unordered_map<std::string, int>& map, const std::string& name) {
    const auto it = map.find(name);
    return it == map.end() ? -1 : it->second;
}

}  // namespace

bool SceneIndex::sync(const Scene& scene, uint64_t revision) {
    if (revision == revision_) return false;
    revision_ = revision;
    ++rebuilds_;
    bodyByName_.clear();
    jointByName_.clear();
    bodyByName_.reserve(scene.bodies.size());
    jointByName_.reserve(scene.joints.size());
    for (size_t i = 0; i < scene.bodies.size(); ++i)
        bodyByName_.emplace(scene.bodies[i].name, static_cast<int>(i));
    for (size_t j = 0; j < scene.joints.size(); ++j)
        jointByName_.emplace(scene.joints[j].name, static_cast<int>(j));

    const size_t nb = scene.bodies.size();
    jointBodies_.resize(scene.joints.size());
    jointsOfStart_.assign(nb + 1, 0);
    for (size_t j = 0; j < scene.joints.size(); ++j) {
        const JointDesc& d = scene.joints[j];
        const int b0 = d.body0.empty() ? -1 : lookup(bodyByName_, d.body0);
        const int b1 = d.body1.empty() ? -1 : lookup(bodyByName_, d.body1);
        jointBodies_[j] = {b0, b1};
        if (b0 >= 0) ++jointsOfStart_[static_cast<size_t>(b0) + 1];
        if (b1 >= 0 && b1 != b0) ++jointsOfStart_[static_cast<size_t>(b1) + 1];
    }
    for (size_t b = 0; b < nb; ++b) jointsOfStart_[b + 1] += jointsOfStart_[b];
    jointsOf_.resize(static_cast<size_t>(jointsOfStart_[nb]));
    std::vector<int> fill(jointsOfStart_.begin(), jointsOfStart_.end() - 1);
    for (size_t j = 0; j < scene.joints.size(); ++j) {
        const auto [b0, b1] = jointBodies_[j];
        if (b0 >= 0) jointsOf_[static_cast<size_t>(fill[static_cast<size_t>(b0)]++)] = static_cast<int>(j);
        if (b1 >= 0 && b1 != b0)
            jointsOf_[static_cast<size_t>(fill[static_cast<size_t>(b1)]++)] = static_cast<int>(j);
    }

    // Colours: a body keeps the slot it had; a new dynamic body takes the next one.
    slots_.assign(nb, 0);
    for (size_t i = 0; i < nb; ++i) {
        const BodyDesc& b = scene.bodies[i];
        if (b.motion != MotionType::Dynamic) continue;
        auto [it, added] = slotByName_.try_emplace(b.name, nextSlot_);
        if (added) ++nextSlot_;
        slots_[i] = it->second;
    }
    return true;
}

int SceneIndex::body(const std::string& name) const {
    return lookup(bodyByName_, name);
}

int SceneIndex::joint(const std::string& name) const {
    return lookup(jointByName_, name);
}

std::span<const int> SceneIndex::jointsOf(int b) const {
    if (b < 0 || static_cast<size_t>(b) + 1 >= jointsOfStart_.size()) return {};
    const size_t first = static_cast<size_t>(jointsOfStart_[static_cast<size_t>(b)]);
    const size_t last = static_cast<size_t>(jointsOfStart_[static_cast<size_t>(b) + 1]);
    return {jointsOf_.data() + first, last - first};
}

void SceneIndex::renameBody(const std::string& from, const std::string& to) {
    const auto it = slotByName_.find(from);
    if (it == slotByName_.end()) return;
    const int slot = it->second;
    slotByName_.erase(it);
    slotByName_[to] = slot;
    revision_ = ~uint64_t{0};  // rebuild at the next sync
}

void SceneIndex::clearColours() {
    slotByName_.clear();
    nextSlot_ = 0;
    revision_ = ~uint64_t{0};
}

}  // namespace jl::app
