// Spherical joint (ball and socket): the joint frame origins coincide (3 rows).
//
//   C_k = a_k·(p0 − p1) for the three axes a_k of body 0's joint frame, J as in eq. 41–43.
//   Rotation is free, or held inside an elliptical cone: with the swing of qA⁻¹·qB (its twist
//   about X removed) as angle φ about the unit axis s in frame A's YZ plane, the cone allows
//   φ ≤ φ_max(s) = 1/sqrt((s_y/yAngle)² + (s_z/zAngle)²). One inequality row about s (world)
//   with C = φ_max − φ ≥ 0 and J = {0, s, 0, s} (its rate is −φ̇). The radial row is exact for a
//   circular cone and a close approximation for an elliptical one.
#pragma once

#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/limits_drives.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct SphericalJoint {
    static constexpr JointTypeInfo info{
        .name = "spherical",
        .title = "Spherical (ball and socket)",
        .description =
            "Keeps the two joint frame origins together and lets the bodies rotate freely about that "
            "point. Three hard linear rows along body 0's joint axes.",
        .drawStyle = JointDrawStyle::BallCone,
        .hasLimits = true,
        // The swing cone opens about X: along the limb, from the socket towards the body.
        .placement = {.axis = JointAxisDefault::AlongAToB},
        .projection = {LinearLock::Point, AngularLock::None}};

    ConeLimit cone;  ///< swing limit of body 1's X axis around body 0's X axis

    template <class V>
    void visit(V& v) {
        visitCone(v,
                  {"cone.enabled", "cone.yAngle", "cone.zAngle", "cone.contactDistance", "cone.restitution",
                   "cone.bounceThreshold", "cone.stiffness", "cone.damping"},
                  cone);
    }

    /// Its swing cone (joint_sketch.h).
    void sketch(JointSketch& out) const;
};

void prep(const SphericalJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
