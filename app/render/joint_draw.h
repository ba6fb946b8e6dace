// JointLab app — drawing joints so a person can read what they do: both frames, the anchors, the
// error between them, limits, drive targets, the reported load, and broken joints.
//
// Frame A is frame0 on body 0 and frame B is frame1 on body 1, both in world. Every limit is
// drawn in frame A, where the engine measures it; what to draw comes from the joint's own
// `sketch` (jointlab/joints/joint_sketch.h), how to draw it from here:
//   angle limit (Arc)        magenta sector about the figure's axis, e.g. twist: about A's X (the
//                            hinge axis), from the angle where body 1 is at twist 0
//   swing limit (Cone)       magenta cone about A's X axis with the half-angles about Y and Z
//   linear limit (Range)     magenta segment along the limited axis from lower to upper, with ticks;
//                            along the line from A's origin towards B's for a distance range
//   radius (Circle)          magenta circle about A's origin
//   rope (Rope)              rope-coloured polyline over its fixed points, a wheel at each
//   coupling (Coupling)      a dashed link between the two frames (gears and racks get teeth with
//                            the bodies: render/toothed_looks.h)
//   drive target             dashed frame where the drive pulls frame B
//   error                    segment between the anchors: green (< 1 mm or mrad), yellow, red (> 1 cm)
//   force / torque           orange / cyan arrows at B's origin (the reported load on body 1)
//   load                     anchors and connectors green → yellow → red as load / break threshold → 1
//   broken                   red crosses at both anchors and a dashed red line between them
// GL-free: appends to a DebugDraw batch, which the renderer draws.
#pragma once

#include <span>
#include <string>

#include "jointlab/world.h"
#include "render/debug_draw.h"
#include "viewport/drag_spring.h"
#include "viewport/selection.h"
#include "viewport/view_options.h"

namespace jl::app {

namespace joint_colors {
inline constexpr Color kLimit{0.95f, 0.30f, 0.85f, 1.0f};   ///< magenta: every kind of limit
inline constexpr Color kForce{1.00f, 0.55f, 0.10f, 1.0f};   ///< reported force
inline constexpr Color kTorque{0.20f, 0.85f, 1.00f, 1.0f};  ///< reported torque
inline constexpr Color kAnchor{0.95f, 0.95f, 0.95f, 1.0f};
inline constexpr Color kBroken{1.00f, 0.15f, 0.15f, 1.0f};
inline constexpr Color kRope{0.85f, 0.80f, 0.65f, 1.0f};      ///< a rope over fixed points
inline constexpr Color kDrag{1.00f, 0.90f, 0.20f, 1.0f};      ///< the mouse spring
inline constexpr Color kCoupling{0.80f, 0.85f, 0.95f, 1.0f};  ///< the dashed link of a gear or rack coupling
}  // namespace joint_colors

/// Largest constraint violation of a joint's hard rows in the last step: |C| for equality rows,
/// the amount past the bound for one-sided rows (limits, ropes); soft and velocity rows ignored.
/// Metres and radians mixed, as both read the same on a log scale (the error colour). 0 without rows.
Real jointViolation(std::span<const Row> rows, std::span<const RowResult> results);

/// The same, per unit: the linear rows' [m] and the angular rows' (kRowAngular) [rad], and whether
/// the joint has hard rows of each kind, for saying it with its units.
struct ViolationByUnit {
    Real linear = 0.0;
    Real angular = 0.0;
    bool hasLinear = false;
    bool hasAngular = false;
};
ViolationByUnit jointViolationByUnit(std::span<const Row> rows, std::span<const RowResult> results);

/// "6.3e-07 m, 2e-09 rad", "0.012 rad", "0.3 m", or "none (no hard row)".
std::string violationText(const ViolationByUnit& v);

/// Load as a fraction of the break threshold: max(|F|/breakForce, |T|/breakTorque); 0 when both
/// thresholds are infinite.
Real jointLoadFraction(const JointDesc& joint, const JointState& state);

/// The last time joint `joint` broke in this World, or null (it starts broken, or the record was
/// not kept).
const BreakEvent* lastBreak(const World& world, int joint);

/// The Inspector's one line about a joint's break threshold: always one line whatever the state,
/// so that the fields below it stay where they are while the joint breaks or a threshold is typed.
struct JointLoadLine {
    enum class Kind { Unbreakable, Load, Broken } kind = Kind::Unbreakable;
    Real fraction = 0.0;  ///< Load: jointLoadFraction
    std::string text;     ///< "37% of the break threshold", "BROKEN: 1.2e+03 N > 1000 N", ...
};
/// `broke`: the joint's last break (lastBreak), whose load is said instead of the 0 N a broken
/// joint carries now, against the threshold it exceeds ("BROKEN: 98.1 N > 50 N"), or alone once the
/// threshold was raised above it ("BROKEN by 98.1 N").
JointLoadLine jointLoadLine(const JointDesc& joint, const JointState& state, const BreakEvent* broke);

/// Green below 1e-3, yellow at 1e-2, red from 1e-1 (log scale in between).
Color errorColor(Real violation);
/// Green at 0, yellow at 0.5, red at 1 and beyond.
Color loadColor(Real fraction);

/// Force and torque arrow scales [m/N], [m/(N·m)]: the options' own, or (automatic) such that the
/// weight of the heaviest dynamic body is kWeightArrow long.
struct ArrowScales {
    float force;
    float torque;
};
ArrowScales arrowScales(const World& world, const ViewOptions& options);

/// Draws every joint of the world as the options say; the selected joint larger and on top.
void drawJoints(DebugDraw& lines, const World& world, const Selection& selection, const ViewOptions& options);

/// The mouse spring: a line from the grabbed point to the mouse and its force as an arrow.
void drawDragSpring(DebugDraw& lines, const DragSpring& spring, const ArrowScales& scales);

}  // namespace jl::app
