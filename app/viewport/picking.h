// JointLab app — which body is under the mouse: exact ray casts against boxes, spheres, capsules.
#pragma once

#include <span>

#include "jointlab/scene.h"
#include "jointlab/world.h"
#include "session/scene_index.h"
#include "viewport/camera.h"

namespace jl::app {

/// Distance along the ray to the body's surface, or a negative number when the ray misses.
float rayCastBody(const Ray& ray, const BodyDesc& body, const Transform& pose);

/// Index of the nearest body hit by the ray, or -1.
int pickBody(const Ray& ray, const Scene& scene, std::span<const BodyState> states);

/// The first surface a ray meets: a body, or the ground plane y = 0 (when `ground`).
struct SurfaceHit {
    bool hit = false;
    int body = -1;               ///< body index, or -1 for the ground
    Vec3 point{0.0};             ///< world [m]
    Vec3 normal{0.0, 1.0, 0.0};  ///< outward surface normal, world
    float distance = 0.0f;       ///< along the ray [m]
};
SurfaceHit pickSurface(const Ray& ray, const Scene& scene, std::span<const BodyState> states, bool ground);

/// The joint whose anchor (the origin of either joint frame) is nearest to `mouse` within
/// `tolerance` pixels, or -1. Anchors in front of the camera only.
int pickJointAnchor(const ViewportProjection& view, const Scene& scene, const SceneIndex& index,
                    std::span<const BodyState> states, const glm::vec2& mouse, float tolerance);

}  // namespace jl::app
