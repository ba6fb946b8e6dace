// JointLab app — editable rows generated from a field list (see field_editor.cpp).
#pragma once

#include <functional>
#include <vector>

#include "editor/field_access.h"
#include "shell/app_state.h"

namespace jl::app {

/// Returns true for fields to leave out.
using FieldFilter = std::function<bool(const FieldInfo&)>;

/// One row per field (label with unit, widget). Fields sharing a prefix ("limit.lower",
/// "limit.upper") are grouped under a tree node, open when the group is switched on. Edits become
/// setField commands in `requests`.
void drawFieldList(const std::vector<FieldInfo>& fields, const FieldOwner& owner, const Scene& scene,
                   InspectorState& state, UiRequests& requests, const FieldFilter& skip = {});

}  // namespace jl::app
