// JointLab engine — field lists.
//
// Every description struct (bodies, joint parameters, world settings) lists its fields ONCE in a
// `template <class V> void visit(V& v)` member:
//
//     v("stiffness", stiffness, Field{"N/m", 0, kInf, "spring constant of the drive"});
//
// The same list drives JSON load/save (scenario_io), validation messages and the editor's
// inspector. A visitor is any object with call operators for the field types used below:
// Real, Vec3, Quat, bool, int, std::string and the engine's enums (through EnumField).
#pragma once

#include <string>
#include <string_view>

#include "jointlab/math.h"

namespace jl {

/// Metadata of one field: unit symbol, valid range and a one-line help text.
struct Field {
    const char* unit = "";      ///< SI unit symbol as shown in the UI ("m", "kg", "N/m", "rad", "")
    Real min = -kInf;           ///< smallest valid value (inclusive unless minExclusive)
    Real max = kInf;            ///< largest valid value (inclusive)
    const char* help = "";      ///< one line shown as tooltip and in docs
    bool minExclusive = false;  ///< true: the value must be strictly greater than min
    bool angle = false;         ///< radians; the UI shows degrees and says so
    /// false: with the owner's other fields as they are, this one has no effect (a box's radius,
    /// the density of a body whose mass is given). Set by the field list when it is visited, so
    /// it follows the owner (relevantIf); the inspector hides such a field, files still hold it.
    bool relevant = true;

    /// Returns an empty string when x is valid, otherwise the problem in words.
    std::string check(Real x) const;
};

/// Convenience constructors for the common cases.
inline Field positive(const char* unit, const char* help) {
    Field f{unit, 0.0, kInf, help};
    f.minExclusive = true;
    return f;
}
inline Field nonNegative(const char* unit, const char* help) {
    return Field{unit, 0.0, kInf, help};
}
/// `x` in the shortest decimal form that reads back as the same double (std::to_chars), with the
/// exponent written plainly: 1e15, 1.0000000000000002e15, 1e-7, 0.1; "nan", "inf", "-inf". Every
/// number in a message is written this way.
std::string shortestNumber(Real x);

inline Field anyReal(const char* unit, const char* help) {
    return Field{unit, -kInf, kInf, help};
}
inline Field angleField(Real lo, Real hi, const char* help) {
    Field f{"rad", lo, hi, help};
    f.angle = true;
    return f;
}

/// `f`, marked as having no effect unless `relevant` (e.g. relevantIf(shape == ShapeType::Box, ...)).
inline Field relevantIf(bool relevant, Field f) {
    f.relevant = relevant;
    return f;
}

/// An enum field: its value plus the table of names used in files and the UI.
template <class E>
struct EnumField {
    E& value;
    const char* const* names;  ///< names[i] is the name of E(i)
    int count;
};

/// Finds the index of name in names[0..count), or -1.
inline int findName(std::string_view name, const char* const* names, int count) {
    for (int i = 0; i < count; ++i)
        if (name == names[i]) return i;
    return -1;
}

}  // namespace jl
