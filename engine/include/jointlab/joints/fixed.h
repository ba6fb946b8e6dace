// Fixed joint: the two joint frames coincide in position and orientation (6 rows).
//
//   linear rows  (k = x, y, z of body 0's joint frame, axis a_k in world):
//     C_k = a_k·(p0 − p1),  p0 = x0 + r0, p1 = x1 + r1   (anchor 0 minus anchor 1, eq. 26)
//     J   = {a_k, r0 × a_k, −a_k, −(r1 × a_k)}           (eq. 41–43)
//   angular rows (k = x, y, z of body 0's joint frame):
//     q = qA⁻¹·qB, the rotation of frame B relative to frame A (w ≥ 0), and
//     C_k = −2·q.vec_k, which for small errors is minus the rotation angle of B about a_k,
//     so dC/dt ≈ a_k·(ω0 − ω1) and J = {0, a_k, 0, −a_k}  (eq. 33 picked out per axis).
//   All rows are hard equalities that report force.
#pragma once

#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct FixedJoint {
    static constexpr JointTypeInfo info{
        .name = "fixed",
        .title = "Fixed (weld)",
        .description =
            "Welds the two joint frames together: no relative translation and no relative rotation. "
            "Six hard rows: three linear locks along body 0's joint axes and three angular locks. "
            "Useful when a connection must be breakable or must report its load.",
        .drawStyle = JointDrawStyle::Fixed,
        .projection = {LinearLock::Point, AngularLock::Full}};

    template <class V>
    void visit(V&) {}
};

void prep(const FixedJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
