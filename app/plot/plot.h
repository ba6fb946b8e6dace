// JointLab plot widget — a compact line plot drawn on ImDrawList, with an API shaped like
// ImPlot's so it can be swapped for ImPlot later:
//
//     plot::Context plots;                          // owned by the caller; no static state
//     if (plot::BeginPlot(plots, "Impulse##pivot", ImVec2(-1, 220))) {
//         plot::SetupAxisX(plots, "time", "s");
//         plot::SetupAxisY(plots, "impulse", "N·s", &logScale);   // nullptr: no log toggle
//         plot::SetupAxisLimitsX(plots, now - 10.0, now);          // a moving 10 s window
//         plot::PlotLine(plots, "linear Y lock", times, values, count);
//         plot::PlotLineG(plots, "twist", getter, userData, count, colour);
//         plot::PlotHLine(plots, "break force", 500.0, colour);    // dashed threshold
//         plot::PlotEvent(plots, "broke", 3.25, colour);           // vertical marker
//         plot::EndPlot(plots);
//     }
//
// What it draws: a title, the value-axis label with its unit above the axis, the time-axis label
// with its unit at the bottom right, tick labels, grid lines, several coloured series (NaN values
// leave a gap), a legend whose entries hide/show their series when clicked, a hover readout
// (x and every visible series' value at the nearest sample, with a cursor line), dashed
// threshold lines with labels, event markers. The value axis auto-fits to the visible series
// unless the user fixed a range (right-click menu; double-click returns to auto-fit); it can be
// logarithmic (values <= 0 then leave gaps).
//
// State that lasts between frames (hidden series, fixed ranges) lives in the Context, keyed by
// the plot's ImGuiID. A series' x values must be ascending (time, sweep number).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <imgui.h>

#include "plot/plot_math.h"

namespace jl::plot {

using PlotFlags = int;
enum PlotFlags_ {
    PlotFlags_None = 0,
    PlotFlags_NoLegend = 1 << 0,  ///< no legend (and no click-to-hide)
    PlotFlags_NoReadout = 1 << 1, ///< no hover readout
    PlotFlags_NoMenu = 1 << 2,    ///< no right-click menu
};

struct Point {
    double x = 0.0, y = 0.0;
};
/// Returns the index-th point of a series (ImPlot's getter shape).
using Getter = Point (*)(int index, void* userData);

/// A palette colour for series `index` (Okabe-Ito, brightened for a dark background: tells
/// series apart for most colour-blind readers too).
ImU32 seriesColor(int index);
inline constexpr int kPaletteSize = 8;

/// Per-plot state kept between frames.
struct PlotState {
    bool autoFit = true;      ///< false: the value axis keeps `fixed`
    Range fixed{0.0, 1.0};    ///< the user's range
    std::vector<ImGuiID> hidden;  ///< series hidden from the legend
    int legendCorner = -1;        ///< 0 top left, 1 top right, 2 bottom left, 3 bottom right; -1 not placed yet
    bool isHidden(ImGuiID id) const;
    void toggle(ImGuiID id);
};

/// What the last EndPlot produced (for the caller: PNG export, tests).
struct PlotResult {
    ImVec2 frameMin{0, 0}, frameMax{0, 0};  ///< the whole widget, screen pixels
    ImVec2 areaMin{0, 0}, areaMax{0, 0};    ///< the data area inside the axes
    ImVec2 legendMin{0, 0}, legendMax{0, 0};  ///< the legend box (empty without a legend)
    Range x, y;                             ///< the ranges shown
    Scale yScale = Scale::Linear;
    int seriesDrawn = 0;          ///< visible series with at least one point
    bool saveImageRequested = false;  ///< "Save as PNG" chosen in the menu this frame
    bool hovered = false;
    int readoutLines = 0;   ///< series listed by the hover readout this frame (0: no readout)
    double readoutX = 0.0;  ///< the x the readout reports (the nearest sample's)
};

namespace detail {
/// The plot being built between BeginPlot and EndPlot. Its storage is reused frame to frame, so a
/// warm Context draws without allocating.
struct Building {
    struct Series {
        ImGuiID id = 0;
        int label = 0;  ///< offset into labels
        ImU32 color = 0;
        int first = 0, count = 0;  ///< range of points
    };
    struct Marker {
        int label = 0;
        double value = 0.0;
        ImU32 color = 0;
    };
    bool open = false;
    ImGuiID id = 0;
    PlotFlags flags = 0;
    ImVec2 frameMin, frameMax;
    bool hovered = false;
    int title = -1, xLabel = -1, yLabel = -1;  ///< offsets into labels, -1 = none
    bool* logScale = nullptr;
    bool hasXLimits = false, hasYLimits = false;
    Range xLimits, yLimits;
    std::string labels;  ///< '\0'-separated strings
    std::vector<Series> series;
    std::vector<Point> points;
    std::vector<Marker> hlines, events;
    std::vector<ImVec2> screen, decimated;  ///< drawing scratch
    std::vector<Tick> xTicks, yTicks;

    int addLabel(const char* text, const char* end = nullptr);
    const char* label(int offset) const { return offset < 0 ? "" : labels.c_str() + offset; }
};
}  // namespace detail

/// Everything the widget keeps: per-plot state by ImGuiID, the plot being built, the last result.
/// Owned by the caller (one per panel, say); no static or global state anywhere.
struct Context {
    /// Room kept free at the right end of every plot's title row for the caller's own buttons
    /// [px]; a title that does not fit is shortened with "…".
    float titleReserve = 0.0f;
    std::map<ImGuiID, PlotState> states;
    PlotResult last;
    detail::Building building;
};

/// Starts a plot of `size` (x or y <= 0: fill the available width / height) at the cursor.
/// Returns false when it is clipped away; then call nothing else for it (not even EndPlot).
/// The title may carry an "##id" suffix like any ImGui label.
bool BeginPlot(Context& ctx, const char* title, const ImVec2& size, PlotFlags flags = PlotFlags_None);
/// Label and unit of the time (x) axis: drawn as "label [unit]".
void SetupAxisX(Context& ctx, const char* label, const char* unit);
/// Label and unit of the value (y) axis. `logScale`: current scale; non-null also lets the user
/// switch it from the plot's menu (the bool is written).
void SetupAxisY(Context& ctx, const char* label, const char* unit, bool* logScale = nullptr);
/// Fixed x range this frame (a moving time window: [now − width, now]). Without it x fits the data.
void SetupAxisLimitsX(Context& ctx, double min, double max);
/// Fixed value range this frame (overrides auto-fit and the user's range).
void SetupAxisLimitsY(Context& ctx, double min, double max);

void PlotLineG(Context& ctx, const char* label, Getter getter, void* userData, int count, ImU32 color = 0);
void PlotLine(Context& ctx, const char* label, const double* xs, const double* ys, int count, ImU32 color = 0);
/// Any callable `Point f(int index)`.
template <class F>
void PlotLineF(Context& ctx, const char* label, int count, const F& f, ImU32 color = 0) {
    PlotLineG(
        ctx, label, [](int i, void* data) -> Point { return (*static_cast<const F*>(data))(i); },
        const_cast<void*>(static_cast<const void*>(&f)), count, color);
}
/// A dashed horizontal line with its label at the right end (a threshold). Counted in auto-fit.
void PlotHLine(Context& ctx, const char* label, double y, ImU32 color);
/// A vertical marker at x with its label at the top (an event).
void PlotEvent(Context& ctx, const char* label, double x, ImU32 color);
/// Draws everything and handles the mouse.
void EndPlot(Context& ctx);

}  // namespace jl::plot
