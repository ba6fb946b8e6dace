// The side columns' inner edges: drag one to make its column wider or narrower (the widths are
// remembered between runs, session/ui_settings.h). Each edge is a thin window of its own over the
// border, so that Dear ImGui gives it the mouse (and the viewport does not).
#include <imgui.h>

#include "panels/panels.h"

namespace jl::app {

namespace {

/// A vertical grip at x (display px) over the columns' height; returns the mouse's x motion while
/// it is dragged (0 otherwise).
float verticalGrip(const char* id, float x, float top, float height) {
    const float width = px(6.0f);
    ImGui::SetNextWindowPos(ImVec2(x - width * 0.5f, top));
    ImGui::SetNextWindowSize(ImVec2(width, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    float dx = 0.0f;
    if (ImGui::Begin(id, nullptr, flags)) {
        ImGui::InvisibleButton("##grip", ImVec2(width, height));
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
            ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
            ImGui::GetWindowDrawList()->AddLine(ImVec2(x, top), ImVec2(x, top + height),
                                                ImGui::GetColorU32(ImGuiCol_SeparatorHovered), px(2.0f));
        }
        if (ImGui::IsItemActive()) dx = ImGui::GetIO().MouseDelta.x;
        if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
            ImGui::SetTooltip("drag to widen or narrow the panels");
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
    return dx;
}

}  // namespace

void drawSplitters(AppState& state) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const UiLayout& l = state.layout;
    const float top = l.menuBarHeight, height = display.y - l.menuBarHeight - l.statusBarHeight;
    if (height <= 0.0f) return;
    if (l.leftWidth > 0.0f)
        if (const float dx = verticalGrip("##left edge", l.leftWidth, top, height); dx != 0.0f)
            state.layoutPrefs = dragLeftEdge(state.layoutPrefs, dx, display.x, l.scale);
    if (l.rightWidth > 0.0f)
        if (const float dx = verticalGrip("##right edge", display.x - l.rightWidth, top, height); dx != 0.0f)
            state.layoutPrefs = dragRightEdge(state.layoutPrefs, dx, display.x, l.scale);
}

}  // namespace jl::app
