// JointLab app — where the panels go: the pinned side columns (Scene above Solver on the left,
// Inspector on the right), the Plots dock under the viewport and the 3D viewport in between, from
// the display size, the UI scale and the widths the person dragged the columns to. No ImGui here,
// so that the layout at every screen size is unit-tested (tests/app/layout_test.cpp).
//
// Sizes in LayoutPrefs are "design pixels": pixels at UI scale 1 (a 15 px font). Everything the
// layout returns is in display pixels, i.e. design pixels times the scale.
#pragma once

namespace jl::app {

/// Which windows are open.
struct PanelVisibility {
    bool scene = true;
    bool inspector = true;
    bool simulation = true;
    bool about = false;
    bool controls = false;
    bool plots = true;        ///< the Plots dock under the viewport (Plots and Rows tabs)
    bool jointTypes = false;  ///< Help > Joint types
};

/// What the person chose by dragging the panels' edges; remembered between runs (layout_store.h).
struct LayoutPrefs {
    float leftWidth = 310.0f;   ///< Scene + Solver column [design px]
    float rightWidth = 330.0f;  ///< Inspector column [design px]
    float dockShare = 0.42f;    ///< Plots dock: its share of the height between menu and status bar
};

/// The Plots dock's share of the height while the Step tab is in front, at least: stepping
/// inside a step shows the rows, the stepper's controls and a row's equation (up to 17 lines) at
/// once, which the default share (0.42) cuts to four lines at 1280x720.
inline constexpr float kStepDockShare = 0.64f;

/// The dock's share this frame: the person's, raised to kStepDockShare while the Step tab is in
/// front (their own share comes back with any other tab).
float dockShareFor(const LayoutPrefs& prefs, bool stepTabInFront);

/// Fonts and spacing the layout depends on.
struct LayoutMetrics {
    float scale = 1.0f;         ///< UI scale: design px → display px (the monitor's content scale, --scale)
    float frameHeight = 21.0f;  ///< height of a framed widget and of the menu bar [display px]
};

/// Limits that keep every panel reachable and readable [design px].
inline constexpr float kMinColumnWidth = 230.0f;    ///< a side column never gets narrower
inline constexpr float kMinViewportWidth = 320.0f;  ///< the viewport keeps at least this much ...
inline constexpr float kMinViewportShare = 0.34f;   ///< ... or this share of the width, the larger
inline constexpr float kMinViewportHeight = 150.0f;
inline constexpr float kMinDockHeight = 130.0f;
inline constexpr float kMinSceneHeight = 140.0f;  ///< the Scene panel above the Solver panel

/// Screen areas taken by the fixed panels this frame [display px]; the 3D viewport is the rest.
struct UiLayout {
    float scale = 1.0f;
    float menuBarHeight = 0.0f;
    float statusBarHeight = 0.0f;
    float leftWidth = 0.0f;         ///< scene + simulation column (0 when both are closed)
    float rightWidth = 0.0f;        ///< inspector column (0 when closed)
    float simulationHeight = 0.0f;  ///< Simulation panel at the bottom of the left column (0 when closed)
    float bottomHeight = 0.0f;      ///< Plots dock under the viewport, between the columns (0 when closed)
};

/// The layout for a display of `width` × `height` display px. Columns take their preferred
/// widths; on a narrow display they shrink (not below kMinColumnWidth) so that the viewport keeps
/// its minimum; the Solver panel takes its content's height, at most 60 % of the column, leaving
/// the Scene panel kMinSceneHeight; the dock takes its share, between kMinDockHeight and what
/// leaves the viewport kMinViewportHeight (none when even that does not fit).
UiLayout computeLayout(const PanelVisibility& panels, float width, float height, const LayoutMetrics& metrics,
                       const LayoutPrefs& prefs, float simulationContentHeight);

/// A rectangle in display px (origin top-left).
struct PanelRect {
    float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;
    float right() const { return x + w; }
    float bottom() const { return y + h; }
};

/// Where each pinned panel is for a layout (w = h = 0: closed).
struct PanelRects {
    PanelRect scene, solver, inspector, dock, viewport;
};
PanelRects panelRects(const UiLayout& layout, const PanelVisibility& panels, float width, float height);

/// How much of the viewport's top and bottom the floating tool bar and the timeline cover
/// [display px], as the panels measured them when last drawn.
struct ViewportCover {
    float top = 0.0f, bottom = 0.0f;
};
/// The part of the viewport that no panel covers: where a scene is framed (CameraFit).
PanelRect uncoveredViewport(const PanelRect& viewport, const ViewportCover& cover);

/// Where the viewport's PAUSED badge (`badge`: its size in w, h) goes: the viewport's top right
/// corner, `margin` px in, or under the floating tool bar (`toolbar`) when the bar reaches that
/// corner (the joint tool's wider bar did at 1280x720, and hid the badge).
PanelRect pausedBadgeRect(const PanelRect& viewport, const PanelRect& toolbar, PanelRect badge, float margin);

/// The preferences after dragging an edge: a column's inner edge or the dock's top edge moved by
/// `delta` display px; kept within what computeLayout can honour at this display size.
LayoutPrefs dragLeftEdge(LayoutPrefs prefs, float delta, float width, float scale);
LayoutPrefs dragRightEdge(LayoutPrefs prefs, float delta, float width, float scale);
LayoutPrefs dragDockEdge(LayoutPrefs prefs, float delta, float columnHeight);

/// How `count` plots share an area of `width` × `height` display px in the Plots tab: the grid
/// shape that gives every plot the most room next to a comfortable plot (kComfortPlotWidth ×
/// kComfortPlotHeight) wins, so that four plots in a small dock sit two by two instead of in a
/// column running off the bottom. Cells are never lower than kMinPlotHeight: beyond that the
/// grid scrolls (and scrolls to a newly added plot).
inline constexpr float kComfortPlotWidth = 420.0f, kComfortPlotHeight = 190.0f;  ///< [design px]
inline constexpr float kMinPlotWidth = 220.0f, kMinPlotHeight = 115.0f;          ///< [design px]

struct PlotGrid {
    int columns = 1, rows = 1;
    float cellWidth = 0.0f, cellHeight = 0.0f;  ///< [display px]
};
PlotGrid plotGrid(int count, float width, float height, float scale, float gap);

}  // namespace jl::app
