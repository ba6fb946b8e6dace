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

}  // namespace jl::interop
