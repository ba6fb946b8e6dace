// JointLab plot widget — a series kept decimated between frames, for plots of long recorded
// series that grow at one end (a ring buffer of steps). No ImGui state: unit-tested in
// tests/app/plot_math_test.cpp.
//
// Samples fall into columns of a fixed width in x (data units, anchored at x = 0, so a moving time
// window does not move them), and each column keeps only its lowest and its highest sample. With
// columns one to two pixels wide, drawing min and max of every column in time order draws the
// same picture as every sample (a spike of one sample is the max or min of its column) from at
// most two points per column, and a new frame only adds the samples recorded since the last one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace jl::plot {

struct Point {
    double x = 0.0, y = 0.0;
};

class ColumnSeries {
public:
    /// Forgets every sample and sets the column width [x units] (> 0).
    void reset(double width);
    double width() const { return width_; }
    bool empty() const { return head_ == columns_.size(); }
    /// Columns held.
    size_t size() const { return columns_.size() - head_; }
    /// The serial the next sample should have: one more than the last one appended (-1 after reset).
    int64_t nextSerial() const { return lastSerial_ < 0 ? -1 : lastSerial_ + 1; }

    /// Adds the sample with serial `serial` (x ascending). A NaN y breaks the line; a non-finite x
    /// is ignored.
    void append(int64_t serial, Point p);
    /// Forgets the columns whose newest sample is older than `serial` (the source dropped them).
    void dropBefore(int64_t serial);

    /// The points to draw for the columns reaching into [xMin, xMax] plus one column on each side
    /// (so the line runs on to the edges): per column its lowest and highest sample in x order
    /// (one point if they are the same sample), a point with a NaN y where the line breaks.
    /// Points into the series' storage: valid until it changes.
    struct Span {
        const Point* data = nullptr;
        size_t size = 0;
        /// The first `settled` points are final: only the newest column changes as samples arrive.
        size_t settled = 0;
    };
    Span points(double xMin, double xMax) const;

private:
    struct Column {
        int64_t index = 0;       ///< floor(x / width)
        int64_t lastSerial = 0;  ///< serial of the newest sample in it
        uint32_t start = 0;      ///< its first point in points_ (a gap point, when it follows one)
        uint8_t gap = 0;         ///< 1: points_[start] is the NaN point of a break before it
        uint8_t count = 0;       ///< its samples in points_ after the gap: 1 or 2
    };
    std::vector<Point> points_;  ///< every column's points, in x order
    std::vector<Column> columns_;
    size_t head_ = 0;  ///< first live column (the ones before it were dropped)
    double width_ = 1.0;
    bool pendingGap_ = false;
    int64_t lastSerial_ = -1;  ///< serial of the last sample appended, NaN or not
};

}  // namespace jl::plot
