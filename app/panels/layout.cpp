// This frame's layout: shell/layout.h's computeLayout with Dear ImGui's measures.
#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

UiLayout computeFrameLayout(const AppState& state, const ImVec2& displaySize, float uiScale) {
    const LayoutMetrics metrics{uiScale, ImGui::GetFrameHeight()};
    return computeLayout(state.panels, displaySize.x, displaySize.y, metrics, state.layoutPrefs,
                         state.simulationContentHeight);
}

}  // namespace jl::app
