// Joints whose rows can be nothing but lock parts (joints/parts/lock_parts.h) say so here, next to
// their prep functions: lockOnlyParts(joint) is the LockPart bits its prep writes with rows::locks
// when, as configured, those are all of its rows, and 0 otherwise. PGS with AVX2 prepares batches
// of such joints four at a time with the same parts (solver/fast/setup_avx2.cpp,
// World::Impl::lockBatch); tests/engine/one_source_test.cpp checks that the rows agree.
#pragma once

#include "jointlab/joint.h"

namespace jl {

unsigned lockOnlyParts(const FixedJoint& j);      // joints/fixed.cpp
unsigned lockOnlyParts(const RevoluteJoint& j);   // joints/revolute.cpp
unsigned lockOnlyParts(const SphericalJoint& j);  // joints/spherical.cpp
/// Every other joint type has rows of its own besides any locks.
template <class J>
unsigned lockOnlyParts(const J&) {
    return 0;
}

}  // namespace jl
