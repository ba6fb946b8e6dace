// JointLab engine — fields shared by the files that go beside a scenario (input logs, histories):
// known keys, steps, vectors and hashes, read with the scenario loader's messages ("path: problem").
#pragma once

#include <climits>
#include <cmath>
#include <string>

#include "jointlab/snapshot.h"
#include "scenario/json_text.h"
#include "scenario/scenario_json.h"

namespace jl::scenario {

using json::Json;
using json::quote;

template <size_t N>
inline std::string checkKeys(const Json& obj, const std::string& path, const char* const (&known)[N]) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool ok = false;
        for (const char* k : known) ok = ok || it.key() == k;
        if (!ok) {
            std::string list;
            for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
            return path.empty() ? "unknown top-level key " + quote(it.key()) + " (expected " + list + ")"
                                : fail(path, "unknown key " + quote(it.key()) + " (expected " + list + ")");
        }
    }
    return "";
}

/// A required whole number >= 0 (steps).
inline std::string readStep(const Json& obj, const char* key, const std::string& path, int64_t& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return fail(path, "missing (required)");
    if (!it->is_number_integer()) return fail(path, "expected a whole number, got " + describe(*it));
    if (it->is_number_unsigned() ? it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)
                                 : it->get<int64_t>() < 0)
        return fail(path, "must be a whole number >= 0, got " + it->dump());
    if (it->get<int64_t>() > kMaxStepCount)
        return fail(path, "must be <= " + std::to_string(kMaxStepCount) +
                              " (the longest run JointLab takes), got " + it->dump());
    out = it->get<int64_t>();
    return "";
}

inline std::string readVector(const Json& obj, const char* key, const std::string& path, Vec3& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return fail(path, "missing (required)");
    if (!it->is_array() || it->size() != 3)
        return fail(path, "expected an array of 3 numbers, got " +
                              (it->is_array() ? std::to_string(it->size()) + " elements" : describe(*it)));
    for (size_t k = 0; k < 3; ++k) {
        const Json& x = (*it)[k];
        const std::string p = path + "[" + std::to_string(k) + "]";
        if (!x.is_number()) return fail(p, "expected a number, got " + describe(x));
        const Real v = x.get<Real>();
        if (!std::isfinite(v) || std::abs(v) > scenario::kMaxMagnitude)
            return fail(p, "must be within ±1e15, got " + number(v));
        out[static_cast<int>(k)] = v;
    }
    return "";
}

inline std::string readHash(const Json& v, const std::string& path, uint64_t& out) {
    const std::string problem = "expected \"0x\" and 16 hexadecimal digits, got " + describe(v);
    if (!v.is_string()) return fail(path, problem);
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() != 18 || s[0] != '0' || s[1] != 'x') return fail(path, problem);
    uint64_t h = 0;
    for (size_t i = 2; i < s.size(); ++i) {
        const char c = s[i];
        const int d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
        if (d < 0) return fail(path, problem);
        h = h << 4 | static_cast<uint64_t>(d);
    }
    out = h;
    return "";
}

}  // namespace jl::scenario
