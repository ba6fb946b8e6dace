#include "render/debug_draw.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

uint32_t packColor(const Color& c) {
    auto byte = [](float x) { return static_cast<uint32_t>(std::clamp(x, 0.0f, 1.0f) * 255.0f + 0.5f); };
    return byte(c.r) | (byte(c.g) << 8) | (byte(c.b) << 16) | (byte(c.a) << 24);
}

void DebugDraw::clear() {
    for (int i = 0; i < kLayers; ++i) {
        layers_[i].clear();
        triangles_[i].clear();
    }
}

void DebugDraw::triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const Color& color,
                         Layer layer) {
    auto& v = triangles_[static_cast<int>(layer)];
    const uint32_t packed = packColor(color);
    v.push_back({a, packed});
    v.push_back({b, packed});
    v.push_back({c, packed});
}

void DebugDraw::line(const glm::vec3& a, const glm::vec3& b, const Color& color, Layer layer) {
    auto& v = layers_[static_cast<int>(layer)];
    uint32_t packed = packColor(color);
    v.push_back({a, packed});
    v.push_back({b, packed});
}

void DebugDraw::arrow(const glm::vec3& from, const glm::vec3& to, const Color& color, Layer layer,
                      float headSize) {
    line(from, to, color, layer);
    glm::vec3 d = to - from;
    float length = glm::length(d);
    if (length < 1e-6f) return;
    d /= length;
    float head = headSize > 0.0f ? headSize : 0.15f * length;
    // Two vectors perpendicular to d for the four head strokes.
    glm::vec3 helper = std::abs(d.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
    glm::vec3 p = glm::normalize(glm::cross(d, helper));
    glm::vec3 q = glm::cross(d, p);
    glm::vec3 back = to - d * head;
    for (const glm::vec3& side : {p, -p, q, -q}) line(to, back + side * (0.4f * head), color, layer);
}

void DebugDraw::outlinedArrow(const glm::vec3& from, const glm::vec3& to, const Color& color) {
    arrow(from, to, colors::kOutline, Layer::Outline);
    arrow(from, to, color, Layer::Overlay);
}

void DebugDraw::frame(const glm::vec3& origin, const glm::quat& rotation, float size, Layer layer) {
    line(origin, origin + rotation * glm::vec3(size, 0, 0), colors::kRed, layer);
    line(origin, origin + rotation * glm::vec3(0, size, 0), colors::kGreen, layer);
    line(origin, origin + rotation * glm::vec3(0, 0, size), colors::kBlue, layer);
}

void DebugDraw::circle(const glm::vec3& center, const glm::vec3& normal, float radius, const Color& color,
                       Layer layer, int segments) {
    glm::vec3 n = glm::normalize(normal);
    glm::vec3 helper = std::abs(n.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
    glm::vec3 u = glm::normalize(glm::cross(n, helper));
    glm::vec3 w = glm::cross(n, u);
    glm::vec3 previous = center + u * radius;
    for (int i = 1; i <= segments; ++i) {
        float angle = 6.28318530718f * static_cast<float>(i) / static_cast<float>(segments);
        glm::vec3 next = center + (u * std::cos(angle) + w * std::sin(angle)) * radius;
        line(previous, next, color, layer);
        previous = next;
    }
}

void DebugDraw::box(const glm::vec3& center, const glm::quat& rotation, const glm::vec3& halfExtents,
                    const Color& color, Layer layer) {
    auto corner = [&](int i) {
        glm::vec3 s((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f);
        return center + rotation * (s * halfExtents);
    };
    // Edges join corners that differ in exactly one bit.
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4})
            if (!(i & bit)) line(corner(i), corner(i | bit), color, layer);
}

}  // namespace jl::app
