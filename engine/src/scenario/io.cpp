// Scenario files: JSON ⇄ Scene through the field lists, and atomic save.
// (Validation lives in scenario/validate.cpp, shared helpers in scenario/scenario_fields.h.)
//
// No field name is spelled out here: the readers, writers and checkers below are visitors over
// each description's `visit` list (jointlab/fields.h). What this file does know is the shape of
// the file (docs/scenario-format.md):
//
//   { "format": "jointlab-scenario", "version": 2, "description": "...",
//     "settings": {WorldSettings}, "camera": {CameraState},
//     "bodies": [{BodyDesc}], "joints": [{"type": "revolute", JointDesc common fields, "params": {type
//     fields}}], "plots": [{PlotDesc}] (optional: written only when there are plots),
//     "state": {...} (optional: a run saved mid-way, scenario/state.cpp),
//     "references": [{ReferenceDesc}] (optional: closed forms to compare with),
//     "lesson": {"title": "...", "steps": [{LessonStep}]} (optional: a guided lesson),
//     "app": {...reserved for app state; accepted and ignored} }
//
// and four policies:
//   * Required fields: a body's name; a joint's type, name, body0 and body1 (body0/body1 may be ""
//     = the world, but must be written, so a forgotten body is an error rather than the world).
//     Every other field is optional and takes its in-class default.
//   * Dotted field names ("frame0.position") are nested objects in the file ({"frame0": {"position": ...}}).
//   * Infinity: JSON has none, so ±inf are written as the strings "inf" / "-inf". A field accepts
//     them only if its range allows them AND its default is infinite (breakForce, breakTorque):
//     a threshold that may be "never", not a position or a mass.
//   * Every finite number must be within ±1e15 (kMaxMagnitude), whatever its field's range.
//   * Quaternions are [w, x, y, z]; within 1e-3 of unit length they are normalised on load,
//     otherwise refused. Already-unit ones (|1 − |q|| ≤ 1e-12) are kept bit for bit so
//     load → save → load is exact.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <type_traits>
#include <vector>

#include "jointlab/scenario_io.h"
#include "scenario/json_text.h"
#include "scenario/scenario_fields.h"
#include "scenario/scenario_json.h"
#include "support/text_file.h"

namespace jl {

namespace {

using json::Json;
using json::quote;
using namespace scenario;

// [SECTION] Reading bodies and joints

constexpr const char* kHullPointsKey = "hullPoints";
constexpr const char* kChildrenKey = "children";
constexpr const char* kInertiaKey = "inertia";  // BodyDesc::inertia, written when set

/// A hull's points: an array of [x, y, z] (their count and values: validate.cpp).
std::string readPoints(const Json& v, const std::string& path, std::vector<Vec3>& out) {
    if (!v.is_array()) return fail(path, "expected an array of [x, y, z] points, got " + describe(v));
    if (v.size() > static_cast<size_t>(kMaxHullPoints))
        return fail(path,
                    "at most " + std::to_string(kMaxHullPoints) + " points, got " + std::to_string(v.size()));
    for (size_t i = 0; i < v.size(); ++i) {
        const Json& p = v[i];
        const std::string pp = indexed(path.c_str(), i);
        if (!p.is_array() || p.size() != 3) return fail(pp, "expected [x, y, z], got " + describe(p));
        Vec3 x;
        for (int k = 0; k < 3; ++k) {
            if (!p[static_cast<size_t>(k)].is_number())
                return fail(pp + "[" + std::to_string(k) + "]",
                            "expected a number, got " + describe(p[static_cast<size_t>(k)]));
            x[k] = p[static_cast<size_t>(k)].get<Real>();
        }
        out.push_back(x);
    }
    return "";
}

/// A compound's child: its field list, and a hull child's points (as a hull body's, in its frame).
std::string readChild(const Json& v, const std::string& path, ShapeDesc& c) {
    if (std::string e = checkObject(v, path, schemaOf<ShapeDesc>(), {kHullPointsKey}); !e.empty()) return e;
    std::string error;
    Reader r(v, path, error);
    c.visit(r);
    if (!error.empty()) return error;
    if (auto it = v.find(kHullPointsKey); it != v.end())
        return readPoints(*it, join(path, kHullPointsKey), c.hullPoints);
    return "";
}

Json pointsJson(const std::vector<Vec3>& points) {
    Json pts = Json::array();
    for (const Vec3& p : points) pts.push_back(Json::array({realJson(p.x), realJson(p.y), realJson(p.z)}));
    return pts;
}

std::string readBody(const Json& v, const std::string& path, BodyDesc& b) {
    if (std::string e =
            checkObject(v, path, schemaOf<BodyDesc>(), {kHullPointsKey, kChildrenKey, kInertiaKey});
        !e.empty())
        return e;
    std::string error;
    Reader r(v, path, error, {&b.name});
    b.visit(r);
    if (!error.empty()) return error;
    if (auto it = v.find(kHullPointsKey); it != v.end())
        if (std::string e = readPoints(*it, join(path, kHullPointsKey), b.hullPoints); !e.empty()) return e;
    if (auto it = v.find(kChildrenKey); it != v.end()) {
        const std::string cp = join(path, kChildrenKey);
        if (!it->is_array()) return fail(cp, "expected an array of shapes, got " + describe(*it));
        if (it->size() > static_cast<size_t>(kMaxChildShapes))
            return fail(cp, "at most " + std::to_string(kMaxChildShapes) + " child shapes, got " +
                                std::to_string(it->size()));
        for (size_t i = 0; i < it->size(); ++i) {
            ShapeDesc c;
            if (std::string e = readChild((*it)[i], indexed(cp.c_str(), i), c); !e.empty()) return e;
            b.children.push_back(std::move(c));
        }
    }
    if (auto it = v.find(kInertiaKey); it != v.end()) {
        std::vector<Vec3> one;
        const Json wrapped = Json::array({*it});
        if (std::string e = readPoints(wrapped, kInertiaKey, one); !e.empty())
            return fail(join(path, kInertiaKey),
                        "expected principal moments [Ix, Iy, Iz], got " + describe(*it));
        b.inertia = one[0];
    }
    return "";
}

Json writeBody(BodyDesc& b) {
    Json obj = writeStruct(b);
    if (!b.hullPoints.empty()) obj[kHullPointsKey] = pointsJson(b.hullPoints);
    if (!b.children.empty()) {
        Json cs = Json::array();
        for (ShapeDesc& c : b.children) {
            Json child = writeStruct(c);
            if (!c.hullPoints.empty()) child[kHullPointsKey] = pointsJson(c.hullPoints);
            cs.push_back(std::move(child));
        }
        obj[kChildrenKey] = std::move(cs);
    }
    if (hasExplicitInertia(b))
        obj[kInertiaKey] = Json::array({realJson(b.inertia.x), realJson(b.inertia.y), realJson(b.inertia.z)});
    return obj;
}

constexpr const char* kTypeKey = "type";
constexpr const char* kParamsKey = "params";
constexpr const char* kProjectionKey = "projection";  // JointDesc::projection, written when enabled

std::string jointTypeList() {
    std::string s;
    for (int i = 0; i < kJointTypeCount; ++i) s += (i ? ", " : "") + std::string(jointTypeInfo(i).name);
    return s;
}

std::string readJoint(const Json& v, const std::string& path, JointDesc& j) {
    if (std::string e = checkObject(v, path, schemaOf<JointDesc>(), {kTypeKey, kParamsKey}); !e.empty())
        return e;
    const std::string typePath = join(path, kTypeKey);
    auto type = v.find(kTypeKey);
    if (type == v.end()) return fail(typePath, "missing (required; one of: " + jointTypeList() + ")");
    if (!type->is_string()) return fail(typePath, "expected a string, got " + describe(*type));
    const std::string& typeName = type->get_ref<const std::string&>();
    const int index = findJointType(typeName);
    if (index < 0)
        return fail(typePath,
                    "unknown joint type " + quote(typeName) + " (expected one of: " + jointTypeList() + ")");
    j.params = makeJointParams(index);

    std::string error;
    Reader r(v, path, error, {&j.name, &j.body0, &j.body1});
    j.visitCommon(r);
    if (!error.empty()) return error;

    auto params = v.find(kParamsKey);
    if (params == v.end()) return "";
    const std::string paramsPath = join(path, kParamsKey);
    if (std::string e = checkObject(*params, paramsPath, paramsSchema(j.params)); !e.empty()) return e;
    std::visit(
        [&](auto& p) {
            Reader pr(*params, paramsPath, error);
            p.visit(pr);
        },
        j.params);
    return error;
}

constexpr const char* kFormatKey = "format";
constexpr const char* kVersionKey = "version";
constexpr const char* kDescriptionKey = "description";
constexpr const char* kSettingsKey = "settings";
constexpr const char* kCameraKey = "camera";
constexpr const char* kBodiesKey = "bodies";
constexpr const char* kJointsKey = "joints";
constexpr const char* kPlotsKey = "plots";
constexpr const char* kStateKey = "state";
constexpr const char* kAppKey = "app";
constexpr const char* kReferencesKey = "references";
constexpr const char* kLessonKey = "lesson";
constexpr const char* kStepsKey = "steps";

std::string readLesson(const Json& v, const std::string& path, Lesson& out) {
    if (std::string e = checkObject(v, path, schemaOf<Lesson>(), {kStepsKey}); !e.empty()) return e;
    std::string error;
    Reader r(v, path, error, {&out.title});
    out.visit(r);
    if (!error.empty()) return error;
    auto steps = v.find(kStepsKey);
    const std::string stepsPath = join(path, kStepsKey);
    if (steps == v.end()) return fail(stepsPath, "missing (required: the lesson's numbered steps)");
    if (!steps->is_array()) return fail(stepsPath, "expected an array, got " + describe(*steps));
    for (size_t i = 0; i < steps->size(); ++i) {
        LessonStep step;
        const std::string stepPath = stepsPath + "[" + std::to_string(i) + "]";
        if (std::string e = checkObject((*steps)[i], stepPath, schemaOf<LessonStep>()); !e.empty()) return e;
        Reader sr((*steps)[i], stepPath, error, {&step.text});
        step.visit(sr);
        if (!error.empty()) return error;
        out.steps.push_back(std::move(step));
    }
    return "";
}

// [SECTION] Versions and migration
//
// A file of an older version is upgraded in memory, one version at a time, before it is read: the
// reader only ever sees the current version, and saving writes the current version. When the
// format changes, bump kScenarioFormatVersion, add a step here and a committed file of the old
// version under tests/data/ (ScenarioMigration tests load it).
//
//   1 → 2  "state" was added (a run saved mid-way, continued bit for bit on load). Nothing changed
//          meaning, so the step only makes sure a version-1 file does not use it. ("plots" came
//          late in version 1's life: version-1 files written then have it, and it stays valid.)

std::string migrate1To2(Json& root) {
    if (root.contains(kStateKey))
        return fail(kStateKey,
                    "not part of format version 1 (added in version 2); a file with a saved run state "
                    "says \"version\": 2");
    return "";
}

using Migration = std::string (*)(Json&);
/// kMigrations[v] upgrades version v to v + 1 (index 0 is unused: there is no version 0).
constexpr Migration kMigrations[] = {nullptr, migrate1To2};
static_assert(std::size(kMigrations) == kScenarioFormatVersion, "one migration per older version");

/// Checks "format" and "version" and migrates an older document to the current version.
std::string checkVersionAndMigrate(Json& root) {
    // Format and version first: a newer file may well have keys this version does not know.
    auto format = root.find(kFormatKey);
    if (format == root.end())
        return fail(kFormatKey, std::string("missing (expected ") + quote(kScenarioFormatName) + ")");
    if (!format->is_string() || format->get_ref<const std::string&>() != kScenarioFormatName)
        return fail(kFormatKey, std::string("expected ") + quote(kScenarioFormatName) + ", got " +
                                    describe(*format) + " (not a JointLab scenario)");
    auto version = root.find(kVersionKey);
    if (version == root.end()) return fail(kVersionKey, "missing (required)");
    wholeFloatToInteger(*version);  // "version": 2.0 is version 2
    if (!version->is_number_integer())
        return fail(kVersionKey, "expected an integer, got " + describe(*version));
    if (version->is_number_unsigned()
            ? version->get<uint64_t>() > static_cast<uint64_t>(kScenarioFormatVersion)
            : version->get<int64_t>() > kScenarioFormatVersion)
        return fail(kVersionKey, version->dump() + " is newer than this JointLab (" +
                                     std::to_string(kScenarioFormatVersion) +
                                     "); update JointLab to open this file");
    if (version->get<int64_t>() < 1) return fail(kVersionKey, "must be >= 1, got " + version->dump());
    for (auto v = version->get<int64_t>(); v < kScenarioFormatVersion; ++v)
        if (std::string e = kMigrations[v](root); !e.empty()) return e;
    return "";
}

// [SECTION] Reading the scene

/// "bodies" and "joints" read while the file is parsed, one element at a time as each is complete
/// (json::StreamedArrays), so the DOM of all of them never exists: for a file of many bodies the
/// DOM is 4-6x the text, the descriptions 3x. Each element goes through the same readBody /
/// readJoint with the same path as readArrayOf would use; the first error is kept (later elements
/// are then dropped unread) and reported by readScene at the point where readArrayOf would have
/// reported it, after the checks that come first (format, version, top-level keys, settings...).
///
/// The vectors are reserved at the element count the pre-scan found: grown by doubling instead,
/// the last growth holds the old and the new array at once (9x the file size at 65 537 bodies,
/// against 6x at 65 535). The count is trusted only up to what the text could hold (the shortest
/// body, {"name":"a"}, is 12 bytes; the shortest joint, a "gear" one, 48), so "bodies": [1,1,1,...] reserves
/// little, and a reservation that fails is skipped (the vector then grows as it goes).
struct StreamedItems {
    explicit StreamedItems(size_t textBytes) : textBytes_(textBytes) {}

    std::vector<BodyDesc> bodies;
    std::vector<JointDesc> joints;
    std::string bodiesError, jointsError;

    void start(std::string_view key, size_t count) {
        try {
            if (key == kBodiesKey)
                bodies.reserve(std::min(count, textBytes_ / 12));
            else
                joints.reserve(std::min(count, textBytes_ / 48));
        } catch (const std::exception&) {  // only a hint
        }
    }

    void take(std::string_view key, size_t index, const Json& element) {
        if (key == kBodiesKey)
            takeOne(kBodiesKey, index, element, bodies, bodiesError, readBody);
        else
            takeOne(kJointsKey, index, element, joints, jointsError, readJoint);
    }

private:
    size_t textBytes_;

    template <class T, class ReadOne>
    static void takeOne(const char* key, size_t index, const Json& element, std::vector<T>& out,
                        std::string& error, ReadOne readOne) {
        if (!error.empty()) return;
        try {
            T item{};
            if (std::string e = readOne(element, indexed(key, index), item); !e.empty()) {
                error = std::move(e);
                return;
            }
            out.push_back(std::move(item));
        } catch (const std::exception& e) {  // allocation failure: reported as parseScenario would
            error = std::string("cannot read the scenario: ") + e.what();
        }
    }
};

/// Moves the streamed elements of `key` into `out`, or returns their first error. The DOM holds an
/// empty array there (its type is checked as readArrayOf checks it).
template <class T>
std::string takeStreamed(const Json& root, const char* key, std::vector<T>& items, std::string& error,
                         std::vector<T>& out) {
    if (std::string e =
            readArrayOf(root, key, out,
                        [](const Json&, const std::string&, T&) {
                            return std::string();  // elements went to the stream; none are left in the DOM
                        });
        !e.empty())
        return e;
    if (!error.empty()) return error;
    out = std::move(items);
    return "";
}

std::string readScene(Json& root, Scene& s, StreamedItems& streamed) {
    if (!root.is_object()) return "expected a JSON object at the top level, got " + describe(root);
    if (std::string e = checkVersionAndMigrate(root); !e.empty()) return e;

    static const std::vector<std::string> kNoFields;
    if (std::string e =
            checkKeys(root, "", kNoFields,
                      {kFormatKey, kVersionKey, kDescriptionKey, kSettingsKey, kCameraKey, kBodiesKey,
                       kJointsKey, kPlotsKey, kStateKey, kAppKey, kReferencesKey, kLessonKey});
        !e.empty())
        return e;

    if (auto d = root.find(kDescriptionKey); d != root.end()) {
        if (!d->is_string()) return fail(kDescriptionKey, "expected a string, got " + describe(*d));
        s.description = d->get<std::string>();
    }
    if (auto a = root.find(kAppKey); a != root.end() && !a->is_object())
        return fail(kAppKey, "expected an object, got " + describe(*a));
    if (auto it = root.find(kSettingsKey); it != root.end())
        if (std::string e = readStruct(*it, kSettingsKey, s.settings); !e.empty()) return e;
    if (auto it = root.find(kCameraKey); it != root.end())
        if (std::string e = readStruct(*it, kCameraKey, s.camera); !e.empty()) return e;
    if (std::string e = takeStreamed(root, kBodiesKey, streamed.bodies, streamed.bodiesError, s.bodies);
        !e.empty())
        return e;
    if (std::string e = takeStreamed(root, kJointsKey, streamed.joints, streamed.jointsError, s.joints);
        !e.empty())
        return e;
    if (std::string e = readArrayOf(root, kPlotsKey, s.plots, readStruct<PlotDesc>); !e.empty()) return e;
    if (std::string e = readArrayOf(root, kReferencesKey, s.references, readStruct<ReferenceDesc>);
        !e.empty())
        return e;
    if (auto it = root.find(kLessonKey); it != root.end())
        if (std::string e = readLesson(*it, kLessonKey, s.lesson); !e.empty()) return e;
    if (std::string e = validate(s); !e.empty()) return e;
    // The state last: it names the bodies and joints, so those must be right first.
    if (auto it = root.find(kStateKey); it != root.end()) {
        WorldSnapshot state;
        if (std::string e = readState(*it, kStateKey, s, state); !e.empty()) return e;
        s.state = std::move(state);
        return validateState(s, *s.state);
    }
    return "";
}

// [SECTION] Writing the scene

Json writeScene(Scene& s) {
    Json root = Json::object();
    root[kFormatKey] = kScenarioFormatName;
    root[kVersionKey] = kScenarioFormatVersion;
    root[kDescriptionKey] = s.description;
    root[kSettingsKey] = writeStruct(s.settings);
    root[kCameraKey] = writeStruct(s.camera);
    Json bodies = Json::array();
    for (BodyDesc& b : s.bodies) bodies.push_back(writeBody(b));
    root[kBodiesKey] = std::move(bodies);
    Json joints = Json::array();
    for (JointDesc& j : s.joints) {
        Json obj = Json::object();
        obj[kTypeKey] = j.typeInfo().name;
        Writer w(obj);
        j.visitCommon(w);
        // optional: files of joints without projection stay as they were
        if (!j.projection.enabled) obj.erase(kProjectionKey);
        obj[kParamsKey] = std::visit([](auto& p) { return writeStruct(p); }, j.params);
        joints.push_back(std::move(obj));
    }
    root[kJointsKey] = std::move(joints);
    if (!s.plots.empty()) {  // optional: files of scenes without plots stay as they were
        Json plots = Json::array();
        for (PlotDesc& p : s.plots) plots.push_back(writeStruct(p));
        root[kPlotsKey] = std::move(plots);
    }
    if (!s.references.empty()) {  // optional, like plots
        Json refs = Json::array();
        for (ReferenceDesc& r : s.references) refs.push_back(writeStruct(r));
        root[kReferencesKey] = std::move(refs);
    }
    if (!s.lesson.empty()) {
        Json lesson = writeStruct(s.lesson);
        Json steps = Json::array();
        for (LessonStep& step : s.lesson.steps) steps.push_back(writeStruct(step));
        lesson[kStepsKey] = std::move(steps);
        root[kLessonKey] = std::move(lesson);
    }
    if (s.state) root[kStateKey] = writeState(s, *s.state);  // optional: only scenes saved mid-run
    return root;
}

}  // namespace

// [SECTION] Public API

bool parseScenario(std::string_view text, Scene& out, std::string& error) {
    try {
        Json root;
        // "app" is accepted and ignored: checked, not kept (a large one costs no memory). Bodies and
        // joints are read as they are parsed (StreamedItems).
        StreamedItems items(text.size());
        const json::StreamedArrays streamed{
            {kBodiesKey, kJointsKey},
            [&items](std::string_view key, size_t index, const Json& element) {
                items.take(key, index, element);
            },
            [&items](std::string_view key, size_t count) { items.start(key, count); }};
        if (!json::parseStrictJson(text, root, error, json::kMaxNestingDepth, kAppKey, &streamed))
            return false;
        Scene scene;
        if (std::string e = readScene(root, scene, items); !e.empty()) {
            error = json::oneLine(e);
            return false;
        }
        out = std::move(scene);
        return true;
    } catch (const std::exception& e) {  // allocation failure or a library surprise: still no crash
        error = json::oneLine(std::string("cannot read the scenario: ") + e.what());
        return false;
    }
}

bool loadScenario(const std::string& path, Scene& out, std::string& error) {
    std::string text;
    if (!files::readTextFile(path, "scenario", text, error)) return false;
    std::string e;
    if (!parseScenario(text, out, e)) {
        error = path + ": " + e;
        return false;
    }
    return true;
}

std::string serializeScenario(const Scene& scene) {
    Scene copy = scene;
    return json::printCanonical(writeScene(copy)) + "\n";
}

bool saveScenario(const std::string& path, const Scene& scene, std::string& error) {
    std::string text;
    try {
        text = serializeScenario(scene);
    } catch (const std::exception& e) {
        error = std::string("cannot serialize the scene: ") + e.what();
        return false;
    }
    return saveTextAtomically(path, text, error);
}

}  // namespace jl
