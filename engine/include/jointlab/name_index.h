// Bodies or joints by name, hashed once, for code that looks up many names: Scene::findBody and
// findJoint scan, so a loop over the joints that calls them is quadratic in the scene.
//
//     const NameIndex bodies(scene.bodies);
//     const int b = bodies.find(joint.body1);  // −1 when there is none
#pragma once

#include <string_view>
#include <unordered_map>

namespace jl {

class NameIndex {
public:
    /// `items` (anything with a `name`: BodyDesc, JointDesc) must outlive the index unchanged: the
    /// index holds views of their names.
    template <class Items>
    explicit NameIndex(const Items& items) {
        map_.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i) map_.emplace(items[i].name, static_cast<int>(i));
    }

    /// The index of the first item named `name` (as Scene::findBody), or −1.
    int find(std::string_view name) const {
        const auto it = map_.find(name);
        return it == map_.end() ? -1 : it->second;
    }

private:
    std::unordered_map<std::string_view, int> map_;  // looked up, never iterated (determinism)
};

}  // namespace jl
