// JointLab plot widget — building a plot (BeginPlot, Setup*, Plot*) and laying it out (EndPlot).
// Drawing of the parts lives in plot_draw.cpp.
#include "plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "plot/design_px.h"
#include "plot/plot_draw.h"

namespace jl::plot {

// [SECTION] State

namespace {
// Okabe-Ito: sky blue, orange, bluish green, vermillion, reddish purple, yellow, blue, plus grey;
// the dark blue is lightened so it reads on the dark plot background.
constexpr ImU32 kPalette[kPaletteSize] = {IM_COL32(86, 180, 233, 255),  IM_COL32(230, 159, 0, 255),
                                          IM_COL32(0, 178, 132, 255),   IM_COL32(235, 94, 40, 255),
                                          IM_COL32(214, 130, 180, 255), IM_COL32(240, 228, 66, 255),
                                          IM_COL32(80, 140, 255, 255),  IM_COL32(190, 190, 190, 255)};
}  // namespace

ImU32 seriesColor(int index) {
    return kPalette[((index % kPaletteSize) + kPaletteSize) % kPaletteSize];
}

bool PlotState::isHidden(ImGuiID id) const {
    return std::find(hidden.begin(), hidden.end(), id) != hidden.end();
}

void PlotState::toggle(ImGuiID id) {
    if (auto it = std::find(hidden.begin(), hidden.end(), id); it != hidden.end())
        hidden.erase(it);
    else
        hidden.push_back(id);
}

namespace detail {
int Building::addLabel(const char* text, const char* end) {
    const int offset = static_cast<int>(labels.size());
    labels.append(text, end ? end : text + std::strlen(text));
    labels.push_back('\0');
    return offset;
}
}  // namespace detail

namespace {

/// "label [unit]" (or just the label when there is no unit).
int addAxisLabel(detail::Building& b, const char* label, const char* unit) {
    const int offset = b.addLabel(label);
    if (unit && *unit) {
        b.labels.pop_back();
        b.labels += " [";
        b.labels += unit;
        b.labels += "]";
        b.labels.push_back('\0');
    }
    return offset;
}

/// The visible part of an ImGui label: everything before "##".
const char* labelEnd(const char* label) {
    const char* hashes = std::strstr(label, "##");
    return hashes ? hashes : label + std::strlen(label);
}

/// A new series of the plot being built: its id and label from `label`, its colour (`color`, else
/// the next of the palette), its first point, dashed if SetNextSeriesDashed asked for it.
detail::Building::Series startSeries(detail::Building& b, const char* label, ImU32 color) {
    detail::Building::Series s;
    s.id = ImGui::GetID(label);
    s.label = b.addLabel(label, labelEnd(label));
    s.color = color ? color : seriesColor(static_cast<int>(b.series.size()));
    s.first = static_cast<int>(b.points.size());
    s.dashed = std::exchange(b.nextDashed, false);
    return s;
}

}  // namespace

// [SECTION] Building

bool BeginPlot(Context& ctx, const char* title, const ImVec2& size, PlotFlags flags) {
    IM_ASSERT(!ctx.building.open && "EndPlot() was not called for the previous plot");
    detail::Building& b = ctx.building;
    ImGui::PushID(title);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 frameSize(size.x > 0.0f ? size.x : std::max(avail.x, app::px(60.0f)),
                           size.y > 0.0f ? size.y : std::max(avail.y, app::px(80.0f)));
    b.frameMin = ImGui::GetCursorScreenPos();
    b.frameMax = ImVec2(b.frameMin.x + frameSize.x, b.frameMin.y + frameSize.y);
    const ImGuiID id = ImGui::GetID("##plot");
    ImGui::InvisibleButton("##plot", frameSize,
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    ImGui::SetItemAllowOverlap();  // buttons the caller places over the plot stay clickable
    if (!ImGui::IsItemVisible()) {
        ImGui::PopID();
        return false;
    }
    b.open = true;
    b.id = id;
    b.flags = flags;
    b.hovered = ImGui::IsItemHovered();
    b.labels.clear();
    b.series.clear();
    b.nextDashed = false;
    b.points.clear();
    b.pointCount = 0;
    b.hlines.clear();
    b.events.clear();
    b.title = b.addLabel(title, labelEnd(title));
    b.xLabel = b.yLabel = -1;
    b.logScale = nullptr;
    b.hasXLimits = b.hasYLimits = false;
    b.columnWidth = 0.0;
    return true;
}

void SetupAxisX(Context& ctx, const char* label, const char* unit) {
    ctx.building.xLabel = addAxisLabel(ctx.building, label, unit);
}

void SetupAxisY(Context& ctx, const char* label, const char* unit, bool* logScale) {
    ctx.building.yLabel = addAxisLabel(ctx.building, label, unit);
    ctx.building.logScale = logScale;
}

void SetupAxisLimitsX(Context& ctx, double min, double max) {
    if (!(max > min)) max = min + 1.0;
    detail::Building& b = ctx.building;
    b.hasXLimits = true;
    b.xLimits = {min, max};
    // Streamed series' columns: about one pixel of the frame, rounded up to a power of 2^(1/4)
    // so that a small change of the width (or the moving window) keeps them; the data area is a
    // little narrower than the frame, so a column is 1 to 1.4 pixels wide. A plot overlaying
    // more series than the palette has colours (1 px lines in a crowd, drawn from up to 200
    // series) gets columns of 3 pixels: at most 2 points per 3 pixels per series.
    const bool crowded = ctx.states[b.id].seriesShown > kPaletteSize;
    const double pixels = std::max(1.0f, b.frameMax.x - b.frameMin.x) / (crowded ? 3.0 : 1.0);
    b.columnWidth = std::exp2(std::ceil(4.0 * std::log2((max - min) / pixels)) / 4.0);
}

void SetupAxisLimitsY(Context& ctx, double min, double max) {
    if (!(max > min)) max = min + 1.0;
    ctx.building.hasYLimits = true;
    ctx.building.yLimits = {min, max};
}

void PlotLineG(Context& ctx, const char* label, Getter getter, void* userData, int count, ImU32 color) {
    detail::Building& b = ctx.building;
    IM_ASSERT(b.open);
    detail::Building::Series s = startSeries(b, label, color);
    if (!ctx.states[b.id].isHidden(s.id)) {  // hidden series cost nothing but their legend entry
        b.points.reserve(b.points.size() + static_cast<size_t>(std::max(count, 0)));
        for (int i = 0; i < count; ++i) b.points.push_back(getter(i, userData));
    }
    s.count = static_cast<int>(b.points.size()) - s.first;
    b.pointCount += static_cast<size_t>(s.count);
    b.series.push_back(s);
}

void SetNextSeriesDashed(Context& ctx) {
    ctx.building.nextDashed = true;
}

void PlotLineStreamG(Context& ctx, const char* label, Getter getter, void* userData, int count,
                     int64_t firstSerial, uint64_t source, ImU32 color) {
    detail::Building& b = ctx.building;
    IM_ASSERT(b.open);
    if (!(b.columnWidth > 0.0) || !std::isfinite(b.columnWidth)) {
        PlotLineG(ctx, label, getter, userData, count, color);
        return;
    }
    detail::Building::Series s = startSeries(b, label, color);
    if (!ctx.states[b.id].isHidden(s.id)) {  // a hidden series is not read: it starts over when shown
        // Keyed by label and source, so two series with one label cannot overwrite each other.
        Context::Stream& stream = ctx.streams[s.id ^ static_cast<ImGuiID>(source ^ (source >> 32))];
        stream.lastFrame = ImGui::GetFrameCount();
        ColumnSeries& columns = stream.columns;
        count = std::max(count, 0);
        const int64_t next = columns.nextSerial(), end = firstSerial + count;
        // Go on from where the last frame stopped, unless samples were missed or the source changed.
        const bool goOn =
            stream.source == source && columns.width() == b.columnWidth && next >= firstSerial && next <= end;
        if (!goOn) {
            columns.reset(b.columnWidth);
            stream.source = source;
            stream.line.valid = false;  // drawn from the old samples
        }
        for (int64_t serial = goOn ? next : firstSerial; serial < end; ++serial)
            columns.append(serial, getter(static_cast<int>(serial - firstSerial), userData));
        columns.dropBefore(firstSerial);
        const ColumnSeries::Span span = columns.points(b.xLimits.min, b.xLimits.max);
        s.external = span.data;  // not copied: the columns do not change until EndPlot has drawn them
        s.count = static_cast<int>(span.size);
        s.settled = static_cast<int>(span.settled);
        s.line = &stream.line;
    }
    b.pointCount += static_cast<size_t>(s.count);
    b.series.push_back(s);
}

void PlotLine(Context& ctx, const char* label, const double* xs, const double* ys, int count, ImU32 color) {
    struct Arrays {
        const double *xs, *ys;
    } arrays{xs, ys};
    PlotLineG(
        ctx, label,
        [](int i, void* data) {
            const Arrays& a = *static_cast<const Arrays*>(data);
            return Point{a.xs[i], a.ys[i]};
        },
        &arrays, count, color);
}

void PlotHLine(Context& ctx, const char* label, double y, ImU32 color) {
    detail::Building& b = ctx.building;
    b.hlines.push_back({b.addLabel(label), y, color});
}

void PlotEvent(Context& ctx, const char* label, double x, ImU32 color) {
    detail::Building& b = ctx.building;
    b.events.push_back({b.addLabel(label), x, color});
}

// [SECTION] Layout and interaction

namespace {

Range xRangeOf(const detail::Building& b) {
    if (b.hasXLimits) return b.xLimits;
    Extent e;
    for (const detail::Building::Series& s : b.series) {
        const Point* p = b.pointsOf(s);
        for (int i = 0; i < s.count; ++i) e.add(p[i].x, Scale::Linear);
    }
    Range r = fitRange(e, Scale::Linear, 0.0);
    return r;
}

Range yRangeOf(const detail::Building& b, PlotState& state, const Range& x, Scale scale) {
    if (b.hasYLimits) return b.yLimits;
    if (!state.autoFit && (scale == Scale::Linear || state.fixed.min > 0.0) &&
        state.fixed.max > state.fixed.min)
        return state.fixed;
    // The lowest and highest value inside the x range (locals, not the Extent's members, keep
    // the loop out of memory: it runs over every point).
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double lo = kInf, hi = -kInf;
    const bool log = scale == Scale::Log10;
    for (const detail::Building::Series& s : b.series) {
        // x ascends: the points inside the range are one run, found by bisection.
        const Point* first = b.pointsOf(s);
        const Point* last = first + s.count;
        first = std::lower_bound(first, last, x.min, [](const Point& p, double v) { return p.x < v; });
        last = std::upper_bound(first, last, x.max, [](double v, const Point& p) { return v < p.x; });
        double slo = kInf, shi = -kInf;
        for (const Point* p = first; p != last; ++p) {  // a NaN compares false: it changes nothing
            slo = std::min(slo, p->y);
            shi = std::max(shi, p->y);
        }
        if (log || !(std::abs(slo) < kInf) ||
            !(std::abs(shi) < kInf)) {  // again, leaving out what the axis cannot show
            slo = kInf, shi = -kInf;
            for (const Point* p = first; p != last; ++p) {
                const double v = p->y;
                if (!(std::abs(v) < kInf) || (log && !(v > 0.0))) continue;
                slo = std::min(slo, v);
                shi = std::max(shi, v);
            }
        }
        lo = std::min(lo, slo);
        hi = std::max(hi, shi);
    }
    Extent e;
    if (lo <= hi) e.add(lo, scale), e.add(hi, scale);
    for (const detail::Building::Marker& m : b.hlines) e.add(m.value, scale);
    const Range fitted = fitRange(e, scale);
    state.fixed = fitted;  // switching to a fixed range starts from what is shown
    return fitted;
}

void plotMenu(detail::Building& b, PlotState& state, PlotResult& result, Scale scale) {
    if (b.flags & PlotFlags_NoMenu) return;
    if (b.hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Right)) ImGui::OpenPopup("##plot menu");
    if (!ImGui::BeginPopup("##plot menu")) return;
    ImGui::MenuItem("Auto-fit value axis", "double-click", &state.autoFit);
    if (!state.autoFit) {
        ImGui::SetNextItemWidth(app::px(200.0f));
        double range[2] = {state.fixed.min, state.fixed.max};
        if (ImGui::InputScalarN("range", ImGuiDataType_Double, range, 2, nullptr, nullptr, "%.4g") &&
            range[1] > range[0] && (scale == Scale::Linear || range[0] > 0.0))
            state.fixed = {range[0], range[1]};
    }
    if (b.logScale) ImGui::MenuItem("Logarithmic value axis", nullptr, b.logScale);
    if (ImGui::MenuItem("Show all series", nullptr, false, !state.hidden.empty())) state.hidden.clear();
    ImGui::Separator();
    if (ImGui::MenuItem("Save as PNG")) result.saveImageRequested = true;
    ImGui::EndPopup();
}

}  // namespace

void EndPlot(Context& ctx) {
    detail::Building& b = ctx.building;
    IM_ASSERT(b.open && "EndPlot() without a successful BeginPlot()");
    PlotState& state = ctx.states[b.id];
    PlotResult result;
    result.frameMin = b.frameMin;
    result.frameMax = b.frameMax;
    result.hovered = b.hovered;
    result.yScale = b.logScale && *b.logScale ? Scale::Log10 : Scale::Linear;
    if (b.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) state.autoFit = true;

    result.x = xRangeOf(b);
    result.y = yRangeOf(b, state, result.x, result.yScale);
    Layout layout = layoutPlot(b, result, ctx.titleReserve);
    result.areaMin = layout.areaMin;
    result.areaMax = layout.areaMax;
    if (layout.yLabel >= 0) {
        result.yLabelMin = layout.yLabelPos;
        const ImVec2 size = ImGui::CalcTextSize(b.label(layout.yLabel));
        result.yLabelMax = ImVec2(layout.yLabelPos.x + size.x, layout.yLabelPos.y + size.y);
    }

    ctx.lastTitle.assign(b.label(layout.title));
    result.titleCut = layout.title != b.title;
    if (!ctx.lastTitle.empty()) {
        const ImVec2 size = ImGui::CalcTextSize(b.label(layout.title));
        result.titleMin = layout.titlePos;
        result.titleMax = ImVec2(layout.titlePos.x + size.x, layout.titlePos.y + size.y);
        // Shortened: the whole title on hover.
        if (result.titleCut && b.hovered && ImGui::IsMouseHoveringRect(result.titleMin, result.titleMax)) {
            ImGui::SetTooltip("%s", b.label(b.title));
            result.titleTooltip = true;
        }
    }

    ImDrawList* draw = ImGui::GetWindowDrawList();
    drawFrameAndAxes(draw, b, layout, result);
    result.seriesDrawn = drawSeries(draw, b, layout, result);
    state.seriesShown = result.seriesDrawn;
    drawMarkers(draw, b, layout, result);
    bool overLegend = false;
    if (!(b.flags & PlotFlags_NoLegend)) overLegend = drawLegend(draw, b, state, layout, result);
    if (!(b.flags & PlotFlags_NoReadout) && b.hovered && !overLegend) drawReadout(draw, b, layout, result);
    plotMenu(b, state, result, result.yScale);

    if (!(b.flags & PlotFlags_NoLegend)) legendList(b, state);

    ImGui::PopID();
    b.open = false;
    ctx.last = result;
    // Forget streamed series no plot has drawn for a while (once a second is often enough).
    const int frame = ImGui::GetFrameCount();
    if (frame - ctx.streamsSweptFrame >= 60) {
        ctx.streamsSweptFrame = frame;
        for (auto it = ctx.streams.begin(); it != ctx.streams.end();)
            it = frame - it->second.lastFrame > 60 ? ctx.streams.erase(it) : std::next(it);
    }
}

}  // namespace jl::plot
