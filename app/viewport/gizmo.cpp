#include "viewport/gizmo.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

namespace {

constexpr int kRingSegments = 48;
const Vec3 kAxes[3] = {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};

float distanceToSegment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b) {
    const glm::vec2 ab = b - a;
    const float len2 = glm::dot(ab, ab);
    const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    return glm::length(p - (a + t * ab));
}

/// Point k of the ring about axis `axis` of radius r.
glm::vec3 ringPoint(const glm::vec3& origin, int axis, float r, int k) {
    const float angle = 6.28318530718f * static_cast<float>(k) / kRingSegments;
    glm::vec3 u(0.0f), w(0.0f);
    u[(axis + 1) % 3] = 1.0f;
    w[(axis + 2) % 3] = 1.0f;
    return origin + r * (std::cos(angle) * u + std::sin(angle) * w);
}

/// Parameter t of the point origin + t·axis nearest to the ray; false when they are parallel.
bool closestOnAxis(const Vec3& origin, const Vec3& axis, const Ray& ray, Real& t) {
    const Vec3 d(ray.direction), w0 = origin - Vec3(ray.origin);
    const Real b = glm::dot(axis, d), c = glm::dot(d, d);
    const Real denom = c - b * b;  // |axis| = 1
    if (denom < 1e-4 * c) return false;
    t = (b * glm::dot(d, w0) - c * glm::dot(axis, w0)) / denom;
    return true;
}

/// Where the ray meets the plane through origin with normal axis, relative to origin.
bool onRingPlane(const Vec3& origin, const Vec3& axis, const Ray& ray, Vec3& v) {
    const Vec3 d(ray.direction);
    const Real dn = glm::dot(d, axis);
    if (std::abs(dn) < 0.05) return false;
    const Real s = glm::dot(origin - Vec3(ray.origin), axis) / dn;
    if (s < 0) return false;
    v = Vec3(ray.origin) + s * d - origin;
    v -= glm::dot(v, axis) * axis;
    return glm::length(v) > 1e-9;
}

Real snapped(Real x, Real step) {
    return std::round(x / step) * step;
}

}  // namespace

float gizmoSize(const ViewportProjection& view, const glm::vec3& origin) {
    return view.worldSizeOfPixels(origin, kGizmoPixels * view.pixelScale);
}

int hitGizmo(const ViewportProjection& view, GizmoMode mode, const glm::vec3& origin,
             const glm::vec2& mouse) {
    const float size = gizmoSize(view, origin);
    int best = -1;
    float bestDistance = kGizmoTolerance * view.pixelScale;
    for (int k = 0; k < 3; ++k) {
        float d = bestDistance + 1.0f;
        if (mode == GizmoMode::Move) {
            glm::vec2 a, b;
            if (view.toScreen(origin + glm::vec3(kAxes[k]) * (0.15f * size), a) &&
                view.toScreen(origin + glm::vec3(kAxes[k]) * size, b))
                d = distanceToSegment(mouse, a, b);
        } else {
            const float r = kGizmoRingFraction * size;
            glm::vec2 previous;
            bool havePrevious = view.toScreen(ringPoint(origin, k, r, 0), previous);
            for (int i = 1; i <= kRingSegments; ++i) {
                glm::vec2 next;
                const bool haveNext = view.toScreen(ringPoint(origin, k, r, i), next);
                if (havePrevious && haveNext) d = std::min(d, distanceToSegment(mouse, previous, next));
                previous = next;
                havePrevious = haveNext;
            }
        }
        if (d <= bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    return best;
}

std::optional<GizmoDrag> beginGizmoDrag(GizmoMode mode, int axis, const Transform& pose, const Vec3& origin,
                                        const Ray& mouseRay) {
    if (axis < 0 || axis > 2) return std::nullopt;
    GizmoDrag drag;
    drag.mode = mode;
    drag.axis = axis;
    drag.start = pose;
    drag.origin = origin;
    if (mode == GizmoMode::Move) {
        if (!closestOnAxis(origin, kAxes[axis], mouseRay, drag.startParam)) return std::nullopt;
    } else if (!onRingPlane(origin, kAxes[axis], mouseRay, drag.startVector)) {
        return std::nullopt;
    }
    return drag;
}

Transform updateGizmoDrag(const GizmoDrag& drag, const Ray& mouseRay, bool snap) {
    const Vec3& axis = kAxes[drag.axis];
    Transform pose = drag.start;
    if (drag.mode == GizmoMode::Move) {
        Real t = 0.0;
        if (!closestOnAxis(drag.origin, axis, mouseRay, t)) return pose;
        Real delta = t - drag.startParam;
        if (snap) delta = snapped(delta, kSnapDistance);
        pose.p += delta * axis;
        return pose;
    }
    Vec3 v;
    if (!onRingPlane(drag.origin, axis, mouseRay, v)) return pose;
    const Vec3 v0 = drag.startVector;
    Real angle = std::atan2(glm::dot(axis, glm::cross(v0, v)), glm::dot(v0, v));
    if (snap) angle = snapped(angle, kSnapAngle);
    const Quat turn = glm::angleAxis(angle, axis);
    pose.q = glm::normalize(turn * drag.start.q);
    pose.p = drag.origin + turn * (drag.start.p - drag.origin);
    return pose;
}

void drawGizmo(DebugDraw& lines, GizmoMode mode, const glm::vec3& origin, float size, int hot) {
    const auto layer = DebugDraw::Layer::Overlay;
    for (int k = 0; k < 3; ++k) {
        const Color c = k == hot ? kGizmoHot : kGizmoColors[k];
        if (mode == GizmoMode::Move) {
            const glm::vec3 from = origin + glm::vec3(kAxes[k]) * (0.15f * size),
                            to = origin + glm::vec3(kAxes[k]) * size;
            lines.arrow(from, to, colors::kOutline, DebugDraw::Layer::Outline, 0.2f * size);
            lines.arrow(from, to, c, layer, 0.2f * size);
        } else {
            const float r = kGizmoRingFraction * size;
            for (int i = 0; i < kRingSegments; ++i) {
                lines.line(ringPoint(origin, k, r, i), ringPoint(origin, k, r, i + 1), colors::kOutline,
                           DebugDraw::Layer::Outline);
                lines.line(ringPoint(origin, k, r, i), ringPoint(origin, k, r, i + 1), c, layer);
            }
        }
    }
}

}  // namespace jl::app
