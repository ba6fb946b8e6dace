#include "plot/plot_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace jl::plot {

Range fitRange(const Extent& e, Scale scale, double padding) {
    if (scale == Scale::Log10) {
        if (e.empty) return {0.1, 1.0};
        double lo = std::log10(e.min), hi = std::log10(e.max);
        if (hi - lo < 1e-9) lo -= 0.5, hi += 0.5;  // flat: one decade around it
        const double pad = (hi - lo) * padding;
        return {std::pow(10.0, lo - pad), std::pow(10.0, hi + pad)};
    }
    if (e.empty) return {0.0, 1.0};
    const double span = e.max - e.min;
    const double magnitude = std::max(std::abs(e.min), std::abs(e.max));
    if (span <= 1e-12 * magnitude || span == 0.0) {  // flat: centre it
        const double half = magnitude > 1e-300 ? magnitude * 0.1 : 1.0;
        const double mid = 0.5 * (e.min + e.max);
        return {mid - half, mid + half};
    }
    const double pad = span * padding;
    return {e.min - pad, e.max + pad};
}

double toUnit(double v, const Range& r, Scale scale) {
    if (scale == Scale::Log10) {
        if (!(v > 0.0)) return -1.0;
        const double lo = std::log10(r.min), hi = std::log10(r.max);
        return (std::log10(v) - lo) / (hi - lo);
    }
    return (v - r.min) / r.size();
}

double fromUnit(double t, const Range& r, Scale scale) {
    if (scale == Scale::Log10) {
        const double lo = std::log10(r.min), hi = std::log10(r.max);
        return std::pow(10.0, lo + t * (hi - lo));
    }
    return r.min + t * r.size();
}

double niceStep(double span, int maxTicks) {
    if (!(span > 0.0) || !std::isfinite(span)) return 1.0;
    const double raw = span / std::max(1, maxTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double n = raw / magnitude;
    const double nice = n <= 1.0 + 1e-9 ? 1.0 : n <= 2.0 + 1e-9 ? 2.0 : n <= 5.0 + 1e-9 ? 5.0 : 10.0;
    return nice * magnitude;
}

void makeTicks(const Range& r, Scale scale, int maxMajorTicks, std::vector<Tick>& out, bool integers) {
    out.clear();
    if (!(r.max > r.min) || !std::isfinite(r.min) || !std::isfinite(r.max)) return;
    maxMajorTicks = std::max(1, maxMajorTicks);
    if (scale == Scale::Linear) {
        const double nice = niceStep(r.size(), maxMajorTicks);
        const double step = integers ? std::max(1.0, nice) : nice;  // 1, 2, 5, 10, ...: still integers
        const double first = std::ceil(r.min / step - 1e-9) * step;
        for (int k = 0; k < 1000; ++k) {
            double v = first + k * step;
            if (v > r.max + step * 1e-9) break;
            if (std::abs(v) < step * 1e-9) v = 0.0;  // no "-0" or "1.4e-17" at the origin
            out.push_back({v, true});
        }
        return;
    }
    if (!(r.min > 0.0)) return;
    const int d0 = static_cast<int>(std::floor(std::log10(r.min))),
              d1 = static_cast<int>(std::ceil(std::log10(r.max)));
    const int decades = std::max(1, d1 - d0);
    const int every = (decades + maxMajorTicks - 1) / maxMajorTicks;
    const bool minors = every == 1 && decades <= 8;
    int majors = 0;
    for (int d = d0; d <= d1; ++d) {
        const double decade = std::pow(10.0, d);
        if (((d % every) + every) % every == 0 && r.contains(decade)) {
            out.push_back({decade, true});
            ++majors;
        }
        if (!minors) continue;
        for (int m = 2; m <= 9; ++m)
            if (const double v = m * decade; r.contains(v)) out.push_back({v, false});
    }
    std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
    if (majors < 2) {
        // Less than a decade shows: label the 2..9 marks instead, thinned to fit.
        const int n = static_cast<int>(out.size());
        const int stride = std::max(1, (n + maxMajorTicks - 1) / maxMajorTicks);
        for (int i = 0; i < n; ++i) out[i].major = out[i].major || i % stride == 0;
    }
}

void thinTickLabels(std::vector<Tick>& ticks, const Range& r, Scale scale, float axisPixels, float labelGap) {
    auto pixel = [&](double v) { return toUnit(v, r, scale) * axisPixels; };
    auto isDecade = [scale](double v) {
        if (scale != Scale::Log10 || !(v > 0.0)) return false;
        const double e = std::log10(v);
        return std::abs(e - std::round(e)) < 1e-9;
    };
    // Pass 0 keeps the decades (every major of a linear axis), pass 1 the rest where they fit.
    constexpr size_t kMaxKept = 64;
    double kept[kMaxKept];
    size_t count = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (Tick& t : ticks) {
            if (!t.major) continue;
            if ((pass == 0) != (scale == Scale::Linear || isDecade(t.value))) continue;
            const double p = pixel(t.value);
            bool room = count < kMaxKept;
            for (size_t k = 0; k < count && room; ++k) room = std::abs(kept[k] - p) >= labelGap;
            if (room)
                kept[count++] = p;
            else
                t.major = false;
        }
}

double majorStep(const std::vector<Tick>& ticks) {
    const Tick* previous = nullptr;
    for (const Tick& t : ticks) {
        if (!t.major) continue;
        if (previous) return t.value - previous->value;
        previous = &t;
    }
    return 0.0;
}

namespace {

/// "2.50e-06" → "2.5e-6", "1e+05" → "1e5": the exponent without padding, the mantissa without
/// trailing zeros.
void tidyScientific(char* buf) {
    char* e = std::strchr(buf, 'e');
    if (!e) return;
    char exponent[16];
    const int x = std::atoi(e + 1);
    std::snprintf(exponent, sizeof exponent, "e%d", x);
    char* mantissaEnd = e;
    if (std::strchr(buf, '.')) {
        while (mantissaEnd[-1] == '0') --mantissaEnd;
        if (mantissaEnd[-1] == '.') --mantissaEnd;
    }
    std::memmove(mantissaEnd, exponent, std::strlen(exponent) + 1);
}

int finish(char* buf, size_t size) {
    buf[size - 1] = '\0';
    return static_cast<int>(std::strlen(buf));
}

}  // namespace

int formatTick(double value, double step, Scale scale, char* buf, size_t size) {
    if (size == 0) return 0;
    if (!std::isfinite(value)) {
        std::snprintf(buf, size, "%s", std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
        return finish(buf, size);
    }
    if (value == 0.0) {
        std::snprintf(buf, size, "0");
        return finish(buf, size);
    }
    if (scale == Scale::Log10) {
        const double e = std::log10(value);
        const int decade = static_cast<int>(std::lround(e));
        if (std::abs(e - decade) < 1e-9) {
            if (decade >= -3 && decade <= 3)
                std::snprintf(buf, size, "%g", std::pow(10.0, decade));
            else
                std::snprintf(buf, size, "1e%d", decade);
            return finish(buf, size);
        }
        return formatValue(value, buf, size);
    }
    step = std::abs(step);
    if (!(step > 0.0)) return formatValue(value, buf, size);
    if (std::abs(value) >= 1e5 || step < 1e-3) {
        const int e = static_cast<int>(std::floor(std::log10(std::abs(value))));
        const int se = static_cast<int>(std::floor(std::log10(step) + 1e-9));
        std::snprintf(buf, size, "%.*e", std::clamp(e - se, 0, 6), value);
        tidyScientific(buf);
        return finish(buf, size);
    }
    int decimals = 0;
    while (decimals < 10) {
        const double scaled = step * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
        ++decimals;
    }
    std::snprintf(buf, size, "%.*f", decimals, value);
    return finish(buf, size);
}

int formatValue(double value, char* buf, size_t size) {
    if (size == 0) return 0;
    const double a = std::abs(value);
    if (!std::isfinite(value))
        std::snprintf(buf, size, "%s", std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
    else if (value == 0.0)
        std::snprintf(buf, size, "0");
    else if (a >= 1e5 || a < 1e-3) {
        std::snprintf(buf, size, "%.3e", value);
        tidyScientific(buf);
    } else
        std::snprintf(buf, size, "%.4g", value);
    return finish(buf, size);
}

void decimate(const ImVec2* in, size_t n, std::vector<ImVec2>& out) {
    out.clear();
    size_t i = 0;
    while (i < n) {
        const float column = std::floor(in[i].x);
        size_t lo = i, hi = i, j = i;
        for (; j < n && std::floor(in[j].x) == column; ++j) {
            if (in[j].y < in[lo].y) lo = j;
            if (in[j].y > in[hi].y) hi = j;
        }
        const size_t last = j - 1;
        size_t keep[4] = {i, std::min(lo, hi), std::max(lo, hi), last};
        for (int k = 0; k < 4; ++k)
            if (k == 0 || keep[k] != keep[k - 1]) out.push_back(in[keep[k]]);
        i = j;
    }
}

void simplify(const ImVec2* in, size_t n, float tolerance, std::vector<ImVec2>& out) {
    out.clear();
    out.reserve(n);
    Simplifier s(tolerance);
    for (size_t i = 0; i < n; ++i) s.add(in[i], out);
    s.finish(out);
}

}  // namespace jl::plot
