// JointLab engine (private) — JSON ⇄ descriptions through the field lists: the visitors that read
// a description from a JSON object (with "path: problem" messages) and write one, shared by the
// scene (scenario/io.cpp) and its saved run state (scenario/state.cpp). Policies: scenario/io.cpp.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/json_text.h"
#include "scenario/scenario_fields.h"

namespace jl::scenario {

using json::Json;
using json::quote;

/// Levenshtein distance, for "did you mean" hints on unknown keys.
/// Unknown keys longer than this get no "did you mean" (see checkKeys).
constexpr size_t kMaxSuggestedKeyLength = 64;

inline size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}
// [SECTION] Reading JSON into descriptions

inline std::string typeName(const Json& j) {
    return j.type_name();
}

/// Short description of a JSON value for "got ..." messages.
inline std::string describe(const Json& j) {
    if (j.is_string()) return "string " + quote(j.get_ref<const std::string&>(), 40);
    if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
    if (j.is_null()) return "null";
    if (j.is_number_float()) return "number " + number(j.get<Real>());
    if (j.is_number()) return "number " + j.dump();
    return typeName(j);
}

/// A whole number written with a fraction ("version": 2.0) becomes that integer, so fields that
/// take whole numbers read 2.0 as 2 (2.5 stays a float and is refused as before).
inline void wholeFloatToInteger(Json& v) {
    if (!v.is_number_float()) return;
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)  // 2^53
        v = d >= 0 ? Json(static_cast<uint64_t>(d)) : Json(static_cast<int64_t>(d));   // as the parser would
}

/// Reports unknown keys in `obj`: keys that are neither field names nor `extra`, recursing into
/// groups of dotted names.
inline std::string checkKeys(const Json& obj, const std::string& path, const std::vector<std::string>& names,
                             std::initializer_list<const char*> extra = {}, const std::string& prefix = "") {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string& key = it.key();
        const std::string full = prefix + key;
        if (std::find(names.begin(), names.end(), full) != names.end()) continue;
        if (prefix.empty() &&
            std::any_of(extra.begin(), extra.end(), [&](const char* e) { return key == e; }))
            continue;
        const std::string group = full + ".";  // once, not once per name
        const bool isGroup = std::any_of(names.begin(), names.end(),
                                         [&](const std::string& n) { return n.rfind(group, 0) == 0; });
        if (isGroup) {
            if (it.value().is_object())
                if (std::string e = checkKeys(it.value(), join(path, key), names, {}, full + "."); !e.empty())
                    return e;
            continue;  // a non-object group is reported by the reader
        }
        // Suggest the nearest key at this level: for keys up to kMaxSuggestedKeyLength bytes only, and
        // only among candidates whose length could be within the distance, so the cost is bounded
        // (64 × the longest field name per candidate) whatever the file holds: a 60 MB key took
        // two minutes here.
        std::string best;
        size_t bestDistance = 3;
        auto consider = [&](std::string_view candidate) {
            if (key.size() > kMaxSuggestedKeyLength) return;
            const size_t gap =
                key.size() > candidate.size() ? key.size() - candidate.size() : candidate.size() - key.size();
            if (gap >= bestDistance) return;  // the distance is at least the length difference
            const size_t d = editDistance(key, candidate);
            if (d < bestDistance) bestDistance = d, best = candidate;
        };
        for (const std::string& n : names)
            if (n.rfind(prefix, 0) == 0)
                consider(
                    std::string_view(n).substr(prefix.size(), n.find('.', prefix.size()) - prefix.size()));
        if (prefix.empty())
            for (const char* e : extra) consider(e);
        std::string problem = "unknown key " + quote(key);
        if (!best.empty()) problem += " (did you mean " + quote(best) + "?)";
        return path.empty() ? "unknown top-level key " + quote(key) +
                                  (best.empty() ? "" : " (did you mean " + quote(best) + "?)")
                            : fail(path, problem);
    }
    return "";
}

/// Reads each visited field from a JSON object. Missing optional fields keep their value (the
/// in-class default, since we read into fresh descriptions); missing required ones are errors.
class Reader {
public:
    Reader(const Json& obj, std::string path, std::string& error,
           std::initializer_list<const void*> required = {})
        : obj_(obj), path_(std::move(path)), error_(error), required_(required) {}

    template <class T>
    void operator()(const char* name, T& field, const Field&) {
        if (!error_.empty()) return;
        const Json* v = find(name);
        if (!error_.empty()) return;
        if (!v) {  // most fields are absent: their path is built only for a message
            if (std::find(required_.begin(), required_.end(), static_cast<const void*>(&field)) !=
                required_.end())
                error_ = fail(join(path_, name), "missing (required)");
            return;
        }
        read(*v, field, join(path_, name));
    }
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        if (!error_.empty()) return;
        const Json* v = find(name);
        if (!error_.empty() || !v) return;
        const std::string path = join(path_, name);
        if (!v->is_string()) {
            error_ = fail(path, "expected a string, got " + describe(*v));
            return;
        }
        const std::string& s = v->get_ref<const std::string&>();
        const int i = findName(s, e.names, e.count);
        if (i < 0) {
            std::string options;
            for (int k = 0; k < e.count; ++k) options += (k ? ", " : "") + std::string(e.names[k]);
            error_ = fail(path, "unknown value " + quote(s) + " (expected one of: " + options + ")");
            return;
        }
        e.value = static_cast<E>(i);
    }

private:
    /// The value at a (possibly dotted) name, nullptr when absent.
    const Json* find(std::string_view dotted) {
        const Json* cur = &obj_;
        size_t start = 0;
        for (;;) {
            const size_t dot = dotted.find('.', start);
            const std::string key(
                dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
            auto it = cur->find(key);
            if (it == cur->end()) return nullptr;
            if (dot == std::string_view::npos) return &*it;
            if (!it->is_object()) {
                error_ = fail(join(path_, dotted.substr(0, dot)), "expected an object, got " + describe(*it));
                return nullptr;
            }
            cur = &*it;
            start = dot + 1;
        }
    }

    bool readNumber(const Json& v, Real& out, const std::string& path) {
        if (v.is_number()) {
            out = v.get<Real>();
            return true;
        }
        if (v.is_string()) {
            const std::string& s = v.get_ref<const std::string&>();
            if (s == "inf" || s == "-inf") {  // range and policy are checked by the Checker
                out = s == "inf" ? kInf : -kInf;
                return true;
            }
        }
        error_ = fail(path, "expected a number, got " + describe(v));
        return false;
    }

    void read(const Json& v, Real& out, const std::string& path) { readNumber(v, out, path); }

    void read(const Json& v, int& out, const std::string& path) {
        if (v.is_number_integer()) {  // signed or unsigned
            const bool fits = v.is_number_unsigned()
                                  ? v.get<uint64_t>() <= static_cast<uint64_t>(INT_MAX)
                                  : v.get<int64_t>() >= INT_MIN && v.get<int64_t>() <= INT_MAX;
            if (!fits) {
                error_ = fail(path, "integer out of range, got " + v.dump());
                return;
            }
            out = v.get<int>();
            return;
        }
        if (v.is_number_float()) {
            const Real x = v.get<Real>();
            if (x == std::floor(x) && x >= INT_MIN && x <= INT_MAX) {
                out = static_cast<int>(x);
                return;
            }
            error_ = fail(path, "expected an integer, got " + number(x));
            return;
        }
        error_ = fail(path, "expected an integer, got " + describe(v));
    }

    void read(const Json& v, bool& out, const std::string& path) {
        if (v.is_boolean())
            out = v.get<bool>();
        else
            error_ = fail(path, "expected true or false, got " + describe(v));
    }

    void read(const Json& v, std::string& out, const std::string& path) {
        if (v.is_string())
            out = v.get<std::string>();
        else
            error_ = fail(path, "expected a string, got " + describe(v));
    }

    bool readArray(const Json& v, Real* out, size_t n, const std::string& path) {
        if (!v.is_array()) {
            error_ = fail(path, "expected an array of " + std::to_string(n) + " numbers, got " + describe(v));
            return false;
        }
        if (v.size() != n) {
            error_ =
                fail(path, "expected " + std::to_string(n) + " numbers, got " + std::to_string(v.size()));
            return false;
        }
        for (size_t k = 0; k < n; ++k)
            if (!readNumber(v[k], out[k], path + "[" + std::to_string(k) + "]")) return false;
        return true;
    }

    void read(const Json& v, Vec3& out, const std::string& path) {
        Real a[3];
        if (readArray(v, a, 3, path)) out = Vec3(a[0], a[1], a[2]);
    }

    void read(const Json& v, Quat& out, const std::string& path) {
        Real a[4];  // w, x, y, z
        if (!readArray(v, a, 4, path)) return;
        Quat q(a[0], a[1], a[2], a[3]);
        const Real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
        const Real off = std::abs(n - 1.0);
        if (std::isfinite(n) && off > kAlreadyUnit && off <= kUnitQuatTolerance)
            q = Quat(q.w / n, q.x / n, q.y / n, q.z / n);
        out = q;  // a non-unit quaternion is refused by the Checker
    }

    const Json& obj_;
    std::string path_;
    std::string& error_;
    std::vector<const void*> required_;
};

/// Checks that `v` is an object without unknown keys.
inline std::string checkObject(const Json& v, const std::string& path, const Schema& schema,
                               std::initializer_list<const char*> extra = {}) {
    if (!v.is_object()) return fail(path, "expected an object, got " + describe(v));
    return checkKeys(v, path, schema.names, extra);
}

template <class T>
std::string readStruct(const Json& v, const std::string& path, T& out) {
    if (std::string e = checkObject(v, path, schemaOf<T>()); !e.empty()) return e;
    std::string error;
    Reader r(v, path, error);
    out.visit(r);
    return error;
}

template <class T, class ReadOne>
std::string readArrayOf(const Json& root, const char* key, std::vector<T>& out, ReadOne readOne) {
    auto it = root.find(key);
    if (it == root.end()) return "";
    if (!it->is_array()) return fail(key, "expected an array, got " + describe(*it));
    out.reserve(it->size());
    for (size_t i = 0; i < it->size(); ++i) {
        T item{};
        if (std::string e = readOne((*it)[i], indexed(key, i), item); !e.empty()) return e;
        out.push_back(std::move(item));
    }
    return "";
}

// [SECTION] Writing descriptions as JSON

inline Json realJson(Real x) {
    if (std::isfinite(x)) return Json(x);
    if (std::isnan(x)) return Json("nan");  // only from an invalid in-memory scene; refused on load
    return Json(x > 0 ? "inf" : "-inf");
}

class Writer {
public:
    explicit Writer(Json& obj) : obj_(obj) {}

    void operator()(const char* name, Real& x, const Field&) { slot(name) = realJson(x); }
    void operator()(const char* name, Vec3& v, const Field&) {
        slot(name) = Json::array({realJson(v.x), realJson(v.y), realJson(v.z)});
    }
    void operator()(const char* name, Quat& q, const Field&) {
        slot(name) = Json::array({realJson(q.w), realJson(q.x), realJson(q.y), realJson(q.z)});
    }
    void operator()(const char* name, int& i, const Field&) { slot(name) = i; }
    void operator()(const char* name, bool& b, const Field&) { slot(name) = b; }
    void operator()(const char* name, std::string& s, const Field&) { slot(name) = s; }
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        const int i = static_cast<int>(e.value);
        if (i >= 0 && i < e.count)
            slot(name) = e.names[i];
        else
            slot(name) = i;  // invalid in-memory value: written as a number, refused on load
    }

private:
    /// The slot for a dotted name, creating the enclosing objects.
    Json& slot(std::string_view dotted) {
        Json* cur = &obj_;
        size_t start = 0;
        for (size_t dot; (dot = dotted.find('.', start)) != std::string_view::npos; start = dot + 1) {
            Json& next = (*cur)[std::string(dotted.substr(start, dot - start))];
            if (!next.is_object()) next = Json::object();
            cur = &next;
        }
        return (*cur)[std::string(dotted.substr(start))];
    }

    Json& obj_;
};

template <class T>
Json writeStruct(T& t) {
    Json obj = Json::object();
    Writer w(obj);
    visitFields(t, w);
    return obj;
}

}  // namespace jl::scenario

// [SECTION] The run state (scenario/state.cpp)

namespace jl::scenario {

/// Reads the "state" section (format version 2) into `out`: shape, types, and that its bodies and
/// joints are the scene's, by name and in order (`scene` has its bodies and joints read already).
/// The values are checked by validate() → validateState().
std::string readState(const Json& v, const std::string& path, const Scene& scene, WorldSnapshot& out);

/// The "state" section for a snapshot of `scene`'s world.
Json writeState(const Scene& scene, const WorldSnapshot& state);

}  // namespace jl::scenario
