// JointLab engine — reference curves: a closed form that a simulated quantity should follow
// (docs/user-guide.md "Reference curves"). A scenario's optional "references" section declares them; the
// telemetry records each one's simulated and closed-form value every step, and the app plots them
// side by side (PlotKind::Reference).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jointlab/fields.h"

namespace jl {

/// Which closed form (jointlab/closed_forms.h).
enum class ReferenceCurve {
    PendulumSmall,      ///< θ0·cos(√(g/L)·t)
    Pendulum,           ///< the exact pendulum: 2·asin(k·sn(K(k) − √(g/L)·t, k)), k = sin(θ0/2)
    DriveStep,          ///< continuous step response of m·x'' + c·x' + k·(x − target) = force
    DriveStepImplicit,  ///< the same advanced by implicit Euler, as the solver does (per substep)
    MassSpring,         ///< a mass on a spring under a constant load: DriveStep's formula
    Atwood,             ///< y0 − ½·g·(m − m_other)/(m + m_other)·t²
    GearRatio,          ///< ratio × the same quantity measured on the input joint
};
inline constexpr const char* kReferenceCurveNames[] = {
    "pendulumSmall", "pendulum", "driveStep", "driveStepImplicit", "massSpring", "atwood", "gearRatio"};
inline constexpr int kReferenceCurveCount = 7;

/// What is simulated and compared.
enum class ReferenceQuantity {
    JointAngle,     ///< a joint's twist angle: frame 1 about frame 0's X axis [rad], in (−π, π]
    JointSpeed,     ///< the relative angular velocity of the joint's bodies about frame 0's X [rad/s]
    JointPosition,  ///< frame 1's origin along frame 0's X axis, from frame 0's origin [m]
    BodyHeight,     ///< a body's centre of mass height (world Y) [m]
};
inline constexpr const char* kReferenceQuantityNames[] = {"jointAngle", "jointSpeed", "jointPosition",
                                                          "bodyHeight"};
inline constexpr int kReferenceQuantityCount = 4;

/// One reference curve. Parameters a curve does not use are ignored (and hidden in the UI).
struct ReferenceDesc {
    std::string name;  ///< unique among the references; a reference plot names it
    ReferenceCurve curve = ReferenceCurve::Pendulum;
    ReferenceQuantity quantity = ReferenceQuantity::JointAngle;
    std::string joint;      ///< the joint measured (joint quantities)
    std::string body;       ///< the body measured (bodyHeight)
    std::string input;      ///< gearRatio: the joint whose quantity, times ratio, is the reference
    Real amplitude = 0.5;   ///< pendulums: the release angle θ0 from hanging [rad]
    Real length = 1.0;      ///< pendulums: the equivalent length I_pivot / (m·d) [m]
    Real mass = 1.0;        ///< drive, mass–spring: the inertia along the axis; Atwood: this body's
    Real otherMass = 1.0;   ///< Atwood: the other body's mass [kg]
    Real stiffness = 1.0;   ///< drive, mass–spring: the spring k
    Real damping = 0.0;     ///< drive, mass–spring: the damper c
    Real force = 0.0;       ///< drive, mass–spring: a constant load along the axis (weight: −m·g)
    Real start = 0.0;       ///< drive, mass–spring, Atwood: the value at t = 0 (at rest)
    Real target = 0.0;      ///< drive, mass–spring: where the spring is relaxed
    Real ratio = 1.0;       ///< gearRatio
    Real offset = 0.0;      ///< added to the closed form (pendulums: the measured angle when hanging)
    Real until = kInf;      ///< the closed form holds up to this time [s] (Atwood: until a box lands)
    Real tolerance = kInf;  ///< how far the simulation may stray from the closed form (tested; shown)

    bool usesJoint() const { return quantity != ReferenceQuantity::BodyHeight; }
    bool isPendulum() const {
        return curve == ReferenceCurve::PendulumSmall || curve == ReferenceCurve::Pendulum;
    }
    bool isSpring() const {
        return curve == ReferenceCurve::DriveStep || curve == ReferenceCurve::DriveStepImplicit ||
               curve == ReferenceCurve::MassSpring;
    }

    template <class V>
    void visit(V& v) {
        const bool pendulum = isPendulum(), spring = isSpring(), atwood = curve == ReferenceCurve::Atwood;
        v("name", name, Field{"", 0, 0, "unique name of the reference; a reference plot names it"});
        v("curve", EnumField<ReferenceCurve>{curve, kReferenceCurveNames, kReferenceCurveCount},
          Field{"", 0, 0,
                "the closed form: pendulumSmall, pendulum (exact, elliptic), driveStep (continuous), "
                "driveStepImplicit (the solver's implicit Euler), massSpring, atwood, gearRatio"});
        v("quantity",
          EnumField<ReferenceQuantity>{quantity, kReferenceQuantityNames, kReferenceQuantityCount},
          Field{"", 0, 0,
                "what is simulated: jointAngle (rad), jointSpeed (rad/s), jointPosition (m) of `joint`, "
                "or bodyHeight (m) of `body`"});
        v("joint", joint, relevantIf(usesJoint(), Field{"", 0, 0, "the joint measured"}));
        v("body", body, relevantIf(!usesJoint(), Field{"", 0, 0, "the body measured"}));
        v("input", input,
          relevantIf(curve == ReferenceCurve::GearRatio,
                     Field{"", 0, 0, "gearRatio: the input joint, measured the same way"}));
        Field amp = angleField(-3.14159, 3.14159, "pendulums: release angle from hanging");
        v("amplitude", amplitude, relevantIf(pendulum, amp));
        v("length", length,
          relevantIf(pendulum, positive("m", "pendulums: equivalent length I_pivot / (m·d)")));
        v("mass", mass,
          relevantIf(spring || atwood, positive("kg",
                                                "the inertia along the axis (kg·m² for angles); "
                                                "Atwood: the measured body's mass")));
        v("otherMass", otherMass, relevantIf(atwood, positive("kg", "Atwood: the other body's mass")));
        v("stiffness", stiffness, relevantIf(spring, positive("", "the spring constant k (N/m or N·m/rad)")));
        v("damping", damping, relevantIf(spring, nonNegative("", "the damper c (N·s/m or N·m·s/rad)")));
        v("force", force, relevantIf(spring, anyReal("", "a constant load along the axis (N or N·m)")));
        v("start", start, relevantIf(spring || atwood, anyReal("", "the value at t = 0, at rest")));
        v("target", target, relevantIf(spring, anyReal("", "where the spring is relaxed")));
        v("ratio", ratio,
          relevantIf(curve == ReferenceCurve::GearRatio,
                     anyReal("", "gearRatio: reference = ratio × input")));
        v("offset", offset, anyReal("", "added to the closed form"));
        v("until", until, positive("s", "the closed form holds until this time (inf = always)"));
        v("tolerance", tolerance,
          positive("", "the largest difference from the simulation the tests accept (inf = not checked)"));
    }
};

struct Scene;
struct WorldSettings;
class World;

/// The simulated value of `quantity` for `joint` (joint quantities) or `body` (bodyHeight) in the
/// world now; NaN when the scene has no such joint or body.
Real measureQuantity(const World& world, ReferenceQuantity quantity, const std::string& joint,
                     const std::string& body);

/// The closed form of `r` at `time` (and `step`, counted from the start, for the implicit curve),
/// with the scene's settings (gravity, dt, solver); `input` is the measured input (gearRatio).
/// NaN after `until`.
Real referenceValue(const ReferenceDesc& r, const WorldSettings& settings, Real time, int64_t step,
                    Real input);

/// Cross-field rules of a reference ("field: problem", or "" when valid).
std::string validateReference(const ReferenceDesc& r);

/// One reference in one step: the simulated value and the closed form's.
struct ReferenceSample {
    Real simulated = 0.0;
    Real reference = 0.0;
};

/// Both values of every reference of the world's scene, now.
void sampleReferences(const World& world, std::vector<ReferenceSample>& out);

}  // namespace jl
