// A joint's coordinate between two body poses (interop/mjcf_export.h): what MuJoCo's qpos holds for
// the joint the exporter writes, and what the reference run and the tests compare with it.
#include <cmath>

#include "interop/mjcf_export.h"

namespace jl::interop {

bool hasCoordinate(const JointDesc& j) {
    return std::holds_alternative<RevoluteJoint>(j.params) ||
           std::holds_alternative<PrismaticJoint>(j.params) ||
           std::holds_alternative<SphericalJoint>(j.params);
}

Real jointCoordinate(const JointDesc& j, const Transform& pose0, const Transform& pose1) {
    const Transform f0 = pose0 * j.frame0, f1 = pose1 * j.frame1;
    Quat r = glm::conjugate(f0.q) * f1.q;  // frame 1 in frame 0
    if (r.w < 0.0) r = -r;
    if (std::holds_alternative<RevoluteJoint>(j.params)) return 2.0 * std::atan2(r.x, r.w);
    if (std::holds_alternative<PrismaticJoint>(j.params))
        return glm::dot(f1.p - f0.p, f0.rotate(Vec3(1, 0, 0)));
    if (std::holds_alternative<SphericalJoint>(j.params))
        return 2.0 * std::atan2(std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z), r.w);
    return 0.0;
}

}  // namespace jl::interop
