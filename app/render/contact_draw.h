// JointLab app — contact drawing: each contact point of the last step (World::contactPoints) as a
// dot, its normal, and the force its rows applied (normal and friction) as an arrow.
#pragma once

#include "jointlab/world.h"
#include "render/debug_draw.h"
#include "viewport/view_options.h"

namespace jl::app {

/// Draws the last step's contacts (View > Contacts). Arrows use the joints' force scale
/// (render/joint_draw.h arrowScales): the force is the rows' impulse over the step divided by dt.
void drawContacts(DebugDraw& lines, const World& world, const ViewOptions& options);

}  // namespace jl::app
