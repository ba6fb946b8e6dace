// JointLab plot widget (private) — drawing the series: mapping points to the screen, leaving out
// points the line passes within tolerance of, and writing anti-aliased lines straight into the
// draw list's vertex buffer. A streamed series keeps the line it drew between frames. Called by
// EndPlot.
#include <algorithm>
#include <cmath>
#include <limits>

#include "plot/design_px.h"
#include "plot/plot_draw.h"

namespace jl::plot {

using app::linePx;
using app::px;

namespace {

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
    const ImDrawListFlags textured =
        ImDrawListFlags_AntiAliasedLines | ImDrawListFlags_AntiAliasedLinesUseTex;
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
            ImVec2 dm = i == 0           ? after
                        : i + 1 == count ? before
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
                const auto i1 = static_cast<ImDrawIdx>(base + 2 * (i - 1)),
                           i2 = static_cast<ImDrawIdx>(i1 + 2);
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

}  // namespace

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
/// A polyline as dashes along its length: 7 design px drawn, 5 left out. The pattern starts at
/// `phase` px (the line's start in data terms, so the dashes move with the data as the time window
/// scrolls instead of crawling along it). `dash` is scratch.
void addDashedPolyline(ImDrawList* draw, const ImVec2* p, int n, ImU32 color, float thickness, float phase,
                       std::vector<ImVec2>& dash) {
    const float kOn = px(7.0f), kPeriod = px(12.0f);
    float s = std::fmod(phase, kPeriod);  // where in the pattern the line is [px]
    if (s < 0.0f) s += kPeriod;
    bool on = s < kOn;
    dash.clear();
    if (on) dash.push_back(p[0]);
    auto flush = [&] {
        if (dash.size() > 1) addPolyline(draw, dash.data(), static_cast<int>(dash.size()), color, thickness);
        dash.clear();
    };
    for (int i = 1; i < n; ++i) {
        const ImVec2 a = p[i - 1], b = p[i];
        const float length = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
        for (float t = 0.0f;;) {
            const float toEdge = (on ? kOn : kPeriod) - s;  // to where the pattern changes
            if (t + toEdge >= length) {
                s += length - t;
                break;
            }
            t += toEdge;
            s += toEdge;
            const ImVec2 q(a.x + (b.x - a.x) * (t / length), a.y + (b.y - a.y) * (t / length));
            if (on) {  // a dash ends here
                dash.push_back(q);
                flush();
            } else {  // a gap ends here: the next dash starts
                s = 0.0f;
                dash.push_back(q);
            }
            on = !on;
        }
        if (on) dash.push_back(b);
    }
    flush();
}

/// The runs of a line (separated by NaN points), solid or dashed (`dash` is the dashes' scratch).
void drawRuns(ImDrawList* draw, const std::vector<ImVec2>& points, ImU32 color, float thickness, bool dashed,
              float phase, std::vector<ImVec2>& dash) {
    size_t start = 0;
    for (size_t i = 0; i <= points.size(); ++i) {
        if (i < points.size() && !std::isnan(points[i].y)) continue;
        const size_t n = i - start;
        if (n == 1) draw->AddCircleFilled(points[start], thickness, color);
        if (n > 1 && dashed)
            addDashedPolyline(draw, points.data() + start, static_cast<int>(n), color, thickness,
                              points[start].x - phase, dash);
        else if (n > 1)
            addPolyline(draw, points.data() + start, static_cast<int>(n), color, thickness);
        start = i + 1;
    }
}

/// A streamed series: last frame's line is kept while the axes stay put (moved sideways as the
/// time window moves on), and only the points after its settled part are mapped and simplified.
void drawStreamed(ImDrawList* draw, const detail::Building::Series& s, const Point* points, const Layout& l,
                  const PlotResult& r, float thickness, float tolerance, std::vector<ImVec2>& dash) {
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
    drawRuns(draw, c.points, s.color, thickness, s.dashed, static_cast<float>(c.xOffset), dash);
}

}  // namespace

int drawSeries(ImDrawList* draw, detail::Building& b, const Layout& l, const PlotResult& r) {
    int visible = 0;
    for (const detail::Building::Series& s : b.series) visible += s.count > 0 ? 1 : 0;
    const float thickness = linePx(visible <= 8 ? 2.0f : 1.0f);  // thinner when many overlap
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
            drawStreamed(draw, s, points, l, r, thickness, kTolerance, b.decimated);
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
        drawRuns(draw, b.simplified, s.color, thickness, s.dashed, static_cast<float>(l.xOffset),
                 b.decimated);
    }
    draw->PopClipRect();
    return visible;
}

}  // namespace jl::plot
