// JointLab app — design pixels: fixed sizes are given as they look at UI scale 1 (a 15 px font)
// and follow the font, so that a UI scale of 2 (--scale 2, a HiDPI monitor) doubles paddings,
// line widths and markers with the text. Used by the panels (panels/panels.h) and by the plot
// widget, which draws on its own (plot/).
#pragma once

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace jl::app {

/// The font size at UI scale 1 [px]: fixed sizes in the panels and plots are given at this size.
inline constexpr float kDesignFontSize = 15.0f;

/// Design pixels (sizes at UI scale 1) to display pixels.
inline float px(float designPixels) {
    return designPixels * ImGui::GetFontSize() * (1.0f / kDesignFontSize);
}

/// A line width in design pixels as display pixels, whole (at least 1): ImGui draws whole widths
/// with its baked anti-aliased texture, sharper than others.
inline float linePx(float designPixels) {
    return std::max(1.0f, std::round(px(designPixels)));
}

}  // namespace jl::app
