// Prismatic joint prep; C and J are in jointlab/joints/prismatic.h.
#include "jointlab/joints/prismatic.h"

#include "joints/row_builder.h"

namespace jl {

void prep(const PrismaticJoint& j, const PrepContext& c, RowWriter& out) {
    rows::locks(c, parts::kLockY | parts::kLockZ | parts::kLockRotation, out);
    if (!j.limit.enabled && !j.drive.enabled) return;
    const rows::Coordinate slide = rows::linearCoordinate(c, basisX(c.cA2w.q));
    rows::driveRow(slide, j.drive, j.driveTarget, j.driveTargetVelocity, "slide drive", out);
    rows::limitRows(slide, j.limit, "slide limit (lower)", "slide limit (upper)",
                    out);  // limits last: they win
}

void PrismaticJoint::sketch(JointSketch& out) const {
    if (limit.enabled) out.add(sketch::Range{.axis = 0, .lower = limit.lower, .upper = limit.upper});
    if (drive.enabled) out.add(sketch::DriveTarget{Transform{Vec3(driveTarget, 0, 0), kIdentityQuat}});
}

}  // namespace jl
