#include "editor/placement.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

Quat rotationFromXTo(const Vec3& axis) {
    const Real len = glm::length(axis);
    if (!(len > 1e-12)) return kIdentityQuat;
    const Vec3 a = axis / len;
    const Vec3 x(1, 0, 0);
    const Real c = glm::dot(x, a);
    if (c < -1.0 + 1e-12) return Quat(0.0, 0.0, 1.0, 0.0);  // 180° about Y
    // Half-angle form of the shortest arc: q = (1 + c, x × a), normalised.
    const Vec3 v = glm::cross(x, a);
    return glm::normalize(Quat(1.0 + c, v.x, v.y, v.z));
}

Vec3 surfaceNormal(const BodyDesc& body, const Transform& pose, const Vec3& worldPoint) {
    const Vec3 local = glm::conjugate(pose.q) * (worldPoint - pose.p);
    Vec3 n(0.0, 1.0, 0.0);
    switch (body.shape) {
        case ShapeType::Box: {
            // The face whose plane is nearest to the point.
            Real best = kInf;
            for (int k = 0; k < 3; ++k) {
                for (Real s : {-1.0, 1.0}) {
                    const Real gap = std::abs(s * local[k] - body.halfExtents[k]);
                    if (gap < best) {
                        best = gap;
                        n = Vec3(0.0);
                        n[k] = s;
                    }
                }
            }
            break;
        }
        case ShapeType::Sphere:
            if (glm::length(local) > 1e-9) n = glm::normalize(local);
            break;
        case ShapeType::Capsule:
        case ShapeType::Cylinder: {
            const Vec3 core(std::clamp(local.x, -body.halfHeight, body.halfHeight), 0.0, 0.0);
            const Vec3 d = local - core;
            if (glm::length(d) > 1e-9) n = glm::normalize(d);
            break;
        }
        case ShapeType::Hull:
        case ShapeType::Compound:  // away from the centre of mass
            if (glm::length(local) > 1e-9) n = glm::normalize(local);
            break;
    }
    return pose.q * n;
}

Real supportDistance(const BodyDesc& body, const Quat& orientation, const Vec3& n) {
    const Vec3 local = glm::conjugate(orientation) * n;
    switch (body.shape) {
        case ShapeType::Box:
            return std::abs(local.x) * body.halfExtents.x + std::abs(local.y) * body.halfExtents.y +
                   std::abs(local.z) * body.halfExtents.z;
        case ShapeType::Sphere:
            return body.radius;
        case ShapeType::Capsule:
            return std::abs(local.x) * body.halfHeight + body.radius;
        case ShapeType::Cylinder:
            return std::abs(local.x) * body.halfHeight +
                   body.radius * std::sqrt(std::max(0.0, 1.0 - local.x * local.x));
        case ShapeType::Hull: {
            Real d = -kInf;
            for (const Vec3& p : body.hullPoints) d = std::max(d, glm::dot(p, local));
            return body.hullPoints.empty() ? 0.0 : d;
        }
        case ShapeType::Compound: {
            Real d = 0.0;
            for (const ShapeDesc& c : body.children) {
                BodyDesc child;
                child.shape = c.shape, child.halfExtents = c.halfExtents, child.radius = c.radius;
                child.halfHeight = c.halfHeight, child.hullPoints = c.hullPoints;
                d = std::max(d, glm::dot(c.position, local) + supportDistance(child, c.orientation, local));
            }
            return d;
        }
    }
    return 0.0;
}

}  // namespace jl::app
