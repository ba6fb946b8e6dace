#include "jointlab/fields.h"

#include <cstdio>

namespace jl {

namespace {
std::string number(Real x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", x);
    return buf;
}
}  // namespace

std::string Field::check(Real x) const {
    if (std::isnan(x)) return "must be a number, got NaN";
    if (std::isinf(x) && !(std::isinf(max) && x > 0) && !(std::isinf(min) && x < 0))
        return "must be finite, got " + number(x);
    if (minExclusive && !(x > min)) return "must be > " + number(min) + ", got " + number(x);
    if (!minExclusive && x < min) return "must be >= " + number(min) + ", got " + number(x);
    if (x > max) return "must be <= " + number(max) + ", got " + number(x);
    return "";
}

}  // namespace jl
