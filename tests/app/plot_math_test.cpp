// Plot widget arithmetic: auto-fit, ticks and their labels, linear and log mapping, decimation,
// the streamed series' columns and line simplification.
#include "plot/plot_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "plot/plot_columns.h"

namespace jl::plot {
namespace {

std::vector<double> majors(const Range& r, Scale scale, int maxTicks) {
    std::vector<Tick> ticks;
    makeTicks(r, scale, maxTicks, ticks);
    std::vector<double> out;
    for (const Tick& t : ticks)
        if (t.major) out.push_back(t.value);
    return out;
}

std::string tick(double v, double step, Scale scale = Scale::Linear) {
    char buf[32];
    formatTick(v, step, scale, buf, sizeof buf);
    return buf;
}

TEST(PlotMath, NiceStepsAreOneTwoFiveTimesPowersOfTen) {
    EXPECT_DOUBLE_EQ(niceStep(10.0, 5), 2.0);
    EXPECT_DOUBLE_EQ(niceStep(10.0, 10), 1.0);
    EXPECT_DOUBLE_EQ(niceStep(1.0, 4), 0.5);
    EXPECT_NEAR(niceStep(0.003, 5), 1e-3, 1e-15);
    EXPECT_DOUBLE_EQ(niceStep(700.0, 5), 200.0);
    EXPECT_DOUBLE_EQ(niceStep(0.0, 5), 1.0);  // degenerate: no crash, no zero step
}

TEST(PlotMath, LinearTicksAreMultiplesOfTheStepInsideTheRange) {
    EXPECT_EQ(majors({-0.95, 1.05}, Scale::Linear, 5), (std::vector<double>{-0.5, 0.0, 0.5, 1.0}));
    const std::vector<double> t = majors({0.1, 0.7}, Scale::Linear, 6);
    ASSERT_EQ(t.size(), 7u);  // the ends are ticks too when they are multiples of the step
    EXPECT_NEAR(t.front(), 0.1, 1e-12);
    EXPECT_NEAR(t.back(), 0.7, 1e-12);
    for (double v : majors({-3.3e-7, 2.1e-7}, Scale::Linear, 5)) EXPECT_LE(std::abs(v), 3.3e-7);
    // The origin is exactly 0, not 1e-17 from floating-point steps.
    for (double v : majors({-0.3, 0.3}, Scale::Linear, 7))
        if (std::abs(v) < 0.05) {
            EXPECT_EQ(v, 0.0);
        }
}

TEST(PlotMath, LogTicksAreDecadesWithMinorMarks) {
    std::vector<Tick> ticks;
    makeTicks({1e-4, 1.0}, Scale::Log10, 8, ticks);
    EXPECT_EQ(majors({1e-4, 1.0}, Scale::Log10, 8), (std::vector<double>{1e-4, 1e-3, 1e-2, 1e-1, 1.0}));
    int minors = 0;
    for (const Tick& t : ticks) minors += t.major ? 0 : 1;
    EXPECT_EQ(minors, 4 * 8);  // 2..9 in each of the four decades
    // Many decades: every other decade labelled, no minors.
    const std::vector<double> wide = majors({1e-12, 1e4}, Scale::Log10, 8);
    EXPECT_EQ(wide.size(), 9u);
    makeTicks({1e-12, 1e4}, Scale::Log10, 8, ticks);
    EXPECT_EQ(ticks.size(), 9u);
    // Less than a decade: the 2..9 marks get labels.
    EXPECT_GE(majors({2.0, 8.0}, Scale::Log10, 8).size(), 3u);
}

// Convergence plot ranges (a decade and a bit; under a decade, where the 2..9 marks get labels
// too) on short and tall axes: the labels left after thinning are at least a line apart, and "1"
// keeps its label ("0.9" next to it gives way).
TEST(PlotMath, ThinnedLogLabelsNeverOverlapAndDecadesStay) {
    for (const Range r : {Range{0.08, 1.6}, Range{0.45, 1.6}, Range{0.52, 1.3}})
        for (float pixels : {60.0f, 90.0f, 140.0f, 300.0f}) {
            SCOPED_TRACE(std::to_string(r.min) + " " + std::to_string(pixels));
            std::vector<Tick> ticks;
            makeTicks(r, Scale::Log10, std::max(2, static_cast<int>(pixels / 25.0f)), ticks);
            const size_t count = ticks.size();
            thinTickLabels(ticks, r, Scale::Log10, pixels, 14.0f);
            EXPECT_EQ(ticks.size(), count) << "every mark keeps its grid line";
            std::vector<double> labelled;
            for (const Tick& t : ticks)
                if (t.major) labelled.push_back(toUnit(t.value, r, Scale::Log10) * pixels);
            for (size_t i = 1; i < labelled.size(); ++i) EXPECT_GE(labelled[i] - labelled[i - 1], 14.0);
            for (const Tick& t : ticks) {
                if (std::abs(t.value - 1.0) < 1e-12 || std::abs(t.value - 0.1) < 1e-12) {
                    EXPECT_TRUE(t.major);
                }
            }
        }
    // A linear axis's evenly spaced labels all stay when they fit.
    std::vector<Tick> linear;
    makeTicks({0.0, 10.0}, Scale::Linear, 6, linear);
    thinTickLabels(linear, {0.0, 10.0}, Scale::Linear, 300.0f, 14.0f);
    EXPECT_TRUE(std::all_of(linear.begin(), linear.end(), [](const Tick& t) { return t.major; }));
}

// Sweeps are whole numbers: ticks 1, 2, 3 ... (or 2, 4, ...), never 1.5.
TEST(PlotMath, IntegerAxisTicksAreWholeNumbers) {
    for (const Range r : {Range{1.0, 5.0}, Range{0.8, 4.2}, Range{1.0, 40.0}, Range{1.0, 1.5}}) {
        std::vector<Tick> ticks;
        makeTicks(r, Scale::Linear, 12, ticks, true);
        for (const Tick& t : ticks) EXPECT_EQ(t.value, std::round(t.value)) << t.value;
        if (r.max - r.min >= 1.0) {
            EXPECT_GE(ticks.size(), 2u);
        }
    }
    EXPECT_EQ(majors({1.0, 5.0}, Scale::Linear, 12),
              (std::vector<double>{1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0}))
        << "without the integer flag: halves";
}

TEST(PlotMath, AutoFitCoversTheDataWithPadding) {
    Extent e;
    for (double v : {0.5, -2.0, 3.0}) e.add(v, Scale::Linear);
    const Range r = fitRange(e, Scale::Linear, 0.1);
    EXPECT_DOUBLE_EQ(r.min, -2.5);
    EXPECT_DOUBLE_EQ(r.max, 3.5);
    // Flat data is centred, zero data gets a unit range, no data a default.
    Extent flat;
    flat.add(4.0, Scale::Linear);
    EXPECT_TRUE(fitRange(flat, Scale::Linear).contains(4.0));
    EXPECT_GT(fitRange(flat, Scale::Linear).size(), 0.0);
    Extent zero;
    zero.add(0.0, Scale::Linear);
    EXPECT_DOUBLE_EQ(fitRange(zero, Scale::Linear).min, -1.0);
    EXPECT_DOUBLE_EQ(fitRange(Extent{}, Scale::Linear).max, 1.0);
    // NaN and infinities are ignored.
    e.add(std::nan(""), Scale::Linear);
    e.add(INFINITY, Scale::Linear);
    EXPECT_DOUBLE_EQ(fitRange(e, Scale::Linear, 0.1).max, 3.5);
}

TEST(PlotMath, LogFitIgnoresNonPositiveValuesAndPadsInDecades) {
    Extent e;
    for (double v : {1e-6, 0.0, -3.0, 1e-2}) e.add(v, Scale::Log10);
    EXPECT_DOUBLE_EQ(e.min, 1e-6);
    const Range r = fitRange(e, Scale::Log10, 0.25);
    EXPECT_NEAR(std::log10(r.min), -7.0, 1e-12);
    EXPECT_NEAR(std::log10(r.max), -1.0, 1e-12);
}

TEST(PlotMath, LinearAndLogMappingAreInverse) {
    const Range lin{-2.0, 6.0};
    EXPECT_DOUBLE_EQ(toUnit(-2.0, lin, Scale::Linear), 0.0);
    EXPECT_DOUBLE_EQ(toUnit(2.0, lin, Scale::Linear), 0.5);
    EXPECT_DOUBLE_EQ(fromUnit(0.75, lin, Scale::Linear), 4.0);
    const Range log{1e-6, 1e2};
    EXPECT_NEAR(toUnit(1e-2, log, Scale::Log10), 0.5, 1e-12);  // decades are equally spaced
    EXPECT_NEAR(toUnit(1e2, log, Scale::Log10), 1.0, 1e-12);
    EXPECT_NEAR(fromUnit(0.25, log, Scale::Log10), 1e-4, 1e-16);
    for (double v : {3e-6, 0.07, 55.0})
        EXPECT_NEAR(fromUnit(toUnit(v, log, Scale::Log10), log, Scale::Log10), v, v * 1e-12);
    EXPECT_LT(toUnit(0.0, log, Scale::Log10), 0.0);  // below the axis, not NaN
    EXPECT_LT(toUnit(-1.0, log, Scale::Log10), 0.0);
}

TEST(PlotMath, TickLabelsAreShortAndDistinct) {
    EXPECT_EQ(tick(0.0, 0.5), "0");
    EXPECT_EQ(tick(-1.5, 0.5), "-1.5");
    EXPECT_EQ(tick(2.0, 0.5), "2.0");
    EXPECT_EQ(tick(1200.0, 200.0), "1200");
    EXPECT_EQ(tick(0.02, 0.01), "0.02");
    EXPECT_EQ(tick(2.5e-6, 5e-7), "2.5e-6");
    EXPECT_EQ(tick(3e-6, 1e-6), "3e-6");
    EXPECT_EQ(tick(2e5, 1e5), "2e5");
    EXPECT_EQ(tick(1e-3, 0, Scale::Log10), "0.001") << "decades near 1 are plain";
    EXPECT_EQ(tick(1e-6, 0, Scale::Log10), "1e-6");
    EXPECT_EQ(tick(1e4, 0, Scale::Log10), "1e4");
    EXPECT_EQ(tick(100.0, 0, Scale::Log10), "100");
}

TEST(PlotMath, ReadoutValuesHaveFourSignificantDigits) {
    char buf[32];
    formatValue(3.14159265, buf, sizeof buf);
    EXPECT_STREQ(buf, "3.142");
    formatValue(-1.23456e-7, buf, sizeof buf);
    EXPECT_STREQ(buf, "-1.235e-7");
    formatValue(123456.0, buf, sizeof buf);
    EXPECT_STREQ(buf, "1.235e5");
    formatValue(std::nan(""), buf, sizeof buf);
    EXPECT_STREQ(buf, "nan");
}

TEST(PlotMath, DecimationKeepsTheEnvelopeOfEachPixelColumn) {
    std::vector<ImVec2> in;
    for (int i = 0; i < 10000; ++i)
        in.push_back(ImVec2(i * 0.01f, std::sin(i * 0.37f) * 50.0f));  // 100 columns
    std::vector<ImVec2> out;
    decimate(in.data(), in.size(), out);
    EXPECT_LE(out.size(), 400u);
    EXPECT_EQ(out.front().x, in.front().x);
    EXPECT_EQ(out.back().x, in.back().x);
    float lo = 1e9f, hi = -1e9f;
    for (const ImVec2& p : out) lo = std::min(lo, p.y), hi = std::max(hi, p.y);
    EXPECT_NEAR(lo, -50.0f, 0.5f);  // the extremes survive
    EXPECT_NEAR(hi, 50.0f, 0.5f);
    for (size_t i = 1; i < out.size(); ++i) EXPECT_GE(out[i].x, out[i - 1].x);
}

// [SECTION] Streamed columns

/// Lowest and highest y of points (NaN points are breaks, not values).
std::pair<double, double> extremes(const Point* p, size_t n) {
    double lo = 1e300, hi = -1e300;
    for (size_t i = 0; i < n; ++i)
        if (!std::isnan(p[i].y)) lo = std::min(lo, p[i].y), hi = std::max(hi, p[i].y);
    return {lo, hi};
}

TEST(PlotColumns, EachColumnKeepsItsLowestAndHighestSampleSoASpikeOfOneSampleSurvives) {
    ColumnSeries c;
    c.reset(0.1);  // 10 samples per column
    std::vector<Point> raw;
    for (int i = 0; i < 10000; ++i) raw.push_back(Point{i * 0.01, std::sin(i * 0.05)});
    raw[4321].y = 25.0;   // one sample up
    raw[7777].y = -30.0;  // one sample down
    for (size_t i = 0; i < raw.size(); ++i) c.append(static_cast<int64_t>(i), raw[i]);
    EXPECT_NEAR(static_cast<double>(c.size()), 1000.0,
                2.0);  // (x / width lands on either side of a boundary)
    EXPECT_EQ(c.nextSerial(), 10000);
    const ColumnSeries::Span all = c.points(-1e9, 1e9);
    EXPECT_LE(all.size, 2000u);  // at most two points per column
    const auto [lo, hi] = extremes(all.data, all.size);
    EXPECT_EQ(hi, 25.0);  // the same extremes as the raw data
    EXPECT_EQ(lo, -30.0);
    // The spikes are drawn where they were, and x ascends.
    const Point spike = raw[4321];
    EXPECT_TRUE(std::any_of(all.data, all.data + all.size,
                            [&](const Point& p) { return p.x == spike.x && p.y == 25.0; }));
    for (size_t i = 1; i < all.size; ++i) EXPECT_GE(all.data[i].x, all.data[i - 1].x);
    // Every column's extremes equal those of its raw samples.
    for (int col = 0; col < 1000; col += 37) {
        double rlo = 1e300, rhi = -1e300;
        for (int i = col * 10; i < col * 10 + 10; ++i)
            rlo = std::min(rlo, raw[i].y), rhi = std::max(rhi, raw[i].y);
        const ColumnSeries::Span one =
            c.points(col * 0.1 + 0.05, col * 0.1 + 0.05);  // that column and its neighbours
        const auto [clo, chi] = extremes(one.data, one.size);
        EXPECT_LE(clo, rlo);
        EXPECT_GE(chi, rhi);
    }
}

TEST(PlotColumns, DroppingOldSamplesAndGapsKeepTheRest) {
    ColumnSeries c;
    c.reset(1.0);
    for (int i = 0; i < 100; ++i) c.append(i, Point{i * 0.25, i == 50 ? std::nan("") : double(i)});
    // The NaN at x = 12.5 breaks the line: a NaN point between the columns on either side.
    const ColumnSeries::Span all = c.points(-1e9, 1e9);
    const Point* gap =
        std::find_if(all.data, all.data + all.size, [](const Point& p) { return std::isnan(p.y); });
    ASSERT_NE(gap, all.data + all.size);
    EXPECT_LT((gap - 1)->x, 12.5);
    EXPECT_GT((gap + 1)->x, 12.5);
    c.dropBefore(60);  // the source forgot samples 0..59: columns whose newest sample is older go
    const ColumnSeries::Span rest = c.points(-1e9, 1e9);
    EXPECT_GE(rest.data[0].x, 14.0);  // column 14 holds samples 56..59 only: dropped too
    EXPECT_EQ(extremes(rest.data, rest.size).second, 99.0);
    EXPECT_EQ(c.nextSerial(), 100);
}

// [SECTION] Simplification

TEST(PlotMath, SimplifyDrawsAStraightStretchFromItsEndsAndKeepsPeaks) {
    std::vector<ImVec2> in, out;
    for (int i = 0; i <= 100; ++i)
        in.push_back(ImVec2(float(i), 50.0f + 0.1f * float(i % 2)));  // flat, with noise < tolerance
    in[60].y = 10.0f;                                                 // a one-point peak
    simplify(in.data(), in.size(), 0.4f, out);
    EXPECT_LE(out.size(), 8u);
    EXPECT_EQ(out.front().x, in.front().x);
    EXPECT_EQ(out.back().x, in.back().x);
    EXPECT_TRUE(
        std::any_of(out.begin(), out.end(), [](const ImVec2& p) { return p.x == 60.0f && p.y == 10.0f; }));
    // Every dropped point is within the tolerance of the line drawn at its x.
    for (const ImVec2& p : in) {
        const auto next =
            std::lower_bound(out.begin(), out.end(), p.x, [](const ImVec2& q, float x) { return q.x < x; });
        ASSERT_NE(next, out.end());
        if (next->x == p.x) continue;
        const ImVec2 a = *(next - 1), b = *next;
        const float y = a.y + (b.y - a.y) * (p.x - a.x) / (b.x - a.x);
        EXPECT_LE(std::abs(y - p.y), 0.4f + 1e-4f) << p.x;
    }
    // A sine wave keeps its shape: every point stays within tolerance too.
    in.clear();
    for (int i = 0; i <= 400; ++i) in.push_back(ImVec2(float(i), 60.0f * std::sin(float(i) * 0.05f)));
    simplify(in.data(), in.size(), 0.4f, out);
    EXPECT_LT(out.size(), in.size());
    for (const ImVec2& p : in) {
        const auto next =
            std::lower_bound(out.begin(), out.end(), p.x, [](const ImVec2& q, float x) { return q.x < x; });
        if (next->x == p.x) continue;
        const ImVec2 a = *(next - 1), b = *next;
        EXPECT_LE(std::abs(a.y + (b.y - a.y) * (p.x - a.x) / (b.x - a.x) - p.y), 0.41f) << p.x;
    }
}

}  // namespace
}  // namespace jl::plot
