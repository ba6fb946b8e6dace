#include "contacts/ground.h"

namespace jl {

int groundContactPoints(const BodyDesc& body, const Transform& pose, Real margin,
                        GroundPoint out[kMaxGroundContacts]) {
    int n = 0;
    auto consider = [&](const Vec3& p, int feature) {
        if (p.y < margin && n < kMaxGroundContacts) out[n++] = {p, feature};
    };
    switch (body.shape) {
        case ShapeType::Sphere:
            consider(pose.p - Vec3(0.0, body.radius, 0.0), 0);
            break;
        case ShapeType::Capsule: {
            const Vec3 axis = basisX(pose.q) * body.halfHeight;
            consider(pose.p + axis - Vec3(0.0, body.radius, 0.0), 0);
            consider(pose.p - axis - Vec3(0.0, body.radius, 0.0), 1);
            break;
        }
        case ShapeType::Box: {
            const Vec3 h = body.halfExtents;
            for (int i = 0; i < 8; ++i) {
                const Vec3 local((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
                consider(pose.apply(local), i);
            }
            break;
        }
        default:  // cylinders, hulls, compounds: through the collider (contacts/collide.h)
            break;
    }
    return n;
}

}  // namespace jl
