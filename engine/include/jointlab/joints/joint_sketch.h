// What a joint's parameters look like: a few figures placed in its joint frames, which the app's
// debug draw turns into lines. The joint's own file says WHAT to show (its limits where the
// engine measures them, its drive target); the app says HOW (colours, fills, segment counts).
//
// Every figure is in frame A (frame0 on body 0, in world) unless its comment says otherwise.
// Sizes marked "× frame size" are multiples of the length the viewport draws frame axes with,
// so a sector stays readable at any zoom; the others are metres or radians, as in the joint.
#pragma once

#include <array>
#include <variant>

#include "jointlab/math.h"

namespace jl {

namespace sketch {

/// A filled circular sector about the origin: points r·(cos θ·u + sin θ·w) for θ in [from, to].
struct Arc {
    Vec3 u{0, 1, 0}, w{0, 0, 1};  ///< unit axes in frame A; θ = 0 along u, growing towards w
    Real from = 0.0, to = 0.0;    ///< [rad]
    Real radius = 1.0;            ///< × frame size
};

/// An elliptical cone about frame A's X axis with half-angles about Y and about Z.
struct Cone {
    Real yAngle = 0.0, zAngle = 0.0;  ///< [rad]
    Real length = 1.0;                ///< × frame size
};

/// A segment with end ticks from lower to upper along an axis through the origin.
struct Range {
    int axis = 0;  ///< frame A's axis 0, 1, 2; or kAToB: from A's origin towards B's (A's X when they meet)
    Real lower = 0.0, upper = 0.0;  ///< [m]
    static constexpr int kAToB = -1;
};

/// A circle about the origin in the plane normal to one of frame A's axes.
struct Circle {
    int normalAxis = 0;  ///< frame A's axis 0, 1, 2
    Real radius = 0.0;   ///< [m]
};

/// A rope from A's origin over two fixed points to B's origin, with a wheel at each point.
struct Rope {
    Vec3 over0{0.0}, over1{0.0};  ///< the fixed points, in WORLD [m]
};

/// Where a drive pulls frame B: a ghost frame at this pose relative to frame A.
struct DriveTarget {
    Transform pose;
};

/// A coupling of a coordinate of body 0 with one of body 1 (gears, rack and pinion): what each
/// side does, each along or about its own joint frame's X axis (frame A on body 0, frame B on body
/// 1), and how far side 1 moves while side 0 moves one unit. The app draws a turning side as a
/// toothed wheel and a sliding one as a toothed bar, with teeth that mesh.
struct Coupling {
    bool slide0 = false;  ///< side 0 slides along X [m] (false: it turns about X [rad])
    bool slide1 = false;  ///< the same for side 1
    Real ratio = 1.0;     ///< dq1/dq0 [rad/rad, m/rad, rad/m or m/m]
};

}  // namespace sketch

/// One figure of a sketch.
using SketchFigure = std::variant<sketch::Arc, sketch::Cone, sketch::Range, sketch::Circle, sketch::Rope,
                                  sketch::DriveTarget, sketch::Coupling>;

/// The figures of one joint; fixed capacity, so drawing every joint every frame allocates nothing.
class JointSketch {
public:
    static constexpr int kCapacity = 12;

    void add(const SketchFigure& f) {
        if (count_ < kCapacity) figures_[static_cast<size_t>(count_++)] = f;
    }
    int size() const { return count_; }
    const SketchFigure* begin() const { return figures_.data(); }
    const SketchFigure* end() const { return figures_.data() + count_; }
    void clear() { count_ = 0; }

private:
    std::array<SketchFigure, kCapacity> figures_{};
    int count_ = 0;
};

}  // namespace jl
