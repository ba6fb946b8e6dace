// Pictures of sweep results; see plot/sweep_plot.h.
#include "plot/sweep_plot.h"

#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "plot/plot.h"

#define STB_IMAGE_WRITE_STATIC  // private copy: the app's screenshot code has its own
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace jl::plot {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> splitCells(const std::string& line) {
    std::vector<std::string> cells;
    size_t start = 0;
    for (;;) {
        const size_t comma = line.find(',', start);
        cells.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return cells;
        start = comma + 1;
    }
}

bool toNumber(const std::string& s, double& out) {
    if (s.empty()) return false;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

/// The distinct values of a parameter in first-seen order (the sweep's own order).
std::vector<std::string> distinct(const SweepTable& t, int p) {
    std::vector<std::string> out;
    for (const SweepTable::Row& r : t.rows)
        if (std::find(out.begin(), out.end(), r.values[static_cast<size_t>(p)]) == out.end())
            out.push_back(r.values[static_cast<size_t>(p)]);
    return out;
}

/// Short form of a number for cell labels: 3 significant digits.
std::string shortNumber(double v) {
    if (std::isnan(v)) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

/// An axis label: numbers to 4 significant digits (0.177827941004 -> 0.1778), names as they are.
std::string label(const std::string& value) {
    double v = 0;
    if (!toNumber(value, v)) return value;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

/// The field's last name ("joints.shoulder.drive.stiffness" -> "drive.stiffness").
std::string axisName(const std::string& path) {
    size_t start = path.find('.');
    if (path.rfind("joints.", 0) == 0 || path.rfind("bodies.", 0) == 0) {
        // joints.NAME.field: the field after the owner's name (names are taken whole)
        const size_t second = path.find('.', start + 1);
        if (second != std::string::npos) return path.substr(start + 1);
    }
    return path.substr(start + 1);
}

void text(ImDrawList* dl, ImVec2 at, ImU32 color, const std::string& s, float alignX = 0.0f,
          float alignY = 0.0f) {
    const ImVec2 size = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(std::round(at.x - size.x * alignX), std::round(at.y - size.y * alignY)), color,
                s.c_str());
}

/// A 2-D sweep as cells: x = parameter a's values across, y = parameter b's down.
int drawHeatMap(const SweepTable& t, int a, int b, int m, ImVec2 size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImU32 fg = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float line = ImGui::GetTextLineHeight();
    const std::vector<std::string> xs = distinct(t, a), ys = distinct(t, b);
    // Values per cell; NaN for a missing or empty one.
    std::vector<double> cell(xs.size() * ys.size(), kNaN);
    std::vector<std::string> status(cell.size());
    std::vector<int> rowOf(cell.size(), -1);
    double lo = kNaN, hi = kNaN;
    for (const SweepTable::Row& r : t.rows) {
        const size_t i = static_cast<size_t>(
            std::find(xs.begin(), xs.end(), r.values[static_cast<size_t>(a)]) - xs.begin());
        const size_t j = static_cast<size_t>(
            std::find(ys.begin(), ys.end(), r.values[static_cast<size_t>(b)]) - ys.begin());
        const double v = r.metrics[static_cast<size_t>(m)];
        cell[j * xs.size() + i] = v;
        status[j * xs.size() + i] = r.status;
        rowOf[j * xs.size() + i] = static_cast<int>(&r - t.rows.data());
        if (!std::isnan(v)) {
            lo = std::isnan(lo) ? v : std::min(lo, v);
            hi = std::isnan(hi) ? v : std::max(hi, v);
        }
    }
    const bool logScale = lo > 0 && hi / lo > 100.0;
    auto unit = [&](double v) {
        if (std::isnan(lo) || hi == lo) return 0.5;
        return logScale ? std::log(v / lo) / std::log(hi / lo) : (v - lo) / (hi - lo);
    };
    // Layout: title, then the grid with y labels on the left, x labels below, colour bar right.
    const std::string title = t.metrics[static_cast<size_t>(m)] + " over " +
                              axisName(t.parameters[static_cast<size_t>(a)]) + " and " +
                              axisName(t.parameters[static_cast<size_t>(b)]);
    text(dl, ImVec2(origin.x + size.x * 0.5f, origin.y + 6), fg, title, 0.5f, 0.0f);
    float yLabelWidth = 0;
    for (const std::string& s : ys)
        yLabelWidth = std::max(yLabelWidth, ImGui::CalcTextSize(label(s).c_str()).x);
    const float left = origin.x + yLabelWidth + line * 2.0f;
    const float top = origin.y + line * 2.5f;
    const float barWidth = line * 1.2f, barLabels = ImGui::CalcTextSize("-8.88e-88").x + 8;
    const float right = origin.x + size.x - barWidth - barLabels - line * 2.0f;
    const float bottom = origin.y + size.y - line * 3.5f;
    const float cw = (right - left) / static_cast<float>(xs.size());
    const float ch = (bottom - top) / static_cast<float>(ys.size());
    for (size_t j = 0; j < ys.size(); ++j)
        for (size_t i = 0; i < xs.size(); ++i) {
            const ImVec2 p0(std::round(left + cw * static_cast<float>(i)),
                            std::round(top + ch * static_cast<float>(j)));
            const ImVec2 p1(std::round(left + cw * static_cast<float>(i + 1)) - 1,
                            std::round(top + ch * static_cast<float>(j + 1)) - 1);
            const double v = cell[j * xs.size() + i];
            const ImVec2 mid((p0.x + p1.x) * 0.5f, (p0.y + p1.y) * 0.5f);
            if (std::isnan(v)) {
                dl->AddRectFilled(p0, p1, IM_COL32(70, 70, 70, 255));
                const std::string& s = status[j * xs.size() + i];
                text(dl, mid, fg, s.empty() ? "no run" : s == "ok" ? "never" : s, 0.5f, 0.5f);
                continue;
            }
            const double u = unit(v);
            dl->AddRectFilled(p0, p1, heatColor(u));
            // The value, dark on the light end of the scale and light on the dark end.
            if (cw > ImGui::CalcTextSize("8.88e-88").x + 4 && ch > line + 2)
                text(dl, mid, u > 0.6 ? IM_COL32(20, 20, 20, 255) : IM_COL32(240, 240, 240, 255),
                     shortNumber(v), 0.5f, 0.5f);
        }
    for (size_t i = 0; i < xs.size(); ++i)
        text(dl, ImVec2(left + cw * (static_cast<float>(i) + 0.5f), bottom + 4), fg, label(xs[i]), 0.5f,
             0.0f);
    for (size_t j = 0; j < ys.size(); ++j)
        text(dl, ImVec2(left - 6, top + ch * (static_cast<float>(j) + 0.5f)), fg, label(ys[j]), 1.0f, 0.5f);
    text(dl, ImVec2((left + right) * 0.5f, bottom + line + 10), dim, t.parameters[static_cast<size_t>(a)],
         0.5f, 0.0f);
    text(dl, ImVec2(origin.x + 4, top - line - 4), dim, t.parameters[static_cast<size_t>(b)] + " (down)",
         0.0f, 0.0f);
    // Colour bar.
    const float bx = right + line * 1.5f;
    constexpr int kSteps = 64;
    for (int k = 0; k < kSteps; ++k) {
        const float y0 = bottom - (bottom - top) * static_cast<float>(k + 1) / kSteps;
        const float y1 = bottom - (bottom - top) * static_cast<float>(k) / kSteps;
        dl->AddRectFilled(ImVec2(bx, std::floor(y0)), ImVec2(bx + barWidth, std::ceil(y1)),
                          heatColor((static_cast<double>(k) + 0.5) / kSteps));
    }
    if (!std::isnan(lo)) {
        text(dl, ImVec2(bx + barWidth + 4, top), fg, shortNumber(hi), 0.0f, 0.0f);
        text(dl, ImVec2(bx + barWidth + 4, bottom), fg, shortNumber(lo), 0.0f, 1.0f);
        const double midValue = logScale ? std::sqrt(lo * hi) : (lo + hi) * 0.5;
        text(dl, ImVec2(bx + barWidth + 4, (top + bottom) * 0.5f), dim, shortNumber(midValue), 0.0f, 0.5f);
    }
    text(dl, ImVec2(bx + barWidth * 0.5f, bottom + 4), dim, logScale ? "log" : "linear", 0.5f, 0.0f);
    // The cell under the mouse, outlined (the viewer opens its run on a click).
    ImGui::Dummy(size);
    const ImVec2 mouse = ImGui::GetMousePos();
    if (!ImGui::IsItemHovered() || mouse.x < left || mouse.x >= right || mouse.y < top || mouse.y >= bottom)
        return -1;
    const auto i = std::min(xs.size() - 1, static_cast<size_t>((mouse.x - left) / cw));
    const auto j = std::min(ys.size() - 1, static_cast<size_t>((mouse.y - top) / ch));
    dl->AddRect(ImVec2(left + cw * static_cast<float>(i), top + ch * static_cast<float>(j)),
                ImVec2(left + cw * static_cast<float>(i + 1), top + ch * static_cast<float>(j + 1)),
                IM_COL32(255, 255, 255, 255), 0.0f, 0, 2.0f);
    return rowOf[j * xs.size() + i];
}

/// A 1-D sweep with the plot widget: the metric over the parameter's values.
std::string drawLine(const SweepTable& t, int a, int m, ImVec2 size) {
    std::vector<double> xs, ys;
    for (const SweepTable::Row& r : t.rows) {
        double x = 0;
        if (!toNumber(r.values[static_cast<size_t>(a)], x))
            return t.parameters[static_cast<size_t>(a)] + " takes names, not numbers: a line needs numbers";
        xs.push_back(x);
        ys.push_back(r.metrics[static_cast<size_t>(m)]);
    }
    // Ascending x (the widget's rule); a descending range is drawn the other way round.
    std::vector<size_t> order(xs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t p, size_t q) { return xs[p] < xs[q]; });
    std::vector<double> sx, sy;
    for (size_t i : order) {
        sx.push_back(xs[i]);
        sy.push_back(ys[i]);
    }
    Context ctx;
    const std::string title =
        t.metrics[static_cast<size_t>(m)] + " over " + axisName(t.parameters[static_cast<size_t>(a)]);
    bool logY = false;
    double lo = kNaN, hi = kNaN;
    for (double y : sy)
        if (!std::isnan(y)) {
            lo = std::isnan(lo) ? y : std::min(lo, y);
            hi = std::isnan(hi) ? y : std::max(hi, y);
        }
    logY = lo > 0 && hi / lo > 100.0;
    if (BeginPlot(ctx, (title + "##sweep").c_str(), size, PlotFlags_NoMenu | PlotFlags_NoReadout)) {
        SetupAxisX(ctx, t.parameters[static_cast<size_t>(a)].c_str(), "");
        SetupAxisY(ctx, t.metrics[static_cast<size_t>(m)].c_str(), "", &logY);
        PlotLine(ctx, t.metrics[static_cast<size_t>(m)].c_str(), sx.data(), sy.data(),
                 static_cast<int>(sx.size()));
        EndPlot(ctx);
    }
    return "";
}

}  // namespace

std::string parseSweepTable(const std::string& text, SweepTable& out) {
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line)) return "empty file";
    const std::vector<std::string> header = splitCells(line);
    const auto status = std::find(header.begin(), header.end(), "status");
    if (header.empty() || header[0] != "run" || status == header.end() || status + 1 == header.end() ||
        *(status + 1) != "steps")
        return "line 1: not a sweep's results (run, the parameters, status, steps, the metrics)";
    SweepTable t;
    t.parameters.assign(header.begin() + 1, status);
    t.metrics.assign(status + 2, header.end());
    for (int n = 2; std::getline(in, line); ++n) {
        const std::vector<std::string> cells = splitCells(line);
        if (cells.size() != header.size())
            return "line " + std::to_string(n) + ": " + std::to_string(cells.size()) +
                   " cells, the header has " + std::to_string(header.size());
        SweepTable::Row r;
        double run = 0;
        if (!toNumber(cells[0], run)) return "line " + std::to_string(n) + ": the run is not a number";
        r.run = static_cast<int64_t>(run);
        r.values.assign(cells.begin() + 1, cells.begin() + 1 + static_cast<long>(t.parameters.size()));
        r.status = cells[1 + t.parameters.size()];
        for (size_t k = 0; k < t.metrics.size(); ++k) {
            double v = kNaN;
            const std::string& c = cells[3 + t.parameters.size() + k];
            if (!c.empty() && !toNumber(c, v))
                return "line " + std::to_string(n) + ": " + t.metrics[k] + " is not a number: " + c;
            r.metrics.push_back(v);
        }
        t.rows.push_back(std::move(r));
    }
    out = std::move(t);
    return "";
}

std::vector<int> sweptParameters(const SweepTable& table) {
    std::vector<int> out;
    for (size_t p = 0; p < table.parameters.size(); ++p)
        if (distinct(table, static_cast<int>(p)).size() > 1) out.push_back(static_cast<int>(p));
    return out;
}

std::string drawSweepPlotHere(const SweepTable& table, const std::string& metric, ImVec2 size,
                              int& hoveredRow) {
    hoveredRow = -1;
    const auto it = std::find(table.metrics.begin(), table.metrics.end(), metric);
    if (it == table.metrics.end()) {
        std::string names;
        for (const std::string& n : table.metrics) names += (names.empty() ? "" : ", ") + n;
        return "no metric \"" + metric + "\" in the table (it has " + names + ")";
    }
    const int m = static_cast<int>(it - table.metrics.begin());
    const std::vector<int> swept = sweptParameters(table);
    if (swept.empty() || swept.size() > 2)
        return "the table varies " + std::to_string(swept.size()) +
               " parameters; a picture shows 1 (a line) or 2 (a heat map)";
    if (swept.size() == 1) return drawLine(table, swept[0], m, size);
    hoveredRow = drawHeatMap(table, swept[0], swept[1], m, size);
    return "";
}

std::string drawSweepPlot(const SweepTable& table, const std::string& metric, ImVec2 size, Image& out) {
    const auto it = std::find(table.metrics.begin(), table.metrics.end(), metric);
    if (it == table.metrics.end()) {
        std::string names;
        for (const std::string& n : table.metrics) names += (names.empty() ? "" : ", ") + n;
        return "no metric \"" + metric + "\" in the table (it has " + names + ")";
    }
    // Refused before a frame starts (drawSweepPlotHere says the same).
    const std::vector<int> swept = sweptParameters(table);
    if (swept.empty() || swept.size() > 2)
        return "the table varies " + std::to_string(swept.size()) +
               " parameters; a picture shows 1 (a line) or 2 (a heat map)";
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = size;
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(size);
    ImGui::Begin(
        "##sweep plot", nullptr,
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground);
    int hovered = -1;
    const std::string error = drawSweepPlotHere(table, metric, ImGui::GetContentRegionAvail(), hovered);
    ImGui::End();
    ImGui::Render();
    if (!error.empty()) return error;
    unsigned char* pixels = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
    rasterise(*ImGui::GetDrawData(), pixels, tw, th,
              ImGui::GetColorU32(ImGuiCol_WindowBg, 1.0f) | IM_COL32_A_MASK, out);
    return "";
}

// [SECTION] Software rasteriser

void rasterise(const ImDrawData& data, const uint8_t* texture, int tw, int th, ImU32 background, Image& out) {
    const int w = static_cast<int>(data.DisplaySize.x), h = static_cast<int>(data.DisplaySize.y);
    out.width = w;
    out.height = h;
    out.rgb.assign(static_cast<size_t>(w) * static_cast<size_t>(h) * 3, 0);
    std::vector<float> px(static_cast<size_t>(w) * static_cast<size_t>(h) * 3);
    for (size_t i = 0; i < px.size(); i += 3) {
        px[i] = static_cast<float>(background & 0xff);
        px[i + 1] = static_cast<float>((background >> 8) & 0xff);
        px[i + 2] = static_cast<float>((background >> 16) & 0xff);
    }
    const ImVec2 off = data.DisplayPos;
    for (int l = 0; l < data.CmdListsCount; ++l) {
        const ImDrawList* list = data.CmdLists[l];
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback) continue;
            const int cx0 = std::max(0, static_cast<int>(std::floor(cmd.ClipRect.x - off.x)));
            const int cy0 = std::max(0, static_cast<int>(std::floor(cmd.ClipRect.y - off.y)));
            const int cx1 = std::min(w, static_cast<int>(std::ceil(cmd.ClipRect.z - off.x)));
            const int cy1 = std::min(h, static_cast<int>(std::ceil(cmd.ClipRect.w - off.y)));
            for (unsigned e = 0; e + 2 < cmd.ElemCount; e += 3) {
                const ImDrawVert* v[3];
                for (int k = 0; k < 3; ++k)
                    v[k] = &list->VtxBuffer[static_cast<int>(
                        cmd.VtxOffset + list->IdxBuffer[static_cast<int>(cmd.IdxOffset + e) + k])];
                const float x0 = v[0]->pos.x - off.x, y0 = v[0]->pos.y - off.y;
                const float x1 = v[1]->pos.x - off.x, y1 = v[1]->pos.y - off.y;
                const float x2 = v[2]->pos.x - off.x, y2 = v[2]->pos.y - off.y;
                const float area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
                if (area == 0.0f) continue;
                const int bx0 = std::max(cx0, static_cast<int>(std::floor(std::min({x0, x1, x2}))));
                const int by0 = std::max(cy0, static_cast<int>(std::floor(std::min({y0, y1, y2}))));
                const int bx1 = std::min(cx1, static_cast<int>(std::ceil(std::max({x0, x1, x2}))));
                const int by1 = std::min(cy1, static_cast<int>(std::ceil(std::max({y0, y1, y2}))));
                const float inv = 1.0f / area;
                // Edge e_k is opposite vertex k; a pixel centre on an edge belongs to the triangle
                // only on its "top-left" side, so triangles sharing an edge cover it once.
                auto owns = [&](float ax, float ay, float bx, float by) {
                    const float dx = (bx - ax) * (area > 0 ? 1.0f : -1.0f),
                                dy = (by - ay) * (area > 0 ? 1.0f : -1.0f);
                    return dy < 0 || (dy == 0 && dx > 0);
                };
                const bool own0 = owns(x1, y1, x2, y2), own1 = owns(x2, y2, x0, y0),
                           own2 = owns(x0, y0, x1, y1);
                for (int y = by0; y < by1; ++y)
                    for (int x = bx0; x < bx1; ++x) {
                        const float pxc = static_cast<float>(x) + 0.5f, pyc = static_cast<float>(y) + 0.5f;
                        const float w0 = ((x2 - x1) * (pyc - y1) - (y2 - y1) * (pxc - x1)) * inv;
                        const float w1 = ((x0 - x2) * (pyc - y2) - (y0 - y2) * (pxc - x2)) * inv;
                        const float w2 = 1.0f - w0 - w1;
                        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
                        if ((w0 == 0 && !own0) || (w1 == 0 && !own1) || (w2 == 0 && !own2)) continue;
                        const float u = w0 * v[0]->uv.x + w1 * v[1]->uv.x + w2 * v[2]->uv.x;
                        const float t = w0 * v[0]->uv.y + w1 * v[1]->uv.y + w2 * v[2]->uv.y;
                        const int tx = std::clamp(static_cast<int>(u * static_cast<float>(tw)), 0, tw - 1);
                        const int ty = std::clamp(static_cast<int>(t * static_cast<float>(th)), 0, th - 1);
                        const uint8_t* texel =
                            texture +
                            (static_cast<size_t>(ty) * static_cast<size_t>(tw) + static_cast<size_t>(tx)) * 4;
                        float c[4];
                        for (int k = 0; k < 4; ++k) {
                            const auto ch = [&](const ImDrawVert* vert) {
                                return static_cast<float>((vert->col >> (8 * k)) & 0xff);
                            };
                            c[k] = (w0 * ch(v[0]) + w1 * ch(v[1]) + w2 * ch(v[2])) *
                                   static_cast<float>(texel[k]) / 255.0f;
                        }
                        const float a = c[3] / 255.0f;
                        float* d =
                            &px[(static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)) *
                                3];
                        for (int k = 0; k < 3; ++k) d[k] = c[k] * a + d[k] * (1.0f - a);
                    }
            }
        }
    }
    for (size_t i = 0; i < px.size(); ++i)
        out.rgb[i] = static_cast<uint8_t>(std::clamp(std::lround(px[i]), 0L, 255L));
}

std::string writePng(const std::string& path, const Image& image) {
    std::string bytes;
    auto append = [](void* ctx, void* data, int size) {
        static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 3, image.rgb.data(),
                                image.width * 3))
        return path + ": cannot encode the PNG";
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return path + ": cannot write: " + std::strerror(errno);
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        return path + ": cannot write: " + why;
    }
    return "";
}

ImU32 heatColor(double t) {
    // Viridis at eight stops, linearly in between.
    static constexpr float kStops[8][3] = {{68, 1, 84},    {70, 50, 127},  {54, 92, 141},  {39, 127, 142},
                                           {31, 161, 135}, {74, 194, 109}, {159, 218, 58}, {253, 231, 37}};
    t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * 7.0;
    const int i = std::min(6, static_cast<int>(t));
    const float f = static_cast<float>(t - i);
    float c[3];
    for (int k = 0; k < 3; ++k) c[k] = kStops[i][k] + (kStops[i + 1][k] - kStops[i][k]) * f;
    return IM_COL32(static_cast<int>(std::lround(c[0])), static_cast<int>(std::lround(c[1])),
                    static_cast<int>(std::lround(c[2])), 255);
}

}  // namespace jl::plot
