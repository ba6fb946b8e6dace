#include "plot/plot_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace jl::plot {

namespace {

// [SECTION] Look

constexpr float kPad = 6.0f;  ///< frame edge to content [px]
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
    constexpr float dash = 7.0f, gap = 4.0f;
    for (float s = 0.0f; s < length; s += dash + gap) {
        const float e = std::min(length, s + dash);
        draw->AddLine(ImVec2(a.x + dx * s / length, a.y + dy * s / length),
                      ImVec2(a.x + dx * e / length, a.y + dy * e / length), color, thickness);
    }
}

/// A segment's unit normal (dy, −dx), or zero for a zero-length segment.
ImVec2 segmentNormal(const ImVec2& a, const ImVec2& b) {
    float dx = b.x - a.x, dy = b.y - a.y;
    const float d2 = dx * dx + dy * dy;
    if (d2 > 0.0f) {
        const float inv = 1.0f / std::sqrt(d2);
        dx *= inv, dy *= inv;
    }
    return ImVec2(dy, -dx);
}

/// An open polyline, the same triangles as ImDrawList::AddPolyline draws for a thin anti-aliased
/// line (two vertices per point, textured with the font atlas' baked line of that width, the
/// normals of neighbouring segments averaged and lengthened at corners), but written into the
/// vertex buffer in one pass without AddPolyline's temporary arrays. Other widths, or a draw list
/// without textured lines, go to AddPolyline.
void addPolyline(ImDrawList* draw, const ImVec2* p, int n, ImU32 color, float thickness) {
    if (n < 2) return;
    const int width = static_cast<int>(thickness);
    const ImDrawListFlags textured = ImDrawListFlags_AntiAliasedLines | ImDrawListFlags_AntiAliasedLinesUseTex;
    if ((draw->Flags & textured) != textured || static_cast<float>(width) != thickness || width < 1 ||
        width >= IM_DRAWLIST_TEX_LINES_WIDTH_MAX) {
        draw->AddPolyline(p, n, color, 0, thickness);
        return;
    }
    const ImVec4 uvs = ImGui::GetIO().Fonts->TexUvLines[width];
    const ImVec2 uv0(uvs.x, uvs.y), uv1(uvs.z, uvs.w);
    const float half = 0.5f * thickness + 1.0f;  // the baked texture has a 1 px fringe on each side
    constexpr int kChunk = 16384;  // points per reservation: 2 vertices each keeps it within 16-bit indices
    for (int start = 0; start + 1 < n; start += kChunk - 1) {
        const ImVec2* q = p + start;
        const int count = std::min(kChunk, n - start);
        draw->PrimReserve((count - 1) * 6, count * 2);
        // Local write pointers: through the draw list's own members every store would reload them.
        ImDrawVert* vtx = draw->_VtxWritePtr;
        ImDrawIdx* idx = draw->_IdxWritePtr;
        const auto base = static_cast<ImDrawIdx>(draw->_VtxCurrentIdx);
        ImVec2 before = segmentNormal(q[0], q[1]);
        for (int i = 0; i < count; ++i) {
            const ImVec2 after = i + 1 < count ? segmentNormal(q[i], q[i + 1]) : before;
            ImVec2 dm = i == 0 ? after : i + 1 == count ? before
                                                         : ImVec2(0.5f * (before.x + after.x), 0.5f * (before.y + after.y));
            const float d2 = dm.x * dm.x + dm.y * dm.y;  // ImGui's IM_FIXNORMAL2F: longer at corners, capped
            if (d2 > 0.000001f) {
                const float inv = std::min(1.0f / d2, 100.0f);
                dm.x *= inv, dm.y *= inv;
            }
            dm.x *= half, dm.y *= half;
            vtx[0].pos = ImVec2(q[i].x + dm.x, q[i].y + dm.y);
            vtx[0].uv = uv0;
            vtx[0].col = color;
            vtx[1].pos = ImVec2(q[i].x - dm.x, q[i].y - dm.y);
            vtx[1].uv = uv1;
            vtx[1].col = color;
            vtx += 2;
            if (i > 0) {
                const auto i1 = static_cast<ImDrawIdx>(base + 2 * (i - 1)), i2 = static_cast<ImDrawIdx>(i1 + 2);
                idx[0] = i2;
                idx[1] = i1;
                idx[2] = static_cast<ImDrawIdx>(i1 + 1);
                idx[3] = static_cast<ImDrawIdx>(i2 + 1);
                idx[4] = static_cast<ImDrawIdx>(i1 + 1);
                idx[5] = i2;
                idx += 6;
            }
            before = after;
        }
        draw->_VtxWritePtr = vtx;
        draw->_IdxWritePtr = idx;
        draw->_VtxCurrentIdx += static_cast<unsigned int>(count * 2);
    }
}

/// Text on a translucent background so it stays readable over grid and lines.
void labelBox(ImDrawList* draw, ImVec2 pos, ImU32 color, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddRectFilled(ImVec2(pos.x - 2, pos.y), ImVec2(pos.x + size.x + 2, pos.y + size.y), kLegendBg, 2.0f);
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

/// Shortens the title with "…" until it fits `width` [px] (cutting whole UTF-8 characters).
void fitTitle(detail::Building& b, float width) {
    const std::string text = b.label(b.title);
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return;
    const std::string ellipsis = "\u2026";
    auto cut = [&](size_t n) {  // back to a character boundary, without trailing spaces
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
        while (n > 0 && text[n - 1] == ' ') --n;
        return text.substr(0, n) + ellipsis;
    };
    size_t lo = 0, hi = text.size();  // the longest cut that fits, by bisection
    while (lo < hi) {
        const size_t mid = (lo + hi + 1) / 2;
        if (ImGui::CalcTextSize(cut(mid).c_str()).x <= width)
            lo = mid;
        else
            hi = mid - 1;
    }
    b.title = b.addLabel(cut(lo).c_str());
}

}  // namespace

Layout layoutPlot(detail::Building& b, const PlotResult& r, float titleReserve) {
    Layout l;
    l.lineHeight = ImGui::GetTextLineHeight();
    const float frameWidth = b.frameMax.x - b.frameMin.x;
    const float titleRight = b.frameMax.x - kPad - titleReserve;  // the caller's buttons are right of it
    fitTitle(b, std::max(20.0f, titleRight - b.frameMin.x - kPad));
    const char* title = b.label(b.title);
    const char* yLabel = b.label(b.yLabel);
    const float titleWidth = ImGui::CalcTextSize(title).x, yLabelWidth = ImGui::CalcTextSize(yLabel).x;
    float top = b.frameMin.y + kPad;
    const float centred = b.frameMin.x + 0.5f * (frameWidth - titleWidth);
    l.titlePos = ImVec2(std::max(b.frameMin.x + kPad, std::min(centred, titleRight - titleWidth)), top);
    l.yLabelPos = ImVec2(b.frameMin.x + kPad, top);
    const bool titleRow = *title != '\0', yLabelRow = *yLabel != '\0';
    // The value-axis label shares the title's row when both fit side by side.
    const bool shareRow = titleRow && yLabelRow && l.yLabelPos.x + yLabelWidth + 12.0f < l.titlePos.x;
    if (titleRow) top += l.lineHeight + 2.0f;
    if (yLabelRow && !shareRow) {
        l.yLabelPos.y = top;
        top += l.lineHeight + 2.0f;
    }
    const float areaTop = top + 4.0f;
    const float areaBottom = b.frameMax.y - kPad - l.lineHeight - 3.0f;

    const float areaHeight = std::max(10.0f, areaBottom - areaTop);
    makeTicks(r.y, r.yScale, std::max(2, static_cast<int>(areaHeight / (l.lineHeight * 1.8f))), b.yTicks);
    l.yStep = majorStep(b.yTicks);
    const float left = b.frameMin.x + kPad + widestLabel(b.yTicks, l.yStep, r.yScale) + 6.0f;
    const float right = b.frameMax.x - kPad - 2.0f;
    l.areaMin = ImVec2(std::min(left, right - 10.0f), areaTop);
    l.areaMax = ImVec2(right, areaTop + areaHeight);
    setMapping(l, r);

    // x ticks: as many as fit with their labels apart.
    int maxTicks = std::max(2, static_cast<int>(l.width() / 40.0f));
    for (int pass = 0; pass < 3; ++pass) {
        makeTicks(r.x, Scale::Linear, maxTicks, b.xTicks);
        l.xStep = majorStep(b.xTicks);
        const float labelWidth = widestLabel(b.xTicks, l.xStep, Scale::Linear) + 18.0f;
        const int fit = std::max(2, static_cast<int>(l.width() / labelWidth));
        if (fit >= maxTicks) break;
        maxTicks = fit;
    }
    const float xLabelWidth = ImGui::CalcTextSize(b.label(b.xLabel)).x;
    l.xLabelPos = ImVec2(l.areaMax.x - xLabelWidth, l.areaMax.y + 3.0f);
    return l;
}

// [SECTION] Frame, grid, ticks, labels

void drawFrameAndAxes(ImDrawList* draw, detail::Building& b, const Layout& l, const PlotResult& r) {
    draw->AddRectFilled(b.frameMin, b.frameMax, kFrameBg, 4.0f);
    draw->AddRectFilled(l.areaMin, l.areaMax, kAreaBg);
    char buf[32];
    for (const Tick& t : b.yTicks) {
        const float y = toScreen(l, r, r.x.min, t.value).y;
        if (y < l.areaMin.y - 0.5f || y > l.areaMax.y + 0.5f) continue;
        draw->AddLine(ImVec2(l.areaMin.x, y), ImVec2(l.areaMax.x, y), t.major ? kGridMajor : kGridMinor);
        if (!t.major) continue;
        tickLabel(t, l.yStep, r.yScale, buf, sizeof buf);
        const ImVec2 size = ImGui::CalcTextSize(buf);
        draw->AddText(ImVec2(l.areaMin.x - 5.0f - size.x, y - 0.5f * size.y), kTickLabel, buf);
    }
    if (r.yScale == Scale::Linear && r.y.min < 0.0 && r.y.max > 0.0) {
        const float y = toScreen(l, r, r.x.min, 0.0).y;
        draw->AddLine(ImVec2(l.areaMin.x, y), ImVec2(l.areaMax.x, y), kZeroLine);
    }
    float lastRight = -1e9f;
    for (const Tick& t : b.xTicks) {
        const float x = toScreen(l, r, t.value, r.y.min).x;
        if (x < l.areaMin.x - 0.5f || x > l.areaMax.x + 0.5f) continue;
        draw->AddLine(ImVec2(x, l.areaMin.y), ImVec2(x, l.areaMax.y), kGridMajor);
        tickLabel(t, l.xStep, Scale::Linear, buf, sizeof buf);
        const ImVec2 size = ImGui::CalcTextSize(buf);
        const float left = std::max(b.frameMin.x + 2.0f, x - 0.5f * size.x);
        // Keep clear of the previous label and of the axis label at the right end.
        if (left < lastRight + 8.0f || left + size.x > l.xLabelPos.x - 10.0f) continue;
        draw->AddText(ImVec2(left, l.areaMax.y + 3.0f), kTickLabel, buf);
        lastRight = left + size.x;
    }
    draw->AddRect(l.areaMin, l.areaMax, kAreaBorder);
    draw->AddText(l.titlePos, kTitle, b.label(b.title));
    draw->AddText(l.yLabelPos, kAxisLabel, b.label(b.yLabel));
    draw->AddText(l.xLabelPos, kAxisLabel, b.label(b.xLabel));
}

// [SECTION] Series

namespace {

constexpr float kGapY = std::numeric_limits<float>::quiet_NaN();  ///< y of the point between two runs

/// Maps a data point to the screen (as toScreen, with the layout's numbers in registers); false
/// when it cannot be drawn (NaN or infinite, or not positive on a log axis): a gap.
struct ScreenMap {
    double xOffset, xScale, yOffset, yScale;
    bool log;
    bool operator()(const Point& p, ImVec2& q) const {
        constexpr double kMax = std::numeric_limits<double>::max();
        const double y = log ? (p.y > 0.0 ? std::log10(p.y) : std::numeric_limits<double>::quiet_NaN()) : p.y;
        if (!(std::abs(p.x) <= kMax) || !(std::abs(y) <= kMax)) return false;
        q = ImVec2(static_cast<float>(std::clamp(xOffset + xScale * p.x, -1e5, 1e5)),
                   static_cast<float>(std::clamp(yOffset + yScale * y, -1e5, 1e5)));
        return true;
    }
};

/// Feeds points into runs of simplified line: a gap ends the open run and writes a gap point.
struct RunWriter {
    std::vector<ImVec2>& out;
    Simplifier run;
    bool inRun = false;
    void add(bool drawable, ImVec2 q, float tolerance) {
        if (drawable) {
            if (!inRun) run = Simplifier(tolerance), inRun = true;
            run.add(q, out);
        } else if (inRun) {
            run.finish(out);
            out.push_back(ImVec2(out.back().x, kGapY));
            inRun = false;
        }
    }
    void finish() {
        if (inRun) run.finish(out);
    }
};

/// Draws the runs of `points` (separated by gap points): a line each, a dot for a single point.
void drawRuns(ImDrawList* draw, const std::vector<ImVec2>& points, ImU32 color, float thickness) {
    size_t start = 0;
    for (size_t i = 0; i <= points.size(); ++i) {
        if (i < points.size() && !std::isnan(points[i].y)) continue;
        const size_t n = i - start;
        if (n == 1) draw->AddCircleFilled(points[start], thickness, color);
        if (n > 1) addPolyline(draw, points.data() + start, static_cast<int>(n), color, thickness);
        start = i + 1;
    }
}

/// A streamed series: last frame's line is kept while the axes stay put (moved sideways as the
/// time window moves on), and only the points after its settled part are mapped and simplified.
void drawStreamed(ImDrawList* draw, const detail::Building::Series& s, const Point* points, const Layout& l,
                  const PlotResult& r, float thickness, float tolerance) {
    StreamLine& c = *s.line;
    const bool log = l.logY;
    const double yLo = log ? std::log10(r.y.min) : r.y.min, yHi = log ? std::log10(r.y.max) : r.y.max;
    auto near = [](double a, double b) { return std::abs(a - b) < 0.01; };  // [px]
    const bool keep = c.valid && c.logY == log && c.thickness == thickness &&
                      near(c.xScale * r.x.size(), l.xScale * r.x.size()) &&
                      near(c.yOffset + c.yScale * yLo, l.yOffset + l.yScale * yLo) &&
                      near(c.yOffset + c.yScale * yHi, l.yOffset + l.yScale * yHi);
    if (keep) {
        c.points.resize(c.settled);
        const float dx = static_cast<float>(l.xOffset - c.xOffset);
        if (dx != 0.0f) {
            for (ImVec2& p : c.points) p.x += dx;
            c.run.shift(dx);
            c.xOffset += static_cast<double>(dx);
        }
        // What scrolled out on the left goes, but for one point so the line still enters the area.
        size_t gone = 0;
        while (gone + 1 < c.settled && c.points[gone + 1].x < l.areaMin.x - 1.0f) ++gone;
        if (gone > 0) {
            c.points.erase(c.points.begin(), c.points.begin() + static_cast<std::ptrdiff_t>(gone));
            c.settled -= gone;
        }
    } else {
        c.valid = true;
        c.xOffset = l.xOffset, c.xScale = l.xScale, c.yOffset = l.yOffset, c.yScale = l.yScale;
        c.logY = log;
        c.thickness = thickness;
        c.points.clear();
        c.settled = 0;
        c.run = Simplifier(tolerance);
        c.inRun = false;
        c.resumeX = -std::numeric_limits<double>::infinity();
    }
    const ScreenMap map{c.xOffset, l.xScale, l.yOffset, l.yScale, log};
    RunWriter writer{c.points, c.run, c.inRun};
    int i = static_cast<int>(std::upper_bound(points, points + s.count, c.resumeX,
                                              [](double x, const Point& p) { return x < p.x; }) -
                             points);
    bool saved = false;
    auto save = [&] {  // the line up to here is final: the next frame resumes from this state
        c.run = writer.run;
        c.inRun = writer.inRun;
        c.settled = c.points.size();
        if (i > 0) c.resumeX = points[i - 1].x;
        saved = true;
    };
    for (; i < s.count; ++i) {
        if (i == s.settled) save();
        ImVec2 q;
        const bool drawable = map(points[i], q);
        writer.add(drawable, q, tolerance);
    }
    if (!saved && s.settled >= s.count) save();
    writer.finish();
    drawRuns(draw, c.points, s.color, thickness);
}

}  // namespace

int drawSeries(ImDrawList* draw, detail::Building& b, const Layout& l, const PlotResult& r) {
    int visible = 0;
    for (const detail::Building::Series& s : b.series) visible += s.count > 0 ? 1 : 0;
    const float thickness = visible <= 8 ? 2.0f : 1.0f;
    const size_t decimateAbove = static_cast<size_t>(2.0f * l.width());
    // Points a line passes within this distance of are left out (simplify): less than the
    // anti-aliased fringe, so the picture is the same.
    constexpr float kTolerance = 0.4f;  // [px]
    const ScreenMap map{l.xOffset, l.xScale, l.yOffset, l.yScale, l.logY};
    draw->PushClipRect(l.areaMin, l.areaMax, true);
    for (const detail::Building::Series& s : b.series) {
        if (s.count == 0) continue;
        const Point* points = b.pointsOf(s);
        if (s.line) {
            drawStreamed(draw, s, points, l, r, thickness, kTolerance);
            continue;
        }
        b.simplified.clear();
        if (static_cast<size_t>(s.count) > decimateAbove) {
            // Many points per pixel column: the first, lowest, highest and last of each, then simplified.
            auto flush = [&] {
                if (b.screen.empty()) return;
                decimate(b.screen.data(), b.screen.size(), b.decimated);
                RunWriter writer{b.simplified, Simplifier(kTolerance)};
                for (const ImVec2& q : b.decimated) writer.add(true, q, kTolerance);
                writer.finish();
                b.simplified.push_back(ImVec2(b.simplified.back().x, kGapY));
                b.screen.clear();
            };
            b.screen.clear();
            for (int i = 0; i < s.count; ++i) {
                ImVec2 q;
                if (map(points[i], q))
                    b.screen.push_back(q);
                else
                    flush();  // a gap
            }
            flush();
        } else {
            RunWriter writer{b.simplified, Simplifier(kTolerance)};
            for (int i = 0; i < s.count; ++i) {
                ImVec2 q;
                const bool drawable = map(points[i], q);
                writer.add(drawable, q, kTolerance);
            }
            writer.finish();
        }
        drawRuns(draw, b.simplified, s.color, thickness);
    }
    draw->PopClipRect();
    return visible;
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
            const float ly = y < l.areaMin.y ? l.areaMin.y + 2.0f : l.areaMax.y - l.lineHeight - 2.0f;
            labelBox(draw, ImVec2(l.areaMax.x - textWidth - 24.0f, ly), m.color, offScale);
            continue;
        }
        dashedLine(draw, ImVec2(l.areaMin.x, y), ImVec2(l.areaMax.x, y), m.color, 1.5f);
        const float ly = y - l.lineHeight - 2.0f >= l.areaMin.y ? y - l.lineHeight - 2.0f : y + 2.0f;
        labelBox(draw, ImVec2(l.areaMax.x - textWidth - 6.0f, ly), m.color, text);
    }
    for (const detail::Building::Marker& m : b.events) {
        if (!r.x.contains(m.value)) continue;
        const float x = toScreen(l, r, m.value, r.y.min).x;
        dashedLine(draw, ImVec2(x, l.areaMin.y), ImVec2(x, l.areaMax.y), m.color, 1.5f);
        draw->AddTriangleFilled(ImVec2(x - 5.0f, l.areaMin.y), ImVec2(x + 5.0f, l.areaMin.y),
                                ImVec2(x, l.areaMin.y + 7.0f), m.color);
        const char* text = b.label(m.label);
        const float textWidth = ImGui::CalcTextSize(text).x;
        const float lx = x + 4.0f + textWidth < l.areaMax.x ? x + 4.0f : x - 4.0f - textWidth;
        labelBox(draw, ImVec2(lx, l.areaMin.y + 8.0f), m.color, text);
    }
    draw->PopClipRect();
}

// [SECTION] Legend

namespace {

/// The corner of the data area where a box of `size` covers the fewest data points (sampled). The
/// legend stays where it is while the mouse is over it or unless another corner is clearly
/// quieter, so it does not jump away from a click or flicker as the data moves.
ImVec2 quietestCorner(const detail::Building& b, const Layout& l, const PlotResult& r, const ImVec2& size,
                      PlotState& state) {
    int& corner = state.legendCorner;
    const float m = 6.0f;
    const ImVec2 corners[4] = {
        ImVec2(l.areaMin.x + m, l.areaMin.y + m),                    // top left
        ImVec2(l.areaMax.x - m - size.x, l.areaMin.y + m),           // top right
        ImVec2(l.areaMin.x + m, l.areaMax.y - m - size.y),           // bottom left
        ImVec2(l.areaMax.x - m - size.x, l.areaMax.y - m - size.y),  // bottom right
    };
    // Data moves slowly against the legend's hysteresis: a look every few frames is enough.
    const int frame = ImGui::GetFrameCount();
    if (corner >= 0 && frame >= state.legendCheckedFrame && frame - state.legendCheckedFrame < 8) return corners[corner];
    state.legendCheckedFrame = frame;
    int covered[4] = {0, 0, 0, 0};
    auto count = [&](const ImVec2& s) {
        for (int c = 0; c < 4; ++c)
            if (s.x >= corners[c].x && s.x < corners[c].x + size.x && s.y >= corners[c].y && s.y < corners[c].y + size.y)
                ++covered[c];
    };
    // Dense data: every stride-th point. Sparse data (a convergence curve): points along each
    // segment too, so a line crossing a corner counts even without a sample in it.
    const size_t stride = std::max<size_t>(1, b.pointCount / 4000);
    for (const detail::Building::Series& series : b.series) {
        ImVec2 previous;
        bool havePrevious = false;
        const Point* points = b.pointsOf(series);
        for (int i = 0; i < series.count; i += static_cast<int>(stride)) {
            const Point& p = points[i];
            if (!std::isfinite(p.y) || (r.yScale == Scale::Log10 && p.y <= 0.0)) {
                havePrevious = false;
                continue;
            }
            const ImVec2 s = toScreen(l, r, p.x, p.y);
            const int steps = havePrevious && stride == 1 ? std::clamp(static_cast<int>(std::abs(s.x - previous.x) / 8.0f), 1, 32) : 1;
            for (int k = 1; k <= steps; ++k) {
                const float t = static_cast<float>(k) / steps;
                count(havePrevious ? ImVec2(previous.x + (s.x - previous.x) * t, previous.y + (s.y - previous.y) * t) : s);
            }
            previous = s;
            havePrevious = true;
        }
    }
    // Threshold lines and event markers (with their labels) count as much as a line of data.
    for (const detail::Building::Marker& m : b.hlines) {
        const float y = toScreen(l, r, r.x.min, m.value).y;
        for (float x = l.areaMin.x; x < l.areaMax.x; x += 8.0f) count(ImVec2(x, y)), count(ImVec2(x, y - l.lineHeight));
    }
    for (const detail::Building::Marker& m : b.events) {
        const float x = toScreen(l, r, m.value, r.y.min).x;
        for (float y = l.areaMin.y; y < l.areaMax.y; y += 8.0f) count(ImVec2(x, y)), count(ImVec2(x + 40.0f, y));
    }
    int best = 0;
    for (int c = 1; c < 4; ++c)
        if (covered[c] < covered[best]) best = c;
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool held = corner >= 0 && b.hovered && mouse.x >= corners[corner].x && mouse.x < corners[corner].x + size.x &&
                      mouse.y >= corners[corner].y && mouse.y < corners[corner].y + size.y;
    if (corner < 0 || (!held && covered[corner] > covered[best] + 2 + covered[best] / 4)) corner = best;
    return corners[corner];
}

}  // namespace

bool drawLegend(ImDrawList* draw, const detail::Building& b, PlotState& state, const Layout& l, PlotResult& r) {
    if (b.series.empty()) return false;
    const float line = l.lineHeight + 1.0f, swatch = 16.0f, gap = 6.0f;
    const int capacity = std::max(1, static_cast<int>((l.height() - 12.0f) / line));
    const int total = static_cast<int>(b.series.size());
    // More entries than fit: one line, "N series", that opens the list (legendList).
    const bool collapsed = total > capacity;
    char summary[64] = "";
    if (collapsed) {
        int hidden = 0;
        if (!state.hidden.empty())
            for (const detail::Building::Series& s : b.series) hidden += state.isHidden(s.id) ? 1 : 0;
        if (hidden > 0)
            std::snprintf(summary, sizeof summary, "%d series, %d hidden", total, hidden);
        else
            std::snprintf(summary, sizeof summary, "%d series", total);
    }
    const int shown = collapsed ? 0 : total;
    float width = ImGui::CalcTextSize(summary).x;
    for (int i = 0; i < shown; ++i) width = std::max(width, ImGui::CalcTextSize(b.label(b.series[i].label)).x);
    width += swatch + gap + 10.0f;
    const ImVec2 size(width, line * (collapsed ? 1 : shown) + 6.0f);
    const ImVec2 min = quietestCorner(b, l, r, size, state);
    const ImVec2 max(min.x + size.x, min.y + size.y);
    r.legendMin = min;
    r.legendMax = max;
    draw->AddRectFilled(min, max, kLegendBg, 3.0f);
    draw->AddRect(min, max, kAreaBorder, 3.0f);
    const ImVec2 mouse = ImGui::GetMousePos();
    const bool overLegend = b.hovered && mouse.x >= min.x && mouse.x < max.x && mouse.y >= min.y && mouse.y < max.y;
    if (collapsed) {
        // A swatch of the first few colours, then the count.
        const float cy = min.y + 3.0f + 0.5f * line;
        for (int k = 0; k < 4 && k < total; ++k)
            draw->AddLine(ImVec2(min.x + 5.0f + 4.0f * k, cy), ImVec2(min.x + 9.0f + 4.0f * k, cy), b.series[k].color, 3.0f);
        if (overLegend) {
            draw->AddRectFilled(ImVec2(min.x + 2.0f, min.y + 3.0f), ImVec2(max.x - 2.0f, min.y + 3.0f + line), kLegendHover, 2.0f);
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ImGui::OpenPopup("##legend list");
            ImGui::SetTooltip("click for the list of series: hide or show each one");
        }
        draw->AddText(ImVec2(min.x + 5.0f + swatch + gap, min.y + 3.0f), kTitle, summary);
        return overLegend;
    }
    for (int i = 0; i < shown; ++i) {
        const detail::Building::Series& s = b.series[i];
        const float y = min.y + 3.0f + line * i;
        const ImVec2 rowMin(min.x + 2.0f, y), rowMax(max.x - 2.0f, y + line);
        const bool hidden = state.isHidden(s.id);
        if (overLegend && mouse.y >= rowMin.y && mouse.y < rowMax.y) {
            draw->AddRectFilled(rowMin, rowMax, kLegendHover, 2.0f);
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) state.toggle(s.id);
        }
        const float cy = y + 0.5f * line;
        const ImVec2 a(min.x + 5.0f, cy), c(min.x + 5.0f + swatch, cy);
        if (hidden)
            draw->AddLine(a, c, (s.color & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 90), 2.0f);
        else
            draw->AddLine(a, c, s.color, 3.0f);
        draw->AddText(ImVec2(c.x + gap, y), hidden ? kTickLabel & 0x80FFFFFF : kTitle, b.label(s.label));
    }
    if (overLegend) ImGui::SetTooltip("click an entry to hide or show its line");
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
    ImGui::BeginChild("##entries", ImVec2(320.0f, line * static_cast<float>(std::min(total, 16)) + 4.0f), false);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImGuiListClipper clipper;  // only the rows in view are laid out
    clipper.Begin(total);
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const detail::Building::Series& s = b.series[static_cast<size_t>(i)];
            const bool hidden = state.isHidden(s.id);
            const ImVec2 pos = ImGui::GetCursorScreenPos();
            const float cy = pos.y + 0.5f * ImGui::GetTextLineHeight();
            draw->AddLine(ImVec2(pos.x + 2.0f, cy), ImVec2(pos.x + 18.0f, cy),
                          hidden ? (s.color & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 90) : s.color, hidden ? 2.0f : 3.0f);
            ImGui::SetCursorScreenPos(ImVec2(pos.x + 24.0f, pos.y));
            ImGui::PushID(i);
            if (hidden) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            if (ImGui::Selectable(b.label(s.label), false, ImGuiSelectableFlags_DontClosePopups)) state.toggle(s.id);
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
    if (mouse.x < l.areaMin.x || mouse.x > l.areaMax.x || mouse.y < l.areaMin.y || mouse.y > l.areaMax.y) return;
    const double x = fromUnit((mouse.x - l.areaMin.x) / l.width(), r.x, Scale::Linear);
    draw->AddLine(ImVec2(mouse.x, l.areaMin.y), ImVec2(mouse.x, l.areaMax.y), kCursor);
    // Each series' sample nearest the cursor, skipping series whose samples do not reach it.
    const double tolerance = 4.0 / l.xScale;  // 4 px in x units
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
            draw->AddCircleFilled(p, 4.0f, *colors[i]);
            draw->AddCircle(p, 4.0f, kAreaBg);
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
