// Input log files (see input_log_io.h; format in docs/scenario-format.md, "Input logs").
//
//   { "format": "jointlab-input", "version": 1,
//     "startStep": 0, "endStep": 840, "engineVersion": 2, "finalStateHash": "0x8c2f...",
//     "events": [ {"step": 12, "body": "door", "force": [fx, fy, fz], "point": [x, y, z]}, ... ] }
//
// Parsed with the scenario loader's strict JSON reader (depth pre-scan, duplicate keys, overflow
// with line and column), so a log is held to the same rules as a scenario.
#include "jointlab/input_log_io.h"

#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "jointlab/name_index.h"
#include "jointlab/scenario_io.h"
#include "scenario/json_text.h"
#include "scenario/log_fields.h"
#include "scenario/scenario_json.h"
#include "support/text_file.h"

namespace jl {

namespace {

using json::Json;
using json::quote;
using scenario::checkKeys;
using scenario::describe;
using scenario::fail;
using scenario::indexed;
using scenario::join;
using scenario::number;
using scenario::readHash;
using scenario::readStep;
using scenario::readVector;

constexpr const char* kTopKeys[] = {"format",        "version",        "startStep", "endStep",
                                    "engineVersion", "finalStateHash", "events"};
constexpr const char* kEventKeys[] = {"step", "body", "force", "point"};

std::string readRecording(const Json& root, const Scene& scene, InputRecording& r) {
    if (!root.is_object()) return "expected a JSON object at the top level, got " + describe(root);
    auto format = root.find("format");
    if (format == root.end()) return "format: missing (required; \"jointlab-input\")";
    if (!format->is_string() || format->get_ref<const std::string&>() != kInputLogFormatName)
        return "format: expected \"jointlab-input\", got " + describe(*format) +
               (format->is_string() && format->get_ref<const std::string&>() == kScenarioFormatName
                    ? " (this is a scenario file, not an input log)"
                    : "");
    auto version = root.find("version");
    if (version == root.end()) return "version: missing (required)";
    Json versionValue = *version;
    scenario::wholeFloatToInteger(versionValue);  // "version": 1.0 is version 1
    if (!versionValue.is_number_integer())
        return "version: expected a whole number, got " + describe(*version);
    if (versionValue.is_number_unsigned()
            ? versionValue.get<uint64_t>() > static_cast<uint64_t>(kInputLogFormatVersion)
            : false)
        return "version: " + versionValue.dump() + " is newer than this JointLab (" +
               std::to_string(kInputLogFormatVersion) + "); update JointLab to replay this log";
    if (versionValue.get<int64_t>() < 1) return "version: must be >= 1, got " + versionValue.dump();
    if (std::string e = checkKeys(root, "", kTopKeys); !e.empty()) return e;

    if (std::string e = readStep(root, "startStep", "startStep", r.startStep); !e.empty()) return e;
    if (std::string e = readStep(root, "endStep", "endStep", r.endStep); !e.empty()) return e;
    const int64_t sceneStart = startStepOf(scene);
    if (r.startStep != sceneStart)
        return "startStep: " + std::to_string(r.startStep) +
               " does not match the scenario, which starts at step " + std::to_string(sceneStart) +
               (scene.state ? " (its saved state)" : "") + "; the log belongs to another file";
    if (r.endStep < r.startStep)
        return "endStep: must be >= startStep (" + std::to_string(r.startStep) + "), got " +
               std::to_string(r.endStep);
    r.engineVersion = kEngineResultsVersionUnrecorded;
    if (auto v = root.find("engineVersion"); v != root.end()) {
        // Non-negative whole numbers parse as unsigned; a negative one is out of range anyway.
        const bool valid =
            v->is_number_unsigned() && v->get<uint64_t>() >= 1 && v->get<uint64_t>() <= 1000000000u;
        if (!valid)
            return fail("engineVersion", "expected a whole number from 1 to 1000000000, got " + describe(*v));
        r.engineVersion = static_cast<int>(v->get<uint64_t>());
    }
    if (auto h = root.find("finalStateHash"); h != root.end()) {
        uint64_t value = 0;
        if (std::string e = readHash(*h, "finalStateHash", value); !e.empty()) return e;
        r.finalStateHash = value;
    }

    auto events = root.find("events");
    if (events == root.end()) return "events: missing (required; [] for none)";
    if (!events->is_array()) return "events: expected an array, got " + describe(*events);
    // Bodies by name, hashed once: a log of many events on a scene of many bodies reads in linear time.
    const NameIndex bodyByName(scene.bodies);
    for (size_t i = 0; i < events->size(); ++i) {
        const Json& ev = (*events)[i];
        const std::string path = indexed("events", i);
        if (!ev.is_object()) return fail(path, "expected an object, got " + describe(ev));
        if (std::string e = checkKeys(ev, path, kEventKeys); !e.empty()) return e;
        InputEvent e;
        if (std::string m = readStep(ev, "step", join(path, "step"), e.step); !m.empty()) return m;
        if (e.step < r.startStep || e.step >= r.endStep)
            return fail(join(path, "step"),
                        "must be in [startStep, endStep) = [" + std::to_string(r.startStep) + ", " +
                            std::to_string(r.endStep) + "), got " + std::to_string(e.step));
        auto body = ev.find("body");
        if (body == ev.end()) return fail(join(path, "body"), "missing (required)");
        if (!body->is_string())
            return fail(join(path, "body"), "expected a body name, got " + describe(*body));
        const std::string& name = body->get_ref<const std::string&>();
        e.body = bodyByName.find(name);
        if (e.body < 0) return fail(join(path, "body"), "no body named " + quote(name) + " in the scenario");
        if (scene.bodies[static_cast<size_t>(e.body)].motion != MotionType::Dynamic)
            return fail(join(path, "body"), quote(name) + " is not dynamic; only dynamic bodies take forces");
        if (std::string m = readVector(ev, "force", join(path, "force"), e.force); !m.empty()) return m;
        if (std::string m = readVector(ev, "point", join(path, "point"), e.worldPoint); !m.empty()) return m;
        if (!r.log.append(e))
            return fail(join(path, "step"), std::to_string(e.step) + " is before the previous event's step " +
                                                std::to_string(r.log.events().back().step) +
                                                "; events must be in step order");
    }
    return "";
}

}  // namespace

int64_t startStepOf(const Scene& scene) {
    return scene.state ? scene.state->stepCount : 0;
}

std::string serializeInputRecording(const InputRecording& r, const Scene& scene) {
    Json root = Json::object();
    root["format"] = kInputLogFormatName;
    root["version"] = kInputLogFormatVersion;
    root["startStep"] = r.startStep;
    root["endStep"] = r.endStep;
    root["engineVersion"] = r.engineVersion;
    if (r.finalStateHash) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%016" PRIx64, *r.finalStateHash);
        root["finalStateHash"] = hex;
    }
    Json events = Json::array();
    for (const InputEvent& e : r.log.events()) {
        Json ev = Json::object();
        ev["step"] = e.step;
        ev["body"] = e.body >= 0 && static_cast<size_t>(e.body) < scene.bodies.size()
                         ? scene.bodies[static_cast<size_t>(e.body)].name
                         : std::string();
        ev["force"] = Json::array({e.force.x, e.force.y, e.force.z});
        ev["point"] = Json::array({e.worldPoint.x, e.worldPoint.y, e.worldPoint.z});
        events.push_back(std::move(ev));
    }
    root["events"] = std::move(events);
    return json::printCanonical(root) + "\n";
}

bool parseInputRecording(std::string_view text, const Scene& scene, InputRecording& out, std::string& error) {
    try {
        Json root;
        if (!json::parseStrictJson(text, root, error)) return false;
        InputRecording r;
        if (std::string e = readRecording(root, scene, r); !e.empty()) {
            error = json::oneLine(e);
            return false;
        }
        out = std::move(r);
        return true;
    } catch (const std::exception& e) {
        error = json::oneLine(std::string("cannot read the input log: ") + e.what());
        return false;
    }
}

bool loadInputRecording(const std::string& path, const Scene& scene, InputRecording& out,
                        std::string& error) {
    std::string text;
    if (!files::readTextFile(path, "input log", text, error)) return false;
    std::string e;
    if (!parseInputRecording(text, scene, out, e)) {
        error = path + ": " + e;
        return false;
    }
    return true;
}

bool saveInputRecording(const std::string& path, const InputRecording& r, const Scene& scene,
                        std::string& error) {
    std::string text;
    try {
        text = serializeInputRecording(r, scene);
    } catch (const std::exception& e) {
        error = std::string("cannot serialize the input log: ") + e.what();
        return false;
    }
    return saveTextAtomically(path, text, error);
}

}  // namespace jl
