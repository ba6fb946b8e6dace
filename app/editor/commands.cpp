#include "editor/commands.h"

#include <algorithm>
#include <cctype>

#include "editor/placement.h"
#include "jointlab/name_index.h"

namespace jl::app {

namespace {

template <class Taken>
std::string uniqueName(const std::string& base, Taken taken) {
    const std::string start = base.empty() ? std::string("item") : base;
    if (!taken(start)) return start;
    // "link3" continues as link4, link5, ...; "box" as box2, box3, ...
    size_t digits = start.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(start[digits - 1]))) --digits;
    std::string stem = start.substr(0, digits);
    long n = 2;
    if (digits < start.size() && start.size() - digits <= 9)
        n = std::stol(start.substr(digits)) + 1;
    else
        stem = start;  // no number, or one too long to count on: append one
    for (;; ++n) {
        std::string candidate = stem + std::to_string(n);
        if (!taken(candidate)) return candidate;
    }
}

BodyDesc* findBody(Scene& s, const std::string& name) {
    const int i = s.findBody(name);
    return i >= 0 ? &s.bodies[static_cast<size_t>(i)] : nullptr;
}

JointDesc* findJoint(Scene& s, const std::string& name) {
    const int i = s.findJoint(name);
    return i >= 0 ? &s.joints[static_cast<size_t>(i)] : nullptr;
}

std::string noBody(const std::string& name) {
    return "no body named '" + name + "'";
}
std::string noJoint(const std::string& name) {
    return "no joint named '" + name + "'";
}

/// Frame relative to a body at `pose` that sits at `world` in world coordinates.
Transform relativeFrame(const Transform& pose, const Transform& world) {
    Transform f = pose.inverse() * world;
    f.q = glm::normalize(f.q);
    return f;
}

}  // namespace

// [SECTION] Names

std::string selectedName(const Scene& scene, const Selection& selection) {
    if (selection.isBody() && static_cast<size_t>(selection.index) < scene.bodies.size())
        return scene.bodies[static_cast<size_t>(selection.index)].name;
    if (selection.isJoint() && static_cast<size_t>(selection.index) < scene.joints.size())
        return scene.joints[static_cast<size_t>(selection.index)].name;
    return "";
}

Selection findSelection(const Scene& scene, Selection::Kind kind, const std::string& name) {
    if (kind == Selection::Kind::Body)
        if (int i = scene.findBody(name); i >= 0) return Selection::body(i);
    if (kind == Selection::Kind::Joint)
        if (int j = scene.findJoint(name); j >= 0) return Selection::joint(j);
    return Selection{};
}

// The candidates are tried in turn (link4, link5, ...), so each is looked up hashed: with scans, a
// box added beside 20,000 boxes would compare 20,000 candidates against 20,000 names.
std::string uniqueBodyName(const Scene& scene, const std::string& base) {
    const NameIndex names(scene.bodies);
    return uniqueName(base, [&](const std::string& n) { return names.find(n) >= 0; });
}

std::string uniqueJointName(const Scene& scene, const std::string& base) {
    const NameIndex names(scene.joints);
    return uniqueName(base, [&](const std::string& n) { return names.find(n) >= 0; });
}

// [SECTION] Bodies

BodyDesc makeBody(ShapeType shape, const Vec3& position) {
    BodyDesc b;
    b.name = kShapeTypeNames[static_cast<int>(shape)];
    b.shape = shape;
    b.position = position;
    b.orientation = kIdentityQuat;
    switch (shape) {
        case ShapeType::Box:
            b.halfExtents = Vec3(0.25);
            break;
        case ShapeType::Sphere:
            b.radius = 0.25;
            break;
        case ShapeType::Capsule:
            b.radius = 0.12;
            b.halfHeight = 0.3;
            break;
        case ShapeType::Cylinder:
            b.radius = 0.2;
            b.halfHeight = 0.15;
            break;
        case ShapeType::Hull:  // a wedge: a triangular prism
            for (Real z : {-0.2, 0.2})
                for (const Vec3& p : {Vec3(-0.3, -0.2, z), Vec3(0.3, -0.2, z), Vec3(-0.3, 0.2, z)})
                    b.hullPoints.push_back(p + Vec3(0.1, 0.0, 0.0));
            break;
        case ShapeType::Compound: {  // an L of two boxes
            ShapeDesc foot, leg;
            foot.halfExtents = Vec3(0.3, 0.08, 0.15);
            foot.position = Vec3(0.0, -0.17, 0.0);
            leg.halfExtents = Vec3(0.08, 0.25, 0.15);
            leg.position = Vec3(-0.22, 0.16, 0.0);
            b.children = {foot, leg};
            break;
        }
    }
    return b;
}

Command addBody(BodyDesc body) {
    const std::string label = std::string("add ") + kShapeTypeNames[static_cast<int>(body.shape)];
    return {label, "", [body = std::move(body)](Scene& s, CommandEffects& fx) -> std::string {
                BodyDesc b = body;
                b.name =
                    uniqueBodyName(s, b.name.empty() ? kShapeTypeNames[static_cast<int>(b.shape)] : b.name);
                fx.selectBody(b.name);
                s.bodies.push_back(std::move(b));
                return "";
            }};
}

Command deleteBody(std::string name) {
    return {"delete body " + name, "", [name](Scene& s, CommandEffects&) -> std::string {
                const int i = s.findBody(name);
                if (i < 0) return noBody(name);
                s.bodies.erase(s.bodies.begin() + i);
                std::erase_if(s.joints,
                              [&](const JointDesc& j) { return j.body0 == name || j.body1 == name; });
                return "";
            }};
}

Command renameBody(std::string oldName, std::string newName) {
    return {"rename body " + oldName, "", [oldName, newName](Scene& s, CommandEffects& fx) -> std::string {
                BodyDesc* b = findBody(s, oldName);
                if (!b) return noBody(oldName);
                if (newName == oldName) return "";
                if (newName.empty()) return "a body's name must not be empty";
                if (s.findBody(newName) >= 0) return "there is already a body named '" + newName + "'";
                b->name = newName;
                for (JointDesc& j : s.joints) {
                    if (j.body0 == oldName) j.body0 = newName;
                    if (j.body1 == oldName) j.body1 = newName;
                }
                fx.bodyRenames.emplace_back(oldName, newName);
                fx.selectBody(newName);
                return "";
            }};
}

Command duplicateBody(std::string name, Transform pose, Vec3 offset) {
    return {"duplicate body " + name, "", [name, pose, offset](Scene& s, CommandEffects& fx) -> std::string {
                const BodyDesc* b = findBody(s, name);
                if (!b) return noBody(name);
                BodyDesc copy = *b;
                copy.name = uniqueBodyName(s, name);
                copy.position = pose.p + offset;
                copy.orientation = glm::normalize(pose.q);
                copy.linearVelocity = copy.angularVelocity = Vec3(0.0);  // at rest
                fx.selectBody(copy.name);
                s.bodies.push_back(std::move(copy));
                return "";
            }};
}

Vec3 besideOffset(const BodyDesc& body, const Quat& q, const Vec3& side) {
    const Real len = glm::length(side);
    const Vec3 d = len > 1e-9 ? side / len : Vec3(1, 0, 0);
    return d * (2.0 * supportDistance(body, q, d) + 0.1);
}

Command setBodyPose(std::string name, Transform pose, bool coalesce) {
    return {"move body " + name, coalesce ? "pose:" + name : "",
            [name, pose](Scene& s, CommandEffects&) -> std::string {
                BodyDesc* b = findBody(s, name);
                if (!b) return noBody(name);
                b->position = pose.p;
                b->orientation = glm::normalize(pose.q);
                return "";
            }};
}

// [SECTION] Joints

JointDesc makeJoint(const Scene& scene, const JointPlacement& p) {
    JointDesc j;
    j.name = uniqueJointName(scene, p.name.empty() ? jointTypeInfo(p.typeIndex).name : p.name);
    j.body0 = p.body0;
    j.body1 = p.body1;
    j.params = makeJointParams(p.typeIndex);
    Transform world = p.worldFrame;
    world.q = glm::normalize(world.q);
    const Transform pose0 = p.body0.empty() ? Transform{} : p.pose0;
    const Transform pose1 = p.body1.empty() ? Transform{} : p.pose1;
    j.frame0 = relativeFrame(pose0, world);
    j.frame1 = relativeFrame(pose1, world);
    // Types that span from A's picked point to B's (a distance joint): frame B at B's point, the
    // length between them handed to the type (a rope's range).
    if (j.typeInfo().placement.frame1AtPointOnBody1 && p.hasPointOnBody1) {
        Transform at1 = world;
        at1.p = p.pointOnBody1;
        j.frame1 = relativeFrame(pose1, at1);
        fitJointLength(j.params, glm::length(p.pointOnBody1 - world.p));
    }
    return j;
}

Command addJoint(JointPlacement placement) {
    const std::string label = std::string("add ") + jointTypeInfo(placement.typeIndex).name + " joint";
    return {label, "", [placement = std::move(placement)](Scene& s, CommandEffects& fx) -> std::string {
                if (placement.typeIndex < 0 || placement.typeIndex >= kJointTypeCount)
                    return "no joint type number " + std::to_string(placement.typeIndex);
                if (!placement.body0.empty() && s.findBody(placement.body0) < 0)
                    return noBody(placement.body0);
                if (!placement.body1.empty() && s.findBody(placement.body1) < 0)
                    return noBody(placement.body1);
                JointDesc j = makeJoint(s, placement);
                fx.selectJoint(j.name);
                s.joints.push_back(std::move(j));
                return "";
            }};
}

Command deleteJoint(std::string name) {
    return {"delete joint " + name, "", [name](Scene& s, CommandEffects&) -> std::string {
                const int i = s.findJoint(name);
                if (i < 0) return noJoint(name);
                s.joints.erase(s.joints.begin() + i);
                return "";
            }};
}

Command renameJoint(std::string oldName, std::string newName) {
    return {"rename joint " + oldName, "", [oldName, newName](Scene& s, CommandEffects& fx) -> std::string {
                JointDesc* j = findJoint(s, oldName);
                if (!j) return noJoint(oldName);
                if (newName == oldName) return "";
                if (newName.empty()) return "a joint's name must not be empty";
                if (s.findJoint(newName) >= 0) return "there is already a joint named '" + newName + "'";
                j->name = newName;
                fx.jointRenames.emplace_back(oldName, newName);
                fx.selectJoint(newName);
                return "";
            }};
}

Command duplicateJoint(std::string name) {
    return {"duplicate joint " + name, "", [name](Scene& s, CommandEffects& fx) -> std::string {
                const JointDesc* j = findJoint(s, name);
                if (!j) return noJoint(name);
                JointDesc copy = *j;
                copy.name = uniqueJointName(s, name);
                fx.selectJoint(copy.name);
                s.joints.push_back(std::move(copy));
                return "";
            }};
}

Command reseatJoint(std::string name, JointDesc seated) {
    return {"re-seat joint " + name, "",
            [name, seated = std::move(seated)](Scene& s, CommandEffects&) -> std::string {
                JointDesc* j = findJoint(s, name);
                if (!j) return noJoint(name);
                j->frame0 = seated.frame0;
                j->frame1 = seated.frame1;
                j->params = seated.params;
                return "";
            }};
}

Command setJointType(std::string name, int typeIndex) {
    const std::string typeName =
        typeIndex >= 0 && typeIndex < kJointTypeCount ? jointTypeInfo(typeIndex).name : "?";
    return {"make " + name + " a " + typeName + " joint", "",
            [name, typeIndex](Scene& s, CommandEffects&) -> std::string {
                JointDesc* j = findJoint(s, name);
                if (!j) return noJoint(name);
                if (typeIndex < 0 || typeIndex >= kJointTypeCount)
                    return "no joint type number " + std::to_string(typeIndex);
                if (j->typeIndex() != typeIndex) j->params = makeJointParams(typeIndex);
                return "";
            }};
}

Command applyJointPreset(std::string name, int preset) {
    return {"apply a preset to " + name, "", [name, preset](Scene& s, CommandEffects&) -> std::string {
                JointDesc* j = findJoint(s, name);
                if (!j) return noJoint(name);
                const int count = jointPresetCount(j->typeIndex());
                if (count == 0)
                    return "joint '" + name + "' is a " + j->typeInfo().name + " joint, which has no presets";
                if (preset < 0 || preset >= count)
                    return std::string("no ") + j->typeInfo().name + " preset number " +
                           std::to_string(preset);
                j->params = makeJointPreset(j->typeIndex(), preset);
                return "";
            }};
}

Command setJointWorldFrames(std::string name, Transform worldA, Transform worldB, Transform pose0,
                            Transform pose1, bool coalesce) {
    return {"move joint " + name, coalesce ? "frame:" + name : "",
            [name, worldA, worldB, pose0, pose1](Scene& s, CommandEffects&) -> std::string {
                JointDesc* j = findJoint(s, name);
                if (!j) return noJoint(name);
                j->frame0 = relativeFrame(j->body0.empty() ? Transform{} : pose0, worldA);
                j->frame1 = relativeFrame(j->body1.empty() ? Transform{} : pose1, worldB);
                return "";
            }};
}

// [SECTION] Fields

Command setField(FieldOwner owner, std::string field, FieldValue value) {
    if (field == "name" && (owner.kind == FieldOwner::Kind::Body || owner.kind == FieldOwner::Kind::Joint)) {
        if (const std::string* newName = std::get_if<std::string>(&value))
            return owner.kind == FieldOwner::Kind::Body ? renameBody(owner.name, *newName)
                                                        : renameJoint(owner.name, *newName);
    }
    std::string key = "field:" + owner.describe() + ":" + field;
    std::string label = "set " + field;
    return {std::move(label), std::move(key),
            [owner = std::move(owner), field = std::move(field), value = std::move(value)](
                Scene& s, CommandEffects&) { return writeField(s, owner, field, value); }};
}

Command setAutoBaumgarte(bool on) {
    return {on ? "Baumgarte auto" : "Baumgarte by hand", "", [on](Scene& s, CommandEffects&) -> std::string {
                WorldSettings& w = s.settings;
                if (!on && w.autoBaumgarte) w.baumgarte = w.effectiveBaumgarte();  // keep the value in use
                w.autoBaumgarte = on;
                return "";
            }};
}

Command applyPhysXPreset() {
    return {"PhysX preset", "", [](Scene& s, CommandEffects&) -> std::string {
                s.settings.applyPhysXPreset();
                return "";
            }};
}

Command setDescription(std::string text) {
    return {"edit description", "description",
            [text = std::move(text)](Scene& s, CommandEffects&) -> std::string {
                s.description = text;
                return "";
            }};
}

}  // namespace jl::app
