#include "shell/layout.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

namespace {

constexpr float kMaxColumnShare = 0.45f;  ///< a dragged column never takes more of the width
constexpr float kMinDockShare = 0.12f, kMaxDockShare = 0.85f;
constexpr float kHardViewportShare = 0.25f;  ///< what the viewport keeps when columns are at their minimum
constexpr float kMaxSolverShare = 0.6f;      ///< of the left column

/// Shrinks open columns to fit `room`, proportionally, then lifts each to the readable minimum
/// where the display allows it (the viewport then keeps kHardViewportShare).
void fitColumns(float& left, float& right, float width, float scale) {
    const float minView = std::max(kMinViewportWidth * scale, kMinViewportShare * width);
    const float room = std::max(0.0f, width - minView);
    if (left + right <= room) return;
    const float f = room / (left + right);
    left *= f;
    right *= f;
    const int open = (left > 0.0f) + (right > 0.0f);
    const float floor = std::min(kMinColumnWidth * scale, width * (1.0f - kHardViewportShare) / open);
    if (left > 0.0f) left = std::max(left, floor);
    if (right > 0.0f) right = std::max(right, floor);
}

float dockHeight(const PanelVisibility& panels, float column, float between, float share, float scale) {
    if (!panels.plots || between < 100.0f * scale) return 0.0f;
    const float minDock = kMinDockHeight * scale, maxDock = column - kMinViewportHeight * scale;
    if (maxDock < minDock) return 0.0f;  // no room: the viewport keeps it all
    return std::clamp(std::round(share * column), minDock, maxDock);
}

}  // namespace

float dockShareFor(const LayoutPrefs& prefs, bool stepTabInFront) {
    return stepTabInFront ? std::max(prefs.dockShare, kStepDockShare) : prefs.dockShare;
}

UiLayout computeLayout(const PanelVisibility& panels, float width, float height, const LayoutMetrics& metrics,
                       const LayoutPrefs& prefs, float simulationContentHeight) {
    const float s = metrics.scale;
    UiLayout layout;
    layout.scale = s;
    layout.menuBarHeight = metrics.frameHeight;
    layout.statusBarHeight = metrics.frameHeight + 2.0f * s;
    layout.leftWidth = (panels.scene || panels.simulation) ? std::round(prefs.leftWidth * s) : 0.0f;
    layout.rightWidth = panels.inspector ? std::round(prefs.rightWidth * s) : 0.0f;
    fitColumns(layout.leftWidth, layout.rightWidth, width, s);
    layout.leftWidth = std::round(layout.leftWidth);
    layout.rightWidth = std::round(layout.rightWidth);
    const float column = std::max(0.0f, height - layout.menuBarHeight - layout.statusBarHeight);
    if (panels.simulation) {
        layout.simulationHeight = panels.scene ? std::min({simulationContentHeight, column * kMaxSolverShare,
                                                           std::max(0.0f, column - kMinSceneHeight * s)})
                                               : column;
    }
    layout.bottomHeight =
        dockHeight(panels, column, width - layout.leftWidth - layout.rightWidth, prefs.dockShare, s);
    return layout;
}

PanelRects panelRects(const UiLayout& l, const PanelVisibility& panels, float width, float height) {
    PanelRects r;
    const float top = l.menuBarHeight, bottom = height - l.statusBarHeight;
    const float column = bottom - top;
    if (panels.scene) r.scene = {0.0f, top, l.leftWidth, column - l.simulationHeight};
    if (panels.simulation) r.solver = {0.0f, bottom - l.simulationHeight, l.leftWidth, l.simulationHeight};
    if (panels.inspector) r.inspector = {width - l.rightWidth, top, l.rightWidth, column};
    const float between = width - l.leftWidth - l.rightWidth;
    if (l.bottomHeight > 0.0f) r.dock = {l.leftWidth, bottom - l.bottomHeight, between, l.bottomHeight};
    r.viewport = {l.leftWidth, top, std::max(1.0f, between), std::max(1.0f, column - l.bottomHeight)};
    return r;
}

PanelRect uncoveredViewport(const PanelRect& viewport, const ViewportCover& cover) {
    PanelRect r = viewport;
    r.y += std::min(cover.top, viewport.h);
    r.h = std::max(0.0f, viewport.bottom() - cover.bottom - r.y);
    return r;
}

PanelRect pausedBadgeRect(const PanelRect& viewport, const PanelRect& toolbar, PanelRect badge,
                          float margin) {
    badge.x = viewport.right() - margin - badge.w;
    badge.y = viewport.y + margin;
    const bool overlaps = toolbar.w > 0.0f && toolbar.h > 0.0f && badge.x < toolbar.right() &&
                          toolbar.x < badge.right() && badge.y < toolbar.bottom() &&
                          toolbar.y < badge.bottom();
    if (overlaps) badge.y = toolbar.bottom() + 0.5f * margin;
    return badge;
}

LayoutPrefs dragLeftEdge(LayoutPrefs prefs, float delta, float width, float scale) {
    prefs.leftWidth =
        std::clamp(prefs.leftWidth + delta / scale, kMinColumnWidth, kMaxColumnShare * width / scale);
    return prefs;
}

LayoutPrefs dragRightEdge(LayoutPrefs prefs, float delta, float width, float scale) {
    // The right column's inner edge is its left edge: dragging it left (delta < 0) widens it.
    prefs.rightWidth =
        std::clamp(prefs.rightWidth - delta / scale, kMinColumnWidth, kMaxColumnShare * width / scale);
    return prefs;
}

LayoutPrefs dragDockEdge(LayoutPrefs prefs, float delta, float columnHeight) {
    if (columnHeight > 0.0f)
        prefs.dockShare = std::clamp(prefs.dockShare - delta / columnHeight, kMinDockShare, kMaxDockShare);
    return prefs;
}

PlotGrid plotGrid(int count, float width, float height, float scale, float gap) {
    PlotGrid best;
    if (count <= 0) return best;
    float bestScore = -1.0f;
    const int maxColumns = std::max(1, std::min(count, static_cast<int>(width / (kMinPlotWidth * scale))));
    for (int c = 1; c <= maxColumns; ++c) {
        const int r = (count + c - 1) / c;
        const float w = std::floor((width - gap * static_cast<float>(c - 1)) / static_cast<float>(c));
        const float h = std::floor((height - gap * static_cast<float>(r - 1)) / static_cast<float>(r));
        const float score = std::min(w / (kComfortPlotWidth * scale), h / (kComfortPlotHeight * scale));
        if (score > bestScore) {
            bestScore = score;
            best = PlotGrid{c, r, w, std::max(h, std::round(kMinPlotHeight * scale))};
        }
    }
    return best;
}

}  // namespace jl::app
