// Revolute joint (hinge): origins together, X axes together, free rotation about X (5 rows).
//
//   linear rows: C_k = a_k·(p0 − p1) for a_k = x, y, z of body 0's joint frame (eq. 41–43).
//   angular rows: with ax, bx the X axes of the two joint frames in world, the misalignment
//     m = ax × bx has dm/dt ≈ (ω1 − ω0)⊥ for ax ≈ bx, so for a_k = y, z of frame A
//     C_k = −a_k·(ax × bx),  J = {0, a_k, 0, −a_k}.
//   This error does not depend on the twist angle, so a large rotation about the hinge never
//   leaks into the off-axis rows.
//   Twist angle θ: the rotation of frame B about frame A's X axis, from the twist part of the
//   swing-twist split of qA⁻¹·qB, positive from Y towards Z, tracked through full turns.
//   Its rate is θ̇ = ax·(ω1 − ω0), so limit, motor and drive rows use J = {0, −ax, 0, −ax}
//   (the sign flips for an upper bound): lower limit C = θ − lower ≥ 0, upper C = upper − θ ≥ 0.
//   Motor: a hard velocity row θ̇_gear = targetVelocity with |impulse| ≤ forceLimit·dt, where
//   θ̇_gear = ax·(ω1 − gearRatio·ω0); freespin makes the bound one-sided (never brakes).
//   Position drive: a soft row with C = θ − driveTarget (physx-implicit-spring-drives.md).
#pragma once

#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/limits_drives.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct RevoluteJoint {
    static constexpr JointTypeInfo info{
        .name = "revolute",
        .title = "Revolute (hinge)",
        .description =
            "Keeps the joint origins together and the two joint X axes aligned; the bodies turn "
            "freely about that common axis (a door hinge, a wheel axle). Three linear rows and two "
            "angular rows; the angle is zero where the frames' Y and Z axes coincide and grows from "
            "Y towards Z.",
        .drawStyle = JointDrawStyle::HingeAxis,
        .hasLimits = true,
        .hasDrive = true,
        .projection = {LinearLock::Point, AngularLock::XAxis}};

    LimitPair limit;  ///< twist angle limits [rad]
    struct Motor {
        bool enabled = false;
        Real targetVelocity = 0.0;  ///< [rad/s] of body 1 relative to body 0 about the hinge
        Real forceLimit = kInf;     ///< largest torque [N·m] (impulse [N·m·s] if limitIsImpulse)
        bool limitIsImpulse = false;
        bool freespin = false;  ///< the motor only pushes towards its target speed, never brakes
        Real gearRatio = 1.0;   ///< body 0's rate is scaled by this before comparing to the target
    } motor;
    Drive drive;                     ///< position drive (spring towards driveTarget)
    Real driveTarget = 0.0;          ///< [rad]
    Real driveTargetVelocity = 0.0;  ///< [rad/s]

    template <class V>
    void visit(V& v) {
        visitLimit(v,
                   {"limit.enabled", "limit.lower", "limit.upper", "limit.contactDistance",
                    "limit.restitution", "limit.bounceThreshold", "limit.stiffness", "limit.damping"},
                   limit, true);
        v("motor.enabled", motor.enabled, Field{"", 0, 0, "drive the hinge at a target speed"});
        v("motor.targetVelocity", motor.targetVelocity,
          anyReal("rad/s", "target speed of body 1 relative to body 0"));
        v("motor.forceLimit", motor.forceLimit, positive("N·m", "largest motor torque"));
        v("motor.limitIsImpulse", motor.limitIsImpulse, Field{"", 0, 0, "forceLimit is an impulse per step"});
        v("motor.freespin", motor.freespin, Field{"", 0, 0, "the motor never brakes"});
        v("motor.gearRatio", motor.gearRatio, anyReal("", "body 0's rate is scaled by this"));
        visitDrive(v,
                   {"drive.enabled", "drive.stiffness", "drive.damping", "drive.forceLimit",
                    "drive.acceleration", "drive.limitIsImpulse"},
                   drive, true);
        Field t = anyReal("rad", "angle the position drive pulls towards");
        t.angle = true;
        v("driveTarget", driveTarget, t);
        v("driveTargetVelocity", driveTargetVelocity,
          anyReal("rad/s", "angular velocity the position drive aims for"));
    }
    std::string validate() const { return limit.validate("limit"); }

    /// Its limit sector and drive target (joint_sketch.h).
    void sketch(JointSketch& out) const;
};

void prep(const RevoluteJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
