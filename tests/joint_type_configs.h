// Test helper shared by the engine's and the app's joint-table tests: parameters of a joint type
// with everything its fields can switch on, found through its field list, not its name.
#pragma once

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "jointlab/joint.h"

namespace jl::test {

/// Every bool field set to true (limits, drives, motors, bounds: all on).
struct SwitchEverythingOn {
    template <class T>
    void operator()(const char*, T& value, const Field&) {
        if constexpr (std::is_same_v<T, bool>) value = true;
    }
    template <class E>
    void operator()(const char*, EnumField<E>, const Field&) {}
};

/// Counts the enum fields and their values; sets enum field `target` to `value` when asked.
struct EnumFields {
    int target = -1, value = 0;
    std::vector<int> counts;
    template <class T>
    void operator()(const char*, T&, const Field&) {}
    template <class E>
    void operator()(const char*, EnumField<E> e, const Field&) {
        if (static_cast<int>(counts.size()) == target) e.value = static_cast<E>(value);
        counts.push_back(e.count);
    }
};

/// The names of a type's fields.
struct FieldNames {
    std::vector<std::string> names;
    template <class T>
    void operator()(const char* name, T&&, const Field&) {
        names.emplace_back(name);
    }
};

/// Every field's value as text, to see whether a call changed any.
struct FieldValues {
    std::ostringstream out;
    template <class T>
    void operator()(const char* name, T& value, const Field&) {
        out << name << '=';
        if constexpr (std::is_arithmetic_v<T>)
            out << value;
        else if constexpr (std::is_same_v<T, Vec3>)
            out << value.x << ',' << value.y << ',' << value.z;
        else if constexpr (std::is_same_v<T, Quat>)
            out << value.w << ',' << value.x << ',' << value.y << ',' << value.z;
        out << ';';
    }
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        out << name << '=' << static_cast<int>(e.value) << ';';
    }
};

template <class V>
void visitParams(JointParams& p, V& v) {
    std::visit([&](auto& params) { params.visit(v); }, p);
}

inline std::vector<std::string> fieldNames(int type) {
    JointParams p = makeJointParams(type);
    FieldNames names;
    visitParams(p, names);
    return names.names;
}

inline std::string fieldValues(JointParams p) {
    FieldValues values;
    visitParams(p, values);
    return values.out.str();
}

/// The defaults, everything switched on, and everything switched on with each enum field at
/// each of its values in turn (the D6's motions one at a time "limited", a gear in each mode).
inline std::vector<JointParams> switchedOnConfigs(int type) {
    std::vector<JointParams> configs{makeJointParams(type)};
    JointParams on = makeJointParams(type);
    SwitchEverythingOn switchOn;
    visitParams(on, switchOn);
    configs.push_back(on);
    EnumFields count;
    visitParams(on, count);
    for (int field = 0; field < static_cast<int>(count.counts.size()); ++field)
        for (int value = 0; value < count.counts[static_cast<size_t>(field)]; ++value) {
            JointParams p = on;
            EnumFields set{field, value, {}};
            visitParams(p, set);
            configs.push_back(p);
        }
    return configs;
}

}  // namespace jl::test
