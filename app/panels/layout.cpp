#include <imgui.h>

#include <algorithm>

#include "panels/panels.h"

namespace jl::app {

namespace {
constexpr float kLeftColumnWidth = 310.0f;   // Scene + Simulation [ImGui pixels]
constexpr float kRightColumnWidth = 330.0f;  // Inspector
constexpr float kMinViewportWidth = 200.0f;
}  // namespace

UiLayout computeLayout(const PanelVisibility& panels, const ImVec2& displaySize,
                       float simulationContentHeight) {
    const float displayWidth = displaySize.x;
    UiLayout layout;
    layout.menuBarHeight = ImGui::GetFrameHeight();
    layout.statusBarHeight = ImGui::GetFrameHeight() + 2.0f;
    layout.leftWidth = (panels.scene || panels.simulation) ? kLeftColumnWidth : 0.0f;
    layout.rightWidth = panels.inspector ? kRightColumnWidth : 0.0f;
    // On a narrow window the columns shrink so that some viewport remains.
    float columns = layout.leftWidth + layout.rightWidth;
    if (columns > 0.0f && displayWidth - columns < kMinViewportWidth) {
        float scale = std::max(0.0f, displayWidth - kMinViewportWidth) / columns;
        layout.leftWidth *= scale;
        layout.rightWidth *= scale;
    }
    if (panels.simulation) {
        const float column = displaySize.y - layout.menuBarHeight - layout.statusBarHeight;
        layout.simulationHeight = panels.scene ? std::min(simulationContentHeight, column * 0.6f) : column;
    }
    return layout;
}

}  // namespace jl::app
