// JointLab app — the Scene panel's rows: bodies with their joints under them, then the list of all
// joints, filtered by the filter box and with folded bodies closed. Built only when the scene,
// the filter or a fold changes, as one flat list of equal-height rows, so that the panel draws
// just the rows on screen (ImGuiListClipper) and a frame costs the same for 10 bodies as for
// 10 000. No ImGui here (panels/scene_panel.cpp draws it).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "jointlab/scene.h"
#include "session/scene_index.h"

namespace jl::app {

struct SceneTreeRow {
    enum class Kind {
        BodiesHeader,  ///< "Bodies (n)"
        Body,
        BodyJoint,     ///< a joint under one of its bodies; `body` is that body
        JointsHeader,  ///< "All joints (n)"
        Joint,         ///< a joint in the flat list
    };
    Kind kind = Kind::Body;
    int index = -1;  ///< the body or joint
    int body = -1;   ///< BodyJoint: the body it is listed under
};

/// The rows and what they were built from.
struct SceneTree {
    std::vector<SceneTreeRow> rows;
    bool bodiesOpen = true;
    bool jointsOpen = false;
    std::unordered_set<std::string> folded;  ///< bodies whose joints are hidden, by name

    /// Rebuilds the rows if the scene (`revision`) or the filter changed, or after invalidate().
    /// Returns true when it rebuilt.
    bool sync(const Scene& scene, const SceneIndex& index, uint64_t revision, const std::string& filter);
    /// A header or a body was opened or closed.
    void invalidate() { built_ = false; }
    int builds() const { return builds_; }

private:
    bool built_ = false;
    uint64_t revision_ = 0;
    std::string filter_;
    int builds_ = 0;
};

/// Case-insensitive substring test ("" matches everything).
bool containsNoCase(const std::string& text, const std::string& needle);

}  // namespace jl::app
