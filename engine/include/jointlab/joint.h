// JointLab engine — joint descriptions and the joint type table.
//
// A joint description is the part every joint shares (bodies, frames, mass scales, break
// thresholds) plus the parameters of its type, held in a std::variant. The variant's type list IS
// the joint type table: each alternative carries its static `info` (name, title, description and
// the facts the app switches on: draw style, limits, drive, coupling, placement defaults), its
// field list (`visit`), a free `prep(params, PrepContext, RowWriter&)` function and, when it has
// something to show, a `sketch` of its limits and drive target. Adding a type means one header +
// one source file and one line in JointParams; nothing else names a type.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "jointlab/fields.h"
#include "jointlab/joints/d6.h"
#include "jointlab/joints/distance.h"
#include "jointlab/joints/fixed.h"
#include "jointlab/joints/gear.h"
#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/prismatic.h"
#include "jointlab/joints/pulley.h"
#include "jointlab/joints/rack_pinion.h"
#include "jointlab/joints/revolute.h"
#include "jointlab/joints/spherical.h"
#include "jointlab/math.h"

namespace jl {

/// The joint type table. Index = JointDesc::params.index().
using JointParams = std::variant<FixedJoint, DistanceJoint, SphericalJoint, RevoluteJoint, PrismaticJoint,
                                 D6Joint, GearJoint, RackPinionJoint, PulleyJoint>;

inline constexpr int kJointTypeCount = static_cast<int>(std::variant_size_v<JointParams>);

/// Static facts of joint type `index` (0 <= index < kJointTypeCount).
const JointTypeInfo& jointTypeInfo(int index);

/// Index of the type named `name`, or -1.
int findJointType(std::string_view name);

/// Default-constructed parameters of type `index`.
JointParams makeJointParams(int index);

/// The table index of joint struct T (e.g. jointTypeIndexOf<RevoluteJoint>()).
template <class T, size_t I = 0>
constexpr int jointTypeIndexOf() {
    if constexpr (std::is_same_v<T, std::variant_alternative_t<I, JointParams>>)
        return static_cast<int>(I);
    else
        return jointTypeIndexOf<T, I + 1>();
}

/// The type the editor's joint tool starts with: a hinge, the joint most people reach for first.
inline constexpr int kDefaultJointType = jointTypeIndexOf<RevoluteJoint>();

/// Appends the figures that show `params`' limits and drive target (none for types without).
void sketchJoint(const JointParams& params, JointSketch& out);

/// Tells a type placed with frame B at a point on body B (JointPlacementDefaults) how far that
/// point is from frame A's; types without a length ignore it.
void fitJointLength(JointParams& params, Real length);

/// Named configurations of type `index` (JointPreset): how many, their names, their parameters.
int jointPresetCount(int index);
const char* jointPresetName(int index, int preset);
JointParams makeJointPreset(int index, int preset);

/// Joint projection (PhysX's joint projection; docs/solvers.md "Projection"): after the solve of
/// a step, a joint whose hard locks are off by more than a tolerance has its bodies moved back
/// onto it (poses only; velocities are left alone). Saved only when enabled.
struct JointProjection {
    bool enabled = false;
    Real linearTolerance = 0.01;   ///< [m] origin error above which the bodies are moved
    Real angularTolerance = 0.05;  ///< [rad] axis error above which the bodies are turned
};

/// A joint: which bodies, where, how strongly it acts on each, when it breaks, and its type.
struct JointDesc {
    std::string name;   ///< unique in the scene
    std::string body0;  ///< name of body 0; empty = the world (PhysX's null actor)
    std::string body1;  ///< name of body 1; empty = the world
    Transform frame0;   ///< joint frame relative to body 0's centre of mass (world frame if body0 is empty)
    Transform frame1;   ///< joint frame relative to body 1's centre of mass
    Real invMassScale0 = 1.0;     ///< scales body 0's inverse mass as seen by this joint
    Real invInertiaScale0 = 1.0;  ///< scales body 0's inverse inertia as seen by this joint
    Real invMassScale1 = 1.0;
    Real invInertiaScale1 = 1.0;
    Real breakForce = kInf;    ///< the joint breaks when its reported force exceeds this [N]
    Real breakTorque = kInf;   ///< ... or its reported torque exceeds this [N·m]
    bool startBroken = false;  ///< the joint begins the simulation broken (restore to re-enable)
    /// The two bodies collide with each other (PhysX's eCOLLISION_ENABLED); off by default: bodies
    /// joined by a joint pass through each other, as in PhysX.
    bool collideConnected = false;
    JointProjection projection;  ///< moved back onto the joint after the solve (off by default)
    JointParams params;          ///< type and type-specific parameters

    int typeIndex() const { return static_cast<int>(params.index()); }
    const JointTypeInfo& typeInfo() const { return jointTypeInfo(typeIndex()); }

    /// The fields shared by every joint type (the type's own fields are visited via params).
    template <class V>
    void visitCommon(V& v) {
        v("name", name, Field{"", 0, 0, "unique name of the joint"});
        v("body0", body0, Field{"", 0, 0, "name of body 0, or empty for the world"});
        v("body1", body1, Field{"", 0, 0, "name of body 1, or empty for the world"});
        v("frame0.position", frame0.p, anyReal("m", "joint origin in body 0's frame"));
        v("frame0.rotation", frame0.q,
          Field{"", 0, 0, "joint axes in body 0's frame (unit quaternion w, x, y, z)"});
        v("frame1.position", frame1.p, anyReal("m", "joint origin in body 1's frame"));
        v("frame1.rotation", frame1.q,
          Field{"", 0, 0, "joint axes in body 1's frame (unit quaternion w, x, y, z)"});
        v("invMassScale0", invMassScale0,
          nonNegative("", "scale of body 0's inverse mass for this joint (0 = infinitely heavy)"));
        v("invInertiaScale0", invInertiaScale0,
          nonNegative("", "scale of body 0's inverse inertia for this joint"));
        v("invMassScale1", invMassScale1, nonNegative("", "scale of body 1's inverse mass for this joint"));
        v("invInertiaScale1", invInertiaScale1,
          nonNegative("", "scale of body 1's inverse inertia for this joint"));
        v("breakForce", breakForce,
          positive("N", "the joint breaks when its force exceeds this (inf = never)"));
        v("breakTorque", breakTorque,
          positive("N·m", "the joint breaks when its torque exceeds this (inf = never)"));
        v("startBroken", startBroken, Field{"", 0, 0, "the joint starts broken"});
        v("collideConnected", collideConnected,
          Field{"", 0, 0, "the joined bodies collide with each other (off: they pass through each other)"});
        const bool projects = typeInfo().projection.any();
        v("projection.enabled", projection.enabled,
          relevantIf(projects, Field{"", 0, 0,
                                     "after each step, move the bodies back onto the joint when its "
                                     "error passes a tolerance (fixed, spherical, revolute, prismatic)"}));
        const ProjectionLocks locks = typeInfo().projection;
        const bool on = projection.enabled;
        v("projection.linearTolerance", projection.linearTolerance,
          relevantIf(on && locks.linear != LinearLock::None,
                     positive("m", "projection: origin error above which the bodies are moved")));
        v("projection.angularTolerance", projection.angularTolerance,
          relevantIf(on && locks.angular != AngularLock::None,
                     Field{"rad", 0.0, kPi, "projection: axis error above which the bodies are turned", true,
                           true}));
    }
};

/// Cross-field validation of a joint's type parameters; "" when valid, else "field: problem".
std::string validateJointParams(const JointParams& p);

}  // namespace jl
