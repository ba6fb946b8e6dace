#include "render/meshes.h"

#include <cmath>

namespace jl::app {

namespace {
constexpr float kTwoPi = 6.28318530717958647692f;
constexpr float kPi = 3.14159265358979323846f;
}  // namespace

MeshData makeUnitCube() {
    MeshData m;
    // For each face: outward normal n and two in-plane axes u, v with u × v = n.
    const glm::vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const glm::vec3& n : normals) {
        glm::vec3 u = std::abs(n.y) > 0.5f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
        glm::vec3 v = glm::cross(n, u);
        const auto base = static_cast<uint32_t>(m.vertices.size());
        const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (const auto& c : corners) m.vertices.push_back({n + u * c[0] + v * c[1], n});
        // u × v = n, so (0,1,2) is counter-clockwise seen from outside.
        for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.indices.push_back(base + i);
    }
    return m;
}

MeshData makeUnitSphere(int segments, int rings) {
    MeshData m;
    for (int r = 0; r <= rings; ++r) {
        float theta = kPi * static_cast<float>(r) / static_cast<float>(rings);  // from +Y down
        for (int s = 0; s <= segments; ++s) {
            float phi = kTwoPi * static_cast<float>(s) / static_cast<float>(segments);
            glm::vec3 p(std::sin(theta) * std::cos(phi), std::cos(theta), -std::sin(theta) * std::sin(phi));
            m.vertices.push_back({p, p});
        }
    }
    const auto stride = static_cast<uint32_t>(segments + 1);
    for (uint32_t r = 0; r < static_cast<uint32_t>(rings); ++r) {
        for (uint32_t s = 0; s < static_cast<uint32_t>(segments); ++s) {
            uint32_t a = r * stride + s, b = a + stride;
            m.indices.insert(m.indices.end(), {a, b, a + 1, a + 1, b, b + 1});
        }
    }
    return m;
}

MeshData makeUnitCylinderX(int segments) {
    MeshData m;
    for (int s = 0; s <= segments; ++s) {
        float phi = kTwoPi * static_cast<float>(s) / static_cast<float>(segments);
        glm::vec3 n(0, std::cos(phi), std::sin(phi));
        m.vertices.push_back({glm::vec3(-1, 0, 0) + n, n});
        m.vertices.push_back({glm::vec3(1, 0, 0) + n, n});
    }
    for (uint32_t s = 0; s < static_cast<uint32_t>(segments); ++s) {
        uint32_t a = 2 * s, b = a + 1, c = a + 2, d = a + 3;
        m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
    }
    return m;
}

MeshData makeUnitClosedCylinderX(int segments) {
    MeshData m = makeUnitCylinderX(segments);
    for (float side : {-1.0f, 1.0f}) {
        const glm::vec3 n(side, 0, 0);
        const auto centre = static_cast<uint32_t>(m.vertices.size());
        m.vertices.push_back({n, n});
        for (int s = 0; s <= segments; ++s) {
            const float phi = kTwoPi * static_cast<float>(s) / static_cast<float>(segments);
            m.vertices.push_back({glm::vec3(side, std::cos(phi), std::sin(phi)), n});
        }
        for (uint32_t s = 0; s < static_cast<uint32_t>(segments); ++s) {
            const uint32_t a = centre + 1 + s, b = a + 1;
            // Counter-clockwise seen from outside: the +X cap sees (y, z) turn from y to z.
            if (side > 0)
                m.indices.insert(m.indices.end(), {centre, a, b});
            else
                m.indices.insert(m.indices.end(), {centre, b, a});
        }
    }
    return m;
}

}  // namespace jl::app
