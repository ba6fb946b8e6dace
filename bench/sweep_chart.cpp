#include "sweep_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "jointlab/xml_text.h"

namespace bench {

namespace {

bool usable(const ChartPoint& p) {
    return std::isfinite(p.ms) && std::isfinite(p.error) && p.ms > 0 && p.error > 0;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

/// "0.01", "0.1", "1", "10", ... for a decade exponent.
std::string decadeLabel(int e) {
    if (e >= 0) return fmt("%.0f", std::pow(10.0, e));
    return fmt(("%." + std::to_string(-e) + "f").c_str(), std::pow(10.0, e));
}

// Colours distinguishable in print and by most colour-blind readers (Okabe–Ito palette).
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};

}  // namespace

std::string errorCostChartSvg(const std::vector<ChartSeries>& series, const std::string& title,
                              const std::string& xLabel, const std::string& yLabel) {
    // Data range in decades (whole decades, so grid lines fall on 1, 10, 100 ...).
    double xMin = INFINITY, xMax = -INFINITY, yMin = INFINITY, yMax = -INFINITY;
    for (const ChartSeries& s : series)
        for (const ChartPoint& p : s.points)
            if (usable(p)) {
                xMin = std::min(xMin, p.ms), xMax = std::max(xMax, p.ms);
                yMin = std::min(yMin, p.error), yMax = std::max(yMax, p.error);
            }
    if (!(xMin <= xMax)) xMin = 0.1, xMax = 10, yMin = 0.01, yMax = 1;  // nothing to plot: an empty frame
    const int x0 = static_cast<int>(std::floor(std::log10(xMin))),
              x1 = std::max(x0 + 1, static_cast<int>(std::ceil(std::log10(xMax))));
    const int y0 = static_cast<int>(std::floor(std::log10(yMin))),
              y1 = std::max(y0 + 1, static_cast<int>(std::ceil(std::log10(yMax))));

    const double W = 760, H = 480, left = 80, right = 210, top = 48, bottom = 62;
    const double pw = W - left - right, ph = H - top - bottom;
    auto X = [&](double ms) { return left + pw * (std::log10(ms) - x0) / (x1 - x0); };
    auto Y = [&](double e) { return top + ph * (1.0 - (std::log10(e) - y0) / (y1 - y0)); };

    std::string svg;
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", W) + "\" height=\"" +
           fmt("%.0f", H) + "\" viewBox=\"0 0 " + fmt("%.0f", W) + " " + fmt("%.0f", H) +
           "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    svg += "<text x=\"" + fmt("%.0f", left) + "\" y=\"24\" font-size=\"15\" font-weight=\"bold\">" +
           jl::xmlEscape(title) + "</text>\n";
    // Grid: decades (solid) and 2·, 5· (faint); labels on the decades.
    for (int e = x0; e <= x1; ++e) {
        const double x = X(std::pow(10.0, e));
        svg += "<line x1=\"" + fmt("%.1f", x) + "\" y1=\"" + fmt("%.1f", top) + "\" x2=\"" + fmt("%.1f", x) +
               "\" y2=\"" + fmt("%.1f", top + ph) + "\" stroke=\"#bbb\"/>\n";
        svg += "<text x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", top + ph + 18) +
               "\" text-anchor=\"middle\">" + decadeLabel(e) + "</text>\n";
        for (double m : {2.0, 5.0})
            if (e < x1) {
                const double xm = X(m * std::pow(10.0, e));
                svg += "<line x1=\"" + fmt("%.1f", xm) + "\" y1=\"" + fmt("%.1f", top) + "\" x2=\"" +
                       fmt("%.1f", xm) + "\" y2=\"" + fmt("%.1f", top + ph) + "\" stroke=\"#eee\"/>\n";
            }
    }
    for (int e = y0; e <= y1; ++e) {
        const double y = Y(std::pow(10.0, e));
        svg += "<line x1=\"" + fmt("%.1f", left) + "\" y1=\"" + fmt("%.1f", y) + "\" x2=\"" +
               fmt("%.1f", left + pw) + "\" y2=\"" + fmt("%.1f", y) + "\" stroke=\"#bbb\"/>\n";
        svg += "<text x=\"" + fmt("%.1f", left - 8) + "\" y=\"" + fmt("%.1f", y + 4) +
               "\" text-anchor=\"end\">" + decadeLabel(e) + "</text>\n";
        for (double m : {2.0, 5.0})
            if (e < y1) {
                const double ym = Y(m * std::pow(10.0, e));
                svg += "<line x1=\"" + fmt("%.1f", left) + "\" y1=\"" + fmt("%.1f", ym) + "\" x2=\"" +
                       fmt("%.1f", left + pw) + "\" y2=\"" + fmt("%.1f", ym) + "\" stroke=\"#eee\"/>\n";
            }
    }
    svg += "<rect x=\"" + fmt("%.1f", left) + "\" y=\"" + fmt("%.1f", top) + "\" width=\"" + fmt("%.1f", pw) +
           "\" height=\"" + fmt("%.1f", ph) + "\" fill=\"none\" stroke=\"#333\"/>\n";
    svg += "<text x=\"" + fmt("%.1f", left + pw / 2) + "\" y=\"" + fmt("%.1f", H - 16) +
           "\" text-anchor=\"middle\">" + jl::xmlEscape(xLabel) + "</text>\n";
    svg += "<text transform=\"translate(20," + fmt("%.1f", top + ph / 2) +
           ") rotate(-90)\" text-anchor=\"middle\">" + jl::xmlEscape(yLabel) + "</text>\n";

    // Series: a line through the points in iteration order, a marker and the iteration count at each.
    for (size_t i = 0; i < series.size(); ++i) {
        const ChartSeries& s = series[i];
        const size_t c = s.colour >= 0 ? static_cast<size_t>(s.colour) : i;
        const std::string colour = kColours[c % (sizeof kColours / sizeof kColours[0])];
        std::string pts;
        int shown = 0;
        for (const ChartPoint& p : s.points)
            if (usable(p)) pts += fmt("%.1f", X(p.ms)) + "," + fmt("%.1f", Y(p.error)) + " ", ++shown;
        if (shown > 0) {
            svg += "<polyline fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\"" +
                   (s.dashed ? std::string(" stroke-dasharray=\"6 4\"") : std::string()) + " points=\"" +
                   pts + "\"/>\n";
            for (const ChartPoint& p : s.points) {
                if (!usable(p)) continue;
                svg += "<circle cx=\"" + fmt("%.1f", X(p.ms)) + "\" cy=\"" + fmt("%.1f", Y(p.error)) +
                       "\" r=\"3.5\" fill=\"" + colour + "\"/>\n";
                svg += "<text x=\"" + fmt("%.1f", X(p.ms) + 5) + "\" y=\"" + fmt("%.1f", Y(p.error) - 5) +
                       "\" font-size=\"10\" fill=\"" + colour + "\">" + std::to_string(p.iterations) +
                       "</text>\n";
            }
        }
        // legend entry
        const double ly = top + 10 + 22.0 * static_cast<double>(i), lx = left + pw + 16;
        svg += "<line x1=\"" + fmt("%.1f", lx) + "\" y1=\"" + fmt("%.1f", ly) + "\" x2=\"" +
               fmt("%.1f", lx + 26) + "\" y2=\"" + fmt("%.1f", ly) + "\" stroke=\"" + colour +
               "\" stroke-width=\"2\"" +
               (s.dashed ? std::string(" stroke-dasharray=\"6 4\"") : std::string()) + "/>\n";
        svg += "<text x=\"" + fmt("%.1f", lx + 32) + "\" y=\"" + fmt("%.1f", ly + 4) + "\">" +
               jl::xmlEscape(s.label) + (shown == 0 ? std::string(" (no finite point)") : std::string()) +
               "</text>\n";
    }
    const double ny = top + 10 + 22.0 * static_cast<double>(series.size()) + 8;
    svg += "<text x=\"" + fmt("%.1f", left + pw + 16) + "\" y=\"" + fmt("%.1f", ny) +
           "\" font-size=\"10\" fill=\"#555\">numbers: iterations per step</text>\n";
    svg += "<text x=\"" + fmt("%.1f", left + pw + 16) + "\" y=\"" + fmt("%.1f", ny + 14) +
           "\" font-size=\"10\" fill=\"#555\">lower and further left is better</text>\n";
    svg += "</svg>\n";
    return svg;
}

}  // namespace bench
