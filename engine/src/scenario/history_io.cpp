// History files (see history_io.h; format in docs/scenario-format.md, "History files").
//
//   { "format": "jointlab-history", "version": 3, "engineVersion": 2, "scenarioHash": "0x…",
//     "bodies": 12, "joints": 11, "interval": 16, "current": 1, "droppedBefore": 0,
//     "scenes": [ {scenario}, … ],              every scene a keyframe ran (edits give new ones)
//     "branches": [ { "name": "main", "parent": -1, "fork": 0, "end": 600, "deleted": false,
//                     "keyframes": [ {"step": 0, "change": true, "scene": 0, "words": "hex…"} ],
//                     "forces": [ {"step": 12, "body": 3, "force": [..], "point": [..]} ],
//                     "events": [ {"step": 40, "kind": "break", "what": "…"} ] } ] }
//
// A keyframe's words are its packed WorldSnapshot (packSnapshot), 16 hexadecimal digits each.
// Versions 1 and 2 packed them differently (1: runs of zero words only; 2: a quaternion's w XORed
// with the body before's, not predicted from x, y, z); their files are refused, by version.
#include "jointlab/history_io.h"

#include <cinttypes>
#include <cstdio>
#include <map>

#include "jointlab/engine_version.h"
#include "jointlab/scenario_io.h"
#include "scenario/json_text.h"
#include "scenario/log_fields.h"
#include "scenario/scenario_json.h"
#include "support/text_file.h"

namespace jl {

namespace {

using json::Json;
using scenario::checkKeys;
using scenario::describe;
using scenario::fail;
using scenario::indexed;
using scenario::join;
using scenario::readHash;
using scenario::readStep;
using scenario::readVector;

constexpr const char* kTopKeys[] = {"format",        "version", "engineVersion", "scenarioHash",
                                    "bodies",        "joints",  "interval",      "current",
                                    "droppedBefore", "scenes",  "branches"};
constexpr const char* kBranchKeys[] = {"name",    "parent",    "fork",   "end",
                                       "deleted", "keyframes", "forces", "events"};
constexpr const char* kKeyframeKeys[] = {"step", "change", "scene", "words"};
constexpr const char* kForceKeys[] = {"step", "body", "force", "point"};
constexpr const char* kEventKeys[] = {"step", "kind", "what"};

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
    return buf;
}

std::string wordsText(const std::vector<uint64_t>& words) {
    static const char* const digits = "0123456789abcdef";
    std::string out(words.size() * 16, '0');
    for (size_t i = 0; i < words.size(); ++i)
        for (int k = 0; k < 16; ++k)
            out[i * 16 + static_cast<size_t>(k)] = digits[(words[i] >> (60 - 4 * k)) & 0xf];
    return out;
}

bool readWords(const std::string& text, std::vector<uint64_t>& out) {
    if (text.size() % 16 != 0) return false;
    out.assign(text.size() / 16, 0);
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        out[i / 16] = out[i / 16] << 4 | static_cast<uint64_t>(d);
    }
    return true;
}

/// A whole number in [lo, hi].
std::string readInt(const Json& obj, const char* key, const std::string& path, int64_t lo, int64_t hi,
                    int64_t& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return fail(path, "missing (required)");
    if (!it->is_number_integer()) return fail(path, "expected a whole number, got " + describe(*it));
    const bool big = it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX);
    if (big || it->get<int64_t>() < lo || it->get<int64_t>() > hi)
        return fail(path,
                    "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + it->dump());
    out = it->get<int64_t>();
    return "";
}

std::string readBool(const Json& obj, const char* key, const std::string& path, bool& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return fail(path, "missing (required)");
    if (!it->is_boolean()) return fail(path, "expected true or false, got " + describe(*it));
    out = it->get<bool>();
    return "";
}

std::string readString(const Json& obj, const char* key, const std::string& path, std::string& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return fail(path, "missing (required)");
    if (!it->is_string()) return fail(path, "expected a string, got " + describe(*it));
    out = it->get<std::string>();
    return "";
}

std::string readArray(const Json& obj, const char* key, const std::string& path, const Json*& out) {
    auto it = obj.find(key);
    if (it == obj.end()) return fail(path, "missing (required; [] for none)");
    if (!it->is_array()) return fail(path, "expected an array, got " + describe(*it));
    out = &*it;
    return "";
}

struct Read {
    int interval = 1, current = 0;
    int64_t droppedBefore = 0;
    std::vector<History::Branch> branches;
};

std::string readHistory(const Json& root, const Scene& scene, Read& r) {
    if (!root.is_object()) return "expected a JSON object at the top level, got " + describe(root);
    auto format = root.find("format");
    if (format == root.end()) return "format: missing (required; \"jointlab-history\")";
    if (!format->is_string() || format->get_ref<const std::string&>() != kHistoryFormatName)
        return "format: expected \"jointlab-history\", got " + describe(*format);
    int64_t version = 0;
    if (std::string e = readInt(root, "version", "version", 1, 1000000, version); !e.empty()) return e;
    if (version > kHistoryFormatVersion)
        return "version: " + std::to_string(version) + " is newer than this JointLab (" +
               std::to_string(kHistoryFormatVersion) + ")";
    if (version < kHistoryFormatVersion)
        return "version: " + std::to_string(version) +
               " packs its keyframes the way JointLab did before version " +
               std::to_string(kHistoryFormatVersion) +
               ", which this JointLab no longer reads: record the run again";
    if (std::string e = checkKeys(root, "", kTopKeys); !e.empty()) return e;
    int64_t engine = 0;
    if (std::string e = readInt(root, "engineVersion", "engineVersion", 1, 1000000000, engine); !e.empty())
        return e;
    if (engine != kEngineResultsVersion)
        return "engineVersion: the history was recorded by engine results version " + std::to_string(engine) +
               " and this JointLab computes version " + std::to_string(kEngineResultsVersion) +
               ": its steps would not replay to the same states";
    uint64_t hash = 0;
    auto h = root.find("scenarioHash");
    if (h == root.end()) return "scenarioHash: missing (required)";
    if (std::string e = readHash(*h, "scenarioHash", hash); !e.empty()) return e;
    if (hash != scenarioHash(scene))
        return "scenarioHash: the history belongs to another scenario, or to this one before it was changed "
               "(" +
               hex(hash) + ", the scenario is " + hex(scenarioHash(scene)) + ")";
    int64_t bodies = 0, joints = 0, interval = 0, current = 0;
    if (std::string e = readInt(root, "bodies", "bodies", 0, 1 << 30, bodies); !e.empty()) return e;
    if (std::string e = readInt(root, "joints", "joints", 0, 1 << 30, joints); !e.empty()) return e;
    if (bodies != static_cast<int64_t>(scene.bodies.size()) ||
        joints != static_cast<int64_t>(scene.joints.size()))
        return "bodies: the history has " + std::to_string(bodies) + " bodies and " + std::to_string(joints) +
               " joints, the scenario " + std::to_string(scene.bodies.size()) + " and " +
               std::to_string(scene.joints.size());
    if (std::string e = readInt(root, "interval", "interval", 1, 1 << 20, interval); !e.empty()) return e;
    if (std::string e = readStep(root, "droppedBefore", "droppedBefore", r.droppedBefore); !e.empty())
        return e;
    r.interval = static_cast<int>(interval);

    const Json* scenes = nullptr;
    if (std::string e = readArray(root, "scenes", "scenes", scenes); !e.empty()) return e;
    std::vector<std::shared_ptr<const Scene>> sceneList;
    for (size_t i = 0; i < scenes->size(); ++i) {
        Scene s;
        std::string error;
        if (!parseScenario(json::printCanonical((*scenes)[i]), s, error))
            return indexed("scenes", i) + ": " + error;
        sceneList.push_back(std::make_shared<const Scene>(std::move(s)));
    }

    const Json* branches = nullptr;
    if (std::string e = readArray(root, "branches", "branches", branches); !e.empty()) return e;
    if (branches->empty()) return "branches: a history has at least one branch";
    if (std::string e =
            readInt(root, "current", "current", 0, static_cast<int64_t>(branches->size()) - 1, current);
        !e.empty())
        return e;
    r.current = static_cast<int>(current);
    for (size_t bi = 0; bi < branches->size(); ++bi) {
        const Json& bj = (*branches)[bi];
        const std::string path = indexed("branches", bi);
        if (!bj.is_object()) return fail(path, "expected an object, got " + describe(bj));
        if (std::string e = checkKeys(bj, path, kBranchKeys); !e.empty()) return e;
        History::Branch b;
        b.id = static_cast<int>(bi);
        int64_t parent = 0;
        if (std::string e = readString(bj, "name", join(path, "name"), b.name); !e.empty()) return e;
        if (std::string e =
                readInt(bj, "parent", join(path, "parent"), -1, static_cast<int64_t>(bi) - 1, parent);
            !e.empty())
            return e + (bi == 0 ? "" : " (a branch's parent comes before it)");
        if (bi == 0 && parent != -1) return fail(join(path, "parent"), "the first branch has no parent (-1)");
        if (bi > 0 && parent < 0) return fail(join(path, "parent"), "only the first branch has no parent");
        b.parent = static_cast<int>(parent);
        if (std::string e = readStep(bj, "fork", join(path, "fork"), b.fork); !e.empty()) return e;
        if (std::string e = readStep(bj, "end", join(path, "end"), b.end); !e.empty()) return e;
        if (b.end < b.fork)
            return fail(join(path, "end"), "must be >= fork (" + std::to_string(b.fork) + ")");
        if (std::string e = readBool(bj, "deleted", join(path, "deleted"), b.deleted); !e.empty()) return e;
        if (b.deleted && static_cast<int64_t>(bi) == current)
            return fail("current", "names a deleted branch");
        const Json *keys = nullptr, *forces = nullptr, *events = nullptr;
        if (std::string e = readArray(bj, "keyframes", join(path, "keyframes"), keys); !e.empty()) return e;
        if (std::string e = readArray(bj, "forces", join(path, "forces"), forces); !e.empty()) return e;
        if (std::string e = readArray(bj, "events", join(path, "events"), events); !e.empty()) return e;
        if (!b.deleted && keys->empty())
            return fail(join(path, "keyframes"), "a branch has at least one keyframe");
        for (size_t ki = 0; ki < keys->size(); ++ki) {
            const Json& kj = (*keys)[ki];
            const std::string kp = join(path, "keyframes") + "[" + std::to_string(ki) + "]";
            if (!kj.is_object()) return fail(kp, "expected an object, got " + describe(kj));
            if (std::string e = checkKeys(kj, kp, kKeyframeKeys); !e.empty()) return e;
            HistoryKeyframe k;
            int64_t sceneIndex = 0;
            if (std::string e = readStep(kj, "step", join(kp, "step"), k.step); !e.empty()) return e;
            if (k.step < b.fork || k.step > b.end || (!b.keys.empty() && k.step <= b.keys.back().step))
                return fail(join(kp, "step"), std::to_string(k.step) +
                                                  " is not after the previous keyframe within [fork, end]");
            if (std::string e = readBool(kj, "change", join(kp, "change"), k.change); !e.empty()) return e;
            if (std::string e = readInt(kj, "scene", join(kp, "scene"), 0,
                                        static_cast<int64_t>(sceneList.size()) - 1, sceneIndex);
                !e.empty())
                return e;
            k.scene = sceneList[static_cast<size_t>(sceneIndex)];
            std::string words;
            if (std::string e = readString(kj, "words", join(kp, "words"), words); !e.empty()) return e;
            WorldSnapshot snap;
            if (!readWords(words, k.packed) || !unpackSnapshot(k.packed, snap, k.scene.get()))
                return fail(join(kp, "words"), "a truncated or damaged keyframe");
            if (snap.stepCount != k.step) return fail(join(kp, "words"), "its state is of another step");
            if (snap.bodies.size() != k.scene->bodies.size() || snap.broken.size() != k.scene->joints.size())
                return fail(join(kp, "words"), "its state does not fit its scene (bodies or joints)");
            b.keys.push_back(std::move(k));
        }
        size_t key = 0;
        for (size_t fi = 0; fi < forces->size(); ++fi) {
            const Json& fj = (*forces)[fi];
            const std::string fp = join(path, "forces") + "[" + std::to_string(fi) + "]";
            if (!fj.is_object()) return fail(fp, "expected an object, got " + describe(fj));
            if (std::string e = checkKeys(fj, fp, kForceKeys); !e.empty()) return e;
            InputEvent f;
            int64_t body = 0;
            if (std::string e = readStep(fj, "step", join(fp, "step"), f.step); !e.empty()) return e;
            if (f.step < b.fork || f.step >= b.end + 1 ||
                (!b.forces.empty() && f.step < b.forces.back().step))
                return fail(join(fp, "step"), "must be in step order within [fork, end]");
            // The scene in effect at its step: the last keyframe's at or before it.
            while (key + 1 < b.keys.size() && b.keys[key + 1].step <= f.step) ++key;
            if (b.keys.empty() || b.keys[key].step > f.step)
                return fail(join(fp, "step"), "comes before the branch's first keyframe");
            const int64_t bodyCount = static_cast<int64_t>(b.keys[key].scene->bodies.size());
            if (std::string e = readInt(fj, "body", join(fp, "body"), 0, bodyCount - 1, body); !e.empty())
                return e;
            f.body = static_cast<int>(body);
            if (std::string e = readVector(fj, "force", join(fp, "force"), f.force); !e.empty()) return e;
            if (std::string e = readVector(fj, "point", join(fp, "point"), f.worldPoint); !e.empty())
                return e;
            b.forces.push_back(f);
        }
        for (size_t ei = 0; ei < events->size(); ++ei) {
            const Json& ej = (*events)[ei];
            const std::string ep = join(path, "events") + "[" + std::to_string(ei) + "]";
            if (!ej.is_object()) return fail(ep, "expected an object, got " + describe(ej));
            if (std::string e = checkKeys(ej, ep, kEventKeys); !e.empty()) return e;
            HistoryEvent ev;
            std::string kind;
            if (std::string e = readStep(ej, "step", join(ep, "step"), ev.step); !e.empty()) return e;
            if (std::string e = readString(ej, "kind", join(ep, "kind"), kind); !e.empty()) return e;
            bool known = false;
            for (size_t n = 0; n < std::size(kHistoryMarkNames); ++n)
                if (kind == kHistoryMarkNames[n]) ev.kind = static_cast<HistoryMark>(n), known = true;
            if (!known) return fail(join(ep, "kind"), "unknown kind " + json::quote(kind));
            if (std::string e = readString(ej, "what", join(ep, "what"), ev.what); !e.empty()) return e;
            b.events.push_back(std::move(ev));
        }
        r.branches.push_back(std::move(b));
    }
    if (r.branches[static_cast<size_t>(r.current)].deleted) return "current: names a deleted branch";
    return "";
}

}  // namespace

std::string historyPathFor(const std::string& scenarioPath) {
    const std::string ext = ".json";
    if (scenarioPath.size() > ext.size() &&
        scenarioPath.compare(scenarioPath.size() - ext.size(), ext.size(), ext) == 0)
        return scenarioPath.substr(0, scenarioPath.size() - ext.size()) + ".history.json";
    return scenarioPath + ".history.json";
}

uint64_t scenarioHash(const Scene& scene) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : serializeScenario(scene)) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string serializeHistory(const History& history, const Scene& scene) {
    Json root = Json::object();
    root["format"] = kHistoryFormatName;
    root["version"] = kHistoryFormatVersion;
    root["engineVersion"] = kEngineResultsVersion;
    root["scenarioHash"] = hex(scenarioHash(scene));
    root["bodies"] = scene.bodies.size();
    root["joints"] = scene.joints.size();
    root["interval"] = history.interval();
    root["current"] = history.currentBranch();
    root["droppedBefore"] = history.droppedBefore();
    // The scenes, each once, in the order the keyframes first use them.
    std::vector<const Scene*> order;
    std::map<const Scene*, size_t> index;  // only looked up: the order is `order`'s
    auto sceneIndex = [&](const Scene* s) {
        const auto [it, added] = index.emplace(s, order.size());
        if (added) order.push_back(s);
        return it->second;
    };
    Json branches = Json::array();
    for (const History::Branch& b : history.branches()) {
        Json bj = Json::object();
        bj["name"] = b.name;
        bj["parent"] = b.parent;
        bj["fork"] = b.fork;
        bj["end"] = b.end;
        bj["deleted"] = b.deleted;
        Json keys = Json::array();
        for (const HistoryKeyframe& k : b.keys) {
            Json kj = Json::object();
            kj["step"] = k.step;
            kj["change"] = k.change;
            kj["scene"] = sceneIndex(k.scene.get());
            kj["words"] = wordsText(k.packed);
            keys.push_back(std::move(kj));
        }
        bj["keyframes"] = std::move(keys);
        Json forces = Json::array();
        for (const InputEvent& f : b.forces) {
            Json fj = Json::object();
            fj["step"] = f.step;
            fj["body"] = f.body;
            fj["force"] = Json::array({f.force.x, f.force.y, f.force.z});
            fj["point"] = Json::array({f.worldPoint.x, f.worldPoint.y, f.worldPoint.z});
            forces.push_back(std::move(fj));
        }
        bj["forces"] = std::move(forces);
        Json events = Json::array();
        for (const HistoryEvent& e : b.events) {
            Json ej = Json::object();
            ej["step"] = e.step;
            ej["kind"] = kHistoryMarkNames[static_cast<int>(e.kind)];
            ej["what"] = e.what;
            events.push_back(std::move(ej));
        }
        bj["events"] = std::move(events);
        branches.push_back(std::move(bj));
    }
    Json scenes = Json::array();
    for (const Scene* s : order) scenes.push_back(Json::parse(serializeScenario(*s)));
    root["scenes"] = std::move(scenes);
    root["branches"] = std::move(branches);
    return json::printCanonical(root) + "\n";
}

bool parseHistory(std::string_view text, const Scene& scene, History& out, std::string& error) {
    try {
        Json root;
        if (!json::parseStrictJson(text, root, error)) return false;
        Read r;
        if (std::string e = readHistory(root, scene, r); !e.empty()) {
            error = json::oneLine(e);
            return false;
        }
        History::Budget budget = out.budget();
        out.adopt(budget, r.interval, r.current, r.droppedBefore, std::move(r.branches));
        return true;
    } catch (const std::exception& e) {
        error = json::oneLine(std::string("cannot read the history: ") + e.what());
        return false;
    }
}

bool loadHistory(const std::string& path, const Scene& scene, History& out, std::string& error) {
    std::string text;
    if (!files::readTextFile(path, "history", text, error)) return false;
    std::string e;
    if (!parseHistory(text, scene, out, e)) {
        error = path + ": " + e;
        return false;
    }
    return true;
}

bool saveHistory(const std::string& path, const History& history, const Scene& scene, std::string& error) {
    std::string text;
    try {
        text = serializeHistory(history, scene);
    } catch (const std::exception& e) {
        error = "cannot save " + path + ": " + e.what();
        return false;
    }
    return saveTextAtomically(path, text, error);
}

}  // namespace jl
