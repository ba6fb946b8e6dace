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
//         plot::PlotLineStreamF(plots, "swing", count, firstSerial, source, f);  // a ring buffer
//         plot::PlotHLine(plots, "break force", 500.0, colour);    // dashed threshold
//         plot::PlotEvent(plots, "broke", 3.25, colour);           // vertical marker
//         plot::EndPlot(plots);
//     }
//
// What it draws: a title, the value-axis label with its unit above the axis, the time-axis label
// with its unit at the bottom right, tick labels (never overlapping), grid lines, several coloured
// series (NaN values leave a gap), a legend above the data area (it never covers a line) whose
// entries hide/show their series when clicked, a hover readout
// (x and every visible series' value at the nearest sample, with a cursor line), dashed
// threshold lines with labels, event markers. The value axis auto-fits to the visible series
// unless the user fixed a range (right-click menu; double-click returns to auto-fit); it can be
// logarithmic (values <= 0 then leave gaps).
//
// State that lasts between frames (hidden series, fixed ranges, streamed series) lives in the
// Context, keyed by the plot's ImGuiID. A series' x values must be ascending (time, sweep number).
//
// Cost: PlotLine and PlotLineG read every point every frame. PlotLineStream is for long recorded
// series that grow at their end (the telemetry ring): the widget keeps each one decimated to the
// min and max of every pixel column between frames (plot_columns.h) and reads only the samples
// added since the last frame, so a plot overlaying 200 series of 600 steps costs about as much
// as drawing 200 lines of a few hundred points. Lines are written straight into the draw list's
// vertex buffer (anti-aliased through ImGui's baked line texture, as AddPolyline does), and a
// legend with more entries than its few rows hold collapses to one "N series" entry that opens a
// scroll list.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "plot/plot_columns.h"
#include "plot/plot_math.h"

namespace jl::plot {

using PlotFlags = int;
enum PlotFlags_ {
    PlotFlags_None = 0,
    PlotFlags_NoLegend = 1 << 0,   ///< no legend (and no click-to-hide)
    PlotFlags_NoReadout = 1 << 1,  ///< no hover readout
    PlotFlags_NoMenu = 1 << 2,     ///< no right-click menu
    PlotFlags_IntegerX = 1 << 3,   ///< x values are whole numbers (solver sweeps): ticks only at integers
};

/// Returns the index-th point of a series (ImPlot's getter shape).
using Getter = Point (*)(int index, void* userData);

/// A palette colour for series `index` (Okabe-Ito, brightened for a dark background: tells
/// series apart for most colour-blind readers too).
ImU32 seriesColor(int index);
inline constexpr int kPaletteSize = 8;

/// Per-plot state kept between frames.
struct PlotState {
    bool autoFit = true;          ///< false: the value axis keeps `fixed`
    Range fixed{0.0, 1.0};        ///< the user's range
    std::vector<ImGuiID> hidden;  ///< series hidden from the legend
    int seriesShown = 0;          ///< series drawn in the last frame (picks the width of streamed columns)
    bool isHidden(ImGuiID id) const;
    void toggle(ImGuiID id);
};

/// What the last EndPlot produced (for the caller: PNG export, tests).
struct PlotResult {
    ImVec2 frameMin{0, 0}, frameMax{0, 0};    ///< the whole widget, screen pixels
    ImVec2 areaMin{0, 0}, areaMax{0, 0};      ///< the data area inside the axes
    ImVec2 legendMin{0, 0}, legendMax{0, 0};  ///< the legend box (empty without a legend)
    ImVec2 yLabelMin{0, 0}, yLabelMax{0, 0};  ///< the value-axis label as drawn (empty without one)
    ImVec2 titleMin{0, 0}, titleMax{0, 0};    ///< the title as drawn (empty without one)
    bool titleCut = false;      ///< the title was shortened to fit (Context::lastTitle has it as drawn)
    bool titleTooltip = false;  ///< hovering the shortened title showed it whole this frame
    Range x, y;                 ///< the ranges shown
    Scale yScale = Scale::Linear;
    int seriesDrawn = 0;              ///< visible series with at least one point
    bool saveImageRequested = false;  ///< "Save as PNG" chosen in the menu this frame
    bool hovered = false;
    int readoutLines = 0;   ///< series listed by the hover readout this frame (0: no readout)
    double readoutX = 0.0;  ///< the x the readout reports (the nearest sample's)
};

/// A streamed series' line as drawn last frame, kept so that the next frame maps and simplifies
/// only the new points while the axes stay put (drawSeries).
struct StreamLine {
    bool valid = false;                                       ///< false: draw it afresh
    double xOffset = 0, xScale = 0, yOffset = 0, yScale = 0;  ///< the Layout's mapping then
    bool logY = false;
    float thickness = 0.0f;
    std::vector<ImVec2> points;  ///< screen points, runs separated by a NaN point
    size_t settled = 0;          ///< points[0, settled) came from settled data and stay
    Simplifier run;              ///< the simplifier after the settled data
    bool inRun = false;          ///< a run is open after the settled data
    double resumeX = 0.0;        ///< data x of the last settled point read (-inf: none)
};

namespace detail {
/// The plot being built between BeginPlot and EndPlot. Its storage is reused frame to frame, so a
/// warm Context draws without allocating.
struct Building {
    struct Series {
        ImGuiID id = 0;
        int label = 0;  ///< offset into labels
        ImU32 color = 0;
        int first = 0, count = 0;           ///< range of points (in `points`, or from `external`)
        const Point* external = nullptr;    ///< a streamed series' points, kept by its ColumnSeries
        struct StreamLine* line = nullptr;  ///< a streamed series' screen line kept between frames
        int settled = 0;      ///< a streamed series' points that will not change (ColumnSeries::Span)
        bool dashed = false;  ///< drawn dashed (SetNextSeriesDashed): a closed form, or another run's line
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
    bool nextDashed = false;  ///< SetNextSeriesDashed was called since the last series
    Range xLimits, yLimits;
    std::string labels;  ///< '\0'-separated strings
    std::vector<Series> series;
    std::vector<Point> points;
    std::vector<Marker> hlines, events;
    std::vector<ImVec2> screen, decimated, simplified;  ///< drawing scratch
    std::vector<Tick> xTicks, yTicks;
    std::vector<ImVec2> legendEntries;  ///< top-left corner of each series' legend entry (layoutPlot)
    double columnWidth = 0.0;  ///< x width of a streamed series' columns this frame (0: no x limits yet)

    int addLabel(const char* text, const char* end = nullptr);
    /// The points of series `s` (valid until the next BeginPlot).
    const Point* pointsOf(const Series& s) const { return s.external ? s.external : points.data() + s.first; }
    size_t pointCount = 0;  ///< points of every series together
    const char* label(int offset) const { return offset < 0 ? "" : labels.c_str() + offset; }
};
}  // namespace detail

/// Everything the widget keeps: per-plot state by ImGuiID, the plot being built, the last result.
/// Owned by the caller (one per panel, say); no static or global state anywhere.
struct Context {
    /// Room kept free at the right end of every plot's title row for the caller's own buttons
    /// [px]; a title that does not fit is shortened with "…" (a "KIND — SUBJECT" title keeps its
    /// subject and shortens the kind, which the value axis names too), and shown whole on hover.
    float titleReserve = 0.0f;
    std::map<ImGuiID, PlotState> states;
    PlotResult last;
    std::string lastTitle;  ///< the last plot's title as drawn (kept here: a warm Context allocates nothing)
    detail::Building building;
    /// A streamed series between frames (PlotLineStream), keyed by the series' ImGuiID.
    struct Stream {
        ColumnSeries columns;
        uint64_t source = 0;
        int lastFrame = 0;  ///< ImGui frame it was last drawn in (unused ones are dropped)
        StreamLine line;
    };
    std::unordered_map<ImGuiID, Stream> streams;  ///< by the series' ImGuiID mixed with its source
    int streamsSweptFrame = 0;
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
/// The next series (PlotLine*, PlotLineStream*) is drawn dashed: a closed form beside the data, or
/// the same quantity of another run (the A/B compare's B, the ghost of a branch) beside the live
/// line of the same colour.
void SetNextSeriesDashed(Context& ctx);
void PlotLine(Context& ctx, const char* label, const double* xs, const double* ys, int count,
              ImU32 color = 0);
/// Any callable `Point f(int index)`.
template <class F>
void PlotLineF(Context& ctx, const char* label, int count, const F& f, ImU32 color = 0) {
    PlotLineG(
        ctx, label, [](int i, void* data) -> Point { return (*static_cast<const F*>(data))(i); },
        const_cast<void*>(static_cast<const void*>(&f)), count, color);
}
/// A long series that grows at its end and loses samples at its start, as a ring buffer of
/// recorded steps does: sample i has the serial number firstSerial + i, and a sample keeps its
/// serial (and its value) for as long as it is in the buffer. The widget keeps the series
/// decimated between frames and calls the getter only for serials it has not seen; after a gap in
/// the serials (the buffer was cleared, or the plot was not drawn for a while) it reads everything
/// again. `source` names what the values are (say, a hash of the joint and the quantity): a new
/// source starts over too. Needs SetupAxisLimitsX before it; without x limits it is PlotLineG.
void PlotLineStreamG(Context& ctx, const char* label, Getter getter, void* userData, int count,
                     int64_t firstSerial, uint64_t source, ImU32 color = 0);
template <class F>
void PlotLineStreamF(Context& ctx, const char* label, int count, int64_t firstSerial, uint64_t source,
                     const F& f, ImU32 color = 0) {
    PlotLineStreamG(
        ctx, label, [](int i, void* data) -> Point { return (*static_cast<const F*>(data))(i); },
        const_cast<void*>(static_cast<const void*>(&f)), count, firstSerial, source, color);
}
/// A dashed horizontal line with its label at the right end (a threshold). Counted in auto-fit.
void PlotHLine(Context& ctx, const char* label, double y, ImU32 color);
/// A vertical marker at x with its label at the top (an event).
void PlotEvent(Context& ctx, const char* label, double x, ImU32 color);
/// Draws everything and handles the mouse.
void EndPlot(Context& ctx);

}  // namespace jl::plot
