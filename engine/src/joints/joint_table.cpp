// The joint type table, derived from the JointParams variant's alternatives: each struct's static
// `info`, and its optional members (`validate`, `sketch`, `fitLength`, `presets`) found by
// concepts, so a type without one needs no line here.
#include <array>
#include <utility>

#include "jointlab/joint.h"

namespace jl {

namespace {

template <size_t... I>
constexpr std::array<JointTypeInfo, sizeof...(I)> collectInfos(std::index_sequence<I...>) {
    return {std::variant_alternative_t<I, JointParams>::info...};
}
constexpr auto kInfos = collectInfos(std::make_index_sequence<kJointTypeCount>{});

/// Calls f with a default-constructed T of alternative `index`: f(T{}) (nothing when out of range).
template <class F, size_t... I>
void withType(int index, F&& f, std::index_sequence<I...>) {
    ((static_cast<int>(I) == index ? (f(std::variant_alternative_t<I, JointParams>{}), 0) : 0), ...);
}
template <class F>
void withType(int index, F&& f) {
    withType(index, std::forward<F>(f), std::make_index_sequence<kJointTypeCount>{});
}

template <class T>
concept HasValidate = requires(const T& t) {
    { t.validate() } -> std::convertible_to<std::string>;
};
template <class T>
concept HasSketch = requires(const T& t, JointSketch& s) {
    t.sketch(s);
};
template <class T>
concept HasFitLength = requires(T& t, Real length) {
    t.fitLength(length);
};
template <class T>
concept HasPresets = requires {
    T::presets();
};

}  // namespace

const JointTypeInfo& jointTypeInfo(int index) {
    return kInfos[static_cast<size_t>(index)];
}

int findJointType(std::string_view name) {
    for (int i = 0; i < kJointTypeCount; ++i)
        if (name == kInfos[static_cast<size_t>(i)].name) return i;
    return -1;
}

JointParams makeJointParams(int index) {
    JointParams p;
    withType(index, [&](auto params) { p = params; });
    return p;
}

std::string validateJointParams(const JointParams& p) {
    return std::visit(
        [](const auto& params) -> std::string {
            if constexpr (HasValidate<std::decay_t<decltype(params)>>)
                return params.validate();
            else
                return "";
        },
        p);
}

void sketchJoint(const JointParams& p, JointSketch& out) {
    std::visit(
        [&](const auto& params) {
            if constexpr (HasSketch<std::decay_t<decltype(params)>>) params.sketch(out);
        },
        p);
}

void fitJointLength(JointParams& p, Real length) {
    std::visit(
        [&](auto& params) {
            if constexpr (HasFitLength<std::decay_t<decltype(params)>>) params.fitLength(length);
        },
        p);
}

int jointPresetCount(int index) {
    int count = 0;
    withType(index, [&](auto params) {
        if constexpr (HasPresets<decltype(params)>)
            count = static_cast<int>(decltype(params)::presets().size());
    });
    return count;
}

const char* jointPresetName(int index, int preset) {
    const char* name = "";
    withType(index, [&](auto params) {
        if constexpr (HasPresets<decltype(params)>) {
            const auto presets = decltype(params)::presets();
            if (preset >= 0 && preset < static_cast<int>(presets.size()))
                name = presets[static_cast<size_t>(preset)].name;
        }
    });
    return name;
}

JointParams makeJointPreset(int index, int preset) {
    JointParams p = makeJointParams(index);
    withType(index, [&](auto params) {
        if constexpr (HasPresets<decltype(params)>) {
            const auto presets = decltype(params)::presets();
            if (preset >= 0 && preset < static_cast<int>(presets.size()))
                p = presets[static_cast<size_t>(preset)].make();
        }
    });
    return p;
}

}  // namespace jl
