// JointLab engine — field paths: one scalar field of a Scene named as in the scenario file.
//
//   settings.posIters                   a world setting
//   bodies.arm.mass                     a field of the body called "arm"
//   joints.elbow.drive.stiffness        a field of the joint called "elbow" (its common fields and its
//                                       type's own, which the file keeps under "params": the
//                                       spelling joints.elbow.params.drive.stiffness is taken too)
//   bodies.arm.position.y               one component (x, y, z) of a vector field
//
// The names, units and ranges come from the field lists (`visit`, jointlab/fields.h), so a field
// added to an engine struct gets a path without touching this code. Parameter sweeps (`jointlab
// sweep`) and A/B comparisons name the fields they change this way.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "jointlab/scene.h"

namespace jl {

/// What a path's field holds. Only scalars have paths (strings, quaternions and whole vectors
/// have none: a vector's components do).
enum class FieldPathKind { Real, Int, Bool, Enum };

/// A resolved path: whose field, which one, and its metadata.
struct FieldPath {
    enum class Owner { Settings, Body, Joint };
    std::string path;  ///< the canonical spelling (without "params.")
    Owner owner = Owner::Settings;
    int index = -1;      ///< the body or joint index in the scene; −1 for settings
    std::string field;   ///< the field-list name within the owner: "posIters", "drive.stiffness"
    int component = -1;  ///< 0, 1, 2 for x, y, z of a vector field; −1 otherwise
    FieldPathKind kind = FieldPathKind::Real;
    Field meta;                              ///< unit, range, help
    const char* const* enumNames = nullptr;  ///< Enum: names[i] is value i
    int enumCount = 0;
    bool acceptsInfinity = false;  ///< the field's default is infinite ("inf" is a valid value)
};

/// A value for a path: a number (Real and Int fields; whole for Int), true/false (Bool) or a name
/// (Enum).
using FieldPathValue = std::variant<Real, bool, std::string>;

/// Resolves `path` against `scene`. Returns "" and fills `out`, or the problem in words
/// ("no joint named \"elbw\"", "joint \"elbow\" (revolute) has no field \"drive.stifness\"").
std::string resolveFieldPath(const Scene& scene, std::string_view path, FieldPath& out);

/// Checks a value for a resolved path: its kind (a number, a whole number, true/false, one of the
/// enum's names) and the field's range. Returns "" or the problem, e.g. "must be <= 255, got 300".
std::string checkFieldPathValue(const FieldPath& path, const FieldPathValue& value);

/// Sets the field (the path must have been resolved against a scene with the same bodies and
/// joints, such as a copy). Returns "" or, when the value has the wrong kind, the problem; ranges
/// are checkFieldPathValue's job and cross-field rules validateScene's.
std::string setFieldPath(Scene& scene, const FieldPath& path, const FieldPathValue& value);

/// The field's current value.
FieldPathValue getFieldPath(const Scene& scene, const FieldPath& path);

/// True when, with the owner's other fields as they are, the field has an effect (Field::relevant:
/// settings.baumgarte has none while settings.autoBaumgarte is true).
bool fieldPathRelevant(const Scene& scene, const FieldPath& path);

/// A value as text: numbers in the shortest round-trip form, true/false, names as they are.
std::string formatFieldPathValue(const FieldPathValue& value);

/// Every path of the scene, in file order (settings, bodies, joints).
std::vector<std::string> listFieldPaths(const Scene& scene);

}  // namespace jl
