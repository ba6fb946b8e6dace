// D6 joint prep; C and J for every case are in jointlab/joints/d6.h.
#include "jointlab/joints/d6.h"

#include <glm/gtx/norm.hpp>

#include "joints/row_builder.h"

namespace jl {

D6Joint D6Joint::cylindrical() {
    D6Joint j;
    j.motion[kD6X] = j.motion[kD6Twist] = D6Motion::Free;
    return j;
}
D6Joint D6Joint::pointOnPlane() {
    D6Joint j;
    j.motion[kD6Y] = j.motion[kD6Z] = D6Motion::Free;
    j.motion[kD6Twist] = j.motion[kD6Swing1] = j.motion[kD6Swing2] = D6Motion::Free;
    return j;
}
D6Joint D6Joint::pointOnLine() {
    D6Joint j;
    j.motion[kD6X] = D6Motion::Free;
    j.motion[kD6Twist] = j.motion[kD6Swing1] = j.motion[kD6Swing2] = D6Motion::Free;
    return j;
}

namespace {

constexpr const char* kLowerLabels[3] = {"X limit (lower)", "Y limit (lower)", "Z limit (lower)"};
constexpr const char* kUpperLabels[3] = {"X limit (upper)", "Y limit (upper)", "Z limit (upper)"};
constexpr const char* kDriveLabels[3] = {"X drive", "Y drive", "Z drive"};
constexpr const char* kSlerpLabels[3] = {"SLERP drive X", "SLERP drive Y", "SLERP drive Z"};

void linearPart(const D6Joint& j, const PrepContext& c, RowWriter& out) {
    const Vec3 axes[3] = {basisX(c.cA2w.q), basisY(c.cA2w.q), basisZ(c.cA2w.q)};
    // Drives first, locks and limits last: the last row of a sweep has the final word.
    for (int k = 0; k < 3; ++k) {
        const Drive& drive = k == 0 ? j.driveX : (k == 1 ? j.driveY : j.driveZ);
        if (j.motion[k] != D6Motion::Locked)
            rows::driveRow(rows::linearCoordinate(c, axes[k]), drive, j.drivePosition[k],
                           j.driveLinearVelocity[k], kDriveLabels[k], out);
    }
    // The locked axes: the point lock's rows for them (a block when two or three are locked).
    unsigned locked = 0;
    for (int k = 0; k < 3; ++k)
        if (j.motion[k] == D6Motion::Locked) locked |= parts::kLockX << k;
    rows::locks(c, locked, out);
    Vec3 radial(0.0);  // projection of p1 − p0 onto the limited axes (distance limit)
    const Vec3 d = c.cB2w.p - c.cA2w.p;
    for (int k = 0; k < 3; ++k) {
        if (j.motion[k] == D6Motion::Limited) {
            if (j.distanceLimitEnabled)
                radial += glm::dot(d, axes[k]) * axes[k];
            else
                rows::limitRows(rows::linearCoordinate(c, axes[k]), j.linearLimit[k], kLowerLabels[k],
                                kUpperLabels[k], out);
        }
    }
    const Real len = glm::length(radial);
    if (j.distanceLimitEnabled && len > 1e-9) {
        const LimitPair& l = j.distanceLimit;
        rows::boundRow(rows::linearCoordinate(c, radial / len), -1.0, l.upper, l.contactDistance,
                       l.restitution, l.bounceThreshold, l.stiffness, l.damping, "distance limit", out);
    }
}

/// Keeps B's X axis orthogonal to world axis n: C = n·bx, J = {0, n×bx, 0, −(n×bx)}.
void orthogonalLock(const Vec3& n, const Vec3& bx, const char* label, RowWriter& out) {
    const Vec3 axis = glm::cross(n, bx);
    rows::angularLock(axis, glm::dot(n, bx), label, out);
}

void angularPart(const D6Joint& j, const PrepContext& c, RowWriter& out) {
    const D6Motion twist = j.motion[kD6Twist], s1 = j.motion[kD6Swing1], s2 = j.motion[kD6Swing2];
    if (twist == D6Motion::Locked && s1 == D6Motion::Locked && s2 == D6Motion::Locked) {
        rows::locks(c, parts::kLockRotation, out);
        return;
    }
    const Quat q = rows::relativeRotation(c);
    const rows::SwingTwist st = rows::swingTwist(q);
    const Vec3 ax = basisX(c.cA2w.q), ay = basisY(c.cA2w.q), az = basisZ(c.cA2w.q);
    const Vec3 bx = basisX(c.cB2w.q);
    const Real twistAngle = c.memory ? c.memory->unwrap(0, st.twist) : st.twist;

    if (twist == D6Motion::Locked) rows::angularLock(ax, -st.twist, "twist lock", out);
    if (twist == D6Motion::Limited)
        rows::limitRows(rows::angularCoordinate(ax, twistAngle), j.twistLimit, "twist limit (lower)",
                        "twist limit (upper)", out);

    if (s1 == D6Motion::Locked && s2 == D6Motion::Locked) {
        rows::hingeLock(c, "swing Y lock", "swing Z lock", out);
    } else if (s1 == D6Motion::Locked || s2 == D6Motion::Locked) {
        // Swing about Y moves bx towards −Z; locking it keeps bx ⊥ az (and likewise for Z / ay).
        if (s1 == D6Motion::Locked) orthogonalLock(az, bx, "swing Y lock", out);
        if (s2 == D6Motion::Locked) orthogonalLock(ay, bx, "swing Z lock", out);
    }
    const ConeLimit& cone = j.swingLimit;
    if (s1 == D6Motion::Limited && s2 == D6Motion::Limited) {
        ConeLimit enabled = cone;
        enabled.enabled = true;
        rows::coneRow(c, st, enabled, out);
    } else if (s1 == D6Motion::Limited || s2 == D6Motion::Limited) {
        const bool aboutY = s1 == D6Motion::Limited;
        const Real angle = aboutY ? std::atan2(-glm::dot(bx, az), glm::dot(bx, ax))
                                  : std::atan2(glm::dot(bx, ay), glm::dot(bx, ax));
        const Real lim = aboutY ? cone.yAngle : cone.zAngle;
        const rows::Coordinate x = rows::angularCoordinate(aboutY ? ay : az, angle);
        LimitPair pair{
            true,           -lim,        lim, cone.contactDistance, cone.restitution, cone.bounceThreshold,
            cone.stiffness, cone.damping};
        rows::limitRows(x, pair, aboutY ? "swing Y limit (lower)" : "swing Z limit (lower)",
                        aboutY ? "swing Y limit (upper)" : "swing Z limit (upper)", out);
    }
}

/// Angular drive rows; SLERP replaces twist and swing when no angular axis is locked (joints guide).
void angularDrives(const D6Joint& j, const PrepContext& c, RowWriter& out) {
    const D6Motion twist = j.motion[kD6Twist], s1 = j.motion[kD6Swing1], s2 = j.motion[kD6Swing2];
    if (twist == D6Motion::Locked && s1 == D6Motion::Locked && s2 == D6Motion::Locked) return;
    if (!j.driveSlerp.enabled && !j.driveTwist.enabled && !j.driveSwing.enabled) return;
    const Quat q = rows::relativeRotation(c);
    const rows::SwingTwist st = rows::swingTwist(q);
    const Vec3 ax = basisX(c.cA2w.q), ay = basisY(c.cA2w.q), az = basisZ(c.cA2w.q);
    const Real twistAngle = c.memory ? c.memory->unwrap(0, st.twist) : st.twist;
    const Vec3 wT = c.cA2w.q * j.driveAngularVelocity;  // target angular velocity, world
    const bool anyLocked = twist == D6Motion::Locked || s1 == D6Motion::Locked || s2 == D6Motion::Locked;
    if (!anyLocked && j.driveSlerp.enabled) {
        // Rotation vector from the target to the current relative rotation, in frame A.
        const Quat err = positiveW(glm::conjugate(j.driveRotation) * q);
        const Real s = std::sqrt(err.x * err.x + err.y * err.y + err.z * err.z);
        const Real angle = 2.0 * std::atan2(s, err.w);
        const Vec3 rotvecT =
            s > 1e-12 ? Vec3(err.x, err.y, err.z) * (angle / s) : Vec3(2.0 * err.x, 2.0 * err.y, 2.0 * err.z);
        const Vec3 rotvecA = j.driveRotation * rotvecT;
        const Vec3 axesA[3] = {ax, ay, az};
        for (int k = 0; k < 3; ++k)
            rows::driveRow(rows::angularCoordinate(axesA[k], rotvecA[k]), j.driveSlerp, 0.0,
                           glm::dot(wT, axesA[k]), kSlerpLabels[k], out);
        return;
    }
    const rows::SwingTwist target = rows::swingTwist(j.driveRotation);
    if (twist != D6Motion::Locked)
        rows::driveRow(rows::angularCoordinate(ax, twistAngle), j.driveTwist, target.twist, glm::dot(wT, ax),
                       "twist drive", out);
    if (s1 != D6Motion::Locked)
        rows::driveRow(rows::angularCoordinate(ay, st.swingY), j.driveSwing, target.swingY, glm::dot(wT, ay),
                       "swing Y drive", out);
    if (s2 != D6Motion::Locked)
        rows::driveRow(rows::angularCoordinate(az, st.swingZ), j.driveSwing, target.swingZ, glm::dot(wT, az),
                       "swing Z drive", out);
}

}  // namespace

void prep(const D6Joint& j, const PrepContext& c, RowWriter& out) {
    // Drives first, locks and limits last: the last row of a Gauss-Seidel sweep has the final
    // word, and hard rows must win over actuators pushing against them.
    linearPart(j, c, out);  // (linear drives first inside)
    angularDrives(j, c, out);
    angularPart(j, c, out);
}

// Each limited motion where prep measures it: slide ranges along A's axes (or, with the distance
// limit, its radius as circles in the planes of limited axes), the twist sector, the swing cone
// or, with one swing limited, that swing's sector; the drive target pose.
void D6Joint::sketch(JointSketch& out) const {
    bool limited[6];
    for (int k = 0; k < 6; ++k) limited[k] = motion[k] == D6Motion::Limited;
    if (distanceLimitEnabled) {
        const Real r = distanceLimit.upper;
        for (int k = 0; k < 3; ++k)
            if (limited[(k + 1) % 3] && limited[(k + 2) % 3])
                out.add(sketch::Circle{.normalAxis = k, .radius = r});
        const int count = int(limited[kD6X]) + int(limited[kD6Y]) + int(limited[kD6Z]);
        for (int k = 0; k < 3 && count == 1; ++k)
            if (limited[k]) out.add(sketch::Range{.axis = k, .lower = -r, .upper = r});
    } else {
        for (int k = 0; k < 3; ++k)
            if (limited[k])
                out.add(
                    sketch::Range{.axis = k, .lower = linearLimit[k].lower, .upper = linearLimit[k].upper});
    }
    if (limited[kD6Twist])
        out.add(sketch::Arc{.u = Vec3(0, 1, 0),
                            .w = Vec3(0, 0, 1),
                            .from = twistLimit.lower,
                            .to = twistLimit.upper,
                            .radius = 1.1});
    if (limited[kD6Swing1] && limited[kD6Swing2]) {
        out.add(sketch::Cone{.yAngle = swingLimit.yAngle, .zAngle = swingLimit.zAngle, .length = 1.2});
    } else if (limited[kD6Swing1]) {  // about Y: X turns towards −Z
        out.add(sketch::Arc{.u = Vec3(1, 0, 0),
                            .w = Vec3(0, 0, -1),
                            .from = -swingLimit.yAngle,
                            .to = swingLimit.yAngle,
                            .radius = 1.2});
    } else if (limited[kD6Swing2]) {  // about Z: X turns towards +Y
        out.add(sketch::Arc{.u = Vec3(1, 0, 0),
                            .w = Vec3(0, 1, 0),
                            .from = -swingLimit.zAngle,
                            .to = swingLimit.zAngle,
                            .radius = 1.2});
    }
    const bool anyDrive = driveX.enabled || driveY.enabled || driveZ.enabled || driveTwist.enabled ||
                          driveSwing.enabled || driveSlerp.enabled;
    if (anyDrive) out.add(sketch::DriveTarget{Transform{drivePosition, driveRotation}});
}

}  // namespace jl
