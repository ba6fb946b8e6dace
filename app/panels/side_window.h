// JointLab app — placing the fixed side panels.
#pragma once

#include <imgui.h>

namespace jl::app {

/// Flags of a panel pinned to the layout: a title bar (and close box) but no moving or resizing.
inline constexpr ImGuiWindowFlags kPinnedPanelFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

/// Places the next window at (x, y) with size (w, h), every frame.
inline void pinNextWindow(float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
}

}  // namespace jl::app
