// Revolute joint prep; C and J are in jointlab/joints/revolute.h.
#include "jointlab/joints/revolute.h"

#include "joints/row_builder.h"

namespace jl {

void prep(const RevoluteJoint&, const PrepContext& c, RowWriter& out) {
    rows::lockLinearAxes(c, true, true, true, out);
    const Vec3 ax = basisX(c.cA2w.q);
    const Vec3 bx = basisX(c.cB2w.q);
    const Vec3 m = glm::cross(ax, bx);  // misalignment of the hinge axes, ≈ rotation from A's to B's X
    const Vec3 ay = basisY(c.cA2w.q);
    const Vec3 az = basisZ(c.cA2w.q);
    rows::angularLock(ay, -glm::dot(ay, m), "angular Y lock", out);
    rows::angularLock(az, -glm::dot(az, m), "angular Z lock", out);
}

}  // namespace jl
