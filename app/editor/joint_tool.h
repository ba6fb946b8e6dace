// JointLab editor — the joint tool's geometry: a joint in three clicks.
//
//   1. + Joint (or J)   2. click a body: the body that will hang or turn (body 1)
//   3. click a point: on another body (the joint goes between the two), on the ground, or in the
//      air on the work plane (the joint holds the body to the world there).
//
// The anchor (the joint frame's origin) goes to the second point; with Shift it stays where the
// first body was clicked. The joint's X axis follows the type's natural default
// (JointPlacementDefaults): a hinge turns about the work plane's normal, so a pendulum swings in
// the plane seen on screen; a slider, a rope (distance) and a ball joint's cone point along the
// line between the two points. Frame Y points from the anchor towards body 1's centre, so a
// hinge's angle is zero where the body hangs now and its limits open around it. What a click
// would make is computed before the click too (the viewport shows it under the mouse).
#pragma once

#include <span>
#include <string>

#include "editor/commands.h"
#include "editor/placement.h"
#include "jointlab/world.h"
#include "viewport/camera.h"

namespace jl::app {

/// The plane an anchor in the air lands on; it passes through the first body's centre.
enum class WorkPlane { View, XY, YZ, XZ };
inline constexpr const char* kWorkPlaneNames[] = {"view", "XY plane", "YZ plane", "XZ plane (level)"};
inline constexpr int kWorkPlaneCount = 4;

/// The work plane's unit normal. View: the horizontal direction the camera looks along (a vertical
/// plane facing the person), or up when the camera looks down steeper than 55°.
Vec3 workPlaneNormal(WorkPlane plane, const Vec3& viewDirection);

/// The first click: the body and where on it.
struct JointToolFirst {
    int body = -1;
    Vec3 point{0.0};             ///< on its surface [m]
    Vec3 normal{0.0, 1.0, 0.0};  ///< its surface normal there
};

/// What the second click (or the mouse before it) points at.
struct AnchorPick {
    enum class Kind { None, Body, Ground, Plane };
    Kind kind = Kind::None;
    int body = -1;  ///< Body: the other body
    Vec3 point{0.0};
    Vec3 normal{0.0, 1.0, 0.0};  ///< surface normal (Body, Ground); the plane's normal (Plane)
};

/// Where the ray first meets another body, the ground (when the scene has it) or else the work
/// plane through `planePoint` with normal `planeNormal`. The first body is looked through.
AnchorPick pickAnchor(const Ray& ray, const Scene& scene, std::span<const BodyState> states, int firstBody,
                      const Vec3& planePoint, const Vec3& planeNormal);

/// Everything the tool knows at the second click.
struct JointToolClick {
    int typeIndex = kDefaultJointType;
    JointAxisChoice axis = JointAxisChoice::Auto;
    Vec3 planeNormal{0.0, 0.0, 1.0};  ///< workPlaneNormal()
    JointToolFirst first;
    AnchorPick second;
    bool anchorOnFirst = false;  ///< Shift: the anchor stays on the first body
};

/// The joint the click makes: body 1 is the first body, body 0 the other body or the world, the
/// frame at the anchor with X along the chosen axis and Y towards body 1's centre. Fails (false)
/// when the second pick is nothing.
bool planJoint(const JointToolClick& click, const Scene& scene, std::span<const BodyState> states,
               JointPlacement& out);

/// The anchor and the axis alone (for the preview).
Vec3 jointToolAnchor(const JointToolClick& click);
Vec3 jointToolAxis(const JointToolClick& click);

/// A frame at `origin` whose X is `axis` and whose Y is as close to `towards` as X allows (any
/// Y when `towards` is along X).
Transform frameWithAxis(const Vec3& origin, const Vec3& axis, const Vec3& towards);

}  // namespace jl::app
