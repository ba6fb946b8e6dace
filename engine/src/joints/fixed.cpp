// Fixed joint prep; the derivation of C and J is in jointlab/joints/fixed.h.
#include "jointlab/joints/fixed.h"

#include "joints/lock_only.h"
#include "joints/row_builder.h"

namespace jl {

namespace {
/// A point lock and a rotation lock: six rows.
constexpr unsigned kFixedLocks = parts::kLockPoint | parts::kLockRotation;
}  // namespace

unsigned lockOnlyParts(const FixedJoint&) {
    return kFixedLocks;
}

void prep(const FixedJoint&, const PrepContext& c, RowWriter& out) {
    rows::locks(c, kFixedLocks, out);
}

}  // namespace jl
