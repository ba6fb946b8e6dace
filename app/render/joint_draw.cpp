#include "render/joint_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/joint_frames.h"

namespace jl::app {

namespace {

using Layer = DebugDraw::Layer;

glm::vec3 f(const Vec3& v) {
    return glm::vec3(v);
}

Color mix(const Color& a, const Color& b, float t) {
    t = std::clamp(t, 0.0f, 1.0f);
    return a + (b - a) * t;
}

// [SECTION] Primitives

/// Points c + r·(cos θ·u + sin θ·w) for θ from a0 to a1, plus spokes from c to both ends.
void sector(DebugDraw& lines, const glm::vec3& c, const glm::vec3& u, const glm::vec3& w, float r, float a0,
            float a1, const Color& color, Layer layer) {
    a0 = std::clamp(a0, -12.6f, 12.6f);  // two turns each way are plenty to show
    a1 = std::clamp(a1, -12.6f, 12.6f);
    const int segments = std::max(6, static_cast<int>(std::abs(a1 - a0) / 6.2832f * 64.0f));
    auto at = [&](float a) { return c + r * (std::cos(a) * u + std::sin(a) * w); };
    glm::vec3 previous = at(a0);
    for (int i = 1; i <= segments; ++i) {
        const glm::vec3 next = at(a0 + (a1 - a0) * static_cast<float>(i) / static_cast<float>(segments));
        lines.line(previous, next, color, layer);
        previous = next;
    }
    lines.line(c, at(a0), color, layer);
    lines.line(c, at(a1), color, layer);
    // A translucent fill makes the allowed range read as an area, not just an outline.
    Color fill = color;
    fill.a = 0.22f;
    previous = at(a0);
    for (int i = 1; i <= segments; ++i) {
        const glm::vec3 next = at(a0 + (a1 - a0) * static_cast<float>(i) / static_cast<float>(segments));
        lines.triangle(c, previous, next, fill, layer);
        previous = next;
    }
}

void dashed(DebugDraw& lines, const glm::vec3& a, const glm::vec3& b, const Color& color, Layer layer,
            float dash) {
    const float length = glm::length(b - a);
    if (length < 1e-6f) return;
    const glm::vec3 d = (b - a) / length;
    for (float s = 0.0f; s < length; s += 2.0f * dash)
        lines.line(a + d * s, a + d * std::min(s + dash, length), color, layer);
}

void dashedFrame(DebugDraw& lines, const Transform& t, float size, Layer layer) {
    const glm::vec3 o = f(t.p);
    const glm::quat q(t.q);
    dashed(lines, o, o + q * glm::vec3(size, 0, 0), colors::kRed, layer, size * 0.12f);
    dashed(lines, o, o + q * glm::vec3(0, size, 0), colors::kGreen, layer, size * 0.12f);
    dashed(lines, o, o + q * glm::vec3(0, 0, size), colors::kBlue, layer, size * 0.12f);
}

/// A small octahedron: the anchor marker.
void diamond(DebugDraw& lines, const glm::vec3& p, float s, const Color& color, Layer layer) {
    const glm::vec3 tips[6] = {{s, 0, 0}, {-s, 0, 0}, {0, s, 0}, {0, -s, 0}, {0, 0, s}, {0, 0, -s}};
    for (int a = 0; a < 2; ++a)
        for (int b = 2; b < 6; ++b) lines.line(p + tips[a], p + tips[b], color, layer);
    for (int b : {2, 3})
        for (int c : {4, 5}) lines.line(p + tips[b], p + tips[c], color, layer);
}

/// Three short axis-aligned strokes through p: a light anchor mark (3 lines, not the diamond's
/// 12) for the joints that are not selected, so that a scene of a thousand joints stays cheap.
void jack(DebugDraw& lines, const glm::vec3& p, float s, const Color& color, Layer layer) {
    for (const glm::vec3& d : {glm::vec3(s, 0, 0), glm::vec3(0, s, 0), glm::vec3(0, 0, s)})
        lines.line(p - d, p + d, color, layer);
}

/// An X made of the four diagonals of a cube: reads as a cross from any side.
void cross(DebugDraw& lines, const glm::vec3& p, float s, const Color& color, Layer layer) {
    for (const glm::vec3& d :
         {glm::vec3(1, 1, 1), glm::vec3(1, -1, 1), glm::vec3(-1, 1, 1), glm::vec3(1, 1, -1)})
        lines.line(p - d * s, p + d * s, color, layer);
}

/// Segment along unit axis a from c + lower·a to c + upper·a with end ticks along `tick`.
void linearRange(DebugDraw& lines, const glm::vec3& c, const glm::vec3& a, const glm::vec3& tick, float lower,
                 float upper, float tickSize, const Color& color, Layer layer) {
    const glm::vec3 p0 = c + a * lower, p1 = c + a * upper;
    lines.line(p0, p1, color, layer);
    for (const glm::vec3& p : {p0, p1}) lines.line(p - tick * tickSize, p + tick * tickSize, color, layer);
}

/// Elliptical cone about frame X with half-angles yAngle (about Y) and zAngle (about Z).
void cone(DebugDraw& lines, const Transform& frame, float yAngle, float zAngle, float length,
          const Color& color, Layer layer) {
    const glm::vec3 apex = f(frame.p);
    const glm::quat q(frame.q);
    constexpr int kSegments = 48;
    auto boundary = [&](int i) {
        const float phi = 6.2832f * static_cast<float>(i) / kSegments;
        // Swing axis s = (0, cos φ, sin φ) in frame A; the cone allows θ ≤ 1/|(s_y/yAngle, s_z/zAngle)|
        // and rotating X by θ about s gives (cos θ, sin θ·sin φ, −sin θ·cos φ).
        const float sy = std::cos(phi) / std::max(yAngle, 1e-3f),
                    sz = std::sin(phi) / std::max(zAngle, 1e-3f);
        const float theta = std::min(1.0f / std::sqrt(sy * sy + sz * sz), 3.09f);
        return apex + q * (length * glm::vec3(std::cos(theta), std::sin(theta) * std::sin(phi),
                                              -std::sin(theta) * std::cos(phi)));
    };
    Color fill = color;
    fill.a = 0.18f;
    glm::vec3 previous = boundary(0);
    for (int i = 1; i <= kSegments; ++i) {
        const glm::vec3 next = boundary(i);
        lines.line(previous, next, color, layer);
        if (i % 6 == 0) lines.line(apex, next, color, layer);
        lines.triangle(apex, previous, next, fill, layer);
        previous = next;
    }
}

// [SECTION] Sketch figures: a joint's limits and drive target (its `sketch`, joint_sketch.h)

struct Context {
    DebugDraw& lines;
    JointWorldFrames frames;
    float size;  ///< frame axis length [m]
    Layer layer;
    /// Where body 1 is at twist angle 0, as an angle in frame A's YZ plane (0 along Y, towards Z):
    /// angle limits about X are drawn from there, so a hanging pendulum's sector hangs with it.
    float zeroAngle = 0.0f;
};

/// The direction of body 1's centre from frame B's origin, in frame B's YZ plane: at twist 0
/// frame B's axes are frame A's, so this is where the body is in frame A then. 0 when the centre
/// is on the axis (a wheel), or for the world.
float twistZeroAngle(const JointDesc& joint, int body1) {
    if (body1 < 0) return 0.0f;
    const Vec3 centre = joint.frame1.inverse().p;  // body 1's centre in frame B
    if (std::hypot(centre.y, centre.z) < 1e-6) return 0.0f;
    return static_cast<float>(std::atan2(centre.z, centre.y));
}

/// A slide range along frame A's axis k.
void slideRange(const Context& c, int k, Real lower, Real upper) {
    const glm::quat q(c.frames.a.q);
    glm::vec3 axis(0.0f), tick(0.0f);
    axis[k] = 1.0f;
    tick[(k + 1) % 3] = 1.0f;
    linearRange(c.lines, f(c.frames.a.p), q * axis, q * tick, static_cast<float>(lower),
                static_cast<float>(upper), c.size * 0.15f, joint_colors::kLimit, c.layer);
}

/// Draws one figure of a joint's sketch; `limits` and `driveTargets` say which kinds are wanted.
struct FigureDrawer {
    const Context& c;
    bool limits;
    bool driveTargets;

    void operator()(const sketch::Arc& a) const {
        if (!limits) return;
        const glm::quat q(c.frames.a.q);
        glm::vec3 u = f(a.u), w = f(a.w);
        // A twist sector (in A's YZ plane, about the hinge axis X) starts where the body is at 0.
        if (std::abs(glm::dot(glm::cross(u, w), glm::vec3(1, 0, 0))) > 0.99f) {
            const float co = std::cos(c.zeroAngle), si = std::sin(c.zeroAngle);
            const glm::vec3 u0 = u;
            u = co * u0 + si * w;
            w = co * w - si * u0;
        }
        sector(c.lines, f(c.frames.a.p), q * u, q * w, c.size * static_cast<float>(a.radius),
               static_cast<float>(a.from), static_cast<float>(a.to), joint_colors::kLimit, c.layer);
    }
    void operator()(const sketch::Cone& k) const {
        if (!limits) return;
        cone(c.lines, c.frames.a, static_cast<float>(k.yAngle), static_cast<float>(k.zAngle),
             c.size * static_cast<float>(k.length), joint_colors::kLimit, c.layer);
    }
    void operator()(const sketch::Range& r) const {
        if (!limits) return;
        if (r.axis != sketch::Range::kAToB) {
            slideRange(c, r.axis, r.lower, r.upper);
            return;
        }
        // Along the line between the origins (A's X axis while they meet), ticks across it.
        const glm::vec3 p0 = f(c.frames.a.p), p1 = f(c.frames.b.p);
        glm::vec3 n = p1 - p0;
        const float length = glm::length(n);
        n = length > 1e-6f ? n / length : glm::quat(c.frames.a.q) * glm::vec3(1, 0, 0);
        const glm::vec3 helper = std::abs(n.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
        const glm::vec3 tick = glm::normalize(glm::cross(n, helper));
        linearRange(c.lines, p0, n, tick, static_cast<float>(r.lower), static_cast<float>(r.upper),
                    c.size * 0.15f, joint_colors::kLimit, c.layer);
    }
    void operator()(const sketch::Circle& r) const {
        if (!limits) return;
        glm::vec3 normal(0.0f);
        normal[r.normalAxis] = 1.0f;
        c.lines.circle(f(c.frames.a.p), glm::quat(c.frames.a.q) * normal, static_cast<float>(r.radius),
                       joint_colors::kLimit, c.layer);
    }
    void operator()(const sketch::Rope& r) const {
        if (!limits) return;
        const glm::vec3 p0 = f(c.frames.a.p), a0 = f(r.over0), a1 = f(r.over1), p1 = f(c.frames.b.p);
        c.lines.line(p0, a0, joint_colors::kRope, c.layer);
        c.lines.line(a0, a1, joint_colors::kRope, c.layer);
        c.lines.line(a1, p1, joint_colors::kRope, c.layer);
        glm::vec3 n = glm::cross(a0 - p0, a1 - a0);
        if (glm::length(n) < 1e-6f) n = glm::vec3(0, 0, 1);
        for (const glm::vec3& a : {a0, a1})
            c.lines.circle(a, n, c.size * 0.25f, joint_colors::kRope, c.layer, 16);
    }
    void operator()(const sketch::DriveTarget& t) const {
        if (driveTargets) dashedFrame(c.lines, c.frames.a * t.pose, c.size, c.layer);
    }
    void operator()(const sketch::Coupling&) const {
    }  // the teeth are drawn with the bodies (toothed_looks.h)
};

}  // namespace

/// A joint projected in the step shown (JointDesc::projection): bright cyan, seen over any error
/// or load colour, and only for that one step, so a joint that projects now and then flickers.
constexpr Color kProjectedFlash{0.30f, 1.00f, 1.00f, 1.0f};

// [SECTION] Measures and colours

Real jointViolation(std::span<const Row> rows, std::span<const RowResult> results) {
    const ViolationByUnit v = jointViolationByUnit(rows, results);
    return std::max(v.linear, v.angular);
}

ViolationByUnit jointViolationByUnit(std::span<const Row> rows, std::span<const RowResult> results) {
    ViolationByUnit worst;
    for (size_t i = 0; i < rows.size() && i < results.size(); ++i) {
        const Row& r = rows[i];
        if (r.isSpring() || (r.flags & kRowVelocityOnly) || !results[i].active) continue;
        const Real c = results[i].geometricError;
        Real v = std::abs(c);
        if (r.minImpulse >= 0.0)
            v = std::max(0.0, -c);  // one-sided: C >= 0 is satisfied
        else if (r.maxImpulse <= 0.0)
            v = std::max(0.0, c);
        else if (std::isfinite(r.minImpulse) || std::isfinite(r.maxImpulse))
            continue;  // bounded both ways: a motor or drive, not a constraint that can be violated
        const bool angular = (r.flags & kRowAngular) != 0;
        Real& kind = angular ? worst.angular : worst.linear;
        kind = std::max(kind, v);
        (angular ? worst.hasAngular : worst.hasLinear) = true;
    }
    return worst;
}

std::string violationText(const ViolationByUnit& v) {
    char text[64];
    if (v.hasLinear && v.hasAngular)
        std::snprintf(text, sizeof text, "%.3g m, %.3g rad", v.linear, v.angular);
    else if (v.hasAngular)
        std::snprintf(text, sizeof text, "%.3g rad", v.angular);
    else if (v.hasLinear)
        std::snprintf(text, sizeof text, "%.3g m", v.linear);
    else
        std::snprintf(text, sizeof text, "none (no hard row)");
    return text;
}

Real jointLoadFraction(const JointDesc& joint, const JointState& state) {
    Real fraction = 0.0;
    if (std::isfinite(joint.breakForce))
        fraction = std::max(fraction, glm::length(state.force) / joint.breakForce);
    if (std::isfinite(joint.breakTorque))
        fraction = std::max(fraction, glm::length(state.torque) / joint.breakTorque);
    return fraction;
}

const BreakEvent* lastBreak(const World& world, int joint) {
    const std::vector<BreakEvent>& events = world.breakEvents();
    for (auto e = events.rbegin(); e != events.rend(); ++e)
        if (e->joint == joint) return &*e;
    return nullptr;
}

JointLoadLine jointLoadLine(const JointDesc& joint, const JointState& state, const BreakEvent* broke) {
    JointLoadLine out;
    char text[128];
    if (state.broken) {
        out.kind = JointLoadLine::Kind::Broken;
        if (!broke) {
            out.text = joint.startBroken ? "BROKEN (it starts broken)" : "BROKEN";
            return out;
        }
        // Said by whichever load was further past its threshold (the one that broke it).
        const Real force = glm::length(broke->force), torque = glm::length(broke->torque);
        const Real byForce = std::isfinite(joint.breakForce) ? force / joint.breakForce : 0.0;
        const Real byTorque = std::isfinite(joint.breakTorque) ? torque / joint.breakTorque : 0.0;
        // Against the threshold when it is still exceeded; a threshold raised since is not what broke it.
        const bool torqueBrokeIt = byTorque > byForce;
        const Real load = torqueBrokeIt ? torque : force;
        const Real threshold = torqueBrokeIt ? joint.breakTorque : joint.breakForce;
        const char* unit = torqueBrokeIt ? "N\u00b7m" : "N";
        if (load >= threshold)
            std::snprintf(text, sizeof text, "BROKEN: %.4g %s > %.4g %s", load, unit, threshold, unit);
        else
            std::snprintf(text, sizeof text, "BROKEN by %.4g %s", load, unit);
        out.text = text;
        return out;
    }
    if (!std::isfinite(joint.breakForce) && !std::isfinite(joint.breakTorque)) {
        out.text = "unbreakable (no break threshold)";
        return out;
    }
    out.kind = JointLoadLine::Kind::Load;
    out.fraction = jointLoadFraction(joint, state);
    std::snprintf(text, sizeof text, "%.0f%% of the break threshold", out.fraction * 100.0);
    out.text = text;
    return out;
}

Color errorColor(Real violation) {
    const Color green = colors::kGreen, yellow = colors::kYellow, red = colors::kRed;
    if (!(violation > 1e-3)) return green;
    const float t = static_cast<float>(std::log10(violation) + 3.0);  // 0 at 1e-3, 1 at 1e-2, 2 at 1e-1
    return t < 1.0f ? mix(green, yellow, t) : mix(yellow, red, t - 1.0f);
}

Color loadColor(Real fraction) {
    const float t = static_cast<float>(std::clamp(fraction, 0.0, 1.0));
    return t < 0.5f ? mix(colors::kGreen, colors::kYellow, 2.0f * t)
                    : mix(colors::kYellow, colors::kRed, 2.0f * t - 1.0f);
}

// [SECTION] Drawing

ArrowScales arrowScales(const World& world, const ViewOptions& o) {
    if (!o.autoArrowScale) return {o.forceScale, o.torqueScale};
    Real heaviest = 0.0;
    for (size_t i = 0; i < world.bodies().size(); ++i)
        if (const Real invMass = world.inverseMass(static_cast<int>(i)); invMass > 0.0)
            heaviest = std::max(heaviest, 1.0 / invMass);
    const Real weight = std::max(heaviest, 1e-3) * 9.81;  // [N]; standard gravity, so g = 0 scenes still draw
    const float force = static_cast<float>(kWeightArrow / weight);
    return {force, force};  // torque: that weight at 1 m
}

void drawJoints(DebugDraw& lines, const World& world, const Selection& selection, const ViewOptions& o) {
    if (!o.showJoints) return;
    const ArrowScales arrows = arrowScales(world, o);
    const Scene& scene = world.scene();
    const std::span<const BodyState> states = world.bodies();
    for (size_t i = 0; i < scene.joints.size(); ++i) {
        const int index = static_cast<int>(i);
        const JointDesc& joint = scene.joints[i];
        const JointState& state = world.jointState(index);
        const bool selected = selection.isJoint(index);
        const bool details = selected || !o.detailsForSelectedOnly;
        const Layer layer = selected ? Layer::Overlay : Layer::Scene;
        const float size = o.frameScale * (selected ? 1.0f : 0.6f);
        const int body0 = world.jointBody0(index), body1 = world.jointBody1(index);
        const Context c{lines,
                        {bodyPose(states, body0) * joint.frame0, bodyPose(states, body1) * joint.frame1},
                        size,
                        layer,
                        twistZeroAngle(joint, body1)};
        const glm::vec3 a = f(c.frames.a.p), b = f(c.frames.b.p);
        const bool breakable = std::isfinite(joint.breakForce) || std::isfinite(joint.breakTorque);
        const JointTypeInfo& info = joint.typeInfo();

        if (o.showAnchors) {
            Color tint = selected ? colors::kOrange : colors::kGrey;
            if (o.showLoad && breakable) tint = loadColor(jointLoadFraction(joint, state));
            if (state.broken) tint = joint_colors::kBroken;
            if (body0 >= 0) lines.line(f(bodyPose(states, body0).p), a, tint, layer);
            if (body1 >= 0) lines.line(f(bodyPose(states, body1).p), b, tint, layer);
            const Color marker = (o.showLoad && breakable) || state.broken ? tint : joint_colors::kAnchor;
            const auto mark = selected ? diamond : jack;
            mark(lines, a, size * 0.12f, marker, layer);
            mark(lines, b, size * 0.09f, marker, layer);
        }
        if (o.showJointFrames) {
            lines.frame(a, glm::quat(c.frames.a.q), size, layer);
            lines.frame(b, glm::quat(c.frames.b.q), size * 0.7f, layer);
        }
        if (state.broken) {
            // A broken joint holds nothing together: red crosses, a dashed red line between them.
            cross(lines, a, size * 0.15f, joint_colors::kBroken, Layer::Overlay);
            cross(lines, b, size * 0.15f, joint_colors::kBroken, Layer::Overlay);
            dashed(lines, a, b, joint_colors::kBroken, Layer::Overlay, std::max(0.02f, size * 0.1f));
        } else if (info.drawStyle == JointDrawStyle::Coupling) {
            // A coupling's frames are not meant to meet: a dashed link shows what is coupled to
            // what (its error is in the Rows tab and the plots).
            if (o.showAnchors)
                dashed(lines, a, b, joint_colors::kCoupling, layer, std::max(0.02f, size * 0.08f));
        } else if (o.showErrors) {
            const Real violation = jointViolation(world.jointRows(index), world.jointRowResults(index));
            lines.line(a, b, errorColor(violation), Layer::Overlay);
        }
        if (!state.broken && world.jointProjections(index) > 0) {
            // Moved back onto the joint after this step's solve: rings about both origins.
            const glm::vec3 axis = glm::quat(c.frames.a.q) * glm::vec3(1, 0, 0);
            lines.circle(a, axis, size * 0.3f, kProjectedFlash, Layer::Overlay, 20);
            lines.circle(b, axis, size * 0.22f, kProjectedFlash, Layer::Overlay, 20);
            lines.line(a, b, kProjectedFlash, Layer::Overlay);
        }
        if (!details) continue;
        const bool limits = o.showLimits && info.hasLimits,
                   driveTargets = o.showDriveTargets && info.hasDrive;
        if (limits || driveTargets) {
            JointSketch figures;
            sketchJoint(joint.params, figures);
            for (const SketchFigure& figure : figures)
                std::visit(FigureDrawer{c, limits, driveTargets}, figure);
        }
        if (o.showForces && !state.broken) {
            if (glm::length(state.force) * arrows.force > 1e-3)
                lines.outlinedArrow(b, b + f(state.force) * arrows.force, joint_colors::kForce);
            if (glm::length(state.torque) * arrows.torque > 1e-3)
                lines.outlinedArrow(b, b + f(state.torque) * arrows.torque, joint_colors::kTorque);
        }
    }
}

void drawDragSpring(DebugDraw& lines, const DragSpring& s, const ArrowScales& scales) {
    const glm::vec3 p = f(s.point), t = f(s.target);
    lines.line(p, t, joint_colors::kDrag, Layer::Overlay);
    diamond(lines, t, 0.04f, joint_colors::kDrag, Layer::Overlay);
    if (glm::length(s.force) * scales.force > 1e-3)
        lines.outlinedArrow(p, p + f(s.force) * scales.force, joint_colors::kForce);
}

}  // namespace jl::app
