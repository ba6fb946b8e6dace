#include "render/scene_draw.h"

#include <algorithm>
#include <cstddef>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>

namespace jl::app {

namespace {

glm::mat4 poseMatrix(const Transform& t) {
    return glm::translate(glm::mat4(1.0f), glm::vec3(t.p)) * glm::mat4_cast(glm::quat(t.q));
}

/// Muted, distinguishable colours for dynamic bodies (sRGB).
constexpr glm::vec4 kPalette[] = {
    {0.90f, 0.45f, 0.30f, 1.0f},  // terracotta
    {0.30f, 0.62f, 0.90f, 1.0f},  // sky blue
    {0.55f, 0.80f, 0.35f, 1.0f},  // leaf green
    {0.95f, 0.75f, 0.25f, 1.0f},  // amber
    {0.70f, 0.50f, 0.90f, 1.0f},  // lavender
    {0.30f, 0.80f, 0.75f, 1.0f},  // teal
    {0.92f, 0.50f, 0.65f, 1.0f},  // rose
};
constexpr glm::vec4 kStaticColor{0.52f, 0.54f, 0.58f, 1.0f};
constexpr glm::vec4 kKinematicColor{0.45f, 0.70f, 0.70f, 1.0f};

float boundingRadius(const BodyDesc& b) {
    switch (b.shape) {
        case ShapeType::Box:
            return static_cast<float>(glm::length(b.halfExtents));
        case ShapeType::Sphere:
            return static_cast<float>(b.radius);
        case ShapeType::Capsule:
            return static_cast<float>(b.radius + b.halfHeight);
    }
    return 0.5f;
}

/// Half sizes of the body's world-axis-aligned bounding box.
glm::vec3 worldHalfExtents(const BodyDesc& b, const Quat& q) {
    const glm::mat3 r = glm::mat3_cast(glm::quat(q));
    switch (b.shape) {
        case ShapeType::Box: {
            const glm::vec3 h(b.halfExtents);
            return glm::abs(r[0]) * h.x + glm::abs(r[1]) * h.y + glm::abs(r[2]) * h.z;
        }
        case ShapeType::Sphere:
            return glm::vec3(static_cast<float>(b.radius));
        case ShapeType::Capsule:
            return glm::abs(r[0]) * static_cast<float>(b.halfHeight) +
                   glm::vec3(static_cast<float>(b.radius));
    }
    return glm::vec3(0.5f);
}

}  // namespace

glm::vec4 bodyColor(const Scene& scene, int index) {
    const BodyDesc& b = scene.bodies[index];
    if (b.motion == MotionType::Static) return kStaticColor;
    if (b.motion == MotionType::Kinematic) return kKinematicColor;
    int dynamicIndex = 0;
    for (int i = 0; i < index; ++i)
        if (scene.bodies[i].motion == MotionType::Dynamic) ++dynamicIndex;
    return kPalette[dynamicIndex % std::size(kPalette)];
}

void drawBodies(Renderer& renderer, const Scene& scene, std::span<const BodyState> states,
                const Selection& selection) {
    const size_t n = std::min(scene.bodies.size(), states.size());
    for (size_t i = 0; i < n; ++i) {
        const BodyDesc& b = scene.bodies[i];
        const int index = static_cast<int>(i);
        glm::mat4 pose = poseMatrix(states[i].pose);
        glm::vec4 color = bodyColor(scene, index);
        bool jointEnd = false;
        if (selection.kind == Selection::Kind::Joint && selection.index >= 0 &&
            static_cast<size_t>(selection.index) < scene.joints.size()) {
            const JointDesc& j = scene.joints[selection.index];
            jointEnd = j.body0 == b.name || j.body1 == b.name;
        }
        float highlight = selection.isBody(index) ? 1.0f : (jointEnd ? 0.5f : 0.0f);
        const glm::vec3 center(states[i].pose.p);
        const glm::vec3 extent = worldHalfExtents(b, states[i].pose.q);
        renderer.addShadow(glm::vec3(center.x, center.y - extent.y, center.z), std::max(extent.x, extent.z));
        switch (b.shape) {
            case ShapeType::Box:
                renderer.addBox(pose, glm::vec3(b.halfExtents), color, highlight);
                break;
            case ShapeType::Sphere:
                renderer.addSphere(pose, static_cast<float>(b.radius), color, highlight);
                break;
            case ShapeType::Capsule:
                renderer.addCapsule(pose, static_cast<float>(b.radius), static_cast<float>(b.halfHeight),
                                    color, highlight);
                break;
        }
    }
}

void drawSelectionOutline(DebugDraw& lines, const Scene& scene, std::span<const BodyState> states,
                          const Selection& selection) {
    if (selection.kind != Selection::Kind::Body || selection.index < 0 ||
        static_cast<size_t>(selection.index) >= std::min(scene.bodies.size(), states.size()))
        return;
    const BodyDesc& b = scene.bodies[selection.index];
    const Transform& pose = states[selection.index].pose;
    const glm::vec3 c(pose.p);
    const glm::quat q(pose.q);
    const auto layer = DebugDraw::Layer::Overlay;
    const float grow = 1.02f;  // just outside the surface
    switch (b.shape) {
        case ShapeType::Box:
            lines.box(c, q, glm::vec3(b.halfExtents) * grow, colors::kOrange, layer);
            break;
        case ShapeType::Sphere:
            for (const glm::vec3& axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)})
                lines.circle(c, q * axis, static_cast<float>(b.radius) * grow, colors::kOrange, layer);
            break;
        case ShapeType::Capsule: {
            const float r = static_cast<float>(b.radius) * grow, h = static_cast<float>(b.halfHeight);
            const glm::vec3 x = q * glm::vec3(1, 0, 0), y = q * glm::vec3(0, 1, 0),
                            z = q * glm::vec3(0, 0, 1);
            for (float end : {-h, h}) lines.circle(c + x * end, x, r, colors::kOrange, layer);
            for (const glm::vec3& side : {y, -y, z, -z})
                lines.line(c - x * h + side * r, c + x * h + side * r, colors::kOrange, layer);
            break;
        }
    }
}

void drawWorldAxes(DebugDraw& lines, float length) {
    const glm::vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const Color colorsXyz[3] = {colors::kRed, colors::kGreen, colors::kBlue};
    for (int k = 0; k < 3; ++k) {
        // Lift the ground axes a hair above the grid so they always win against it.
        glm::vec3 lift = k == 1 ? glm::vec3(0.0f) : glm::vec3(0.0f, 0.002f, 0.0f);
        lines.line(lift, lift + axes[k] * length, colorsXyz[k]);
        Color negative = colorsXyz[k] * 0.55f;
        negative.a = 1.0f;
        if (k != 1) lines.line(lift, lift - axes[k] * length, negative);
    }
}

BoundingSphere viewBounds(const Scene& scene, std::span<const BodyState> states, const Selection& selection) {
    const size_t n = std::min(scene.bodies.size(), states.size());
    auto included = [&](size_t i) {
        if (selection.kind == Selection::Kind::Body && selection.index >= 0 &&
            static_cast<size_t>(selection.index) < n)
            return static_cast<int>(i) == selection.index;
        if (selection.kind == Selection::Kind::Joint && selection.index >= 0 &&
            static_cast<size_t>(selection.index) < scene.joints.size()) {
            const JointDesc& j = scene.joints[selection.index];
            return scene.bodies[i].name == j.body0 || scene.bodies[i].name == j.body1;
        }
        return true;
    };
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        if (!included(i)) continue;
        glm::vec3 c(states[i].pose.p);
        float r = boundingRadius(scene.bodies[i]);
        lo = glm::min(lo, c - glm::vec3(r));
        hi = glm::max(hi, c + glm::vec3(r));
        any = true;
    }
    if (!any) return BoundingSphere{glm::vec3(0.0f, 0.5f, 0.0f), 2.0f};
    return BoundingSphere{(lo + hi) * 0.5f, glm::length(hi - lo) * 0.5f};
}

}  // namespace jl::app
