// Pulley joint: a rope from body 0's joint origin p0 over a fixed world point a0, then over a1 to
// body 1's joint origin p1 (physx-joints-guide.md "Custom Constraints", the SnippetCustomJoint
// pulley; one inequality row):
//
//   |p0 − a0| + ratio·|p1 − a1| ≤ length
//   C = length − |p0 − a0| − ratio·|p1 − a1| ≥ 0   (C > 0: slack rope; C < 0: stretched)
//   n_k = (p_k − a_k)/|p_k − a_k| (zero when p_k sits on a_k: that side has no direction)
//   dC/dt = −n0·(v0 + ω0 × r0) − ratio·n1·(v1 + ω1 × r1), so (row.h: linear1 = −μ1, angular1 = −κ1)
//   J = {−n0, −(r0 × n0), −ratio·n1, −ratio·(r1 × n1)}:
//     linear0 = −n0, angular0 = −(r0 × n0), linear1 = ratio·n1, angular1 = ratio·(r1 × n1)
//   r = 1/m0 + (r0 × n0)ᵀI0⁻¹(r0 × n0) + ratio²·(1/m1 + (r1 × n1)ᵀI1⁻¹(r1 × n1))
//   The impulse λ ≥ 0 is the rope's tension × dt: body 0 is pulled towards a0 by λ, body 1 towards
//   a1 by ratio·λ (a block and tackle: the ratio is the mechanical advantage). While the rope is
//   slack the row keeps its bias (as a limit does), so the rope may tighten within the step but
//   not overstretch; the row is always emitted so the inspector shows the slack as C.
//   Force reported: ratio·T·n1 towards a1 on body 1, T = λ/dt.
#pragma once

#include <string>

#include "jointlab/fields.h"
#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct PulleyJoint {
    static constexpr JointTypeInfo info{
        .name = "pulley",
        .title = "Pulley (rope over two fixed points)",
        .description =
            "A rope runs from body 0's joint origin up over a fixed world point, across to a second "
            "fixed point and down to body 1's joint origin: |p0 − anchor0| + ratio·|p1 − anchor1| "
            "stays at most length. The rope only pulls. With ratio 2 body 1 hangs in a two-to-one "
            "block and tackle (it moves half as far with twice the force). One inequality row.",
        .drawStyle = JointDrawStyle::Coupling,
        .hasLimits = true,
        .isCoupling = true};

    Vec3 anchor0{-0.5, 2.0, 0.0};  ///< fixed world point the rope to body 0 runs over [m]
    Vec3 anchor1{0.5, 2.0, 0.0};   ///< fixed world point the rope to body 1 runs over [m]
    Real length = 2.0;             ///< |p0 − anchor0| + ratio·|p1 − anchor1| at most this [m]
    Real ratio = 1.0;              ///< weight of body 1's side (mechanical advantage) [-]

    template <class V>
    void visit(V& v) {
        v("anchor0", anchor0, anyReal("m", "fixed world point the rope to body 0 runs over"));
        v("anchor1", anchor1, anyReal("m", "fixed world point the rope to body 1 runs over"));
        v("length", length,
          positive("m", "upper bound of dist(p0, anchor0) + ratio·dist(p1, anchor1): the rope"));
        v("ratio", ratio, positive("", "weight of body 1's side of the rope (block and tackle)"));
    }

    /// The rope over its two fixed points (joint_sketch.h).
    void sketch(JointSketch& out) const;
};

void prep(const PulleyJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
