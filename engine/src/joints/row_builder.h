// Shared row builders for joint prep functions (the role of PhysX's ConstraintHelper).
//
// Conventions (see jointlab/row.h): row velocity v = linear0·v0 + angular0·ω0 − linear1·v1 −
// angular1·ω1, and geometricError = C with dC/dt = v.
#pragma once

#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"
#include "joints/parts/lock_parts.h"

namespace jl::rows {

/// The context's joint frames and lever arms as the lock parts take them (joints/parts/lock_parts.h).
parts::Frames<Real> lockFrames(const PrepContext& c);

/// Appends one lock row (parts::Lock), every field of the Row written once: a hard equality that
/// reports force, flagged angular when `angular`, row `blockIndex` of a block of `blockSize`
/// rows (Row::blockSize; 0: not in a block).
Row* writeLock(const parts::Lock<Real>& lock, bool angular, const char* label, RowWriter& out,
               int blockSize = 0, int blockIndex = 0);

/// The labels of the lock rows by their place (parts::lockRows's `row`): linear X, Y, Z, then
/// angular X, Y, Z (body 0's joint frame).
inline constexpr const char* kLockLabels[6] = {"linear X lock",  "linear Y lock",  "linear Z lock",
                                               "angular X lock", "angular Y lock", "angular Z lock"};

/// The rows of the lock parts `parts` (parts::LockPart bits; parts::lockRows with L = Real),
/// labelled by kLockLabels, the linear ones a block (parts::pointBlockSize). The only place a
/// joint's lock rows are written.
void locks(const PrepContext& c, unsigned parts, RowWriter& out);

/// parts::hingeLock with the joint's own labels for its two rows (about A's Y and Z axes).
void hingeLock(const PrepContext& c, const char* labelY, const char* labelZ, RowWriter& out);

/// Hard linear equality along world axis a through the two anchors (parts::linearLock).
Row* linearLock(const PrepContext& c, const Vec3& a, const char* label, RowWriter& out);

/// Hard angular equality about world axis a with the given error (parts::angularLock).
Row* angularLock(const Vec3& a, Real error, const char* label, RowWriter& out);

/// Relative rotation of joint frame B in joint frame A, w >= 0.
inline Quat relativeRotation(const PrepContext& c) {
    return positiveW(glm::conjugate(c.cA2w.q) * c.cB2w.q);
}

}  // namespace jl::rows

#include "jointlab/joints/limits_drives.h"

namespace jl::rows {

/// A joint coordinate (a slide distance or an angle) and the row Jacobian of its rate:
/// row velocity = d(value)/dt.
struct Coordinate {
    Vec3 linear0{0.0}, angular0{0.0}, linear1{0.0}, angular1{0.0};
    Real value = 0.0;
    bool angular = false;
};

/// x = a·(p1 − p0): how far origin 1 sits along world axis a (body 0's joint axis), with the
/// term for the axis turning with body 0: ẋ = a·(v_p1 − v_p0) + (ω0 × a)·(p1 − p0).
Coordinate linearCoordinate(const PrepContext& c, const Vec3& a);

/// An angle θ whose rate is a·(ω1 − ω0) (body 1 turning about world axis a relative to body 0).
Coordinate angularCoordinate(const Vec3& a, Real angle);

/// Lower and upper limit rows for the coordinate (each only within its contact distance).
void limitRows(const Coordinate& x, const LimitPair& limit, const char* lowerLabel, const char* upperLabel,
               RowWriter& out);

/// One bound: keeps `sign·(x − bound) >= 0` (sign +1 for a lower bound, −1 for an upper bound).
Row* boundRow(const Coordinate& x, Real sign, Real bound, Real contactDistance, Real restitution,
              Real bounceThreshold, Real stiffness, Real damping, const char* label, RowWriter& out);

/// A drive row: implicit spring pulling x to `target` and ẋ to `targetVelocity`.
Row* driveRow(const Coordinate& x, const Drive& d, Real target, Real targetVelocity, const char* label,
              RowWriter& out);

/// Swing-twist split of a relative rotation q = swing·twist (twist about X, swing about an axis
/// in the YZ plane). Angles in rad; swingY/swingZ are the swing angle's components about Y and Z.
struct SwingTwist {
    Real twist = 0.0;
    Real swing = 0.0;     ///< total swing angle ≥ 0
    Vec3 swingAxis{0.0};  ///< unit axis in the YZ plane of frame A (zero when swing ≈ 0)
    Real swingY = 0.0, swingZ = 0.0;
};
SwingTwist swingTwist(const Quat& q);

/// Elliptical swing cone row (see jointlab/joints/spherical.h for C and J).
void coneRow(const PrepContext& c, const SwingTwist& st, const ConeLimit& cone, RowWriter& out);

/// The joint's twist angle (about frame A's X), unwrapped through full turns in memory slot
/// `slot` when the context has memory.
Real trackedTwist(const PrepContext& c, const Quat& qRel, int slot);

}  // namespace jl::rows
