// The joint type table, derived from the JointParams variant's alternatives.
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

template <size_t... I>
JointParams makeByIndex(int index, std::index_sequence<I...>) {
    JointParams p;
    ((static_cast<int>(I) == index ? (p = std::variant_alternative_t<I, JointParams>{}, 0) : 0), ...);
    return p;
}

template <class T>
concept HasValidate = requires(const T& t) {
    { t.validate() } -> std::convertible_to<std::string>;
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
    return makeByIndex(index, std::make_index_sequence<kJointTypeCount>{});
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

}  // namespace jl
