// Reference curves: measuring the simulated quantity and evaluating its closed form
// (jointlab/reference.h, docs/user-guide.md "Reference curves").
#include "jointlab/reference.h"

#include <cmath>
#include <limits>

#include "jointlab/closed_forms.h"
#include "jointlab/world.h"

namespace jl {

namespace {

constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();

/// Joint frame `side` (0 or 1) in world space, and its body's velocities (zero for the world).
struct FrameNow {
    Transform frame;
    Vec3 angularVelocity{0.0};
};

FrameNow jointFrame(const World& world, int joint, int side) {
    const JointDesc& d = world.scene().joints[static_cast<size_t>(joint)];
    const Transform& local = side == 0 ? d.frame0 : d.frame1;
    const int body = side == 0 ? world.jointBody0(joint) : world.jointBody1(joint);
    if (body < 0) return {local, Vec3(0.0)};
    const BodyState& s = world.bodies()[static_cast<size_t>(body)];
    return {s.pose * local, s.angularVelocity};
}

}  // namespace

Real measureQuantity(const World& world, ReferenceQuantity quantity, const std::string& joint,
                     const std::string& body) {
    const Scene& scene = world.scene();
    if (quantity == ReferenceQuantity::BodyHeight) {
        const int b = scene.findBody(body);
        return b < 0 ? kNaN : world.bodies()[static_cast<size_t>(b)].pose.p.y;
    }
    const int j = scene.findJoint(joint);
    if (j < 0) return kNaN;
    const FrameNow f0 = jointFrame(world, j, 0), f1 = jointFrame(world, j, 1);
    const Vec3 axis = f0.frame.rotate(Vec3(1.0, 0.0, 0.0));
    switch (quantity) {
        case ReferenceQuantity::JointAngle: {
            Quat r = glm::conjugate(f0.frame.q) * f1.frame.q;  // frame 1 in frame 0
            if (r.w < 0.0) r = -r;                             // the short way round: (−π, π]
            return 2.0 * std::atan2(r.x, r.w);
        }
        case ReferenceQuantity::JointSpeed:
            return glm::dot(f1.angularVelocity - f0.angularVelocity, axis);
        case ReferenceQuantity::JointPosition:
            return glm::dot(f1.frame.p - f0.frame.p, axis);
        case ReferenceQuantity::BodyHeight:
            break;
    }
    return kNaN;
}

Real referenceValue(const ReferenceDesc& r, const WorldSettings& settings, Real time, int64_t step,
                    Real input) {
    if (time > r.until) return kNaN;
    const Real g = glm::length(settings.gravity);
    switch (r.curve) {
        case ReferenceCurve::PendulumSmall:
            return r.offset + closed::pendulumSmallAngle(r.amplitude, r.length, g, time);
        case ReferenceCurve::Pendulum:
            return r.offset + closed::pendulumAngle(r.amplitude, r.length, g, time);
        case ReferenceCurve::DriveStep:
        case ReferenceCurve::MassSpring:
            return r.offset +
                   closed::secondOrderStep(r.mass, r.stiffness, r.damping, r.force, r.start, r.target, time);
        case ReferenceCurve::DriveStepImplicit: {
            // PGS advances the spring once per step; TGS once per substep of dt / posIters [D 40].
            const bool tgs = settings.solver == SolverType::TGS;
            const Real h = tgs ? settings.dt / settings.posIters : settings.dt;
            const int64_t n = tgs ? step * settings.posIters : step;
            return r.offset + closed::implicitEulerStep(r.mass, r.stiffness, r.damping, r.force, r.start,
                                                        r.target, h, n);
        }
        case ReferenceCurve::Atwood:
            return r.offset + closed::atwoodHeight(r.mass, r.otherMass, g, r.start, time);
        case ReferenceCurve::GearRatio:
            return r.offset + r.ratio * input;
    }
    return kNaN;
}

std::string validateReference(const ReferenceDesc& r) {
    const std::string curve = kReferenceCurveNames[static_cast<int>(r.curve)];
    if (r.usesJoint() && r.joint.empty())
        return std::string("joint: must name the joint whose ") +
               kReferenceQuantityNames[static_cast<int>(r.quantity)] + " is measured";
    if (!r.usesJoint() && r.body.empty()) return "body: must name the body whose height is measured";
    if (r.isPendulum() && r.quantity != ReferenceQuantity::JointAngle)
        return "quantity: a " + curve + " curve is an angle; use \"jointAngle\"";
    if (r.curve == ReferenceCurve::GearRatio && r.input.empty())
        return "input: a gearRatio curve needs the input joint";
    if (r.curve == ReferenceCurve::GearRatio && r.quantity != ReferenceQuantity::JointAngle &&
        r.quantity != ReferenceQuantity::JointSpeed)
        return "quantity: a gearRatio curve compares angles or speeds; use \"jointAngle\" or \"jointSpeed\"";
    if (r.curve == ReferenceCurve::Atwood && r.quantity != ReferenceQuantity::BodyHeight)
        return "quantity: an atwood curve is a height; use \"bodyHeight\"";
    if (r.isSpring() && r.quantity == ReferenceQuantity::JointSpeed)
        return "quantity: a " + curve +
               " curve is a position; use \"jointAngle\", \"jointPosition\" or "
               "\"bodyHeight\"";
    return "";
}

void sampleReferences(const World& world, std::vector<ReferenceSample>& out) {
    const Scene& scene = world.scene();
    out.resize(scene.references.size());
    for (size_t i = 0; i < scene.references.size(); ++i) {
        const ReferenceDesc& r = scene.references[i];
        out[i].simulated = measureQuantity(world, r.quantity, r.joint, r.body);
        const Real input =
            r.curve == ReferenceCurve::GearRatio ? measureQuantity(world, r.quantity, r.input, "") : 0.0;
        out[i].reference = referenceValue(r, scene.settings, world.time(), world.stepCount(), input);
    }
}

}  // namespace jl
