#include "jointlab/fields.h"

#include <charconv>
#include <cmath>
#include <string_view>

namespace jl {

std::string shortestNumber(Real x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    // The shortest round-trip digits; from 1e15 on always with an exponent (to_chars would write
    // 1000000000000000.1 for the double after 1e15, which hides the magnitude).
    const auto [end, ec] = std::fabs(x) >= 1e15
                               ? std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific)
                               : std::to_chars(buf, buf + sizeof buf, x);
    if (ec != std::errc()) return "nan";
    // "1e+15" -> "1e15", "1e-07" -> "1e-7": the exponent without a plus sign or leading zeros.
    const std::string_view text(buf, static_cast<size_t>(end - buf));
    const size_t e = text.find('e');
    if (e == std::string_view::npos) return std::string(text);
    std::string_view exponent = text.substr(e + 1);
    const bool negative = !exponent.empty() && exponent[0] == '-';
    if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.remove_prefix(1);
    while (exponent.size() > 1 && exponent[0] == '0') exponent.remove_prefix(1);
    return std::string(text.substr(0, e + 1)) + (negative ? "-" : "") + std::string(exponent);
}

namespace {
std::string number(Real x) {
    return shortestNumber(x);
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
