// Revolute joint (hinge): origins together, X axes together, free rotation about X (5 rows).
//
//   linear rows: C_k = a_k·(p0 − p1) for a_k = x, y, z of body 0's joint frame (eq. 41–43).
//   angular rows: with ax, bx the X axes of the two joint frames in world, the misalignment
//     m = ax × bx has dm/dt ≈ (ω1 − ω0)⊥ for ax ≈ bx, so for a_k = y, z of frame A
//     C_k = −a_k·(ax × bx),  J = {0, a_k, 0, −a_k}.
//   This error does not depend on the twist angle, so a large rotation about the hinge never
//   leaks into the off-axis rows.
//   Twist angle (for display and, later, limits and drives): the rotation of frame B about
//   frame A's X axis, taken from the twist part of qA⁻¹·qB, positive from Y towards Z.
#pragma once

#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct RevoluteJoint {
    static constexpr JointTypeInfo info{
        "revolute", "Revolute (hinge)",
        "Keeps the joint origins together and the two joint X axes aligned; the bodies turn "
        "freely about that common axis (a door hinge, a wheel axle). Three linear rows and two "
        "angular rows; the angle is zero where the frames' Y and Z axes coincide and grows from "
        "Y towards Z."};

    template <class V>
    void visit(V&) {}
};

void prep(const RevoluteJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
