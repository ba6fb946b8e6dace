#include "editor/joint_tool.h"

#include <cmath>
#include <limits>

#include "viewport/picking.h"

namespace jl::app {

namespace {

constexpr Real kSteepView = 0.819;  ///< sin(55°): looking down steeper than this, the view plane lies flat

Vec3 unitOr(const Vec3& v, const Vec3& fallback) {
    const Real len = glm::length(v);
    return len > 1e-9 ? v / len : fallback;
}

/// The ray against the plane through `p` with normal `n`; false when parallel or behind.
bool rayPlane(const Ray& ray, const Vec3& p, const Vec3& n, Vec3& hit) {
    const Vec3 o(ray.origin), d(ray.direction);
    const Real dn = glm::dot(d, n);
    if (std::abs(dn) < 1e-6) return false;
    const Real t = glm::dot(p - o, n) / dn;
    if (t < 0.0) return false;
    hit = o + t * d;
    return true;
}

}  // namespace

Vec3 workPlaneNormal(WorkPlane plane, const Vec3& viewDirection) {
    switch (plane) {
        case WorkPlane::XY:
            return Vec3(0, 0, 1);
        case WorkPlane::YZ:
            return Vec3(1, 0, 0);
        case WorkPlane::XZ:
            return Vec3(0, 1, 0);
        case WorkPlane::View:
            break;
    }
    const Vec3 d = unitOr(viewDirection, Vec3(0, 0, -1));
    if (std::abs(d.y) > kSteepView) return Vec3(0, 1, 0);
    // Pointing at the person, so that a hinge turns anticlockwise on screen for a positive angle.
    return -unitOr(Vec3(d.x, 0.0, d.z), Vec3(0, 0, -1));
}

AnchorPick pickAnchor(const Ray& ray, const Scene& scene, std::span<const BodyState> states, int firstBody,
                      const Vec3& planePoint, const Vec3& planeNormal) {
    AnchorPick pick;
    float best = std::numeric_limits<float>::max();
    const size_t n = std::min(scene.bodies.size(), states.size());
    for (size_t i = 0; i < n; ++i) {
        if (static_cast<int>(i) == firstBody) continue;
        const float t = rayCastBody(ray, scene.bodies[i], states[i].pose);
        if (t >= 0.0f && t < best) {
            best = t;
            pick.kind = AnchorPick::Kind::Body;
            pick.body = static_cast<int>(i);
        }
    }
    if (pick.kind == AnchorPick::Kind::Body) {
        const size_t b = static_cast<size_t>(pick.body);
        pick.point = Vec3(ray.origin + ray.direction * best);
        pick.normal = surfaceNormal(scene.bodies[b], states[b].pose, pick.point);
    }
    if (scene.settings.groundPlane && ray.direction.y < -1e-6f) {
        const float t = -ray.origin.y / ray.direction.y;
        if (t >= 0.0f && t < best) {
            best = t;
            pick =
                AnchorPick{AnchorPick::Kind::Ground, -1, Vec3(ray.origin + ray.direction * t), Vec3(0, 1, 0)};
            pick.point.y = 0.0;
        }
    }
    // In the air: the work plane, unless it lies behind a body or the ground.
    Vec3 onPlane;
    if (rayPlane(ray, planePoint, planeNormal, onPlane) &&
        (pick.kind == AnchorPick::Kind::None || glm::length(onPlane - Vec3(ray.origin)) < best))
        pick = AnchorPick{AnchorPick::Kind::Plane, -1, onPlane, planeNormal};
    return pick;
}

Transform frameWithAxis(const Vec3& origin, const Vec3& axis, const Vec3& towards) {
    const Vec3 x = unitOr(axis, Vec3(1, 0, 0));
    Vec3 y = towards - glm::dot(towards, x) * x;
    if (glm::length(y) < 1e-9) return Transform{origin, rotationFromXTo(x)};
    y = glm::normalize(y);
    const Vec3 z = glm::cross(x, y);
    const glm::dmat3 basis(x, y, z);
    return Transform{origin, glm::normalize(glm::quat_cast(basis))};
}

Vec3 jointToolAxis(const JointToolClick& c) {
    // From body 0's point (the second click) to body 1's (the first).
    const Vec3 along = c.first.point - c.second.point;
    const bool alongUsable = glm::length(along) > 1e-6;
    const Vec3 surface = c.anchorOnFirst ? c.first.normal : c.second.normal;
    switch (c.axis) {
        case JointAxisChoice::WorldX:
            return Vec3(1, 0, 0);
        case JointAxisChoice::WorldY:
            return Vec3(0, 1, 0);
        case JointAxisChoice::WorldZ:
            return Vec3(0, 0, 1);
        case JointAxisChoice::SurfaceNormal:
            return surface;
        case JointAxisChoice::PlaneNormal:
            return c.planeNormal;
        case JointAxisChoice::AToB:
            return alongUsable ? glm::normalize(along) : c.planeNormal;
        case JointAxisChoice::Auto:
            break;
    }
    switch (jointTypeInfo(c.typeIndex).placement.axis) {
        case JointAxisDefault::AlongAToB:
            return alongUsable ? glm::normalize(along) : c.planeNormal;
        case JointAxisDefault::SurfaceNormal:
            return surface;
        case JointAxisDefault::WorkPlaneNormal:
            break;
    }
    return c.planeNormal;
}

Vec3 jointToolAnchor(const JointToolClick& c) {
    // A type spanning two points (a rope) always runs from the second point to the first.
    const bool twoPoints = jointTypeInfo(c.typeIndex).placement.frame1AtPointOnBody1;
    return c.anchorOnFirst && !twoPoints ? c.first.point : c.second.point;
}

bool planJoint(const JointToolClick& c, const Scene& scene, std::span<const BodyState> states,
               JointPlacement& out) {
    if (c.second.kind == AnchorPick::Kind::None || c.first.body < 0) return false;
    const size_t first = static_cast<size_t>(c.first.body);
    if (first >= scene.bodies.size() || first >= states.size()) return false;
    out = JointPlacement{};
    out.typeIndex = c.typeIndex;
    out.body1 = scene.bodies[first].name;
    out.pose1 = states[first].pose;
    const size_t other = static_cast<size_t>(c.second.body);
    if (c.second.kind == AnchorPick::Kind::Body && c.second.body >= 0 && other < scene.bodies.size() &&
        other < states.size()) {
        out.body0 = scene.bodies[other].name;
        out.pose0 = states[other].pose;
    }
    const Vec3 anchor = jointToolAnchor(c);
    out.worldFrame = frameWithAxis(anchor, jointToolAxis(c), states[first].pose.p - anchor);
    // A rope's frame B goes to the point clicked on body 1 (JointPlacementDefaults).
    out.pointOnBody1 = c.first.point;
    out.hasPointOnBody1 = true;
    return true;
}

}  // namespace jl::app
