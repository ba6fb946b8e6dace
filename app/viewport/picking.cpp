#include "viewport/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "editor/placement.h"
#include "render/joint_frames.h"
#include "render/scene_bounds.h"

namespace jl::app {

namespace {

/// Ray against a sphere at the origin; the ray is given in the sphere's frame.
float raySphere(const glm::vec3& o, const glm::vec3& d, const glm::vec3& center, float radius) {
    glm::vec3 m = o - center;
    float b = glm::dot(m, d);
    float c = glm::dot(m, m) - radius * radius;
    if (c > 0.0f && b > 0.0f) return -1.0f;
    float disc = b * b - c;
    if (disc < 0.0f) return -1.0f;
    return std::max(-b - std::sqrt(disc), 0.0f);
}

/// Ray against the box [-h, h] (slab method).
float rayBox(const glm::vec3& o, const glm::vec3& d, const glm::vec3& h) {
    float tMin = 0.0f, tMax = std::numeric_limits<float>::max();
    for (int axis = 0; axis < 3; ++axis) {
        if (std::abs(d[axis]) < 1e-9f) {
            if (o[axis] < -h[axis] || o[axis] > h[axis]) return -1.0f;
            continue;
        }
        float t1 = (-h[axis] - o[axis]) / d[axis];
        float t2 = (h[axis] - o[axis]) / d[axis];
        tMin = std::max(tMin, std::min(t1, t2));
        tMax = std::min(tMax, std::max(t1, t2));
        if (tMin > tMax) return -1.0f;
    }
    return tMin;
}

/// Ray against a capsule along X: the open cylinder |x| <= halfHeight, then the two end spheres.
float rayCapsule(const glm::vec3& o, const glm::vec3& d, float radius, float halfHeight) {
    float best = -1.0f;
    auto consider = [&best](float t) {
        if (t >= 0.0f && (best < 0.0f || t < best)) best = t;
    };
    // Cylinder: (o.y + t d.y)^2 + (o.z + t d.z)^2 = r^2.
    float a = d.y * d.y + d.z * d.z;
    if (a > 1e-12f) {
        float b = o.y * d.y + o.z * d.z;
        float c = o.y * o.y + o.z * o.z - radius * radius;
        float disc = b * b - a * c;
        if (disc >= 0.0f) {
            float t = (-b - std::sqrt(disc)) / a;
            if (c < 0.0f) t = 0.0f;  // starts inside the infinite cylinder
            if (std::abs(o.x + t * d.x) <= halfHeight) consider(t);
        }
    }
    consider(raySphere(o, d, glm::vec3(-halfHeight, 0, 0), radius));
    consider(raySphere(o, d, glm::vec3(halfHeight, 0, 0), radius));
    return best;
}

}  // namespace

float rayCastBody(const Ray& ray, const BodyDesc& body, const Transform& pose) {
    // Bring the ray into the body frame (rotation preserves the parameter t).
    glm::quat inverse = glm::conjugate(glm::quat(pose.q));
    glm::vec3 o = inverse * (ray.origin - glm::vec3(pose.p));
    glm::vec3 d = inverse * ray.direction;
    switch (body.shape) {
        case ShapeType::Box:
            return rayBox(o, d, glm::vec3(body.halfExtents));
        case ShapeType::Sphere:
            return raySphere(o, d, glm::vec3(0.0f), static_cast<float>(body.radius));
        case ShapeType::Capsule:
        case ShapeType::Cylinder:  // (its rounded ends: near enough for picking)
            return rayCapsule(o, d, static_cast<float>(body.radius), static_cast<float>(body.halfHeight));
        case ShapeType::Hull:
        case ShapeType::Compound:  // their bounding sphere
            return raySphere(o, d, glm::vec3(0.0f), boundingRadius(body));
    }
    return -1.0f;
}

int pickBody(const Ray& ray, const Scene& scene, std::span<const BodyState> states) {
    int best = -1;
    float bestT = std::numeric_limits<float>::max();
    const size_t n = std::min(scene.bodies.size(), states.size());
    for (size_t i = 0; i < n; ++i) {
        float t = rayCastBody(ray, scene.bodies[i], states[i].pose);
        if (t >= 0.0f && t < bestT) {
            bestT = t;
            best = static_cast<int>(i);
        }
    }
    return best;
}

SurfaceHit pickSurface(const Ray& ray, const Scene& scene, std::span<const BodyState> states, bool ground) {
    SurfaceHit hit;
    const int body = pickBody(ray, scene, states);
    if (body >= 0) {
        const BodyDesc& b = scene.bodies[static_cast<size_t>(body)];
        const Transform& pose = states[static_cast<size_t>(body)].pose;
        hit.distance = rayCastBody(ray, b, pose);
        hit.point = Vec3(ray.origin + ray.direction * hit.distance);
        hit.normal = surfaceNormal(b, pose, hit.point);
        hit.body = body;
        hit.hit = true;
    }
    // The ground plane y = 0, seen from above, if it is nearer.
    if (ground && ray.direction.y < -1e-6f) {
        const float t = -ray.origin.y / ray.direction.y;
        if (t >= 0.0f && (!hit.hit || t < hit.distance)) {
            hit = SurfaceHit{};
            hit.hit = true;
            hit.distance = t;
            hit.point = Vec3(ray.origin + ray.direction * t);
            hit.point.y = 0.0;
            hit.normal = Vec3(0, 1, 0);
        }
    }
    return hit;
}

int pickJointAnchor(const ViewportProjection& view, const Scene& scene, const SceneIndex& index,
                    std::span<const BodyState> states, const glm::vec2& mouse, float tolerance) {
    int best = -1;
    float bestDistance = tolerance;
    for (size_t j = 0; j < scene.joints.size(); ++j) {
        const JointWorldFrames f = jointWorldFrames(index, states, scene.joints[j], static_cast<int>(j));
        for (const Vec3& anchor : {f.a.p, f.b.p}) {
            glm::vec2 pixel;
            if (!view.toScreen(glm::vec3(anchor), pixel)) continue;
            const float d = glm::length(pixel - mouse);
            if (d <= bestDistance) {
                bestDistance = d;
                best = static_cast<int>(j);
            }
        }
    }
    return best;
}

}  // namespace jl::app
