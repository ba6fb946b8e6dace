// Pulley joint prep; C and J are in jointlab/joints/pulley.h.
#include "jointlab/joints/pulley.h"

namespace jl {

namespace {

/// Unit direction from the fixed point to the joint origin, or zero when they coincide.
Vec3 ropeDirection(const Vec3& d, Real len) {
    return len > 1e-9 ? d / len : Vec3(0.0);
}

}  // namespace

void prep(const PulleyJoint& j, const PrepContext& c, RowWriter& out) {
    const Vec3 d0 = c.cA2w.p - j.anchor0;
    const Vec3 d1 = c.cB2w.p - j.anchor1;
    const Real l0 = glm::length(d0), l1 = glm::length(d1);
    const Vec3 n0 = ropeDirection(d0, l0), n1 = ropeDirection(d1, l1);
    Row* r = out.add();
    if (!r) return;
    r->linear0 = -n0;
    r->angular0 = -glm::cross(c.r0, n0);
    r->linear1 = j.ratio * n1;
    r->angular1 = j.ratio * glm::cross(c.r1, n1);
    r->geometricError = j.length - l0 - j.ratio * l1;  // C ≥ 0
    r->minImpulse = 0.0;                               // a rope only pulls
    r->maxImpulse = kInf;
    r->flags = kRowOutputForce | (r->geometricError > 0 ? kRowKeepBias : 0);
    r->solveHint = SolveHint::Inequality;
    r->label = "pulley rope";
}

void PulleyJoint::sketch(JointSketch& out) const {
    out.add(sketch::Rope{.over0 = anchor0, .over1 = anchor1});
}

}  // namespace jl
