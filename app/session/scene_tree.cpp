#include "session/scene_tree.h"

#include <algorithm>
#include <cctype>

namespace jl::app {

bool containsNoCase(const std::string& text, const std::string& needle) {
    if (needle.empty()) return true;
    auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != text.end();
}

namespace {

bool jointMatches(const JointDesc& j, const std::string& filter) {
    return containsNoCase(j.name, filter) || containsNoCase(j.typeInfo().name, filter);
}

}  // namespace

bool SceneTree::sync(const Scene& scene, const SceneIndex& index, uint64_t revision,
                     const std::string& filter) {
    if (built_ && revision == revision_ && filter == filter_) return false;
    built_ = true;
    revision_ = revision;
    filter_ = filter;
    ++builds_;
    rows.clear();
    using Kind = SceneTreeRow::Kind;
    rows.push_back({Kind::BodiesHeader, -1, -1});
    if (bodiesOpen) {
        for (size_t i = 0; i < scene.bodies.size(); ++i) {
            const int b = static_cast<int>(i);
            const bool bodyMatches = containsNoCase(scene.bodies[i].name, filter);
            const std::span<const int> joints = index.jointsOf(b);
            const bool anyJoint = std::any_of(joints.begin(), joints.end(), [&](int j) {
                return jointMatches(scene.joints[static_cast<size_t>(j)], filter);
            });
            if (!bodyMatches && !anyJoint) continue;
            rows.push_back({Kind::Body, b, b});
            // A filter opens every body it matches inside, whatever was folded.
            if (filter.empty() && folded.count(scene.bodies[i].name)) continue;
            for (int j : joints)
                if (bodyMatches || jointMatches(scene.joints[static_cast<size_t>(j)], filter))
                    rows.push_back({Kind::BodyJoint, j, b});
        }
    }
    rows.push_back({Kind::JointsHeader, -1, -1});
    if (jointsOpen)
        for (size_t j = 0; j < scene.joints.size(); ++j)
            if (jointMatches(scene.joints[j], filter)) rows.push_back({Kind::Joint, static_cast<int>(j), -1});
    return true;
}

}  // namespace jl::app
