// Unit meshes: closed where they should be, outward counter-clockwise winding, unit size.
#include "render/meshes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace jl::app {
namespace {

/// Every triangle's geometric normal (from its winding) points the way its vertex normals do.
void expectOutwardWinding(const MeshData& m) {
    ASSERT_EQ(m.indices.size() % 3, 0u);
    for (size_t t = 0; t < m.indices.size(); t += 3) {
        const MeshVertex& a = m.vertices[m.indices[t]];
        const MeshVertex& b = m.vertices[m.indices[t + 1]];
        const MeshVertex& c = m.vertices[m.indices[t + 2]];
        glm::vec3 n = glm::cross(b.position - a.position, c.position - a.position);
        if (glm::length(n) < 1e-5f) continue;  // degenerate triangles at the sphere's poles
        EXPECT_GT(glm::dot(n, a.normal + b.normal + c.normal), 0.0f) << "triangle " << t / 3;
    }
}

TEST(Meshes, CubeHasSixFlatFacesOfHalfSizeOne) {
    MeshData m = makeUnitCube();
    EXPECT_EQ(m.vertices.size(), 24u);
    EXPECT_EQ(m.indices.size(), 36u);
    for (const MeshVertex& v : m.vertices) {
        EXPECT_FLOAT_EQ(std::max({std::abs(v.position.x), std::abs(v.position.y), std::abs(v.position.z)}),
                        1.0f);
        EXPECT_FLOAT_EQ(glm::dot(v.position, v.normal), 1.0f);  // on the face the normal names
    }
    expectOutwardWinding(m);
}

TEST(Meshes, SphereVerticesLieOnTheUnitSphere) {
    MeshData m = makeUnitSphere(24, 12);
    for (const MeshVertex& v : m.vertices) EXPECT_NEAR(glm::length(v.position), 1.0f, 1e-5f);
    expectOutwardWinding(m);
}

TEST(Meshes, CylinderRunsAlongX) {
    MeshData m = makeUnitCylinderX(24);
    for (const MeshVertex& v : m.vertices) {
        EXPECT_FLOAT_EQ(std::abs(v.position.x), 1.0f);
        EXPECT_NEAR(std::hypot(v.position.y, v.position.z), 1.0f, 1e-5f);
        EXPECT_FLOAT_EQ(v.normal.x, 0.0f);
    }
    expectOutwardWinding(m);
}

}  // namespace
}  // namespace jl::app
