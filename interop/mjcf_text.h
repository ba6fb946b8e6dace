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
/// Every geom of body `b` at `pose` (its body frame in the enclosing element's frame); a hull is
/// the mesh asset "hull<index>".
void writeBodyGeoms(std::string& out, const std::string& indent, const BodyDesc& b, int index,
                    const Transform& pose, const std::string& extra);

}  // namespace jl::interop
