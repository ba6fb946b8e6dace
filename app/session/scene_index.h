// JointLab app — the scene's names resolved once: each joint's body indices, the joints on each
// body, name → index maps and each body's colour. Rebuilt only when the scene changes
// (Simulation::sceneRevision()), so that no frame looks anything up by name: a scene of 1000
// bodies and joints costs the panels and the drawing O(n) per frame, not O(n²).
//
// Colours stay with their body: a body keeps its palette slot when others are added or deleted,
// and when it is renamed (renameBody). A new document starts the palette over (clearColours), so
// a freshly opened scene gets the colours in scene order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "jointlab/scene.h"

namespace jl::app {

class SceneIndex {
public:
    /// Brings the index up to date with `scene` at `revision`; does nothing when it already is.
    /// Returns true when it rebuilt.
    bool sync(const Scene& scene, uint64_t revision);
    uint64_t revision() const { return revision_; }
    /// How many times it rebuilt (tests: the frame path does not rebuild it).
    int rebuilds() const { return rebuilds_; }

    /// Index of the body / joint named `name`, or −1.
    int body(const std::string& name) const;
    int joint(const std::string& name) const;
    const std::unordered_map<std::string, int>& jointNames() const { return jointByName_; }

    /// Scene indices of joint j's body 0 and body 1 (−1: the world, or a name with no body).
    int jointBody0(int j) const { return jointBodies_[static_cast<size_t>(j)].first; }
    int jointBody1(int j) const { return jointBodies_[static_cast<size_t>(j)].second; }
    /// The joints attached to body b, in scene order.
    std::span<const int> jointsOf(int b) const;

    /// Palette slot of body b (kept across edits; colours in render/scene_draw.h).
    int colourSlot(int b) const { return slots_[static_cast<size_t>(b)]; }
    /// The body `from` is now called `to`: it keeps its colour.
    void renameBody(const std::string& from, const std::string& to);
    /// A new document: colours are handed out again in scene order at the next sync.
    void clearColours();

private:
    uint64_t revision_ = ~uint64_t{0};
    int rebuilds_ = 0;
    std::unordered_map<std::string, int> bodyByName_, jointByName_;
    std::vector<std::pair<int, int>> jointBodies_;
    std::vector<int> jointsOfStart_,
        jointsOf_;  ///< CSR: joints of body b are jointsOf_[start[b], start[b+1])
    std::vector<int> slots_;
    std::unordered_map<std::string, int> slotByName_;
    int nextSlot_ = 0;
};

}  // namespace jl::app
