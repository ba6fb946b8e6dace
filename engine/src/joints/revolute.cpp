// Revolute joint prep; C and J are in jointlab/joints/revolute.h.
#include "jointlab/joints/revolute.h"

#include "joints/lock_only.h"
#include "joints/row_builder.h"

namespace jl {

namespace {
/// A point lock and a hinge lock (B's X axis on A's X axis): five rows.
constexpr unsigned kHingeLocks = parts::kLockPoint | parts::kLockHinge;
bool actuatedOrLimited(const RevoluteJoint& j) {
    return j.limit.enabled || j.motor.enabled || j.drive.enabled;
}
}  // namespace

unsigned lockOnlyParts(const RevoluteJoint& j) {
    return actuatedOrLimited(j) ? 0u : kHingeLocks;
}

void prep(const RevoluteJoint& j, const PrepContext& c, RowWriter& out) {
    rows::locks(c, kHingeLocks, out);
    if (!actuatedOrLimited(j)) return;
    const Vec3 ax = basisX(c.cA2w.q);
    const Real angle = rows::trackedTwist(c, rows::relativeRotation(c), 0);
    const rows::Coordinate twist = rows::angularCoordinate(ax, angle);
    // Actuators first, limits last: in a Gauss-Seidel sweep the last row has the final word, and a
    // hard limit must win over a motor or drive pushing into it.
    if (j.motor.enabled) {
        if (Row* r = out.add()) {
            r->angular0 = -j.motor.gearRatio * ax;
            r->angular1 = -ax;
            r->velocityTarget = j.motor.targetVelocity;
            const Real lim = j.motor.forceLimit;
            const bool forward = j.motor.targetVelocity >= 0;
            r->minImpulse = j.motor.freespin && forward ? 0.0 : -lim;
            r->maxImpulse = j.motor.freespin && !forward ? 0.0 : lim;
            r->flags = kRowAngular | kRowVelocityOnly | kRowHasDriveLimit |
                       (j.motor.limitIsImpulse ? 0 : kRowDriveLimitsAreForces);
            r->label = "motor";
        }
    }
    rows::driveRow(twist, j.drive, j.driveTarget, j.driveTargetVelocity, "twist drive", out);
    rows::limitRows(twist, j.limit, "twist limit (lower)", "twist limit (upper)", out);
}

// The twist limit is a sector about frame A's X axis, angle 0 along A's Y growing towards Z (how
// the twist angle is measured above); the drive pulls frame B to driveTarget about that axis.
void RevoluteJoint::sketch(JointSketch& out) const {
    if (limit.enabled)
        out.add(sketch::Arc{
            .u = Vec3(0, 1, 0), .w = Vec3(0, 0, 1), .from = limit.lower, .to = limit.upper, .radius = 1.1});
    if (drive.enabled)
        out.add(sketch::DriveTarget{Transform{Vec3(0.0), glm::angleAxis(driveTarget, Vec3(1, 0, 0))}});
}

}  // namespace jl
