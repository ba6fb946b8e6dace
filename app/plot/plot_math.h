// JointLab plot widget — the arithmetic behind it: ranges, auto-fit, tick positions and labels,
// linear and log mapping, and min/max decimation of dense lines. No ImGui state, no GL: unit-tested
// in tests/app/plot_math_test.cpp.
#pragma once

#include <imgui.h>  // ImVec2 only

#include <cstddef>
#include <vector>

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
    void add(double v, Scale scale) {  // inline: auto-fit runs it for every point of every series
        if (!(v - v == 0.0) || (scale == Scale::Log10 && v <= 0.0)) return;  // NaN or infinite
        if (empty) {
            min = max = v;
            empty = false;
            return;
        }
        min = v < min ? v : min;
        max = v > max ? v : max;
    }
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
/// `integers`: a linear axis of whole numbers (sweep counts) gets ticks at integers only.
void makeTicks(const Range& r, Scale scale, int maxMajorTicks, std::vector<Tick>& out, bool integers = false);

/// Makes labelled (major) ticks that would sit closer than `labelGap` pixels to one already
/// labelled into unlabelled ones, on an axis `axisPixels` long: decades of a log axis are kept
/// first, then the other marks where there is room (so "0.9" never runs into "1"), in value order.
void thinTickLabels(std::vector<Tick>& ticks, const Range& r, Scale scale, float axisPixels, float labelGap);

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

/// Drops the points of a polyline in screen space that a straight line through its neighbours
/// passes within `tolerance` pixels of (vertically), so a flat or straight stretch is drawn from
/// its two ends while every kept segment stays within `tolerance` of every dropped point (sleeve
/// fitting, one pass). Peaks and corners are kept. `in` should be ordered by x; where x does not
/// increase, points are kept as they are. Reuses `out`.
void simplify(const ImVec2* in, size_t n, float tolerance, std::vector<ImVec2>& out);

/// simplify() one point at a time, appending what it keeps to `out`. Its state is a plain value:
/// a copy taken between points resumes the line from there (the plot widget keeps one between
/// frames for a series that only grows).
class Simplifier {
public:
    explicit Simplifier(float tolerance = 0.4f) : tolerance_(tolerance) {}
    void add(ImVec2 p, std::vector<ImVec2>& out);
    /// Ends the line: appends the last point if it is pending.
    void finish(std::vector<ImVec2>& out);
    /// Moves the line sideways by dx (screen x of every point so far + dx).
    void shift(float dx) { anchor_.x += dx, candidate_.x += dx; }

private:
    // The sleeve: the directions (dx, dy), dx > 0, from the anchor of the lowest and the highest
    // line passing within tolerance of every point since the anchor. Slopes are compared by cross
    // products, so there is no division per point.
    float tolerance_;
    ImVec2 anchor_, candidate_;
    float loX_ = 1.0f, loY_ = 0.0f, hiX_ = 1.0f, hiY_ = 0.0f;
    bool started_ = false;
    bool pending_ = false;  ///< candidate_ ends the current segment and is not written yet
    bool open_ = true;      ///< no point since the anchor yet: any slope will do
};

// Inline: drawSeries runs it for every point of every line.
inline void Simplifier::add(ImVec2 p, std::vector<ImVec2>& out) {
    if (!started_) {
        out.push_back(p);
        anchor_ = p;
        started_ = true;
        return;
    }
    float dx = p.x - anchor_.x, dy = p.y - anchor_.y;
    if (dx > 0.0f &&
        (open_ || (dy * loX_ >= loY_ * dx && dy * hiX_ <= hiY_ * dx))) {  // the segment can run on to p
        if (open_ || (dy - tolerance_) * loX_ > loY_ * dx) loX_ = dx, loY_ = dy - tolerance_;
        if (open_ || (dy + tolerance_) * hiX_ < hiY_ * dx) hiX_ = dx, hiY_ = dy + tolerance_;
        open_ = false;
        candidate_ = p;
        pending_ = true;
        return;
    }
    if (pending_) {  // p leaves the sleeve: the segment ends at the candidate, which anchors the next
        out.push_back(candidate_);
        anchor_ = candidate_;
        pending_ = false;
        dx = p.x - anchor_.x, dy = p.y - anchor_.y;
    }
    if (dx > 0.0f) {
        loX_ = hiX_ = dx, loY_ = dy - tolerance_, hiY_ = dy + tolerance_;
        open_ = false;
        candidate_ = p;
        pending_ = true;
    } else {  // no slope to a point straight above (or left of) the anchor: keep it
        out.push_back(p);
        anchor_ = p;
        open_ = true;
    }
}

inline void Simplifier::finish(std::vector<ImVec2>& out) {
    if (pending_) out.push_back(candidate_);
    pending_ = false;
}

}  // namespace jl::plot
