// JointLab app — turning the Scene and World state into renderer instances and debug lines.
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "render/debug_draw.h"
#include "render/renderer.h"
#include "shell/app_state.h"

namespace jl::app {

/// Display colour of body `index` (dynamic bodies get a palette colour, static ones grey).
glm::vec4 bodyColor(const Scene& scene, int index);

/// Adds every body as a lit, instanced mesh; the selected body is highlighted.
void drawBodies(Renderer& renderer, const Scene& scene, std::span<const BodyState> states,
                const Selection& selection);

/// Orange edges of the selected body (box edges, or great circles of spheres and capsule ends),
/// drawn on top so the selection reads at a glance whatever the body's colour.
void drawSelectionOutline(DebugDraw& lines, const Scene& scene, std::span<const BodyState> states,
                          const Selection& selection);

/// World axes through the origin: X red, Y green, Z blue (negative halves dimmer).
void drawWorldAxes(DebugDraw& lines, float length);

struct BoundingSphere {
    glm::vec3 center{0.0f};
    float radius = 1.0f;
};

/// Sphere around the selected body (or both bodies of a selected joint), else around every body.
BoundingSphere viewBounds(const Scene& scene, std::span<const BodyState> states, const Selection& selection);

}  // namespace jl::app
