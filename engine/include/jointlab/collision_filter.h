// Which bodies never touch because a joint joins them: the one rule the collider
// (contacts/collide.cpp) and the MJCF export (interop/mjcf_export.cpp) both follow.
#pragma once

#include <utility>
#include <vector>

#include "jointlab/scene.h"

namespace jl {

/// The pairs of scene bodies (body indices, lower first, sorted, each once) that a joint keeps from
/// touching (docs/contacts.md "Who collides"):
/// - two bodies joined by a joint whose collideConnected is off (PhysX's default);
/// - the two ends of a chain of bodies that touch nothing (collision group or mask 0) joined by
///   such joints: those bodies are frames between joints (an imported multi-joint body,
///   docs/import.md), and the chain's ends are joined as MuJoCo's parent and child are. A group of
///   non-colliding bodies with more than two colliding bodies joined to it (a mount bar holding ten
///   pendulums) is not a joint between them and excludes nothing.
/// Linear in the bodies and joints (names are looked up in a hash map, never by a scan per joint).
std::vector<std::pair<int, int>> jointExcludedPairs(const Scene& scene);

}  // namespace jl
