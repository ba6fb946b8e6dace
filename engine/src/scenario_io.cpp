// Scenario files: JSON ⇄ Scene through the field lists, and atomic save.
// (Validation lives in scenario_validate.cpp, shared helpers in scenario_fields.h.)
//
// No field name is spelled out here: the readers, writers and checkers below are visitors over
// each description's `visit` list (jointlab/fields.h). What this file does know is the shape of
// the file (docs/scenario-format.md):
//
//   { "format": "jointlab-scenario", "version": 1, "description": "...",
//     "settings": {WorldSettings}, "camera": {CameraState},
//     "bodies": [{BodyDesc}], "joints": [{"type": "revolute", JointDesc common fields, "params": {type
//     fields}}], "plots": [{PlotDesc}] (optional: written only when there are plots),
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
#include "jointlab/scenario_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <type_traits>
#include <vector>

#include "json_text.h"
#include "scenario_fields.h"

namespace jl {

namespace {

using json::Json;
using json::quote;
using namespace scenario;

constexpr size_t kMaxFileBytes = 64u << 20;  ///< refuse files larger than 64 MiB

/// Levenshtein distance, for "did you mean" hints on unknown keys.
size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}
// [SECTION] Reading JSON into descriptions

std::string typeName(const Json& j) {
    return j.type_name();
}

/// Short description of a JSON value for "got ..." messages.
std::string describe(const Json& j) {
    if (j.is_string()) return "string " + quote(j.get_ref<const std::string&>(), 40);
    if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
    if (j.is_null()) return "null";
    return typeName(j);
}

/// Reports unknown keys in `obj`: keys that are neither field names nor `extra`, recursing into
/// groups of dotted names.
std::string checkKeys(const Json& obj, const std::string& path, const std::vector<std::string>& names,
                      std::initializer_list<const char*> extra = {}, const std::string& prefix = "") {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string& key = it.key();
        const std::string full = prefix + key;
        if (std::find(names.begin(), names.end(), full) != names.end()) continue;
        if (prefix.empty() &&
            std::any_of(extra.begin(), extra.end(), [&](const char* e) { return key == e; }))
            continue;
        const bool isGroup = std::any_of(names.begin(), names.end(),
                                         [&](const std::string& n) { return n.rfind(full + ".", 0) == 0; });
        if (isGroup) {
            if (it.value().is_object())
                if (std::string e = checkKeys(it.value(), join(path, key), names, {}, full + "."); !e.empty())
                    return e;
            continue;  // a non-object group is reported by the reader
        }
        // Suggest the nearest key at this level.
        std::string best;
        size_t bestDistance = 3;
        auto consider = [&](std::string_view candidate) {
            const size_t d = editDistance(key, candidate);
            if (d < bestDistance) bestDistance = d, best = candidate;
        };
        for (const std::string& n : names)
            if (n.rfind(prefix, 0) == 0)
                consider(
                    std::string_view(n).substr(prefix.size(), n.find('.', prefix.size()) - prefix.size()));
        if (prefix.empty())
            for (const char* e : extra) consider(e);
        std::string problem = "unknown key " + quote(key);
        if (!best.empty()) problem += " (did you mean " + quote(best) + "?)";
        return path.empty() ? "unknown top-level key " + quote(key) +
                                  (best.empty() ? "" : " (did you mean " + quote(best) + "?)")
                            : fail(path, problem);
    }
    return "";
}

/// Reads each visited field from a JSON object. Missing optional fields keep their value (the
/// in-class default, since we read into fresh descriptions); missing required ones are errors.
class Reader {
public:
    Reader(const Json& obj, std::string path, std::string& error,
           std::initializer_list<const void*> required = {})
        : obj_(obj), path_(std::move(path)), error_(error), required_(required) {}

    template <class T>
    void operator()(const char* name, T& field, const Field&) {
        if (!error_.empty()) return;
        const std::string path = join(path_, name);
        const Json* v = find(name);
        if (!error_.empty()) return;
        if (!v) {
            if (std::find(required_.begin(), required_.end(), static_cast<const void*>(&field)) !=
                required_.end())
                error_ = fail(path, "missing (required)");
            return;
        }
        read(*v, field, path);
    }
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        if (!error_.empty()) return;
        const std::string path = join(path_, name);
        const Json* v = find(name);
        if (!error_.empty() || !v) return;
        if (!v->is_string()) {
            error_ = fail(path, "expected a string, got " + describe(*v));
            return;
        }
        const std::string& s = v->get_ref<const std::string&>();
        const int i = findName(s, e.names, e.count);
        if (i < 0) {
            std::string options;
            for (int k = 0; k < e.count; ++k) options += (k ? ", " : "") + std::string(e.names[k]);
            error_ = fail(path, "unknown value " + quote(s) + " (expected one of: " + options + ")");
            return;
        }
        e.value = static_cast<E>(i);
    }

private:
    /// The value at a (possibly dotted) name, nullptr when absent.
    const Json* find(std::string_view dotted) {
        const Json* cur = &obj_;
        size_t start = 0;
        for (;;) {
            const size_t dot = dotted.find('.', start);
            const std::string key(
                dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
            auto it = cur->find(key);
            if (it == cur->end()) return nullptr;
            if (dot == std::string_view::npos) return &*it;
            if (!it->is_object()) {
                error_ = fail(join(path_, dotted.substr(0, dot)), "expected an object, got " + describe(*it));
                return nullptr;
            }
            cur = &*it;
            start = dot + 1;
        }
    }

    bool readNumber(const Json& v, Real& out, const std::string& path) {
        if (v.is_number()) {
            out = v.get<Real>();
            return true;
        }
        if (v.is_string()) {
            const std::string& s = v.get_ref<const std::string&>();
            if (s == "inf" || s == "-inf") {  // range and policy are checked by the Checker
                out = s == "inf" ? kInf : -kInf;
                return true;
            }
        }
        error_ = fail(path, "expected a number, got " + describe(v));
        return false;
    }

    void read(const Json& v, Real& out, const std::string& path) { readNumber(v, out, path); }

    void read(const Json& v, int& out, const std::string& path) {
        if (v.is_number_integer()) {  // signed or unsigned
            const bool fits = v.is_number_unsigned()
                                  ? v.get<uint64_t>() <= static_cast<uint64_t>(INT_MAX)
                                  : v.get<int64_t>() >= INT_MIN && v.get<int64_t>() <= INT_MAX;
            if (!fits) {
                error_ = fail(path, "integer out of range, got " + v.dump());
                return;
            }
            out = v.get<int>();
            return;
        }
        if (v.is_number_float()) {
            const Real x = v.get<Real>();
            if (x == std::floor(x) && x >= INT_MIN && x <= INT_MAX) {
                out = static_cast<int>(x);
                return;
            }
            error_ = fail(path, "expected an integer, got " + number(x));
            return;
        }
        error_ = fail(path, "expected an integer, got " + describe(v));
    }

    void read(const Json& v, bool& out, const std::string& path) {
        if (v.is_boolean())
            out = v.get<bool>();
        else
            error_ = fail(path, "expected true or false, got " + describe(v));
    }

    void read(const Json& v, std::string& out, const std::string& path) {
        if (v.is_string())
            out = v.get<std::string>();
        else
            error_ = fail(path, "expected a string, got " + describe(v));
    }

    bool readArray(const Json& v, Real* out, size_t n, const std::string& path) {
        if (!v.is_array()) {
            error_ = fail(path, "expected an array of " + std::to_string(n) + " numbers, got " + describe(v));
            return false;
        }
        if (v.size() != n) {
            error_ =
                fail(path, "expected " + std::to_string(n) + " numbers, got " + std::to_string(v.size()));
            return false;
        }
        for (size_t k = 0; k < n; ++k)
            if (!readNumber(v[k], out[k], path + "[" + std::to_string(k) + "]")) return false;
        return true;
    }

    void read(const Json& v, Vec3& out, const std::string& path) {
        Real a[3];
        if (readArray(v, a, 3, path)) out = Vec3(a[0], a[1], a[2]);
    }

    void read(const Json& v, Quat& out, const std::string& path) {
        Real a[4];  // w, x, y, z
        if (!readArray(v, a, 4, path)) return;
        Quat q(a[0], a[1], a[2], a[3]);
        const Real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
        const Real off = std::abs(n - 1.0);
        if (std::isfinite(n) && off > kAlreadyUnit && off <= kUnitQuatTolerance)
            q = Quat(q.w / n, q.x / n, q.y / n, q.z / n);
        out = q;  // a non-unit quaternion is refused by the Checker
    }

    const Json& obj_;
    std::string path_;
    std::string& error_;
    std::vector<const void*> required_;
};

/// Checks that `v` is an object without unknown keys.
std::string checkObject(const Json& v, const std::string& path, const Schema& schema,
                        std::initializer_list<const char*> extra = {}) {
    if (!v.is_object()) return fail(path, "expected an object, got " + describe(v));
    return checkKeys(v, path, schema.names, extra);
}

template <class T>
std::string readStruct(const Json& v, const std::string& path, T& out) {
    if (std::string e = checkObject(v, path, schemaOf<T>()); !e.empty()) return e;
    std::string error;
    Reader r(v, path, error);
    out.visit(r);
    return error;
}

std::string readBody(const Json& v, const std::string& path, BodyDesc& b) {
    if (std::string e = checkObject(v, path, schemaOf<BodyDesc>()); !e.empty()) return e;
    std::string error;
    Reader r(v, path, error, {&b.name});
    b.visit(r);
    return error;
}

constexpr const char* kTypeKey = "type";
constexpr const char* kParamsKey = "params";

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

template <class T, class ReadOne>
std::string readArrayOf(const Json& root, const char* key, std::vector<T>& out, ReadOne readOne) {
    auto it = root.find(key);
    if (it == root.end()) return "";
    if (!it->is_array()) return fail(key, "expected an array, got " + describe(*it));
    out.reserve(it->size());
    for (size_t i = 0; i < it->size(); ++i) {
        T item{};
        if (std::string e = readOne((*it)[i], indexed(key, i), item); !e.empty()) return e;
        out.push_back(std::move(item));
    }
    return "";
}

constexpr const char* kFormatKey = "format";
constexpr const char* kVersionKey = "version";
constexpr const char* kDescriptionKey = "description";
constexpr const char* kSettingsKey = "settings";
constexpr const char* kCameraKey = "camera";
constexpr const char* kBodiesKey = "bodies";
constexpr const char* kJointsKey = "joints";
constexpr const char* kPlotsKey = "plots";
constexpr const char* kAppKey = "app";

std::string readScene(const Json& root, Scene& s) {
    if (!root.is_object()) return "expected a JSON object at the top level, got " + describe(root);

    // Format and version first: a newer file may well have keys this version does not know.
    auto format = root.find(kFormatKey);
    if (format == root.end())
        return fail(kFormatKey, std::string("missing (expected ") + quote(kScenarioFormatName) + ")");
    if (!format->is_string() || format->get_ref<const std::string&>() != kScenarioFormatName)
        return fail(kFormatKey, std::string("expected ") + quote(kScenarioFormatName) + ", got " +
                                    describe(*format) + " (not a JointLab scenario)");
    auto version = root.find(kVersionKey);
    if (version == root.end()) return fail(kVersionKey, "missing (required)");
    if (!version->is_number_integer())
        return fail(kVersionKey, "expected an integer, got " + describe(*version));
    if (version->is_number_unsigned()
            ? version->get<uint64_t>() > static_cast<uint64_t>(kScenarioFormatVersion)
            : version->get<int64_t>() > kScenarioFormatVersion)
        return fail(kVersionKey, version->dump() + " is newer than this JointLab (" +
                                     std::to_string(kScenarioFormatVersion) +
                                     "); update JointLab to open this file");
    if (version->get<int64_t>() < 1) return fail(kVersionKey, "must be >= 1, got " + version->dump());

    static const std::vector<std::string> kNoFields;
    if (std::string e = checkKeys(root, "", kNoFields,
                                  {kFormatKey, kVersionKey, kDescriptionKey, kSettingsKey, kCameraKey,
                                   kBodiesKey, kJointsKey, kPlotsKey, kAppKey});
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
    if (std::string e = readArrayOf(root, kBodiesKey, s.bodies, readBody); !e.empty()) return e;
    if (std::string e = readArrayOf(root, kJointsKey, s.joints, readJoint); !e.empty()) return e;
    if (std::string e = readArrayOf(root, kPlotsKey, s.plots, readStruct<PlotDesc>); !e.empty()) return e;
    return validate(s);
}

// [SECTION] Writing descriptions as JSON

Json realJson(Real x) {
    if (std::isfinite(x)) return Json(x);
    if (std::isnan(x)) return Json("nan");  // only from an invalid in-memory scene; refused on load
    return Json(x > 0 ? "inf" : "-inf");
}

class Writer {
public:
    explicit Writer(Json& obj) : obj_(obj) {}

    void operator()(const char* name, Real& x, const Field&) { slot(name) = realJson(x); }
    void operator()(const char* name, Vec3& v, const Field&) {
        slot(name) = Json::array({realJson(v.x), realJson(v.y), realJson(v.z)});
    }
    void operator()(const char* name, Quat& q, const Field&) {
        slot(name) = Json::array({realJson(q.w), realJson(q.x), realJson(q.y), realJson(q.z)});
    }
    void operator()(const char* name, int& i, const Field&) { slot(name) = i; }
    void operator()(const char* name, bool& b, const Field&) { slot(name) = b; }
    void operator()(const char* name, std::string& s, const Field&) { slot(name) = s; }
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        const int i = static_cast<int>(e.value);
        if (i >= 0 && i < e.count)
            slot(name) = e.names[i];
        else
            slot(name) = i;  // invalid in-memory value: written as a number, refused on load
    }

private:
    /// The slot for a dotted name, creating the enclosing objects.
    Json& slot(std::string_view dotted) {
        Json* cur = &obj_;
        size_t start = 0;
        for (size_t dot; (dot = dotted.find('.', start)) != std::string_view::npos; start = dot + 1) {
            Json& next = (*cur)[std::string(dotted.substr(start, dot - start))];
            if (!next.is_object()) next = Json::object();
            cur = &next;
        }
        return (*cur)[std::string(dotted.substr(start))];
    }

    Json& obj_;
};

template <class T>
Json writeStruct(T& t) {
    Json obj = Json::object();
    Writer w(obj);
    visitFields(t, w);
    return obj;
}

Json writeScene(Scene& s) {
    Json root = Json::object();
    root[kFormatKey] = kScenarioFormatName;
    root[kVersionKey] = kScenarioFormatVersion;
    root[kDescriptionKey] = s.description;
    root[kSettingsKey] = writeStruct(s.settings);
    root[kCameraKey] = writeStruct(s.camera);
    Json bodies = Json::array();
    for (BodyDesc& b : s.bodies) bodies.push_back(writeStruct(b));
    root[kBodiesKey] = std::move(bodies);
    Json joints = Json::array();
    for (JointDesc& j : s.joints) {
        Json obj = Json::object();
        obj[kTypeKey] = j.typeInfo().name;
        Writer w(obj);
        j.visitCommon(w);
        obj[kParamsKey] = std::visit([](auto& p) { return writeStruct(p); }, j.params);
        joints.push_back(std::move(obj));
    }
    root[kJointsKey] = std::move(joints);
    if (!s.plots.empty()) {  // optional: files of scenes without plots stay as they were
        Json plots = Json::array();
        for (PlotDesc& p : s.plots) plots.push_back(writeStruct(p));
        root[kPlotsKey] = std::move(plots);
    }
    return root;
}

// [SECTION] Files

std::string systemError(const std::string& what) {
    return what + ": " + std::strerror(errno);
}

bool writeAll(int fd, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

std::string directoryOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

// [SECTION] Public API

bool parseScenario(std::string_view text, Scene& out, std::string& error) {
    try {
        Json root;
        if (!json::parseStrictJson(text, root, error)) return false;
        Scene scene;
        if (std::string e = readScene(root, scene); !e.empty()) {
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
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        error = systemError(path);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = path + ": is a directory, not a scenario file";
        return false;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        error = systemError(path);
        return false;
    }
    std::string text;
    char buf[1 << 16];
    size_t n;
    bool tooLarge = false;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        if (text.size() + n > kMaxFileBytes) {
            tooLarge = true;
            break;
        }
        text.append(buf, n);
    }
    const bool readError = std::ferror(f) != 0;
    std::fclose(f);
    if (tooLarge) {
        error =
            path + ": file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB; not a scenario";
        return false;
    }
    if (readError) {
        error = systemError(path + ": read error");
        return false;
    }
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
    struct stat st {};
    mode_t mode = 0644;
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            error = path + ": is a directory";
            return false;
        }
        mode = st.st_mode & 07777;  // keep the existing file's permissions
    }
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd < 0) {
        error = systemError("cannot save " + path + " (creating " + tmp + ")");
        return false;
    }
    auto abandon = [&](const std::string& what) {
        error = systemError("cannot save " + path + " (" + what + ")");
        ::close(fd);
        ::unlink(tmp.c_str());
        return false;
    };
    if (!writeAll(fd, text)) return abandon("writing " + tmp);
    if (::fsync(fd) != 0) return abandon("flushing " + tmp);
    if (::close(fd) != 0) {
        error = systemError("cannot save " + path + " (closing " + tmp + ")");
        ::unlink(tmp.c_str());
        return false;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        error = systemError("cannot save " + path + " (renaming " + tmp + ")");
        ::unlink(tmp.c_str());
        return false;
    }
    // Make the rename itself durable; a failure here no longer endangers either version.
    if (const int dir = ::open(directoryOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

}  // namespace jl
