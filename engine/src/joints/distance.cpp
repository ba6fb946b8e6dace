// Distance joint prep; C and J are in jointlab/joints/distance.h.
#include "jointlab/joints/distance.h"

#include <glm/gtx/norm.hpp>

#include "joints/row_builder.h"

namespace jl {

namespace {

Row* boundRow(const DistanceJoint& j, const PrepContext& c, const Vec3& n, Real error, const char* label,
              RowWriter& out) {
    // A soft bound acts only while it is violated; inside the range it emits no row.
    if (j.springEnabled && error >= 0) return nullptr;
    Row* r = out.add();
    if (!r) return nullptr;
    r->linear0 = n;
    r->angular0 = glm::cross(c.r0, n);
    r->linear1 = n;
    r->angular1 = glm::cross(c.r1, n);
    r->geometricError = error;
    r->minImpulse = 0.0;
    r->maxImpulse = kInf;
    r->label = label;
    if (j.springEnabled) {
        r->flags = kRowSpring | kRowOutputForce | kRowSeparation;
        r->mods.spring.stiffness = j.stiffness;
        r->mods.spring.damping = j.damping;
        r->solveHint = SolveHint::None;
    } else {
        // Hard inequality; inside the range keep the bias so the bound is approached, not crossed.
        r->flags = kRowOutputForce | kRowSeparation | (error > 0 ? kRowKeepBias : 0);
        r->solveHint = SolveHint::Inequality;
    }
    return r;
}

}  // namespace

void prep(const DistanceJoint& j, const PrepContext& c, RowWriter& out) {
    const Vec3 d = c.cB2w.p - c.cA2w.p;
    const Real len = glm::length(d);
    // Direction from origin 0 to origin 1; when they coincide use body 0's joint X axis.
    const Vec3 n = len > 1e-9 ? d / len : basisX(c.cA2w.q);
    if (j.maxEnabled && len > j.maxDistance - j.tolerance) {
        // C = max − d: the row velocity n·(v_p0 − v_p1) is −dd/dt, so dC/dt = v.
        boundRow(j, c, n, j.maxDistance - len, "distance max", out);
    }
    if (j.minEnabled && len < j.minDistance + j.tolerance) {
        // C = d − min with J along −n.
        boundRow(j, c, -n, len - j.minDistance, "distance min", out);
    }
}

// Along the line between the origins, from the minimum (or 0) to the maximum; a minimum alone is
// a tick at its distance.
void DistanceJoint::sketch(JointSketch& out) const {
    const Real lower = minEnabled ? minDistance : 0.0;
    if (maxEnabled)
        out.add(sketch::Range{.axis = sketch::Range::kAToB, .lower = lower, .upper = maxDistance});
    else if (minEnabled)
        out.add(sketch::Range{.axis = sketch::Range::kAToB, .lower = lower, .upper = lower});
}

}  // namespace jl
