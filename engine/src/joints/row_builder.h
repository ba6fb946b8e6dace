// Shared row builders for joint prep functions (the role of PhysX's ConstraintHelper).
//
// Conventions (see jointlab/row.h): row velocity v = linear0·v0 + angular0·ω0 − linear1·v1 −
// angular1·ω1, and geometricError = C with dC/dt = v.
#pragma once

#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl::rows {

/// Hard linear equality along world axis a through the two anchors (eq. 41–43):
/// C = a·(p0 − p1), J = {a, r0 × a, −a, −(r1 × a)}.
Row* linearLock(const PrepContext& c, const Vec3& a, const char* label, RowWriter& out);

/// Hard angular equality about world axis a with the given error (dC/dt = a·(ω0 − ω1), eq. 33).
Row* angularLock(const Vec3& a, Real error, const char* label, RowWriter& out);

/// Locks all three relative rotations: rows about body 0's joint axes with C_k = −2·(qA⁻¹qB).vec_k.
void lockRotation(const PrepContext& c, RowWriter& out);

/// Locks the relative translation along the listed axes (0 = x, 1 = y, 2 = z) of body 0's joint frame.
void lockLinearAxes(const PrepContext& c, bool x, bool y, bool z, RowWriter& out);

/// Relative rotation of joint frame B in joint frame A, w >= 0.
inline Quat relativeRotation(const PrepContext& c) { return positiveW(glm::conjugate(c.cA2w.q) * c.cB2w.q); }

}  // namespace jl::rows
