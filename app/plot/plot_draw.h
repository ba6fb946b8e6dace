// JointLab plot widget (private) — placing and drawing the parts of a plot: frame, axes, ticks and
// labels, series, threshold lines and event markers, legend, hover readout. Called by EndPlot.
// The series are drawn in plot_lines.cpp, the rest in plot_draw.cpp.
#pragma once

#include <imgui.h>

#include "plot/plot.h"

namespace jl::plot {

/// Where the parts of a plot go, in screen pixels.
struct Layout {
    ImVec2 areaMin, areaMax;  ///< the data area
    float lineHeight = 0.0f;
    ImVec2 titlePos, yLabelPos, xLabelPos;
    int yLabel = -1;  ///< the value-axis label as drawn (offset into Building::labels; "…" if cut)
    int title = -1;   ///< the title as drawn (Building::title is the whole one)
    /// The legend (empty without one): above the data area or in a column right of it, never
    /// over it (layoutLegend in plot_draw.cpp). Entry positions are in Building::legendEntries;
    /// when they do not fit, it is one "N series" entry (legendCollapsed).
    ImVec2 legendMin{0, 0}, legendMax{0, 0};
    bool legendCollapsed = false;
    float legendColumn = 0.0f;        ///< width a legend column takes right of the data area [px]; 0: none
    double xStep = 0.0, yStep = 0.0;  ///< major tick steps (label precision)
    /// Screen x = xOffset + xScale·x; screen y = yOffset + yScale·y (log axis: of log10 y).
    double xOffset = 0.0, xScale = 1.0, yOffset = 0.0, yScale = 1.0;
    bool logY = false;

    float width() const { return areaMax.x - areaMin.x; }
    float height() const { return areaMax.y - areaMin.y; }
};

/// Chooses the ticks (into b.xTicks, b.yTicks) and places the data area so tick labels fit.
Layout layoutPlot(detail::Building& b, const PlotResult& r, float titleReserve);

/// Screen position of a data point (may lie outside the area).
ImVec2 toScreen(const Layout& l, const PlotResult& r, double x, double y);

void drawFrameAndAxes(ImDrawList* draw, detail::Building& b, const Layout& l, const PlotResult& r);
/// Draws the visible series; returns how many had points.
int drawSeries(ImDrawList* draw, detail::Building& b, const Layout& l, const PlotResult& r);
void drawMarkers(ImDrawList* draw, const detail::Building& b, const Layout& l, const PlotResult& r);
/// Draws the legend where layoutPlot placed it (above or right of the data area) and toggles series
/// clicked in it;
/// returns true when the mouse is over it.
bool drawLegend(ImDrawList* draw, const detail::Building& b, PlotState& state, const Layout& l,
                PlotResult& r);
/// The list of every series a collapsed legend opens (a popup with a scroll list: click to hide or
/// show one). Draws nothing while the popup is closed.
void legendList(const detail::Building& b, PlotState& state);
/// Cursor line, points and tooltip at the mouse.
void drawReadout(ImDrawList* draw, const detail::Building& b, const Layout& l, PlotResult& r);

}  // namespace jl::plot
