// Prismatic joint (slider): orientations locked, origins free to slide along X (5 rows).
//
//   linear rows: C_k = a_k·(p0 − p1) for a_k = y, z of body 0's joint frame (eq. 42–43).
//   angular rows: as the fixed joint, C_k = −2·(qA⁻¹·qB).vec_k, k = x, y, z.
//   The slide position is d = ax·(p1 − p0): how far frame B's origin sits along frame A's X.
//   Its rate includes body 0 turning: ḋ = ax·(v_p1 − v_p0) + (ω0 × ax)·(p1 − p0), so limit and
//   drive rows use J = {−ax, −(r0 + p1 − p0) × ax, −ax, −(r1 × ax)} (sign flipped for the upper
//   bound): lower C = d − lower ≥ 0, upper C = upper − d ≥ 0; drive C = d − driveTarget.
#pragma once

#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/limits_drives.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct PrismaticJoint {
    static constexpr JointTypeInfo info{
        .name = "prismatic",
        .title = "Prismatic (slider)",
        .description =
            "Locks the relative orientation and lets body 1 slide along body 0's joint X axis only "
            "(a piston, a drawer). Two linear rows across the axis and three angular rows.",
        .drawStyle = JointDrawStyle::SliderAxis,
        .hasLimits = true,
        .hasDrive = true,
        .placement = {.axis = JointAxisDefault::AlongAToB},
        .projection = {LinearLock::AcrossXAxis, AngularLock::Full}};

    LimitPair limit{false, -1.0, 1.0};  ///< slide limits [m]
    Drive drive;                        ///< spring towards driveTarget along the axis
    Real driveTarget = 0.0;             ///< [m]
    Real driveTargetVelocity = 0.0;     ///< [m/s]

    template <class V>
    void visit(V& v) {
        visitLimit(v,
                   {"limit.enabled", "limit.lower", "limit.upper", "limit.contactDistance",
                    "limit.restitution", "limit.bounceThreshold", "limit.stiffness", "limit.damping"},
                   limit, false);
        visitDrive(v,
                   {"drive.enabled", "drive.stiffness", "drive.damping", "drive.forceLimit",
                    "drive.acceleration", "drive.limitIsImpulse"},
                   drive, false);
        v("driveTarget", driveTarget, anyReal("m", "slide position the drive pulls towards"));
        v("driveTargetVelocity", driveTargetVelocity, anyReal("m/s", "slide velocity the drive aims for"));
    }
    std::string validate() const { return limit.validate("limit"); }

    /// Its slide range and drive target (joint_sketch.h).
    void sketch(JointSketch& out) const;
};

void prep(const PrismaticJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
