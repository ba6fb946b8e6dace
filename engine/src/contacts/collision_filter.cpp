// The pairs a joint keeps from touching (jointlab/collision_filter.h).
#include "jointlab/collision_filter.h"

#include <algorithm>

#include "jointlab/name_index.h"

namespace jl {

std::vector<std::pair<int, int>> jointExcludedPairs(const Scene& scene) {
    const size_t nb = scene.bodies.size();
    std::vector<std::pair<int, int>> out;
    const NameIndex index(scene.bodies);
    std::vector<std::vector<int>> joined(nb);  // per body: the bodies a joint excludes it from
    for (const JointDesc& j : scene.joints) {
        if (j.collideConnected) continue;
        const int a = index.find(j.body0), b = index.find(j.body1);
        if (a < 0 || b < 0 || a == b) continue;
        out.emplace_back(std::min(a, b), std::max(a, b));
        joined[static_cast<size_t>(a)].push_back(b);
        joined[static_cast<size_t>(b)].push_back(a);
    }
    const auto touchesNothing = [&](int i) {
        const BodyDesc& b = scene.bodies[static_cast<size_t>(i)];
        return b.collisionGroup == 0 || b.collisionMask == 0;
    };
    // Each group of non-colliding bodies joined among themselves, found once (depth first), with
    // the colliding bodies joined to it: its ends.
    std::vector<bool> seen(nb, false);
    std::vector<int> stack, ends;
    for (size_t start = 0; start < nb; ++start) {
        if (seen[start] || !touchesNothing(static_cast<int>(start))) continue;
        stack.assign(1, static_cast<int>(start));
        ends.clear();
        seen[start] = true;
        while (!stack.empty()) {
            const int x = stack.back();
            stack.pop_back();
            for (const int y : joined[static_cast<size_t>(x)]) {
                if (!touchesNothing(y)) {
                    ends.push_back(y);
                } else if (!seen[static_cast<size_t>(y)]) {
                    seen[static_cast<size_t>(y)] = true;
                    stack.push_back(y);
                }
            }
        }
        std::sort(ends.begin(), ends.end());
        ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
        if (ends.size() == 2) out.emplace_back(ends[0], ends[1]);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace jl
