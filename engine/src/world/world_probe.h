// Read access to a World's runtime data for tests (tests/engine include engine/src): the rows,
// the solver's slots and where each row sits in them. The engine itself never uses it.
#pragma once

#include "world/world_impl.h"

namespace jl {

struct WorldProbe {
    using Impl = World::Impl;
    static const Impl& impl(const World& w) { return *w.impl_; }
};

}  // namespace jl
