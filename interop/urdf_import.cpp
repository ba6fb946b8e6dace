// URDF -> ImportedModel. Links are visited from the root, parents first; a link's frame is its
// parent's times its joint's origin (the joint frame is the child link's frame, URDF spec), its
// inertial frame is <inertial><origin> in it, rotated onto the principal axes of the tensor.
#include "interop/urdf_import.h"

#include <console_bridge/console.h>
#include <mujoco/mujoco.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "interop/import_builder.h"
#include "interop/mujoco_model.h"
#include "jointlab/xml_text.h"

namespace jl::interop {

namespace {

namespace fs = std::filesystem;

/// Collects urdfdom's error messages (it reports through console_bridge, then returns null).
class Capture : public console_bridge::OutputHandler {
public:
    Capture() { console_bridge::useOutputHandler(this); }
    ~Capture() override { console_bridge::restorePreviousOutputHandler(); }
    void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
        if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN)
            messages += (messages.empty() ? "" : "; ") + text;
    }
    std::string messages;
};

Transform poseOf(const urdf::Pose& p) {
    double x, y, z, w;
    p.rotation.getQuaternion(x, y, z, w);
    return {Vec3(p.position.x, p.position.y, p.position.z), glm::normalize(Quat(w, x, y, z))};
}

/// A mesh file's path: package://pkg/rest and relative names are looked for beside the URDF.
std::string resolveMesh(const std::string& uri, const std::string& directory) {
    std::string name = uri;
    std::string package;
    if (name.rfind("file://", 0) == 0) name = name.substr(7);
    if (name.rfind("package://", 0) == 0) {
        name = name.substr(10);
        const size_t slash = name.find('/');
        package = name.substr(0, slash);
        name = slash == std::string::npos ? "" : name.substr(slash + 1);
    }
    if (fs::path(name).is_absolute()) return fs::exists(name) ? name : "";
    const fs::path dir = directory.empty() ? fs::path(".") : fs::path(directory);
    for (const fs::path& base : {dir, dir.parent_path(), dir / package, dir.parent_path() / package}) {
        const fs::path p = base / name;
        std::error_code ec;
        if (!name.empty() && fs::is_regular_file(p, ec)) return p.string();
    }
    return "";
}

/// A mesh's vertices in its file's frame (scaled), read by MuJoCo's mesh loader (STL, OBJ, MSH).
bool loadMesh(const std::string& file, const urdf::Vector3& scale, std::vector<Vec3>& points,
              std::string& error) {
    std::ostringstream xml;
    xml.precision(17);
    xml << "<mujoco><asset><mesh name='m' file=\"" << xmlEscape(file) << "\" scale='" << scale.x << " "
        << scale.y << " " << scale.z
        << "'/></asset><worldbody><body><freejoint/><geom type='mesh' mesh='m'/></body></worldbody></mujoco>";
    ModelPtr m = compileMjcfText(xml.str(), "urdf_mesh.xml", error);
    if (!m) return false;
    DataPtr d = makeData(m.get());
    mj_kinematics(m.get(), d.get());
    // MuJoCo moves a mesh onto its own inertial frame and the geom by the inverse: the geom's pose
    // (body and world coincide at qpos0 here) takes the vertices back to the file's frame.
    const mjtNum* pos = d->geom_xpos;
    const mjtNum* mat = d->geom_xmat;
    const float* v = m->mesh_vert + 3 * m->mesh_vertadr[0];
    for (int k = 0; k < m->mesh_vertnum[0]; ++k) {
        const Vec3 p(v[3 * k], v[3 * k + 1], v[3 * k + 2]);
        points.push_back(Vec3(pos[0] + mat[0] * p.x + mat[1] * p.y + mat[2] * p.z,
                              pos[1] + mat[3] * p.x + mat[4] * p.y + mat[5] * p.z,
                              pos[2] + mat[6] * p.x + mat[7] * p.y + mat[8] * p.z));
    }
    return true;
}

struct Reader {
    const urdf::ModelInterface& urdf;
    std::string directory;
    ImportedModel& out;
    std::map<std::string, int> jointIndex;

    void geoms(const urdf::Link& link, const Transform& linkWorld, ImportedBody& body) {
        // Collision geometry is what the mechanism touches with; visual only when there is none.
        std::vector<std::pair<urdf::Pose, urdf::GeometrySharedPtr>> list;
        for (const auto& c : link.collision_array)
            if (c && c->geometry) list.push_back({c->origin, c->geometry});
        if (list.empty())
            for (const auto& v : link.visual_array)
                if (v && v->geometry) list.push_back({v->origin, v->geometry});
        for (const auto& [origin, geometry] : list) {
            ImportedGeom g;
            g.world = linkWorld * poseOf(origin);
            g.label = link.name;
            switch (geometry->type) {
                case urdf::Geometry::BOX: {
                    const auto& b = static_cast<const urdf::Box&>(*geometry);
                    g.kind = ImportedGeom::Kind::Box;
                    g.halfExtents = 0.5 * Vec3(b.dim.x, b.dim.y, b.dim.z);
                    break;
                }
                case urdf::Geometry::SPHERE:
                    g.kind = ImportedGeom::Kind::Sphere;
                    g.radius = static_cast<const urdf::Sphere&>(*geometry).radius;
                    break;
                case urdf::Geometry::CYLINDER: {
                    const auto& c = static_cast<const urdf::Cylinder&>(*geometry);
                    g.kind = ImportedGeom::Kind::Cylinder;
                    g.radius = c.radius;
                    g.halfHeight = 0.5 * c.length;
                    break;
                }
                case urdf::Geometry::MESH: {
                    const auto& mesh = static_cast<const urdf::Mesh&>(*geometry);
                    g.kind = ImportedGeom::Kind::Mesh;
                    g.label = mesh.filename;
                    const std::string file = resolveMesh(mesh.filename, directory);
                    if (file.empty()) {
                        out.notes.add("mesh files that were not found", mesh.filename);
                        continue;
                    }
                    std::string error;
                    if (!loadMesh(file, mesh.scale, g.points, error)) {
                        out.notes.add("mesh files MuJoCo's mesh loader could not read",
                                      mesh.filename + ": " + error);
                        continue;
                    }
                    break;
                }
                default:
                    out.notes.add("geometry of an unknown type", link.name);
                    continue;
            }
            body.geoms.push_back(std::move(g));
        }
    }

    void link(const urdf::Link& link, int parent, const Transform& world) {
        const int index = static_cast<int>(out.bodies.size());
        ImportedBody body;
        body.name = link.name;
        body.parent = parent;
        body.frame = world;
        body.inertial = world;
        if (link.inertial) {
            const urdf::Inertial& in = *link.inertial;
            body.mass = in.mass;
            // The tensor in the <inertial><origin> frame, turned onto its principal axes.
            const Mat3 tensor(in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz);
            Quat axes;
            principalInertia(tensor, body.inertia, axes);
            const Transform origin = poseOf(in.origin);
            body.inertial = world * origin * Transform{Vec3(0.0), axes};
        }
        geoms(link, world, body);
        out.bodies.push_back(std::move(body));

        if (const urdf::JointSharedPtr& j = link.parent_joint; j && parent >= 0) {
            ImportedJoint joint;
            joint.name = j->name;
            joint.body = index;
            joint.anchor = world.p;
            const Vec3 axis(j->axis.x, j->axis.y, j->axis.z);
            joint.axis = glm::length(axis) > 0 ? world.q * glm::normalize(axis) : world.q * Vec3(1, 0, 0);
            if (j->dynamics) {
                joint.damping = j->dynamics->damping;
                joint.frictionLoss = j->dynamics->friction;
            }
            bool add = true;
            switch (j->type) {
                case urdf::Joint::REVOLUTE:
                case urdf::Joint::CONTINUOUS:
                case urdf::Joint::PRISMATIC:
                    joint.kind = j->type == urdf::Joint::PRISMATIC ? ImportedJoint::Kind::Slide
                                                                   : ImportedJoint::Kind::Hinge;
                    if (j->type != urdf::Joint::CONTINUOUS && j->limits) {
                        joint.limited = j->limits->lower < j->limits->upper;
                        joint.lower = j->limits->lower;
                        joint.upper = j->limits->upper;
                    }
                    break;
                case urdf::Joint::FLOATING:
                    joint.kind = ImportedJoint::Kind::Free;
                    break;
                case urdf::Joint::PLANAR:
                    joint.kind = ImportedJoint::Kind::Free;
                    out.notes.add("planar joints (the link was left free)", j->name);
                    break;
                case urdf::Joint::FIXED:
                    add = false;  // no joint: welded to its parent
                    break;
                default:
                    out.notes.add("joints of an unknown type (the link was welded)", j->name);
                    add = false;
                    break;
            }
            if (add) {
                jointIndex[j->name] = static_cast<int>(out.joints.size());
                out.joints.push_back(joint);
            }
        }
        for (const urdf::JointSharedPtr& j : link.child_joints) {
            const urdf::LinkConstSharedPtr child = urdf.getLink(j->child_link_name);
            if (child) this->link(*child, index, world * poseOf(j->parent_to_joint_origin_transform));
        }
    }

    void mimics() {
        for (const auto& [name, j] : urdf.joints_) {
            if (!j->mimic) continue;
            const auto a = jointIndex.find(name), b = jointIndex.find(j->mimic->joint_name);
            if (a == jointIndex.end() || b == jointIndex.end()) {
                out.notes.add("mimic couplings of joints that are not hinges or slides", name);
                continue;
            }
            ImportedEquality e;
            e.kind = ImportedEquality::Kind::Coupling;
            e.name = name + "_mimic";
            e.joint1 = a->second;
            e.joint2 = b->second;
            e.ratio = j->mimic->multiplier;
            e.offset = j->mimic->offset;
            out.equalities.push_back(e);
        }
    }
};

/// The XML's own syntax error with its line (urdfdom only says the document did not parse).
std::string syntaxError(const std::string& xml) {
    TiXmlDocument doc;
    doc.Parse(xml.c_str());
    if (!doc.Error()) return "";
    return "line " + std::to_string(doc.ErrorRow()) + ": " + doc.ErrorDesc();
}

}  // namespace

bool importUrdfText(const std::string& xml, const std::string& name, const std::string& directory, Scene& out,
                    std::string& warning, std::string& error) {
    if (std::string syntax = syntaxError(xml); !syntax.empty()) {
        error = name + ": not well-formed XML, " + syntax;
        return false;
    }
    urdf::ModelInterfaceSharedPtr urdf;
    {
        Capture capture;
        try {
            urdf = urdf::parseURDF(xml);
        } catch (const std::exception& e) {
            capture.messages += (capture.messages.empty() ? "" : "; ") + std::string(e.what());
        }
        if (!urdf || !urdf->getRoot()) {
            error = name + ": urdfdom could not read the robot: " +
                    (capture.messages.empty() ? std::string("no reason given") : capture.messages);
            return false;
        }
    }
    ImportedModel model;
    model.source = name;
    model.groundPlane = true;  // URDF has no world geometry; robots stand on a floor
    Reader r{*urdf, directory, model, {}};
    r.link(*urdf->getRoot(), -1, Transform{});
    r.mimics();
    bool limits = false;
    for (const auto& [n, j] : urdf->joints_)
        limits = limits || (j->limits && (j->limits->effort > 0 || j->limits->velocity > 0));
    if (limits) model.notes.add("joint effort and velocity limits (no actuator to limit)");
    return buildScene(model, out, warning, error);
}

bool importUrdfFile(const std::string& path, Scene& out, std::string& warning, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot be read";
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    return importUrdfText(text.str(), path, fs::path(path).parent_path().string(), out, warning, error);
}

}  // namespace jl::interop
