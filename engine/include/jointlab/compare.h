// JointLab engine — A/B compare: a second World from the same state with some fields changed
// (settings, a body's or a joint's parameters, named by field paths as in the scenario file),
// stepped in lockstep with the first, and how far the two drift apart.
//
//     std::vector<FieldChange> changes;
//     parseFieldChanges(a.scene(), "settings.solver=tgs,settings.posIters=8", changes);  // "" = ok
//     std::unique_ptr<World> b = compareWorld(a, changes, error);
//     for (...) { a.step(); b->step(); maxPositionDivergence(a, *b); }
//
// With no change the two never differ by a bit (determinism), which the tests check.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jointlab/field_path.h"
#include "jointlab/world.h"

namespace jl {

/// One field of the scene set to a value.
struct FieldChange {
    FieldPath path;
    FieldPathValue value;
};

/// Parses "PATH=VALUE[,PATH=VALUE…]" for `scene`: every path resolved, every value of the field's
/// kind and in its range. Returns "" or one line naming the entry and the problem; `out` is
/// unchanged on failure.
std::string parseFieldChanges(const Scene& scene, std::string_view text, std::vector<FieldChange>& out);

/// The fields of `b` that differ from `a`'s, as "PATH=VALUE,…" for parseFieldChanges (settings,
/// bodies and joints matched by index; the two scenes must have the same bodies and joints, as a
/// scene and a copy of it with some fields set do). "" when no field path differs.
std::string fieldChangesBetween(const Scene& a, const Scene& b);

/// B: a World of A's scene with the changes made, at A's state now (its snapshot). Null, with
/// `error` naming the problem (a cross-field rule the changed scene breaks), when it cannot be built.
std::unique_ptr<World> compareWorld(const World& a, const std::vector<FieldChange>& changes,
                                    std::string& error);

/// The largest distance between a body's centre in `a` and the same body's in `b` [m].
Real maxPositionDivergence(const World& a, const World& b);

}  // namespace jl
