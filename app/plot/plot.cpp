// JointLab plot widget — building a plot (BeginPlot, Setup*, Plot*) and laying it out (EndPlot).
// Drawing of the parts lives in plot_draw.cpp.
#include "plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "plot/plot_draw.h"

namespace jl::plot {

// [SECTION] State

namespace {
// Okabe-Ito: sky blue, orange, bluish green, vermillion, reddish purple, yellow, blue, plus grey;
// the dark blue is lightened so it reads on the dark plot background.
constexpr ImU32 kPalette[kPaletteSize] = {
    IM_COL32(86, 180, 233, 255), IM_COL32(230, 159, 0, 255),   IM_COL32(0, 178, 132, 255),
    IM_COL32(235, 94, 40, 255),  IM_COL32(214, 130, 180, 255), IM_COL32(240, 228, 66, 255),
    IM_COL32(80, 140, 255, 255), IM_COL32(190, 190, 190, 255)};
}  // namespace

ImU32 seriesColor(int index) { return kPalette[((index % kPaletteSize) + kPaletteSize) % kPaletteSize]; }

bool PlotState::isHidden(ImGuiID id) const { return std::find(hidden.begin(), hidden.end(), id) != hidden.end(); }

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

}  // namespace

// [SECTION] Building

bool BeginPlot(Context& ctx, const char* title, const ImVec2& size, PlotFlags flags) {
    IM_ASSERT(!ctx.building.open && "EndPlot() was not called for the previous plot");
    detail::Building& b = ctx.building;
    ImGui::PushID(title);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 frameSize(size.x > 0.0f ? size.x : std::max(avail.x, 60.0f),
                           size.y > 0.0f ? size.y : std::max(avail.y, 80.0f));
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
    b.points.clear();
    b.hlines.clear();
    b.events.clear();
    b.title = b.addLabel(title, labelEnd(title));
    b.xLabel = b.yLabel = -1;
    b.logScale = nullptr;
    b.hasXLimits = b.hasYLimits = false;
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
    ctx.building.hasXLimits = true;
    ctx.building.xLimits = {min, max};
}

void SetupAxisLimitsY(Context& ctx, double min, double max) {
    if (!(max > min)) max = min + 1.0;
    ctx.building.hasYLimits = true;
    ctx.building.yLimits = {min, max};
}

void PlotLineG(Context& ctx, const char* label, Getter getter, void* userData, int count, ImU32 color) {
    detail::Building& b = ctx.building;
    IM_ASSERT(b.open);
    detail::Building::Series s;
    s.id = ImGui::GetID(label);
    s.label = b.addLabel(label, labelEnd(label));
    s.color = color ? color : seriesColor(static_cast<int>(b.series.size()));
    s.first = static_cast<int>(b.points.size());
    if (!ctx.states[b.id].isHidden(s.id)) {  // hidden series cost nothing but their legend entry
        b.points.reserve(b.points.size() + static_cast<size_t>(std::max(count, 0)));
        for (int i = 0; i < count; ++i) b.points.push_back(getter(i, userData));
    }
    s.count = static_cast<int>(b.points.size()) - s.first;
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
    for (const Point& p : b.points) e.add(p.x, Scale::Linear);
    Range r = fitRange(e, Scale::Linear, 0.0);
    return r;
}

Range yRangeOf(const detail::Building& b, PlotState& state, const Range& x, Scale scale) {
    if (b.hasYLimits) return b.yLimits;
    if (!state.autoFit && (scale == Scale::Linear || state.fixed.min > 0.0) && state.fixed.max > state.fixed.min)
        return state.fixed;
    Extent e;
    for (const Point& p : b.points)
        if (x.contains(p.x)) e.add(p.y, scale);
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
        ImGui::SetNextItemWidth(200.0f);
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

    ImDrawList* draw = ImGui::GetWindowDrawList();
    drawFrameAndAxes(draw, b, layout, result);
    result.seriesDrawn = drawSeries(draw, b, layout, result);
    drawMarkers(draw, b, layout, result);
    bool overLegend = false;
    if (!(b.flags & PlotFlags_NoLegend)) overLegend = drawLegend(draw, b, state, layout, result);
    if (!(b.flags & PlotFlags_NoReadout) && b.hovered && !overLegend) drawReadout(draw, b, layout, result);
    plotMenu(b, state, result, result.yScale);

    ImGui::PopID();
    b.open = false;
    ctx.last = result;
}

}  // namespace jl::plot
