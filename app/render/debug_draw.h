// JointLab app — the debug line batch.
//
// Anything that wants to show geometry that is not a body (joint frames, anchors, error segments,
// limit arcs, force arrows, world axes) appends coloured line segments here during a frame; the
// renderer draws the batch once. Two layers: Scene lines are depth-tested against the bodies,
// Overlay lines are drawn on top of everything (for things that must never hide). Lines are drawn
// a few pixels wide; filled triangles (translucent surfaces) go under the lines of their layer.
//
//   DebugDraw& dd = ...;
//   dd.line(a, b, colors::kRed);
//   dd.frame(position, rotation, 0.3f);             // X red, Y green, Z blue
//   dd.arrow(anchor, anchor + force * scale, colors::kYellow, DebugDraw::Layer::Overlay);
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <vector>

namespace jl::app {

/// Colours are linear-ish sRGB floats in [0, 1], alpha included.
using Color = glm::vec4;

namespace colors {
inline constexpr Color kRed{0.90f, 0.25f, 0.22f, 1.0f};
inline constexpr Color kGreen{0.35f, 0.80f, 0.30f, 1.0f};
inline constexpr Color kBlue{0.25f, 0.50f, 0.95f, 1.0f};
inline constexpr Color kYellow{0.98f, 0.85f, 0.25f, 1.0f};
inline constexpr Color kOrange{1.00f, 0.60f, 0.15f, 1.0f};
inline constexpr Color kWhite{0.95f, 0.95f, 0.95f, 1.0f};
inline constexpr Color kGrey{0.60f, 0.62f, 0.66f, 1.0f};
inline constexpr Color kOutline{0.05f, 0.05f, 0.07f, 0.85f};  ///< dark border of outlined overlay lines
}  // namespace colors

struct LineVertex {
    glm::vec3 position;
    uint32_t rgba;  ///< packed RGBA8, R in the lowest byte (GL_UNSIGNED_BYTE ×4, normalised)
};

class DebugDraw {
public:
    /// Scene: depth-tested. Outline: on top, drawn wider just under Overlay (dark borders that
    /// keep an overlay line visible on a body of its own colour). Overlay: on top of everything.
    enum class Layer { Scene, Outline, Overlay };

    void clear();

    void line(const glm::vec3& a, const glm::vec3& b, const Color& color, Layer layer = Layer::Scene);
    /// A line from `from` to `to` with a small cone-like head of size `headSize` [m] at `to`
    /// (0 picks 15% of the length).
    void arrow(const glm::vec3& from, const glm::vec3& to, const Color& color, Layer layer = Layer::Scene,
               float headSize = 0.0f);
    /// An arrow on the Overlay layer with a dark outline under it (the Outline layer): a force
    /// arrow stays visible on an orange body, a torque arrow on a cyan one.
    void outlinedArrow(const glm::vec3& from, const glm::vec3& to, const Color& color);
    /// A coordinate frame: X red, Y green, Z blue, each `size` long.
    void frame(const glm::vec3& origin, const glm::quat& rotation, float size, Layer layer = Layer::Scene);
    /// A circle of `radius` about `center` in the plane with normal `normal`.
    void circle(const glm::vec3& center, const glm::vec3& normal, float radius, const Color& color,
                Layer layer = Layer::Scene, int segments = 32);
    /// The 12 edges of an oriented box.
    void box(const glm::vec3& center, const glm::quat& rotation, const glm::vec3& halfExtents,
             const Color& color, Layer layer = Layer::Scene);
    /// A filled triangle, usually translucent (limit sectors and cones); drawn before the lines
    /// of its layer and without writing depth.
    void triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const Color& color,
                  Layer layer = Layer::Scene);

    const std::vector<LineVertex>& vertices(Layer layer) const { return layers_[static_cast<int>(layer)]; }
    const std::vector<LineVertex>& triangles(Layer layer) const {
        return triangles_[static_cast<int>(layer)];
    }
    bool empty() const {
        for (int i = 0; i < kLayers; ++i)
            if (!layers_[i].empty() || !triangles_[i].empty()) return false;
        return true;
    }

private:
    static constexpr int kLayers = 3;
    std::vector<LineVertex> layers_[kLayers];
    std::vector<LineVertex> triangles_[kLayers];
};

/// Packs a float colour to RGBA8 (R in the lowest byte).
uint32_t packColor(const Color& c);

}  // namespace jl::app
