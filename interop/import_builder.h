// The part of MJCF and URDF import that both share: a mechanism read from either format, in the
// model's own Z-up world at its reference pose, and the one mapping of it onto a JointLab Scene
// (bodies at their centre of mass with principal inertia, joints, couplings, shapes, settings).
// The readers (mjcf_import.cpp, urdf_import.cpp) only fill an ImportedModel; everything JointLab
// requires (names, ranges, the Y-up rotation, what maps and what is left out) is decided here.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "jointlab/math.h"
#include "jointlab/scene.h"

namespace jl::interop {

/// One collision/visual shape of a body, at its pose in the model's world (Z-up).
struct ImportedGeom {
    enum class Kind { Box, Sphere, Capsule, Cylinder, Mesh };
    Kind kind = Kind::Box;
    std::string label;         ///< for messages ("geom 3", "mesh wheel.stl")
    Vec3 halfExtents{0.0};     ///< box
    Real radius = 0.0;         ///< sphere, capsule, cylinder
    Real halfHeight = 0.0;     ///< capsule core / cylinder half length along the geom's local Z
    std::vector<Vec3> points;  ///< mesh: vertices in the geom's frame [m]
    Transform world;           ///< pose in the model's world
};

/// One body: where its frame and its inertial (principal) frame are, its mass and shapes.
struct ImportedBody {
    std::string name;  ///< may be empty (a name is made up)
    int parent = -1;   ///< index in ImportedModel::bodies, or -1 for the world
    Real mass = 0.0;
    Vec3 inertia{0.0};     ///< principal moments about the axes of `inertial` [kg·m²]
    Transform frame;       ///< the body's frame in the model's world
    Transform inertial;    ///< centre of mass and principal axes in the model's world
    bool collides = true;  ///< false when none of its geoms takes part in contacts
    bool mocap = false;    ///< moved by the user in MuJoCo (not simulated)
    std::vector<ImportedGeom> geoms;
};

/// A joint between a body and its parent.
struct ImportedJoint {
    enum class Kind { Hinge, Slide, Ball, Free };
    Kind kind = Kind::Hinge;
    std::string name;
    int body = 0;      ///< the child body (index in ImportedModel::bodies)
    Vec3 anchor{0.0};  ///< in the model's world at the reference pose
    Vec3 axis{0.0, 0.0, 1.0};
    bool limited = false;
    Real lower = 0.0, upper = 0.0;  ///< relative to the reference pose [rad or m]
    Real damping = 0.0;             ///< passive viscous damping [N·m·s/rad or N·s/m]
    Real stiffness = 0.0;           ///< passive spring [N·m/rad or N/m] ...
    Real springRest = 0.0;          ///< ... towards this coordinate, relative to the reference pose
    Real armature = 0.0;  ///< rotor inertia added to the joint (hinge, ball: carried by the body it turns)
    Real frictionLoss = 0.0;  ///< dry friction (not modelled: noted)
    // A servo actuator on the joint: F = kp·(target − q) + kv·(targetVelocity − q̇), |F| <= forceLimit.
    bool servo = false;
    Real kp = 0.0, kv = 0.0, target = 0.0, forceLimit = kInf;

    // A joint equality holds it at `heldValue` (MJCF <joint joint1> without joint2: q − q_ref = a0;
    // hinges and slides only, MuJoCo refuses others): the scene joint's limit becomes [a0, a0].
    bool held = false;
    Real heldValue = 0.0;  ///< relative to the reference pose [rad or m]
};

/// A constraint besides the tree: a ball (connect), a weld, or a linear coupling of two joints
/// (q_a − q_a,ref = offset + ratio·(q_b − q_b,ref)).
struct ImportedEquality {
    enum class Kind { Connect, Weld, Coupling };
    Kind kind = Kind::Connect;
    std::string name;
    int body1 = -1, body2 = -1;    ///< connect, weld: bodies (-1 = world)
    Vec3 anchor{0.0};              ///< connect: the shared point in the model's world
    int joint1 = -1, joint2 = -1;  ///< coupling: indices in ImportedModel::joints
    Real ratio = 1.0, offset = 0.0;
};

/// What a reader could not put into the other lists: grouped notes, each naming its items.
class ImportNotes {
public:
    /// Adds `item` under `what` ("armature is not modelled"); the same `what` collects its items.
    void add(const std::string& what, const std::string& item = "");
    bool empty() const { return order_.empty(); }
    /// One text: "what (a, b, c and 4 more); what ...".
    std::string text() const;

private:
    std::vector<std::string> order_;
    std::map<std::string, std::vector<std::string>> items_;
};

struct ImportedModel {
    std::string source;   ///< the file, for the description
    Real timestep = 0.0;  ///< 0: JointLab's default
    Vec3 gravity{0.0, 0.0, -9.81};
    bool groundPlane = false;          ///< a horizontal plane at height 0 in the world
    bool contacts = true;              ///< false: the model turns contacts off (no ground, no body contacts)
    std::vector<ImportedBody> bodies;  ///< parents before children
    std::vector<ImportedJoint> joints;
    std::vector<ImportedEquality> equalities;
    ImportNotes notes;  ///< what the reader left out
};

/// Maps `model` onto `out` (replaced only on success). `warning` lists, in one text, everything
/// left out or changed; `error` says why nothing could be imported. The scene passes validateScene.
bool buildScene(ImportedModel& model, Scene& out, std::string& warning, std::string& error);

/// A quaternion turning +X onto the unit vector `axis` (the JointLab joint axis convention).
Quat rotationFromX(const Vec3& axis);

/// Principal moments and axes of a symmetric inertia tensor (Jacobi rotations). `axes` maps the
/// principal frame to the tensor's frame; the moments are in its X, Y, Z order.
void principalInertia(const Mat3& tensor, Vec3& moments, Quat& axes);

}  // namespace jl::interop
