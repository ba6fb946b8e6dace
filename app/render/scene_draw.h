// JointLab app — turning the Scene and World state into renderer instances and debug lines.
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "render/debug_draw.h"
#include "render/renderer.h"
#include "render/scene_bounds.h"
#include "render/toothed_looks.h"
#include "session/scene_index.h"
#include "shell/app_state.h"

namespace jl::app {

/// Adds every body as a lit, instanced mesh; the selected body (and a selected joint's bodies) are
/// highlighted. Bodies with a toothed look (gears, racks) get their teeth.
void drawBodies(Renderer& renderer, const Scene& scene, std::span<const BodyState> states,
                const Selection& selection, const SceneIndex& index, std::span<const ToothedLook> looks);

/// The colour of another run's bodies (and, opaque, of its plot lines): violet for the compare's
/// B, pale blue for the ghost of a branch left behind. Alpha < 1: drawn translucent.
glm::vec4 shadowColour(ShadowRun::Kind kind);

/// The MuJoCo reference's ghost (session/mujoco_reference.h) and, opaque, its plot lines: green.
inline constexpr glm::vec4 kReferenceColour{0.30f, 0.88f, 0.45f, 0.38f};

/// Another run's moving bodies (the A/B compare's B, the ghost of a branch left behind) in one
/// colour; with alpha < 1 they draw translucent over the live ones.
void drawShadowBodies(Renderer& renderer, const Scene& scene, std::span<const BodyState> states,
                      const glm::vec4& color);

/// Orange edges of the selected body (box edges, or great circles of spheres and capsule ends),
/// drawn on top so the selection reads at a glance whatever the body's colour.
void drawSelectionOutline(DebugDraw& lines, const Scene& scene, std::span<const BodyState> states,
                          const Selection& selection);

/// World axes through the origin: X red, Y green, Z blue (negative halves dimmer).
void drawWorldAxes(DebugDraw& lines, float length);

}  // namespace jl::app
