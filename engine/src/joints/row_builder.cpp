#include "joints/row_builder.h"

#include <glm/gtx/norm.hpp>

namespace jl::rows {

Row* linearLock(const PrepContext& c, const Vec3& a, const char* label, RowWriter& out) {
    Row* r = out.add();
    if (!r) return nullptr;
    r->linear0 = a;
    r->angular0 = glm::cross(c.r0, a);
    r->linear1 = a;
    r->angular1 = glm::cross(c.r1, a);
    r->geometricError = glm::dot(a, c.cA2w.p - c.cB2w.p);
    r->flags = kRowOutputForce;
    r->solveHint = SolveHint::Equality;
    r->label = label;
    return r;
}

Row* angularLock(const Vec3& a, Real error, const char* label, RowWriter& out) {
    Row* r = out.add();
    if (!r) return nullptr;
    r->angular0 = a;
    r->angular1 = a;
    r->geometricError = error;
    r->flags = kRowOutputForce | kRowAngular;
    r->solveHint = SolveHint::Equality;
    r->label = label;
    return r;
}

void lockRotation(const PrepContext& c, RowWriter& out) {
    // For q = qA⁻¹·qB with w >= 0, 2·q.vec ≈ θ·axis (in frame A) for small angles, and its rate
    // is ≈ (ω1 − ω0) in frame A; so C_k = −2·q.vec_k has dC/dt ≈ a_k·(ω0 − ω1).
    const Quat q = relativeRotation(c);
    angularLock(basisX(c.cA2w.q), -2.0 * q.x, "angular X lock", out);
    angularLock(basisY(c.cA2w.q), -2.0 * q.y, "angular Y lock", out);
    angularLock(basisZ(c.cA2w.q), -2.0 * q.z, "angular Z lock", out);
}

void lockLinearAxes(const PrepContext& c, bool x, bool y, bool z, RowWriter& out) {
    if (x) linearLock(c, basisX(c.cA2w.q), "linear X lock", out);
    if (y) linearLock(c, basisY(c.cA2w.q), "linear Y lock", out);
    if (z) linearLock(c, basisZ(c.cA2w.q), "linear Z lock", out);
}

}  // namespace jl::rows
