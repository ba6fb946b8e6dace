// MJCF as text (interop/mjcf_text.h).
#include "interop/mjcf_text.h"

#include <cstdio>

namespace jl::interop {

namespace {

/// MuJoCo's cylinders and capsules lie along local Z, JointLab's along local X: a quarter turn
/// about Y takes Z to X.
const Quat kZToX(0.70710678118654752440, 0.0, 0.70710678118654752440, 0.0);

}  // namespace

std::string num(Real x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.17g", x);
    return b;
}
std::string vec(const Vec3& v) {
    return num(v.x) + " " + num(v.y) + " " + num(v.z);
}
std::string quat(const Quat& q) {
    return num(q.w) + " " + num(q.x) + " " + num(q.y) + " " + num(q.z);
}

void writeGeom(std::string& out, const std::string& indent, ShapeType shape, const Vec3& halfExtents,
               Real radius, Real halfHeight, const Transform& pose, const std::string& extra) {
    std::string type, size;
    Quat q = pose.q;
    switch (shape) {
        case ShapeType::Box:
            type = "box";
            size = vec(halfExtents);
            break;
        case ShapeType::Sphere:
            type = "sphere";
            size = num(radius);
            break;
        case ShapeType::Capsule:
        case ShapeType::Cylinder:
            type = shape == ShapeType::Capsule ? "capsule" : "cylinder";
            size = num(radius) + " " + num(halfHeight);
            q = pose.q * kZToX;
            break;
        default:
            return;
    }
    out += indent + "<geom type=\"" + type + "\" size=\"" + size + "\" pos=\"" + vec(pose.p) + "\" quat=\"" +
           quat(q) + "\"" + extra + "/>\n";
}

std::string hullMeshName(int body, int child) {
    return "hull" + std::to_string(body) + (child < 0 ? "" : "_" + std::to_string(child));
}

void writeBodyGeoms(std::string& out, const std::string& indent, const BodyDesc& b, int index,
                    const Transform& pose, const std::string& extra) {
    auto mesh = [&](const std::string& name, const Transform& at) {
        out += indent + "<geom type=\"mesh\" mesh=\"" + name + "\" pos=\"" + vec(at.p) + "\" quat=\"" +
               quat(at.q) + "\"" + extra + "/>\n";
    };
    switch (b.shape) {
        case ShapeType::Hull:
            mesh(hullMeshName(index, -1), pose);
            break;
        case ShapeType::Compound:
            for (size_t k = 0; k < b.children.size(); ++k) {
                const ShapeDesc& c = b.children[k];
                const Transform at = pose * Transform{c.position, c.orientation};
                if (c.shape == ShapeType::Hull)
                    mesh(hullMeshName(index, static_cast<int>(k)), at);
                else
                    writeGeom(out, indent, c.shape, c.halfExtents, c.radius, c.halfHeight, at, extra);
            }
            break;
        default:
            writeGeom(out, indent, b.shape, b.halfExtents, b.radius, b.halfHeight, pose, extra);
    }
}

}  // namespace jl::interop
