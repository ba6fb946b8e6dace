// Static facts about a joint type, one instance per type (the `info` member of its struct).
//
// Everything the app switches on for a joint type is a fact here or a member of the joint's
// struct (its fields, `sketch`, `fitLength`, `presets`), never a comparison with a type's name:
// a new joint type is its own file plus one line in the table (JointParams, joint.h).
#pragma once

#include <span>

namespace jl {

/// The family of picture a joint type gets in the viewport.
enum class JointDrawStyle {
    Fixed,         ///< two frames welded together
    Distance,      ///< a rope or rod between the two origins
    BallCone,      ///< a ball joint, its swing limit a cone about frame A's X axis
    HingeAxis,     ///< a hinge about frame A's X axis, its limit a sector
    SliderAxis,    ///< a slide along frame A's X axis, its limit a segment
    Configurable,  ///< each of six motions locked, limited or free (segments, sectors, cones)
    Coupling,      ///< couples coordinates of two bodies; its frames are not meant to meet
};
inline constexpr const char* kJointDrawStyleNames[] = {
    "fixed", "distance", "ball/cone", "hinge axis", "slider axis", "configurable", "coupling"};
inline constexpr int kJointDrawStyleCount = 7;

/// Which way the joint X axis of a joint made in the viewport points when the person lets the
/// editor choose ("auto").
enum class JointAxisDefault {
    WorkPlaneNormal,  ///< the normal of the plane the person works in, by default the view's: a hinge
                      ///< turns in the plane seen on screen (a pendulum swings across the screen)
    SurfaceNormal,    ///< the normal of the surface where the anchor was clicked (a wheel's axle)
    AlongAToB,        ///< the line from the point on body A to the point on body B (a rope, a rail)
};

/// How the editor places a new joint of the type.
struct JointPlacementDefaults {
    JointAxisDefault axis = JointAxisDefault::WorkPlaneNormal;
    /// Frame B goes to the point clicked on body B (not to frame A's point), and the joint's
    /// `fitLength` is told how far apart the two points are (a distance joint spans the gap).
    bool frame1AtPointOnBody1 = false;
};

/// What joint projection (JointDesc::projection, world/stages/projection.cpp) may put back: the
/// parts of the joint that are hard locks, measured from the poses alone.
enum class LinearLock {
    None,         ///< no linear lock to project (distance, couplings, D6)
    Point,        ///< the joint origins coincide (fixed, spherical, revolute)
    AcrossXAxis,  ///< origin B lies on frame A's X axis (prismatic)
};
enum class AngularLock {
    None,   ///< no angular lock to project
    Full,   ///< the frames' axes coincide (fixed, prismatic)
    XAxis,  ///< the frames' X axes coincide (revolute)
};
struct ProjectionLocks {
    LinearLock linear = LinearLock::None;
    AngularLock angular = AngularLock::None;
    bool any() const { return linear != LinearLock::None || angular != AngularLock::None; }
};

struct JointTypeInfo {
    const char* name;         ///< identifier used in files and the CLI ("revolute")
    const char* title;        ///< shown in the UI ("Revolute (hinge)")
    const char* description;  ///< one paragraph for the help panel
    JointDrawStyle drawStyle = JointDrawStyle::Fixed;
    bool hasLimits = false;   ///< has bounds a sketch draws as limits (ranges, sectors, cones, rope length)
    bool hasDrive = false;    ///< has a motor or position drive (a sketch draws its target)
    bool isCoupling = false;  ///< relates a coordinate of body 0 to one of body 1 (gear, rack, pulley)
    JointPlacementDefaults placement{};
    ProjectionLocks projection{};  ///< none: the type has no projection (its flag is refused)
};

/// A named configuration of a joint type (D6's cylindrical joint, ...): the struct's static
/// `presets()` returns them, and the table offers them to the editor.
template <class Joint>
struct JointPreset {
    const char* name;
    Joint (*make)();
};

}  // namespace jl
