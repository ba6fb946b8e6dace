// JointLab app — the scene shown when no scenario is given.
#pragma once

#include <string>

#include "jointlab/scene.h"

namespace jl::app {

/// Path of assets/scenarios/showcase.json: the source tree's copy (JOINTLAB_ASSET_DIR) or one next
/// to the executable (<exe dir>/assets or <exe dir>/../assets). Empty when none exists.
std::string findShowcaseScenario();

/// A small showcase built in code (used when no showcase.json is found): a pendulum on a hinge, a
/// swinging door, a block on a vertical slider held by a spring, and a hanging chain of capsules.
Scene makeBuiltInShowcase();

/// File > New: no bodies, default settings (ground plane on), the default camera.
Scene makeEmptyScene();

}  // namespace jl::app
