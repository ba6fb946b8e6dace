// MJCF -> ImportedModel, read from MuJoCo's compiled mjModel at the reference pose qpos0 (its
// forward kinematics gives every body, inertial frame, geom and joint axis in the world).
#include "interop/mjcf_import.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "interop/import_builder.h"
#include "interop/mujoco_model.h"

namespace jl::interop {

namespace {

std::string nameOf(const mjModel* m, mjtObj type, int id, const char* fallback) {
    const char* n = mj_id2name(m, type, id);
    return n && *n ? std::string(n) : std::string(fallback) + std::to_string(id);
}

Transform poseOf(const mjtNum* pos, const mjtNum* mat) {
    mjtNum q[4];
    mju_mat2Quat(q, mat);
    return {Vec3(pos[0], pos[1], pos[2]), glm::normalize(Quat(q[0], q[1], q[2], q[3]))};
}

/// MuJoCo's multi-line message ("XML Error: ...\nElement 'geom', line 3") as one line.
std::string oneLine(std::string s) {
    for (size_t i = 0; (i = s.find('\n', i)) != std::string::npos;) s.replace(i, 1, ", ");
    return s;
}

Vec3 vec(const mjtNum* v) {
    return Vec3(v[0], v[1], v[2]);
}

/// A level, upward-facing plane of the world: a floor (its geom's name and height).
struct LevelPlane {
    std::string label;
    Real height;
};

/// The geoms of body `b`; the world's level planes go to `floors` (placeGround decides the ground).
void readGeoms(const mjModel* m, const mjData* d, int b, ImportedModel& out, ImportedBody& body,
               std::vector<LevelPlane>& floors) {
    bool anyCollides = false;
    std::vector<bool> visual;  // per geom kept: contype = conaffinity = 0
    for (int g = m->body_geomadr[b]; g >= 0 && g < m->body_geomadr[b] + m->body_geomnum[b]; ++g) {
        const std::string label = nameOf(m, mjOBJ_GEOM, g, "geom");
        const mjtNum* size = m->geom_size + 3 * g;
        ImportedGeom geom;
        geom.label = label;
        geom.world = poseOf(d->geom_xpos + 3 * g, d->geom_xmat + 9 * g);
        const bool collides = m->geom_contype[g] != 0 || m->geom_conaffinity[g] != 0;
        switch (m->geom_type[g]) {
            case mjGEOM_PLANE: {
                const Vec3 normal = geom.world.q * Vec3(0, 0, 1);
                if (b == 0 && normal.z > 1.0 - 1e-9)
                    floors.push_back({label, geom.world.p.z});
                else
                    out.notes.add("planes other than a level ground at height 0 (JointLab's ground is y = 0)",
                                  label);
                continue;
            }
            case mjGEOM_HFIELD:
                out.notes.add("height fields", label);
                continue;
            case mjGEOM_ELLIPSOID:
                out.notes.add("ellipsoids (JointLab has no ellipsoid shape)", label);
                continue;
            case mjGEOM_SPHERE:
                geom.kind = ImportedGeom::Kind::Sphere;
                geom.radius = size[0];
                break;
            case mjGEOM_CAPSULE:
            case mjGEOM_CYLINDER:
                geom.kind = m->geom_type[g] == mjGEOM_CAPSULE ? ImportedGeom::Kind::Capsule
                                                              : ImportedGeom::Kind::Cylinder;
                geom.radius = size[0];
                geom.halfHeight = size[1];
                break;
            case mjGEOM_BOX:
                geom.kind = ImportedGeom::Kind::Box;
                geom.halfExtents = vec(size);
                break;
            case mjGEOM_MESH: {
                geom.kind = ImportedGeom::Kind::Mesh;
                const int mesh = m->geom_dataid[g];
                if (mesh < 0) continue;
                const float* v = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
                for (int k = 0; k < m->mesh_vertnum[mesh]; ++k)
                    geom.points.push_back(Vec3(v[3 * k], v[3 * k + 1], v[3 * k + 2]));
                geom.label = "mesh " + nameOf(m, mjOBJ_MESH, mesh, "mesh");
                break;
            }
            default:
                out.notes.add("geoms of an unknown type", label);
                continue;
        }
        anyCollides = anyCollides || collides;
        body.geoms.push_back(std::move(geom));
        visual.push_back(!collides);
    }
    body.collides = anyCollides || body.geoms.empty();
    if (!anyCollides) return;  // a body that touches nothing keeps its shapes to be drawn (group 0)
    // Beside geoms that collide, one with contype = conaffinity = 0 is only seen (mug.xml's mesh
    // over its 20 wall boxes): as a shape it would collide in JointLab, which draws what collides,
    // so it is left out. The body's mass and inertia are MuJoCo's, whatever its geoms.
    size_t kept = 0;
    for (size_t i = 0; i < body.geoms.size(); ++i) {
        if (visual[i]) {
            out.notes.add("geoms only seen (contype = conaffinity = 0) beside geoms that collide",
                          body.geoms[i].label);
            continue;
        }
        if (kept != i) body.geoms[kept] = std::move(body.geoms[i]);
        ++kept;
    }
    body.geoms.resize(kept);
}

/// Every position of `model` moved up by `dz` (along the model's z): a translation, which changes
/// nothing in its mechanics (gravity is uniform).
void raise(ImportedModel& model, Real dz) {
    const Vec3 up(0.0, 0.0, dz);
    for (ImportedBody& b : model.bodies) {
        b.frame.p += up;
        b.inertial.p += up;
        for (ImportedGeom& g : b.geoms) g.world.p += up;
    }
    for (ImportedJoint& j : model.joints) j.anchor += up;
    for (ImportedEquality& e : model.equalities) e.anchor += up;
}

/// JointLab's ground from the model's floors: a floor at height 0 is it; a model whose only floor
/// lies at another height h (arm26's at −0.5 m, the slider-crank's at −0.05 m) is raised by −h so
/// that its floor is the ground, when contacts are on (noted: its coordinates are the file's plus
/// that). Any other floor is left out, noted.
void placeGround(const std::vector<LevelPlane>& floors, ImportedModel& out) {
    const auto atZero = [](const LevelPlane& f) { return std::abs(f.height) < 1e-9; };
    const bool ground = std::any_of(floors.begin(), floors.end(), atZero);
    if (!ground && floors.size() == 1 && out.contacts) {
        raise(out, -floors[0].height);
        out.groundPlane = true;
        char by[48];
        std::snprintf(by, sizeof by, "%.6g", -floors[0].height);
        out.notes.add(std::string("the model was raised by ") + by +
                          " m so that its floor is JointLab's ground (y = 0)",
                      floors[0].label);
        return;
    }
    out.groundPlane = ground;
    for (const LevelPlane& f : floors)
        if (!atZero(f))
            out.notes.add("planes other than a level ground at height 0 (JointLab's ground is y = 0)",
                          f.label);
}

/// A servo actuator on a joint: F = gear·(kp·(ctrl − gear·q) − kv·gear·q̇) at ctrl = 0.
void readActuators(const mjModel* m, ImportedModel& out) {
    for (int u = 0; u < m->nu; ++u) {
        const std::string name = nameOf(m, mjOBJ_ACTUATOR, u, "actuator");
        const mjtNum* gain = m->actuator_gainprm + mjNGAIN * u;
        const mjtNum* bias = m->actuator_biasprm + mjNBIAS * u;
        const int joint = m->actuator_trnid[2 * u];
        const bool onJoint = m->actuator_trntype[u] == mjTRN_JOINT && joint >= 0 &&
                             (m->jnt_type[joint] == mjJNT_HINGE || m->jnt_type[joint] == mjJNT_SLIDE);
        const bool plain = m->actuator_dyntype[u] == mjDYN_NONE && m->actuator_gaintype[u] == mjGAIN_FIXED;
        const bool affine = m->actuator_biastype[u] == mjBIAS_AFFINE && bias[0] == 0.0;
        const bool position = affine && gain[0] > 0.0 && std::abs(bias[1] + gain[0]) <= 1e-12 * gain[0];
        const bool velocity =
            affine && bias[1] == 0.0 && gain[0] > 0.0 && std::abs(bias[2] + gain[0]) <= 1e-12 * gain[0];
        if (!onJoint || !plain || !(position || velocity)) {
            if (onJoint && plain && m->actuator_biastype[u] == mjBIAS_NONE)
                out.notes.add("force (motor) actuators, which do nothing at zero control", name);
            else
                out.notes.add("actuators other than position or velocity servos on a hinge or slide", name);
            continue;
        }
        ImportedJoint& j = out.joints[static_cast<size_t>(joint)];
        if (j.servo) {
            out.notes.add("second servos on one joint", name);
            continue;
        }
        const Real g = m->actuator_gear[6 * u];
        j.servo = true;
        j.kp = position ? g * g * gain[0] : 0.0;
        j.kv = g * g * -bias[2];
        j.target = -m->qpos0[m->jnt_qposadr[joint]];  // ctrl = 0 asks for q = 0
        if (m->actuator_forcelimited[u]) {
            const mjtNum* r = m->actuator_forcerange + 2 * u;
            j.forceLimit = std::abs(g) * std::max(std::abs(r[0]), std::abs(r[1]));
        }
    }
}

void readEqualities(const mjModel* m, const mjData* d, const std::vector<int>& bodyIndex,
                    ImportedModel& out) {
    for (int e = 0; e < m->neq; ++e) {
        const std::string name = nameOf(m, mjOBJ_EQUALITY, e, "equality");
        const mjtNum* data = m->eq_data + mjNEQDATA * e;
        if (!m->eq_active[e]) {
            out.notes.add("inactive equality constraints", name);
            continue;
        }
        ImportedEquality q;
        q.name = name;
        const int o1 = m->eq_obj1id[e], o2 = m->eq_obj2id[e];
        switch (m->eq_type[e]) {
            case mjEQ_CONNECT: {
                q.kind = ImportedEquality::Kind::Connect;
                const Transform p1 = poseOf(d->xpos + 3 * o1, d->xmat + 9 * o1);
                q.anchor = p1.apply(vec(data));
                q.body1 = bodyIndex[static_cast<size_t>(o1)];
                q.body2 = bodyIndex[static_cast<size_t>(o2)];
                break;
            }
            case mjEQ_WELD:
                q.kind = ImportedEquality::Kind::Weld;
                q.body1 = bodyIndex[static_cast<size_t>(o1)];
                q.body2 = bodyIndex[static_cast<size_t>(o2)];
                break;
            case mjEQ_JOINT:
                if (o2 < 0) {
                    // q1 − qpos0 = polycoef[0] (MuJoCo reads no other term without joint2): the
                    // joint's limit at that value (import_builder.h, ImportedJoint::held).
                    ImportedJoint& j = out.joints[static_cast<size_t>(o1)];
                    if (j.held) {
                        if (j.heldValue != data[0])
                            out.notes.add(
                                "second joint equalities holding one joint at another value (the "
                                "first was kept)",
                                name);
                        continue;
                    }
                    j.held = true;
                    j.heldValue = data[0];
                    continue;
                }
                if (data[2] != 0.0 || data[3] != 0.0 || data[4] != 0.0)
                    out.notes.add("quadratic and higher terms of joint couplings (the linear part was kept)",
                                  name);
                q.kind = ImportedEquality::Kind::Coupling;
                q.joint1 = o1;
                q.joint2 = o2;
                q.offset = data[0];
                q.ratio = data[1];
                break;
            default:
                out.notes.add("tendon and distance equality constraints", name);
                continue;
        }
        out.equalities.push_back(q);
    }
}

/// Everything MuJoCo has that JointLab does not, one note each.
void noteUnmapped(const mjModel* m, ImportedModel& out) {
    auto count = [&](int n, const char* what) {
        if (n > 0) out.notes.add(std::to_string(n) + " " + what);
    };
    count(m->ntendon, "tendons");
    count(m->nsite, "sites");
    count(m->nsensor, "sensors");
    count(m->nskin, "skins (composite objects)");
    count(m->npair + m->nexclude, "explicit contact pairs and exclusions");
    count(m->nkey, "keyframes");
    count(m->ncam + m->nlight, "cameras and lights");
}

}  // namespace

bool importMjcfModel(const mjModel* m, const std::string& source, Scene& out, std::string& warning,
                     std::string& error) {
    DataPtr data = makeData(m);
    if (!data) {
        error = source + ": MuJoCo could not allocate the model's data";
        return false;
    }
    mjData* d = data.get();
    mj_kinematics(m, d);
    ImportedModel model;
    model.source = source;
    model.timestep = m->opt.timestep;
    model.gravity = vec(m->opt.gravity);
    model.contacts = (m->opt.disableflags & mjDSBL_CONTACT) == 0;  // <flag contact="disable"/>

    // The world's own geoms (besides the ground) become one static body.
    ImportedBody world;
    world.name = "world_geoms";
    std::vector<LevelPlane> floors;
    readGeoms(m, d, 0, model, world, floors);
    const int offset = world.geoms.empty() ? 1 : 0;  // source body b is model.bodies[b - offset]
    if (!world.geoms.empty()) model.bodies.push_back(std::move(world));
    std::vector<int> index(static_cast<size_t>(m->nbody));
    for (int b = 0; b < m->nbody; ++b)
        index[static_cast<size_t>(b)] = b == 0 ? (offset == 0 ? 0 : -1) : b - offset;
    auto bodyIndex = [&](int b) { return index[static_cast<size_t>(b)]; };

    for (int b = 1; b < m->nbody; ++b) {
        ImportedBody body;
        body.name = nameOf(m, mjOBJ_BODY, b, "body");
        body.parent = bodyIndex(m->body_parentid[b]);
        body.mass = m->body_mass[b];
        body.inertia = vec(m->body_inertia + 3 * b);
        body.frame = poseOf(d->xpos + 3 * b, d->xmat + 9 * b);
        body.inertial = poseOf(d->xipos + 3 * b, d->ximat + 9 * b);
        body.mocap = m->body_mocapid[b] >= 0;
        readGeoms(m, d, b, model, body, floors);
        model.bodies.push_back(std::move(body));
    }
    for (int j = 0; j < m->njnt; ++j) {
        ImportedJoint joint;
        joint.name = nameOf(m, mjOBJ_JOINT, j, "joint");
        joint.body = bodyIndex(m->jnt_bodyid[j]);
        joint.anchor = vec(d->xanchor + 3 * j);
        joint.axis = vec(d->xaxis + 3 * j);
        const int dof = m->jnt_dofadr[j], qadr = m->jnt_qposadr[j];
        joint.damping = m->dof_damping[dof];
        joint.armature = m->dof_armature[dof];
        joint.frictionLoss = m->dof_frictionloss[dof];
        joint.limited = m->jnt_limited[j] != 0;
        switch (m->jnt_type[j]) {
            case mjJNT_FREE:
                joint.kind = ImportedJoint::Kind::Free;
                if (joint.damping > 0.0) model.notes.add("damping of free joints", joint.name);
                break;
            case mjJNT_BALL:
                joint.kind = ImportedJoint::Kind::Ball;
                joint.lower = 0.0;
                joint.upper = m->jnt_range[2 * j + 1];
                joint.stiffness = m->jnt_stiffness[j];
                break;
            default: {
                joint.kind =
                    m->jnt_type[j] == mjJNT_HINGE ? ImportedJoint::Kind::Hinge : ImportedJoint::Kind::Slide;
                const Real q0 = m->qpos0[qadr];  // JointLab's coordinates start at 0 at this pose
                joint.lower = m->jnt_range[2 * j] - q0;
                joint.upper = m->jnt_range[2 * j + 1] - q0;
                joint.stiffness = m->jnt_stiffness[j];
                joint.springRest = m->qpos_spring[qadr] - q0;
                break;
            }
        }
        model.joints.push_back(joint);
    }
    readActuators(m, model);
    readEqualities(m, d, index, model);
    placeGround(floors, model);
    noteUnmapped(m, model);
    return buildScene(model, out, warning, error);
}

bool importMjcfFile(const std::string& path, Scene& out, std::string& warning, std::string& error) {
    ModelPtr m = compileMjcfFile(path, error);
    if (!m) {
        error = path + ": " + oneLine(error);  // MuJoCo's message gives the line, not the file
        return false;
    }
    return importMjcfModel(m.get(), path, out, warning, error);
}

bool importMjcfText(const std::string& xml, const std::string& name, Scene& out, std::string& warning,
                    std::string& error) {
    ModelPtr m = compileMjcfText(xml, name, error);
    if (!m) {
        error = name + ": " + oneLine(error);
        return false;
    }
    return importMjcfModel(m.get(), name, out, warning, error);
}

}  // namespace jl::interop
