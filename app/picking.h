// JointLab app — which body is under the mouse: exact ray casts against boxes, spheres, capsules.
#pragma once

#include <span>

#include "camera.h"
#include "jointlab/scene.h"
#include "jointlab/world.h"

namespace jl::app {

/// Distance along the ray to the body's surface, or a negative number when the ray misses.
float rayCastBody(const Ray& ray, const BodyDesc& body, const Transform& pose);

/// Index of the nearest body hit by the ray, or -1.
int pickBody(const Ray& ray, const Scene& scene, std::span<const BodyState> states);

}  // namespace jl::app
