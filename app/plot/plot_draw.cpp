#include "plot/plot_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "plot/design_px.h"

namespace jl::plot {

using app::linePx;
using app::px;

namespace {

// [SECTION] Look

constexpr float kPad = 6.0f;  ///< frame edge to content [design px: px() scales every size here]
constexpr ImU32 kFrameBg = IM_COL32(27, 30, 35, 255);
constexpr ImU32 kAreaBg = IM_COL32(15, 16, 19, 255);
constexpr ImU32 kAreaBorder = IM_COL32(255, 255, 255, 45);
constexpr ImU32 kGridMajor = IM_COL32(255, 255, 255, 26);
constexpr ImU32 kGridMinor = IM_COL32(255, 255, 255, 11);
constexpr ImU32 kZeroLine = IM_COL32(255, 255, 255, 70);
constexpr ImU32 kTitle = IM_COL32(235, 238, 242, 255);
constexpr ImU32 kAxisLabel = IM_COL32(175, 182, 194, 255);
constexpr ImU32 kTickLabel = IM_COL32(150, 156, 166, 255);
constexpr ImU32 kCursor = IM_COL32(255, 255, 255, 90);
constexpr ImU32 kLegendBg = IM_COL32(20, 22, 26, 215);
constexpr ImU32 kLegendHover = IM_COL32(255, 255, 255, 30);
constexpr int kMaxReadoutLines = 14;

int tickLabel(const Tick& t, double step, Scale scale, char* buf, size_t size) {
    return formatTick(t.value, step, scale, buf, size);
}

/// Widest major tick label of `ticks` [px].
float widestLabel(const std::vector<Tick>& ticks, double step, Scale scale) {
    float widest = 0.0f;
    char buf[32];
    for (const Tick& t : ticks) {
        if (!t.major) continue;
        tickLabel(t, step, scale, buf, sizeof buf);
        widest = std::max(widest, ImGui::CalcTextSize(buf).x);
    }
    return widest;
}

void dashedLine(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length <= 0.0f) return;
    const float dash = px(7.0f), gap = px(4.0f);
    for (float s = 0.0f; s < length; s += dash + gap) {
        const float e = std::min(length, s + dash);
        draw->AddLine(ImVec2(a.x + dx * s / length, a.y + dy * s / length),
                      ImVec2(a.x + dx * e / length, a.y + dy * e / length), color, thickness);
    }
}

/// Text on a translucent background so it stays readable over grid and lines.
void labelBox(ImDrawList* draw, ImVec2 pos, ImU32 color, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddRectFilled(ImVec2(pos.x - px(2.0f), pos.y), ImVec2(pos.x + size.x + px(2.0f), pos.y + size.y),
                        kLegendBg, px(2.0f));
    draw->AddText(pos, color, text);
}

}  // namespace

// [SECTION] Layout

ImVec2 toScreen(const Layout& l, const PlotResult&, double x, double y) {
    // The mapping of toUnit, folded into one multiply-add per axis (this runs for every point).
    const double v = l.logY ? (y > 0.0 ? std::log10(y) : -1e300) : y;
    // Clamp far-off values so huge numbers cannot overflow float pixel coordinates.
    const double sx = std::clamp(l.xOffset + l.xScale * x, -1e5, 1e5);
    const double sy = std::clamp(l.yOffset + l.yScale * v, -1e5, 1e5);
    return ImVec2(static_cast<float>(sx), static_cast<float>(sy));
}

namespace {
/// Sets the Layout's linear maps so that toScreen(x, y) = area position of toUnit(x), toUnit(y).
void setMapping(Layout& l, const PlotResult& r) {
    l.xScale = l.width() / r.x.size();
    l.xOffset = l.areaMin.x - r.x.min * l.xScale;
    l.logY = r.yScale == Scale::Log10;
    const double lo = l.logY ? std::log10(r.y.min) : r.y.min, hi = l.logY ? std::log10(r.y.max) : r.y.max;
    l.yScale = -l.height() / (hi - lo);
    l.yOffset = l.areaMax.y - lo * l.yScale;
}
}  // namespace

namespace {

/// The longest start of `text` (at least `least` bytes) that fits `width` [px] as start + "…" +
/// `after`, cut at a character boundary without trailing spaces; "" when not even `least` fits.
/// `words`: the cut goes back to the end of a word when that keeps 60 % of the start or more.
std::string cutToFit(const std::string& text, const std::string& after, float width, size_t least = 0,
                     bool words = false) {
    const std::string ellipsis = "\u2026";
    auto start = [&](size_t n) {  // back to a character boundary, without trailing spaces or commas
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
        while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == ',')) --n;
        return n;
    };
    auto cut = [&](size_t n) { return text.substr(0, start(n)) + ellipsis + after; };
    if (ImGui::CalcTextSize(cut(least).c_str()).x > width) return least > 0 ? "" : cut(0);
    size_t lo = least, hi = text.size();  // the longest cut that fits, by bisection
    while (lo < hi) {
        const size_t mid = (lo + hi + 1) / 2;
        if (ImGui::CalcTextSize(cut(mid).c_str()).x <= width)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (words && lo < text.size() && text[lo] != ' ') {  // inside a word: back to the one before
        const size_t space = text.rfind(' ', lo);
        if (space != std::string::npos && space >= least && start(space) * 5 >= start(lo) * 3) lo = space;
    }
    return cut(lo);
}

/// The label at `label` shortened with "…" to fit `width` [px]: its own offset when it fits, else
/// a new label's (the original stays, for the hover readout).
int fitLabel(detail::Building& b, int label, float width) {
    const std::string text = b.label(label);
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return label;
    return b.addLabel(cutToFit(text, "", width).c_str());
}

/// The title shortened to fit `width` [px], at the end of a word where it can. A title "KIND —
/// SUBJECT" ("Impulse per row — hinge (selected)") keeps its subject, which tells two plots of one
/// kind apart: the kind is shortened first (the value axis names it too), to no less than its first
/// word, then the subject's end; only when not even a little of the subject fits is the whole
/// title cut at its end.
int fitTitle(detail::Building& b, int label, float width) {
    const std::string text = b.label(label);
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return label;
    const std::string dash = " \u2014 ";
    const size_t at = text.find(dash);
    if (at != std::string::npos && at > 0) {
        const std::string kind = text.substr(0, at), subject = text.substr(at);
        const size_t word = std::min(kind.find(' '), kind.size());
        std::string cut = cutToFit(kind, subject, width, word, true);
        if (cut.empty()) {  // the kind's first word, and as much of the subject as fits (3 bytes at least)
            const std::string head = kind.substr(0, word) + "\u2026" + dash;
            cut = cutToFit(head + subject.substr(dash.size()), "", width, head.size() + 3, true);
        }
        if (!cut.empty()) return b.addLabel(cut.c_str());
    }
    return b.addLabel(cutToFit(text, "", width, 0, true).c_str());
}

// Legend entries: a colour swatch, the label, a gap to the next entry [design px].
constexpr float kSwatch = 16.0f, kSwatchGap = 6.0f, kEntryGap = 14.0f;
constexpr int kMaxLegendRows = 3;

float entryWidth(const char* label) {
    return px(5.0f + kSwatch + kSwatchGap + kEntryGap) + ImGui::CalcTextSize(label).x;
}

/// Places the legend where it covers no data, in this order of preference:
///  1. on the value-axis label's row, right of the label (`shares`: that row is free from `left`
///     on), when every entry fits there: it costs nothing;
///  2. one row of its own above the data area;
///  3. a column right of the data area, when the entries need more than one row above it but
///     fit one under the other beside it (plots are wider than tall: width is cheaper);
///  4. up to kMaxLegendRows rows above the data area (fewer in a short plot);
///  5. one "N series" entry that opens the list (legendList).
/// Entries go into Building::legendEntries. Returns the top of the data area's row block; sets
/// l.legendColumn to the width a column takes from the data area.
float layoutLegend(detail::Building& b, Layout& l, float left, bool shares, float top) {
    b.legendEntries.clear();
    l.legendCollapsed = false;
    l.legendColumn = 0.0f;
    if (b.series.empty()) return top;
    const float line = l.lineHeight + px(1.0f);
    const float entryGap = px(kEntryGap);
    const float frameLeft = b.frameMin.x + px(kPad), right = b.frameMax.x - px(kPad);
    const float frameWidth = b.frameMax.x - b.frameMin.x;
    const int maxRows =
        std::clamp(static_cast<int>(0.22f * (b.frameMax.y - b.frameMin.y) / line), 1, kMaxLegendRows);
    // Flows the entries from (firstLeft, y0) over at most rowsAllowed rows; false when they need more.
    auto flow = [&](float firstLeft, float y0, int rowsAllowed) {
        b.legendEntries.clear();
        float x = firstLeft, y = y0;
        int rows = 1;
        for (const detail::Building::Series& s : b.series) {
            const float w = entryWidth(b.label(s.label));
            if (b.legendEntries.empty() && firstLeft > frameLeft && x + w - entryGap > right) return false;
            if (x + w - entryGap > right && x > (rows == 1 ? firstLeft : frameLeft)) {
                if (++rows > rowsAllowed) return false;
                x = frameLeft;
                y += line;
            }
            b.legendEntries.push_back(ImVec2(x, y));
            x += w;
        }
        return true;
    };
    // Places the flowed entries: one row is right-aligned; returns the top below them.
    auto place = [&]() {
        const float rowY = b.legendEntries.front().y;
        const bool oneRow = b.legendEntries.back().y == rowY;
        if (oneRow) {  // right-aligned, next to the plot's right edge
            const size_t last = b.legendEntries.size() - 1;
            const float shift =
                right + entryGap - (b.legendEntries[last].x + entryWidth(b.label(b.series[last].label)));
            for (ImVec2& p : b.legendEntries) p.x += shift;
        }
        l.legendMin = ImVec2(oneRow ? b.legendEntries.front().x : frameLeft, rowY);
        l.legendMax = ImVec2(right, b.legendEntries.back().y + line);
        return std::max(top, l.legendMax.y + px(2.0f));
    };
    const float sharedTop = top - l.lineHeight - px(2.0f);
    if (shares && flow(left, sharedTop, 1)) return place();
    if (flow(frameLeft, top, 1)) return place();
    // A column beside the data area: as tall as the area would be, at most 40% of the width
    // (the height is checked first: a plot of 200 joints measures no labels here).
    const float areaHeight = b.frameMax.y - px(kPad) - l.lineHeight - px(3.0f) - (top + px(4.0f));
    float column = 0.0f;
    if (static_cast<float>(b.series.size()) * line <= areaHeight) {
        for (const detail::Building::Series& s : b.series)
            column = std::max(column, entryWidth(b.label(s.label)));
        column += px(4.0f) - entryGap;
    }
    if (column > 0.0f && column <= 0.4f * frameWidth) {
        b.legendEntries.clear();
        for (size_t i = 0; i < b.series.size(); ++i)
            b.legendEntries.push_back(ImVec2(right - column, top + px(4.0f) + line * static_cast<float>(i)));
        l.legendColumn = column + px(8.0f);
        l.legendMin = b.legendEntries.front();
        l.legendMax = ImVec2(right, b.legendEntries.back().y + line);
        return top;
    }
    if (flow(frameLeft, top, maxRows)) return place();
    // Collapsed: one entry "N series" at the right end of the first free row.
    b.legendEntries.clear();
    l.legendCollapsed = true;
    char summary[48];
    std::snprintf(summary, sizeof summary, "%d series, 99 hidden", static_cast<int>(b.series.size()));
    const float w = entryWidth(summary) - entryGap;
    const bool onShared = shares && left + w <= right;
    const float y = onShared ? sharedTop : top;
    l.legendMin = ImVec2(right - w, y);
    l.legendMax = ImVec2(right, y + line);
    return onShared ? top : top + line + px(2.0f);
}

}  // namespace

Layout layoutPlot(detail::Building& b, const PlotResult& r, float titleReserve) {
    Layout l;
    l.lineHeight = ImGui::GetTextLineHeight();
    const float frameWidth = b.frameMax.x - b.frameMin.x;
    const float pad = px(kPad);
    const float titleRight = b.frameMax.x - pad - titleReserve;  // the caller's buttons are right of it
    l.title = fitTitle(b, b.title, std::max(px(20.0f), titleRight - b.frameMin.x - pad));
    // The value-axis label may be long ("[N·s; N·m·s for angular rows]"): in a narrow plot it is
    // shortened rather than run into the next plot (the hover readout names it in full).
    l.yLabel = fitLabel(b, b.yLabel, std::max(px(20.0f), frameWidth - 2.0f * pad));
    const char* title = b.label(l.title);
    const char* yLabel = b.label(l.yLabel);
    const float titleWidth = ImGui::CalcTextSize(title).x, yLabelWidth = ImGui::CalcTextSize(yLabel).x;
    float top = b.frameMin.y + pad;
    const float centred = b.frameMin.x + 0.5f * (frameWidth - titleWidth);
    l.titlePos = ImVec2(std::max(b.frameMin.x + pad, std::min(centred, titleRight - titleWidth)), top);
    l.yLabelPos = ImVec2(b.frameMin.x + pad, top);
    const bool titleRow = *title != '\0', yLabelRow = *yLabel != '\0';
    // The value-axis label shares the title's row when both fit side by side.
    const bool shareRow = titleRow && yLabelRow && l.yLabelPos.x + yLabelWidth + px(12.0f) < l.titlePos.x;
    if (titleRow) top += l.lineHeight + px(2.0f);
    float legendLeft = b.frameMin.x + pad;  // where the legend may start on the row at `top`
    bool legendShares = false;              // the legend's first row is the value-axis label's
    if (yLabelRow && !shareRow) {
        l.yLabelPos.y = top;
        legendLeft = l.yLabelPos.x + yLabelWidth + px(16.0f);
        legendShares = true;
        top += l.lineHeight + px(2.0f);
    }
    if (!(b.flags & PlotFlags_NoLegend)) top = layoutLegend(b, l, legendLeft, legendShares, top);
    const float areaTop = top + px(4.0f);
    const float areaBottom = b.frameMax.y - pad - l.lineHeight - px(3.0f);

    const float areaHeight = std::max(px(10.0f), areaBottom - areaTop);
    makeTicks(r.y, r.yScale, std::max(2, static_cast<int>(areaHeight / (l.lineHeight * 1.8f))), b.yTicks);
    l.yStep = majorStep(b.yTicks);
    thinTickLabels(b.yTicks, r.y, r.yScale, areaHeight, l.lineHeight + 1.0f);
    const float left = b.frameMin.x + pad + widestLabel(b.yTicks, l.yStep, r.yScale) + px(6.0f);
    const float right = b.frameMax.x - pad - px(2.0f) - l.legendColumn;
    l.areaMin = ImVec2(std::min(left, right - px(10.0f)), areaTop);
    l.areaMax = ImVec2(right, areaTop + areaHeight);
    setMapping(l, r);

    // x ticks: as many as fit with their labels apart.
    int maxTicks = std::max(2, static_cast<int>(l.width() / px(40.0f)));
    for (int pass = 0; pass < 3; ++pass) {
        makeTicks(r.x, Scale::Linear, maxTicks, b.xTicks, (b.flags & PlotFlags_IntegerX) != 0);
        l.xStep = majorStep(b.xTicks);
        const float labelWidth = widestLabel(b.xTicks, l.xStep, Scale::Linear) + px(18.0f);
        const int fit = std::max(2, static_cast<int>(l.width() / labelWidth));
        if (fit >= maxTicks) break;
        maxTicks = fit;
    }
    const float xLabelWidth = ImGui::CalcTextSize(b.label(b.xLabel)).x;
    l.xLabelPos = ImVec2(l.areaMax.x - xLabelWidth, l.areaMax.y + px(3.0f));
    return l;
}

// [SECTION] Frame, grid, ticks, labels

void drawFrameAndAxes(ImDrawList* draw, detail::Building& b, const Layout& l, const PlotResult& r) {
    draw->AddRectFilled(b.frameMin, b.frameMax, kFrameBg, px(4.0f));
    draw->AddRectFilled(l.areaMin, l.areaMax, kAreaBg);
    const float grid = linePx(1.0f);  // grid, zero line and border
    char buf[32];
    for (const Tick& t : b.yTicks) {  // (layoutPlot thinned the labels so that none overlap)
        const float y = toScreen(l, r, r.x.min, t.value).y;
        if (y < l.areaMin.y - 0.5f || y > l.areaMax.y + 0.5f) continue;
        draw->AddLine(ImVec2(l.areaMin.x, y), ImVec2(l.areaMax.x, y), t.major ? kGridMajor : kGridMinor,
                      grid);
        if (!t.major) continue;
        tickLabel(t, l.yStep, r.yScale, buf, sizeof buf);
        const ImVec2 size = ImGui::CalcTextSize(buf);
        draw->AddText(ImVec2(l.areaMin.x - px(5.0f) - size.x, y - 0.5f * size.y), kTickLabel, buf);
    }
    if (r.yScale == Scale::Linear && r.y.min < 0.0 && r.y.max > 0.0) {
        const float y = toScreen(l, r, r.x.min, 0.0).y;
        draw->AddLine(ImVec2(l.areaMin.x, y), ImVec2(l.areaMax.x, y), kZeroLine, grid);
    }
    float lastRight = -1e9f;
    for (const Tick& t : b.xTicks) {
        const float x = toScreen(l, r, t.value, r.y.min).x;
        if (x < l.areaMin.x - 0.5f || x > l.areaMax.x + 0.5f) continue;
        draw->AddLine(ImVec2(x, l.areaMin.y), ImVec2(x, l.areaMax.y), kGridMajor, grid);
        tickLabel(t, l.xStep, Scale::Linear, buf, sizeof buf);
        const ImVec2 size = ImGui::CalcTextSize(buf);
        const float left = std::max(b.frameMin.x + px(2.0f), x - 0.5f * size.x);
        // Keep clear of the previous label and of the axis label at the right end.
        if (left < lastRight + px(8.0f) || left + size.x > l.xLabelPos.x - px(10.0f)) continue;
        draw->AddText(ImVec2(left, l.areaMax.y + px(3.0f)), kTickLabel, buf);
        lastRight = left + size.x;
    }
    draw->AddRect(l.areaMin, l.areaMax, kAreaBorder, 0.0f, 0, grid);
    draw->AddText(l.titlePos, kTitle, b.label(l.title));
    draw->AddText(l.yLabelPos, kAxisLabel, b.label(l.yLabel));
    draw->AddText(l.xLabelPos, kAxisLabel, b.label(b.xLabel));
}

// [SECTION] Threshold lines and event markers

void drawMarkers(ImDrawList* draw, const detail::Building& b, const Layout& l, const PlotResult& r) {
    draw->PushClipRect(l.areaMin, l.areaMax, true);
    for (const detail::Building::Marker& m : b.hlines) {
        const float y = toScreen(l, r, r.x.min, m.value).y;
        const char* text = b.label(m.label);
        const float textWidth = ImGui::CalcTextSize(text).x;
        char offScale[96];
        if (y < l.areaMin.y || y > l.areaMax.y) {  // say where it is rather than hide it
            std::snprintf(offScale, sizeof offScale, "%s %s", text, y < l.areaMin.y ? "\u2191" : "\u2193");
            const float ly = y < l.areaMin.y ? l.areaMin.y + px(2.0f) : l.areaMax.y - l.lineHeight - px(2.0f);
            labelBox(draw, ImVec2(l.areaMax.x - textWidth - px(24.0f), ly), m.color, offScale);
            continue;
        }
        dashedLine(draw, ImVec2(l.areaMin.x, y), ImVec2(l.areaMax.x, y), m.color, px(1.5f));
        const float above = y - l.lineHeight - px(2.0f);
        const float ly = above >= l.areaMin.y ? above : y + px(2.0f);
        labelBox(draw, ImVec2(l.areaMax.x - textWidth - px(6.0f), ly), m.color, text);
    }
    for (const detail::Building::Marker& m : b.events) {
        if (!r.x.contains(m.value)) continue;
        const float x = toScreen(l, r, m.value, r.y.min).x;
        dashedLine(draw, ImVec2(x, l.areaMin.y), ImVec2(x, l.areaMax.y), m.color, px(1.5f));
        draw->AddTriangleFilled(ImVec2(x - px(5.0f), l.areaMin.y), ImVec2(x + px(5.0f), l.areaMin.y),
                                ImVec2(x, l.areaMin.y + px(7.0f)), m.color);
        const char* text = b.label(m.label);
        const float textWidth = ImGui::CalcTextSize(text).x;
        const float gap = px(4.0f);
        const float lx = x + gap + textWidth < l.areaMax.x ? x + gap : x - gap - textWidth;
        labelBox(draw, ImVec2(lx, l.areaMin.y + px(8.0f)), m.color, text);
    }
    draw->PopClipRect();
}

// [SECTION] Legend

bool drawLegend(ImDrawList* draw, const detail::Building& b, PlotState& state, const Layout& l,
                PlotResult& r) {
    if (b.series.empty()) return false;
    r.legendMin = l.legendMin;
    r.legendMax = l.legendMax;
    const float line = l.lineHeight + px(1.0f);
    const float swatch = px(kSwatch), swatchGap = px(kSwatchGap);
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool overLegend = b.hovered && mouse.x >= l.legendMin.x && mouse.x < l.legendMax.x &&
                            mouse.y >= l.legendMin.y && mouse.y < l.legendMax.y;
    const int total = static_cast<int>(b.series.size());
    if (l.legendCollapsed) {
        // A swatch of the first few colours, then the count; a click opens the list (legendList).
        int hidden = 0;
        if (!state.hidden.empty())
            for (const detail::Building::Series& s : b.series) hidden += state.isHidden(s.id) ? 1 : 0;
        char summary[48];
        if (hidden > 0)
            std::snprintf(summary, sizeof summary, "%d series, %d hidden", total, hidden);
        else
            std::snprintf(summary, sizeof summary, "%d series", total);
        const float textWidth = ImGui::CalcTextSize(summary).x;
        const ImVec2 min(l.legendMax.x - textWidth - swatch - swatchGap - px(10.0f), l.legendMin.y);
        r.legendMin = min;
        if (overLegend) {
            draw->AddRectFilled(min, l.legendMax, kLegendHover, px(2.0f));
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ImGui::OpenPopup("##legend list");
            ImGui::SetTooltip("click for the list of series: hide or show each one");
        }
        const float cy = min.y + 0.5f * line;
        for (int k = 0; k < 4 && k < total; ++k)
            draw->AddLine(ImVec2(min.x + px(5.0f + 4.0f * k), cy), ImVec2(min.x + px(9.0f + 4.0f * k), cy),
                          b.series[k].color, linePx(3.0f));
        draw->AddText(ImVec2(min.x + px(5.0f) + swatch + swatchGap, min.y), kTitle, summary);
        return overLegend;
    }
    bool overEntry = false;
    for (int i = 0; i < total && i < static_cast<int>(b.legendEntries.size()); ++i) {
        const detail::Building::Series& s = b.series[i];
        const ImVec2 p = b.legendEntries[i];
        const ImVec2 rowMin(p.x, p.y),
            rowMax(p.x + entryWidth(b.label(s.label)) - px(kEntryGap - 4.0f), p.y + line);
        const bool hidden = state.isHidden(s.id);
        if (b.hovered && mouse.x >= rowMin.x && mouse.x < rowMax.x && mouse.y >= rowMin.y &&
            mouse.y < rowMax.y) {
            overEntry = true;
            draw->AddRectFilled(rowMin, rowMax, kLegendHover, px(2.0f));
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) state.toggle(s.id);
        }
        const float cy = p.y + 0.5f * line;
        const ImVec2 a(p.x + px(5.0f), cy), c(p.x + px(5.0f) + swatch, cy);
        if (hidden)
            draw->AddLine(a, c, (s.color & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 90), linePx(2.0f));
        else
            draw->AddLine(a, c, s.color, linePx(3.0f));
        draw->AddText(ImVec2(c.x + swatchGap, p.y), hidden ? kTickLabel & 0x80FFFFFF : kTitle,
                      b.label(s.label));
    }
    if (overEntry) ImGui::SetTooltip("click an entry to hide or show its line");
    return overLegend;
}

void legendList(const detail::Building& b, PlotState& state) {
    if (!ImGui::BeginPopup("##legend list")) return;
    const int total = static_cast<int>(b.series.size());
    ImGui::TextDisabled("%d series: click one to hide or show it", total);
    if (ImGui::SmallButton("show all")) state.hidden.clear();
    ImGui::SameLine();
    if (ImGui::SmallButton("hide all"))
        for (const detail::Building::Series& s : b.series)
            if (!state.isHidden(s.id)) state.hidden.push_back(s.id);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginChild("##entries",
                      ImVec2(px(320.0f), line * static_cast<float>(std::min(total, 16)) + px(4.0f)), false);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImGuiListClipper clipper;  // only the rows in view are laid out
    clipper.Begin(total);
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const detail::Building::Series& s = b.series[static_cast<size_t>(i)];
            const bool hidden = state.isHidden(s.id);
            const ImVec2 pos = ImGui::GetCursorScreenPos();
            const float cy = pos.y + 0.5f * ImGui::GetTextLineHeight();
            draw->AddLine(ImVec2(pos.x + px(2.0f), cy), ImVec2(pos.x + px(18.0f), cy),
                          hidden ? (s.color & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 90) : s.color,
                          linePx(hidden ? 2.0f : 3.0f));
            ImGui::SetCursorScreenPos(ImVec2(pos.x + px(24.0f), pos.y));
            ImGui::PushID(i);
            if (hidden) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            if (ImGui::Selectable(b.label(s.label), false, ImGuiSelectableFlags_DontClosePopups))
                state.toggle(s.id);
            if (hidden) ImGui::PopStyleColor();
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
    ImGui::EndPopup();
}

// [SECTION] Hover readout

void drawReadout(ImDrawList* draw, const detail::Building& b, const Layout& l, PlotResult& r) {
    const ImVec2 mouse = ImGui::GetMousePos();
    if (mouse.x < l.areaMin.x || mouse.x > l.areaMax.x || mouse.y < l.areaMin.y || mouse.y > l.areaMax.y)
        return;
    const double x = fromUnit((mouse.x - l.areaMin.x) / l.width(), r.x, Scale::Linear);
    draw->AddLine(ImVec2(mouse.x, l.areaMin.y), ImVec2(mouse.x, l.areaMax.y), kCursor);
    // Each series' sample nearest the cursor, skipping series whose samples do not reach it.
    const double tolerance = px(4.0f) / l.xScale;  // 4 design px in x units
    const Point* nearest[kMaxReadoutLines];
    const ImU32* colors[kMaxReadoutLines];
    const char* labels[kMaxReadoutLines];
    int lines = 0, more = 0;
    double shownX = x;
    for (const detail::Building::Series& s : b.series) {
        if (s.count == 0) continue;
        const Point* first = b.pointsOf(s);
        const Point* last = first + s.count;
        if (x < first->x - tolerance || x > (last - 1)->x + tolerance) continue;
        const Point* it = std::lower_bound(first, last, x, [](const Point& p, double v) { return p.x < v; });
        if (it == last || (it != first && x - (it - 1)->x < it->x - x)) --it;
        if (!std::isfinite(it->y)) continue;
        if (lines == kMaxReadoutLines) {
            ++more;
            continue;
        }
        if (lines == 0) shownX = it->x;  // the readout gives the sample's x, not the cursor's
        nearest[lines] = it;
        colors[lines] = &s.color;
        labels[lines] = b.label(s.label);
        ++lines;
    }
    r.readoutX = shownX;
    r.readoutLines = lines;
    char value[32];
    ImGui::BeginTooltip();
    formatValue(shownX, value, sizeof value);
    ImGui::Text("%s  %s", *b.label(b.xLabel) ? b.label(b.xLabel) : "x", value);
    if (b.yLabel >= 0) ImGui::TextDisabled("%s", b.label(b.yLabel));
    if (lines == 0) ImGui::TextDisabled("no data here");
    for (int i = 0; i < lines; ++i) {
        const ImVec2 p = toScreen(l, r, nearest[i]->x, nearest[i]->y);
        if (p.y >= l.areaMin.y && p.y <= l.areaMax.y) {
            draw->AddCircleFilled(p, px(4.0f), *colors[i]);
            draw->AddCircle(p, px(4.0f), kAreaBg, 0, px(1.0f));
        }
        formatValue(nearest[i]->y, value, sizeof value);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(*colors[i]), "%s", labels[i]);
        ImGui::SameLine();
        ImGui::Text("%s", value);
    }
    if (more > 0) ImGui::TextDisabled("+%d more", more);
    ImGui::EndTooltip();
}

}  // namespace jl::plot
