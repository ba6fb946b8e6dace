// JointLab editor — reading and writing any field of the Scene by name, through the field lists.
//
// Every description struct lists its fields once (`visit`, see jointlab/fields.h). This file turns
// those lists into data the editor can work with: `listFields` gives every field of a body, a joint
// (its common fields, then its type's) or the world settings, with its kind, metadata and current
// value; `writeField` sets one by name. The inspector draws from the list and edits through
// `writeField` (wrapped in an undoable command, commands.h), so a field added to an engine struct
// appears in the editor without touching the app.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "jointlab/scene.h"

namespace jl::app {

/// What a field holds.
enum class FieldKind { Real, Vec3, Quat, Bool, Int, String, Enum };

/// A field's value. Enum values are held as their index (an int), like Int fields.
using FieldValue = std::variant<Real, Vec3, Quat, bool, int, std::string>;

/// Whose fields: the world settings, the camera, or a body or joint named `name`.
struct FieldOwner {
    enum class Kind { Settings, Camera, Body, Joint };
    Kind kind = Kind::Settings;
    std::string name;  ///< body or joint name; unused for settings and camera

    static FieldOwner settings() { return {Kind::Settings, {}}; }
    static FieldOwner camera() { return {Kind::Camera, {}}; }
    static FieldOwner body(std::string n) { return {Kind::Body, std::move(n)}; }
    static FieldOwner joint(std::string n) { return {Kind::Joint, std::move(n)}; }
    /// "settings", "camera", "body 'door'", "joint 'hinge'": for messages and undo labels.
    std::string describe() const;
};

/// One entry of a field list with its current value.
struct FieldInfo {
    std::string name;  ///< as in the file format: "mass", "frame0.position", "limit.lower"
    FieldKind kind = FieldKind::Real;
    Field meta;  ///< unit, range, help, angle flag
    FieldValue value;
    const char* const* enumNames = nullptr;  ///< Enum fields: names[i] of value i
    int enumCount = 0;
    bool typeParam = false;        ///< a joint type's own parameter (not a field every joint has)
    bool acceptsInfinity = false;  ///< "inf" is a valid value (the field's default is infinite)
};

/// Every field of the owner in field-list order; empty when the owner does not exist.
std::vector<FieldInfo> listFields(const Scene& scene, const FieldOwner& owner);

/// One field by name, or nothing when the owner or the field does not exist.
std::optional<FieldInfo> findField(const Scene& scene, const FieldOwner& owner, std::string_view name);

/// Sets one field in place. Returns "" on success, otherwise the problem ("no body named 'x'",
/// "body 'door' has no field 'mas'", "mass: expected a number"). Only the kind is checked here;
/// ranges and cross-field rules are checked by jl::validateScene when the command runs.
std::string writeField(Scene& scene, const FieldOwner& owner, std::string_view name, const FieldValue& value);

}  // namespace jl::app
