// JointLab app — unit meshes for instanced rendering, built on the CPU (no GL here).
//
// Each mesh is a unit shape; an instance's model matrix carries the body pose and the shape's
// scale: a box is the cube [-1, 1]^3 scaled by its half extents, a sphere the unit sphere scaled
// by its radius, and a capsule is drawn as a cylinder along local X (scaled by halfHeight and
// radius) plus two spheres at its ends.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace jl::app {

struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

struct MeshData {
    std::vector<MeshVertex> vertices;
    std::vector<uint32_t> indices;  ///< triangles, counter-clockwise seen from outside
};

/// Cube [-1, 1]^3 with flat faces (24 vertices, 36 indices).
MeshData makeUnitCube();
/// Sphere of radius 1 centred at the origin; `segments` around Y, `rings` from pole to pole.
MeshData makeUnitSphere(int segments, int rings);
/// Open cylinder of radius 1 along X from x = -1 to x = 1.
MeshData makeUnitCylinderX(int segments);
/// The same cylinder closed by flat caps at x = ±1 (a gear's wheel).
MeshData makeUnitClosedCylinderX(int segments);

}  // namespace jl::app
