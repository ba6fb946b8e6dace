// Prismatic joint (slider): orientations locked, origins free to slide along X (5 rows).
//
//   linear rows: C_k = a_k·(p0 − p1) for a_k = y, z of body 0's joint frame (eq. 42–43).
//   angular rows: as the fixed joint, C_k = −2·(qA⁻¹·qB).vec_k, k = x, y, z.
//   The slide position is d = ax·(p1 − p0): how far frame B's origin sits along frame A's X.
#pragma once

#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct PrismaticJoint {
    static constexpr JointTypeInfo info{
        "prismatic", "Prismatic (slider)",
        "Locks the relative orientation and lets body 1 slide along body 0's joint X axis only "
        "(a piston, a drawer). Two linear rows across the axis and three angular rows."};

    template <class V>
    void visit(V&) {}
};

void prep(const PrismaticJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
