// This frame's layout: shell/layout.h's computeLayout with Dear ImGui's measures.
#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

UiLayout computeFrameLayout(const AppState& state, const ImVec2& displaySize, float uiScale) {
    const LayoutMetrics metrics{uiScale, ImGui::GetFrameHeight()};
    LayoutPrefs prefs = state.layoutPrefs;
    prefs.dockShare = dockShareFor(prefs, state.teach.stepTabInFront);
    return computeLayout(state.panels, displaySize.x, displaySize.y, metrics, prefs,
                         state.simulationContentHeight);
}

}  // namespace jl::app
