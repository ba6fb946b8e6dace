#include "plot/plot_columns.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jl::plot {

void ColumnSeries::reset(double width) {
    points_.clear();
    columns_.clear();
    head_ = 0;
    width_ = width > 0.0 ? width : 1.0;
    pendingGap_ = false;
    lastSerial_ = -1;
}

void ColumnSeries::append(int64_t serial, Point p) {
    lastSerial_ = serial;
    if (!std::isfinite(p.x)) return;
    if (std::isnan(p.y)) {
        pendingGap_ = !empty();  // a gap before the first sample changes nothing
        return;
    }
    const int64_t index = static_cast<int64_t>(std::floor(p.x / width_));
    if (!empty() && !pendingGap_ && columns_.back().index == index) {
        // Keep the column's lowest and highest sample, in x order (p is the newest).
        Column& c = columns_.back();
        c.lastSerial = serial;
        Point* q = points_.data() + c.start + c.gap;
        if (c.count == 1) {
            if (p.y != q[0].y) {
                points_.push_back(p);
                c.count = 2;
            }
            return;
        }
        const bool firstIsLow = q[0].y <= q[1].y;
        const Point low = firstIsLow ? q[0] : q[1], high = firstIsLow ? q[1] : q[0];
        if (p.y < low.y)
            q[0] = high, q[1] = p;
        else if (p.y > high.y)
            q[0] = low, q[1] = p;
        return;
    }
    Column c;
    c.index = index;
    c.lastSerial = serial;
    c.start = static_cast<uint32_t>(points_.size());
    if (pendingGap_) {
        points_.push_back(Point{p.x, std::numeric_limits<double>::quiet_NaN()});
        c.gap = 1;
    }
    points_.push_back(p);
    c.count = 1;
    columns_.push_back(c);
    pendingGap_ = false;
}

void ColumnSeries::dropBefore(int64_t serial) {
    while (head_ < columns_.size() && columns_[head_].lastSerial < serial) ++head_;
    if (head_ == columns_.size()) {
        points_.clear();
        columns_.clear();
        head_ = 0;
        pendingGap_ = false;                                 // what comes next starts a new line
    } else if (head_ > 64 && head_ * 2 > columns_.size()) {  // compact now and then, not every frame
        const uint32_t shift = columns_[head_].start;
        points_.erase(points_.begin(), points_.begin() + shift);
        columns_.erase(columns_.begin(), columns_.begin() + static_cast<std::ptrdiff_t>(head_));
        for (Column& c : columns_) c.start -= shift;
        head_ = 0;
    }
}

ColumnSeries::Span ColumnSeries::points(double xMin, double xMax) const {
    if (empty()) return {};
    const Column* begin = columns_.data() + head_;
    const Column* end = columns_.data() + columns_.size();
    const Column* first = begin;
    const Column* last = end;
    if (std::isfinite(xMin)) {
        const double lo = std::floor(xMin / width_);
        first = std::lower_bound(begin, end, lo,
                                 [](const Column& c, double i) { return static_cast<double>(c.index) < i; });
        if (first != begin) --first;
    }
    if (std::isfinite(xMax)) {
        const double hi = std::floor(xMax / width_);
        last = std::upper_bound(first, end, hi,
                                [](double i, const Column& c) { return i < static_cast<double>(c.index); });
        if (last != end) ++last;
    }
    if (first == last) return {};
    const size_t from = first->start + first->gap;  // a break before the first column shows nothing
    const size_t to = last == end ? points_.size() : last->start;
    const size_t newest = columns_.back().start;
    const size_t settled = last != end ? to - from : newest > from ? newest - from : 0;
    return {points_.data() + from, to - from, settled};
}

}  // namespace jl::plot
