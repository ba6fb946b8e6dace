// JointLab app — what the scene's drawing needs that is not GL: each body's colour and what F
// frames. GL-free (unit-tested); render/scene_draw.cpp draws with it.
#pragma once

#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "jointlab/world.h"
#include "session/scene_index.h"
#include "viewport/selection.h"

namespace jl::app {

/// Display colour of a body with palette slot `slot` (SceneIndex::colourSlot): dynamic bodies
/// get a palette colour, static and kinematic ones their own.
glm::vec4 bodyColor(const BodyDesc& body, int slot);
/// The same for body `b` of the indexed scene.
inline glm::vec4 bodyColor(const Scene& scene, const SceneIndex& index, int b) {
    return bodyColor(scene.bodies[static_cast<size_t>(b)], index.colourSlot(b));
}

/// Radius of a sphere around the body's shape [m].
float boundingRadius(const BodyDesc& b);

/// What a hull's or compound's shape lists hold, in one line for the Inspector (which does not
/// edit them): "hull of 40 points", "3 children: 2 boxes, 1 hull (256 points)"; "" for the others.
std::string shapeListSummary(const BodyDesc& b);

struct BoundingSphere {
    glm::vec3 center{0.0f};
    float radius = 1.0f;
};

/// What F frames: a sphere around the selected body; for a selected joint, about its anchor (frame
/// A's origin) large enough to show the joint's bodies; else around every body.
BoundingSphere viewBounds(const Scene& scene, const SceneIndex& index, std::span<const BodyState> states,
                          const Selection& selection);

/// What a view must show to show every body as it stands: a box's eight corners (spheres of radius
/// 0), any other body's bounding sphere (xyz the centre, w the radius; keepInArea in camera.h).
std::vector<glm::vec4> bodyOutlines(const Scene& scene, std::span<const BodyState> states);

}  // namespace jl::app
