// The intermediate bodies of a multi-joint body (interop/import_chain.h).
#include "interop/import_chain.h"

#include <algorithm>

namespace jl::interop {

std::vector<ImportedBody> chainBodies(const ImportedModel& model, size_t body, const std::vector<int>& joints,
                                      Real parentMass, Real parentMoment) {
    const ImportedBody& child = model.bodies[body];
    const Real mass = kChainMassFraction * std::max(child.mass, parentMass);
    const Real largest = std::max({child.inertia.x, child.inertia.y, child.inertia.z});
    const Real moment = kChainInertiaFraction * std::max(largest, parentMoment);
    std::vector<ImportedBody> out;
    for (size_t k = 0; k + 1 < joints.size(); ++k) {
        const ImportedJoint& next = model.joints[static_cast<size_t>(joints[k + 1])];
        ImportedBody b;
        b.parent = child.parent;
        b.mass = mass;
        b.inertia = Vec3(moment);
        // At the next joint's point: the mass rides with it, whatever the joints after it do.
        b.frame = Transform{next.anchor, Quat(1, 0, 0, 0)};
        b.inertial = b.frame;
        b.collides = false;
        out.push_back(std::move(b));
    }
    return out;
}

std::vector<std::pair<int, int>> joinedThroughFrames(const Scene& scene) {
    const size_t nb = scene.bodies.size();
    std::vector<std::vector<int>> joined(nb);
    for (const JointDesc& j : scene.joints) {
        const int a = scene.findBody(j.body0), b = scene.findBody(j.body1);
        if (j.collideConnected || a < 0 || b < 0) continue;
        joined[static_cast<size_t>(a)].push_back(b);
        joined[static_cast<size_t>(b)].push_back(a);
    }
    const auto touchesNothing = [&](int i) {
        const BodyDesc& b = scene.bodies[static_cast<size_t>(i)];
        return b.collisionGroup == 0 || b.collisionMask == 0;
    };
    std::vector<std::pair<int, int>> out;
    std::vector<bool> seen(nb, false);
    for (size_t start = 0; start < nb; ++start) {
        if (seen[start] || !touchesNothing(static_cast<int>(start))) continue;
        std::vector<int> stack{static_cast<int>(start)}, ends;
        seen[start] = true;
        while (!stack.empty()) {
            const int x = stack.back();
            stack.pop_back();
            for (const int y : joined[static_cast<size_t>(x)]) {
                if (!touchesNothing(y))
                    ends.push_back(y);
                else if (!seen[static_cast<size_t>(y)])
                    seen[static_cast<size_t>(y)] = true, stack.push_back(y);
            }
        }
        for (size_t p = 0; p < ends.size(); ++p)
            for (size_t q = p + 1; q < ends.size(); ++q)
                if (ends[p] != ends[q])
                    out.emplace_back(std::min(ends[p], ends[q]), std::max(ends[p], ends[q]));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace jl::interop
