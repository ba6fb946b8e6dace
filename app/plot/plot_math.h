// JointLab plot widget — the arithmetic behind it: ranges, auto-fit, tick positions and labels,
// linear and log mapping, and min/max decimation of dense lines. No ImGui state, no GL: unit-tested
// in tests/app/plot_math_test.cpp.
#pragma once

#include <cstddef>
#include <vector>

#include <imgui.h>  // ImVec2 only

namespace jl::plot {

enum class Scale { Linear, Log10 };

/// A closed interval of axis values.
struct Range {
    double min = 0.0, max = 1.0;
    double size() const { return max - min; }
    bool contains(double v) const { return v >= min && v <= max; }
};

/// Running minimum and maximum of the values an axis must show. For a log axis only positive
/// values count (zero and negatives cannot be drawn on it).
struct Extent {
    double min = 0.0, max = 0.0;
    bool empty = true;
    void add(double v, Scale scale);
};

/// The range an auto-fitted axis shows for data spanning `extent`: the data plus `padding` (a
/// fraction of the span) on both sides, in log space for a log axis. Empty data gives [0, 1]
/// (log: [0.1, 1]); flat data is widened so it sits in the middle.
Range fitRange(const Extent& extent, Scale scale, double padding = 0.06);

/// Where v falls in r: 0 at r.min, 1 at r.max (log: by decades). Values a log axis cannot show
/// (v <= 0) map below 0.
double toUnit(double v, const Range& r, Scale scale);
/// The inverse of toUnit.
double fromUnit(double t, const Range& r, Scale scale);

struct Tick {
    double value = 0.0;
    bool major = true;  ///< majors get a grid line and a label; minors (log axes) a short mark
};

/// "Nice" linear step (1, 2 or 5 × 10^k) giving at most `maxTicks` ticks over `span`.
double niceStep(double span, int maxTicks);

/// Ticks of an axis: on a linear axis multiples of niceStep; on a log axis the decades (every
/// k-th decade when there are too many) plus 2..9 × each decade as minors when few decades show.
/// Reuses `out`'s storage.
void makeTicks(const Range& r, Scale scale, int maxMajorTicks, std::vector<Tick>& out);

/// Step between major ticks of a linear axis as makeTicks chose it (for label precision).
double majorStep(const std::vector<Tick>& ticks);

/// Label of a tick: as few digits as tell neighbours apart ("0.25", "-1.5", "1200"), scientific
/// for very large or small values ("2.5e-6"); decades of a log axis as "0.001" … "1000", else "1e-6".
/// Returns the number of characters written (buf is always terminated).
int formatTick(double value, double step, Scale scale, char* buf, size_t size);

/// A readout value with 4 significant digits, scientific outside [1e-3, 1e5).
int formatValue(double value, char* buf, size_t size);

/// Reduces a polyline in screen space to at most ~4 points per pixel column (first, min, max,
/// last of the column), which draws the same picture. `in` must be ordered by x. Reuses `out`.
void decimate(const ImVec2* in, size_t n, std::vector<ImVec2>& out);

}  // namespace jl::plot
