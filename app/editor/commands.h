// JointLab editor — the editing commands: every change a person makes to the Scene.
//
// A Command is a label (for the Edit menu: "Undo set mass"), an optional coalescing key and a
// function that changes a Scene in place. The Editor (editor.h) runs it on a copy of the current
// scene, validates the result with jl::validateScene, and only then makes it current, records the
// old scene for undo and patches the running World. So a command may change anything; if it fails
// or leaves the scene invalid, nothing happens and the message says why.
//
// Bodies and joints are named, not indexed, in commands: a command built in one frame still means
// the same object after other edits.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "editor/field_access.h"
#include "jointlab/scene.h"
#include "viewport/selection.h"

namespace jl::app {

/// What a command did besides changing the scene.
struct CommandEffects {
    /// Renames (old name, new name): the running World carries the renamed object's state over.
    std::vector<std::pair<std::string, std::string>> bodyRenames;
    std::vector<std::pair<std::string, std::string>> jointRenames;
    /// What to select afterwards (by name; resolved to an index by the caller).
    Selection::Kind selectKind = Selection::Kind::None;
    std::string selectName;
    bool clearSelection = false;

    void selectBody(std::string name) {
        selectKind = Selection::Kind::Body;
        selectName = std::move(name);
    }
    void selectJoint(std::string name) {
        selectKind = Selection::Kind::Joint;
        selectName = std::move(name);
    }
};

struct Command {
    std::string label;  ///< "set mass", "add box": shown as "Undo set mass"
    /// Non-empty: consecutive commands with the same key (a slider being dragged) make one undo
    /// step, until the editor is told the gesture ended (Editor::endCoalescing).
    std::string coalesceKey;
    /// Changes the scene in place; returns "" or the problem (the scene is then discarded).
    std::function<std::string(Scene&, CommandEffects&)> apply;
};

// [SECTION] Names

/// Name of the selected body or joint ("" when nothing is selected or the index is stale).
std::string selectedName(const Scene& scene, const Selection& selection);
/// The body or joint called `name`, or nothing.
Selection findSelection(const Scene& scene, Selection::Kind kind, const std::string& name);

/// `base` if no body has that name, else base with the next free number ("link3" → "link4",
/// "box" → "box2").
std::string uniqueBodyName(const Scene& scene, const std::string& base);
std::string uniqueJointName(const Scene& scene, const std::string& base);

// [SECTION] Bodies

/// A body of the given shape with sizes that read well in a 1–3 m scene, named after the shape.
BodyDesc makeBody(ShapeType shape, const Vec3& position);

/// Adds `body` (renamed to a unique name if needed) and selects it.
Command addBody(BodyDesc body);
/// Deletes the body and every joint attached to it.
Command deleteBody(std::string name);
/// Renames the body; joints referring to it follow.
Command renameBody(std::string oldName, std::string newName);
/// Copies the body under a new name and selects the copy. The copy starts at rest at `pose` (the
/// body's pose now, not its start pose) moved by `offset`, so it appears next to the original.
Command duplicateBody(std::string name, Transform pose, Vec3 offset);
/// An offset that puts a copy of `body` (at orientation `q`) beside it along the unit direction
/// `side` (the camera's right), with a 10 cm gap: the copy is visible, not inside the original.
Vec3 besideOffset(const BodyDesc& body, const Quat& q, const Vec3& side);
/// Sets the body's pose (position and orientation). `coalesce`: part of a drag.
Command setBodyPose(std::string name, Transform pose, bool coalesce);

// [SECTION] Joints

/// Where a new joint goes: its frame in world coordinates and the poses its bodies have now.
struct JointPlacement {
    int typeIndex = 0;     ///< index into the joint type table (jl::jointTypeInfo)
    std::string body0;     ///< body A ("" = the world)
    std::string body1;     ///< body B ("" = the world)
    Transform worldFrame;  ///< the joint frame in world: origin and axes (X is the joint axis)
    Transform pose0;       ///< body A's pose now (ignored for the world)
    Transform pose1;       ///< body B's pose now
    /// Where body B was picked, in world; used by types whose two origins differ by nature
    /// (JointPlacementDefaults::frame1AtPointOnBody1: frame B goes there, and the type is told
    /// the length between the points, e.g. a distance joint's range).
    Vec3 pointOnBody1{0.0};
    bool hasPointOnBody1 = false;
    std::string name;  ///< empty: the type's name, made unique
};

/// The joint described by a placement: frames relative to each body so that both coincide with
/// worldFrame at the bodies' current poses, default parameters of the type.
JointDesc makeJoint(const Scene& scene, const JointPlacement& placement);

/// Adds a joint built by makeJoint and selects it.
Command addJoint(JointPlacement placement);
Command deleteJoint(std::string name);
Command renameJoint(std::string oldName, std::string newName);
/// Copies the joint (same bodies, frames and parameters) under a new name.
Command duplicateJoint(std::string name);
/// Restore's re-seat (editor/reseat.h): the joint gets `seated`'s frames and type parameters (a
/// coupling's offset), so that it holds with its bodies where they are now. Undo puts them back.
Command reseatJoint(std::string name, JointDesc seated);
/// Changes the joint's type: common fields kept, the new type's parameters at their defaults.
Command setJointType(std::string name, int typeIndex);
/// Replaces the joint's parameters by preset `preset` of its type (jl::jointPresetCount; D6 has
/// the cylindrical, point-on-plane and point-on-line joints). Refused for a type without it.
Command applyJointPreset(std::string name, int preset);
/// Puts the joint's frames at `worldA` (frame0) and `worldB` (frame1) in world, for the bodies at
/// `pose0` and `pose1` (their poses now). `coalesce`: part of a drag.
Command setJointWorldFrames(std::string name, Transform worldA, Transform worldB, Transform pose0,
                            Transform pose1, bool coalesce);

// [SECTION] Fields

/// Sets one field of the settings, a body or a joint (field_access.h). Coalesces per field, so a
/// slider drag is one undo step. Renaming through the "name" field goes through renameBody /
/// renameJoint so references follow.
Command setField(FieldOwner owner, std::string field, FieldValue value);

/// Baumgarte "auto" on or off. Turning it off keeps α at the value auto was using (not the last
/// value set by hand), so the simulation does not jump.
Command setAutoBaumgarte(bool on);

/// PhysX's own solver values (WorldSettings::applyPhysXPreset): its α by hand, 4 + 1 iterations,
/// point rows one by one, Baumgarte correction, no gyroscopic term. One undo step.
Command applyPhysXPreset();

/// Replaces the scene's description text.
Command setDescription(std::string text);

}  // namespace jl::app
