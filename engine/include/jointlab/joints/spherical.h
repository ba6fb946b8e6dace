// Spherical joint (ball and socket): the joint frame origins coincide (3 rows).
//
//   C_k = a_k·(p0 − p1) for the three axes a_k of body 0's joint frame, J as in eq. 41–43.
//   Rotation is free.
#pragma once

#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct SphericalJoint {
    static constexpr JointTypeInfo info{
        "spherical", "Spherical (ball and socket)",
        "Keeps the two joint frame origins together and lets the bodies rotate freely about that "
        "point. Three hard linear rows along body 0's joint axes."};

    template <class V>
    void visit(V&) {}
};

void prep(const SphericalJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
