// JointLab engine (private) — scenario I/O helpers shared by reading, writing and validation.
//
// Everything here works from the field lists (`visit` members): the names a description has, which
// of its fields accept infinity, and the file key of a member. See scenario/io.cpp for the policies.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "jointlab/scene.h"

namespace jl::scenario {

constexpr Real kUnitQuatTolerance = 1e-3;  ///< |1 − |q|| above this is refused
constexpr Real kAlreadyUnit = 1e-12;       ///< |1 − |q|| below this is left untouched
/// Largest finite magnitude any number may have. Field ranges say what is meaningful; this says
/// what is plausible at all, so a typo like 1e39 m is refused rather than simulated (squares and
/// products of two such values still fit a double many times over).
constexpr Real kMaxMagnitude = 1e15;

inline std::string number(Real x) {  // same style as Field::check
    return shortestNumber(x);
}

inline std::string join(const std::string& path, std::string_view name) {
    return path.empty() ? std::string(name) : path + "." + std::string(name);
}

inline std::string indexed(const char* array, size_t i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

inline std::string fail(const std::string& path, const std::string& problem) {
    return path.empty() ? problem : path + ": " + problem;
}

// [SECTION] Field-list introspection

template <class V>
void visitFields(JointDesc& j, V& v) {
    j.visitCommon(v);
}
template <class T, class V>
void visitFields(T& t, V& v) {
    t.visit(v);
}

/// Names of the fields in visit order.
struct NameCollector {
    std::vector<std::string> names;
    template <class T>
    void operator()(const char* name, T&&, const Field&) {
        names.emplace_back(name);
    }
};

/// Names of the Real / Vec3 fields whose default is infinite: those accept "inf" (see top).
struct InfiniteDefaults {
    std::vector<std::string> names;
    void operator()(const char* name, Real& x, const Field&) {
        if (std::isinf(x)) names.emplace_back(name);
    }
    void operator()(const char* name, Vec3& x, const Field&) {
        if (std::isinf(x.x) || std::isinf(x.y) || std::isinf(x.z)) names.emplace_back(name);
    }
    template <class T>
    void operator()(const char*, T&&, const Field&) {}
};

struct Schema {
    std::vector<std::string> names;
    std::vector<std::string> infinite;
    bool allowsInfinity(std::string_view name) const {
        return std::find(infinite.begin(), infinite.end(), name) != infinite.end();
    }
};

template <class T>
const Schema& schemaOf() {
    static const Schema schema = [] {
        T defaults{};
        NameCollector names;
        visitFields(defaults, names);
        InfiniteDefaults inf;
        visitFields(defaults, inf);
        return Schema{std::move(names.names), std::move(inf.names)};
    }();
    return schema;
}

inline const Schema& paramsSchema(const JointParams& p) {
    return std::visit(
        [](const auto& params) -> const Schema& { return schemaOf<std::decay_t<decltype(params)>>(); }, p);
}

/// The field-list name of the member at `target` (so messages about names and references use
/// the same key as the file without spelling it here).
struct KeyFinder {
    const void* target;
    const char* found = "?";
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        if (static_cast<const void*>(&e.value) == target) found = name;
    }
    template <class T>
    void operator()(const char* name, T& field, const Field&) {
        if (static_cast<const void*>(&field) == target) found = name;
    }
};

template <class T, class M>
std::string keyOf(T& object, const M& member) {
    KeyFinder finder{&member};
    visitFields(object, finder);
    return finder.found;
}

/// Checks a saved run state against its scene: one entry per body and joint, finite values, unit
/// quaternions, step and time not negative. Returns "state...: problem" or "".
std::string validateState(const Scene& scene, const WorldSnapshot& state);

/// Checks a scene (visit() is non-const, so it takes a mutable one; it changes nothing): values
/// against their Field, names, references and each joint type's cross-field rules. Returns the
/// first problem as "path: problem", or "".
std::string validate(Scene& s);

}  // namespace jl::scenario
