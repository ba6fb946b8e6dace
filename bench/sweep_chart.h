// The chain1000 sweep as a chart: joint error against time per step, one line per engine (and
// Baumgarte setting), one point per iteration count. Written as a standalone SVG file next to the
// sweep's CSV (docs/bench_chain1000_accuracy.svg), which docs/benchmark.md shows.
#pragma once

#include <string>
#include <vector>

namespace bench {

struct ChartPoint {
    int iterations = 0;
    double ms = 0.0;     ///< time per step [ms] (x, log scale)
    double error = 0.0;  ///< joint error [m] (y, log scale)
};

struct ChartSeries {
    std::string label;  ///< legend text, e.g. "JointLab TGS"
    bool dashed = false;
    int colour = -1;  ///< palette index (series of one engine share it); −1: the series' own index
    std::vector<ChartPoint> points;  ///< in iteration order; diverged runs are left out
};

/// The chart as an SVG document (log-log axes with decade grid lines, a polyline and labelled
/// markers per series, a legend). Points whose time or error is not a positive finite number are
/// left out; a series with no point is listed in the legend as "(no finite point)".
std::string errorCostChartSvg(const std::vector<ChartSeries>& series, const std::string& title,
                              const std::string& xLabel, const std::string& yLabel);

}  // namespace bench
