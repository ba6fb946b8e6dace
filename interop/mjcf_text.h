// MJCF as text (interop/mjcf_export*.cpp): numbers that read back to the same bits and a JointLab
// body's shapes as <geom> elements (names are escaped with jl::xmlEscape, jointlab/xml_text.h).
#pragma once

#include <string>

#include "jointlab/scene.h"

namespace jl::interop {

/// %.17g: reads back to the same double.
std::string num(Real x);
/// "x y z"
std::string vec(const Vec3& v);
/// "w x y z", MJCF's order.
std::string quat(const Quat& q);

/// One shape as a <geom> at `pose` (in the frame of the element it is written into); `extra` is
/// appended inside the element (attributes with a leading space).
void writeGeom(std::string& out, const std::string& indent, ShapeType shape, const Vec3& halfExtents,
               Real radius, Real halfHeight, const Transform& pose, const std::string& extra);
/// The mesh asset of body `body`'s hull ("hull<body>"), or of its compound child `child` >= 0
/// ("hull<body>_<child>"): its points in the body's (the child's) frame; MuJoCo takes their
/// convex hull.
std::string hullMeshName(int body, int child);
/// Every geom of body `b` at `pose` (its body frame in the enclosing element's frame); a hull,
/// and a compound's hull child, is a mesh geom of the asset hullMeshName names.
void writeBodyGeoms(std::string& out, const std::string& indent, const BodyDesc& b, int index,
                    const Transform& pose, const std::string& extra);

}  // namespace jl::interop
