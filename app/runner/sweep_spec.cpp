// Sweep specs; see runner/sweep_spec.h.
#include "runner/sweep_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jointlab/scenario_io.h"

namespace jl::runner {

namespace {

using Json = nlohmann::ordered_json;

std::string quote(std::string_view s) {
    std::string out(1, '"');  // appended, not "\"" + s: GCC 12 warns falsely (-Wrestrict) on that
    out += s.substr(0, 80);
    out += s.size() > 80 ? "...\"" : "\"";
    return out;
}

bool usage(SpecError& e, std::string message) {
    e = {false, std::move(message)};
    return false;
}

bool onlyKeys(const Json& object, std::initializer_list<const char*> keys, const std::string& where,
              SpecError& error) {
    for (const auto& [key, value] : object.items()) {
        bool known = false;
        for (const char* k : keys) known = known || key == k;
        if (!known) {
            std::string list;
            for (const char* k : keys) list += std::string(list.empty() ? "" : ", ") + k;
            return usage(error, where + (where.empty() ? "" : ": ") + "unknown key " + quote(key) +
                                    " (known: " + list + ")");
        }
    }
    return true;
}

/// A JSON value as a value for `path`: numbers for Real/Int fields ("inf" where the field takes
/// it), true/false, names.
bool toValue(const Json& j, const FieldPath& path, FieldPathValue& out) {
    if (j.is_number()) {
        out = j.get<Real>();
        return true;
    }
    if (j.is_boolean()) {
        out = j.get<bool>();
        return true;
    }
    if (j.is_string()) {
        const std::string s = j.get<std::string>();
        if (path.kind == FieldPathKind::Real && (s == "inf" || s == "-inf"))
            out = s == "inf" ? kInf : -kInf;
        else
            out = s;
        return true;
    }
    return false;
}

/// A range's values: from..to in count steps, evenly or (log) geometrically spaced; whole numbers
/// (rounded) for Int fields, where two equal values are refused.
bool rangeValues(const Json& r, const SweepParameter& p, const std::string& where, int64_t budget,
                 std::vector<FieldPathValue>& out, SpecError& error) {
    if (!r.is_object())
        return usage(error, where + ": expected an object {\"from\", \"to\", \"count\", \"log\"}");
    if (!onlyKeys(r, {"from", "to", "count", "log"}, where, error)) return false;
    for (const char* k : {"from", "to", "count"})
        if (!r.contains(k)) return usage(error, where + ": missing \"" + k + "\"");
    if (!r["from"].is_number() || !r["to"].is_number())
        return usage(error, where + ": \"from\" and \"to\" must be numbers");
    if (!r["count"].is_number_integer())
        return usage(error, where + ".count: expected a whole number, got " + r["count"].dump());
    const bool log = r.value("log", false);
    if (r.contains("log") && !r["log"].is_boolean())
        return usage(error, where + ".log: expected true or false");
    if (p.path.kind != FieldPathKind::Real && p.path.kind != FieldPathKind::Int)
        return usage(error, where + ": a range needs a numeric field; " + p.path.path + " takes " +
                                (p.path.kind == FieldPathKind::Bool ? "true/false" : "names") +
                                ": use \"values\"");
    const Real from = r["from"].get<Real>(), to = r["to"].get<Real>();
    const int64_t count = r["count"].get<int64_t>();
    if (count < 1) return usage(error, where + ": empty range (count " + std::to_string(count) + ")");
    if (count > budget)
        return usage(error, where + ".count: " + std::to_string(count) + " values; a spec holds at most " +
                                std::to_string(kMaxParameterValues) + " values over all its parameters");
    if (count == 1 && from != to)
        return usage(error, where + ": count 1 with from != to (" + shortestNumber(from) + ", " +
                                shortestNumber(to) + "): one value cannot span a range; use \"values\"");
    if (count > 1 && from == to)
        return usage(error, where + ": from = to = " + shortestNumber(from) + " with count " +
                                std::to_string(count) + ": every run would be the same");
    if (log && !(from > 0 && to > 0))
        return usage(error, where + ": a log range needs from > 0 and to > 0, got " + shortestNumber(from) +
                                " and " + shortestNumber(to));
    out.clear();
    out.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        const Real t = count == 1 ? 0.0 : static_cast<Real>(i) / static_cast<Real>(count - 1);
        // The ends are exact; in between, linear or geometric interpolation.
        Real x = i == 0           ? from
                 : i == count - 1 ? to
                 : log            ? from * std::pow(to / from, t)
                                  : from + (to - from) * t;
        // Interior points to 12 significant digits: 10^(1/2)·... gives 399.99999999999994 where the
        // spec means 400, and a table should show the value the spec means.
        if (i > 0 && i < count - 1 && x != 0) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.12g", x);
            x = std::strtod(buf, nullptr);
        }
        if (p.path.kind == FieldPathKind::Int) {
            x = std::round(x);
            if (!out.empty() && std::get<Real>(out.back()) == x)
                return usage(error, where + ": " + p.path.path + " takes whole numbers and the range gives " +
                                        shortestNumber(x) + " twice; use fewer values or \"values\"");
        }
        out.emplace_back(x);
    }
    return true;
}

}  // namespace

std::vector<size_t> SweepSpec::digits(int64_t run) const {
    std::vector<size_t> d(parameters.size());
    for (size_t i = parameters.size(); i-- > 0;) {
        const auto n = static_cast<int64_t>(parameters[i].values.size());
        d[i] = static_cast<size_t>(run % n);
        run /= n;
    }
    return d;
}

Scene SweepSpec::sceneOf(int64_t run) const {
    Scene s = scene;
    const std::vector<size_t> d = digits(run);
    for (size_t i = 0; i < parameters.size(); ++i)
        setFieldPath(s, parameters[i].path, parameters[i].values[d[i]]);
    return s;
}

bool parseSweepSpec(const std::string& specPath, std::string_view text, SweepSpec& result, SpecError& error) {
    Json root;
    try {
        root = Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        return usage(error, specPath + ": not valid JSON: " + e.what());
    }
    if (!root.is_object()) return usage(error, specPath + ": expected a JSON object");
    const std::string at = specPath + ": ";
    if (!onlyKeys(root, {"scenario", "parameters", "steps", "metrics", "settle", "description"}, specPath,
                  error))
        return false;
    SweepSpec spec;
    spec.specPath = specPath;
    // scenario
    if (!root.contains("scenario") || !root["scenario"].is_string() ||
        root["scenario"].get<std::string>().empty())
        return usage(error, at + "scenario: expected the scenario file's path (relative to the spec)");
    const std::filesystem::path rel = root["scenario"].get<std::string>();
    spec.scenarioPath =
        rel.is_absolute() ? rel.string()
                          : (std::filesystem::path(specPath).parent_path() / rel).lexically_normal().string();
    // steps
    if (!root.contains("steps") || !root["steps"].is_number_integer())
        return usage(error, at + "steps: expected a whole number of steps per run");
    spec.steps = root["steps"].get<int64_t>();
    if (spec.steps < 1 || spec.steps > 1000000000)
        return usage(error, at + "steps: must be from 1 to 10^9, got " + std::to_string(spec.steps));
    // metrics (default: every metric that does not depend on the machine's speed)
    if (root.contains("metrics")) {
        const Json& m = root["metrics"];
        if (!m.is_array() || m.empty())
            return usage(error, at + "metrics: expected a non-empty list of metric names");
        for (size_t i = 0; i < m.size(); ++i) {
            const int k =
                m[i].is_string() ? findName(m[i].get<std::string>(), kMetricNames, kMetricCount) : -1;
            if (k < 0) {
                std::string names;
                for (const char* n : kMetricNames) names += std::string(names.empty() ? "" : ", ") + n;
                return usage(error, at + "metrics[" + std::to_string(i) + "]: unknown metric " + m[i].dump() +
                                        " (known: " + names + ")");
            }
            spec.metrics[k] = true;
        }
    } else {
        for (int k = 0; k < kMetricCount; ++k)
            spec.metrics[k] = k != static_cast<int>(Metric::StepsPerSecond);
    }
    if (root.contains("settle")) {
        const Json& s = root["settle"];
        if (!s.is_object() || !onlyKeys(s, {"kineticEnergy"}, at + "settle", error))
            return error.message.empty() ? usage(error, at + "settle: expected {\"kineticEnergy\": J}")
                                         : false;
        if (!s.contains("kineticEnergy") || !s["kineticEnergy"].is_number() ||
            !(s["kineticEnergy"].get<Real>() > 0))
            return usage(error, at + "settle.kineticEnergy: expected a number of joules > 0");
        spec.settleKineticEnergy = s["kineticEnergy"].get<Real>();
    }
    if (root.contains("description") && !root["description"].is_string())
        return usage(error, at + "description: expected text");
    // parameters: their shape first, so a wrong spec is refused before the scenario is read
    if (!root.contains("parameters") || !root["parameters"].is_array() || root["parameters"].empty())
        return usage(error,
                     at + "parameters: expected a non-empty list of {\"path\", \"values\" or \"range\"}");
    const Json& params = root["parameters"];
    for (size_t i = 0; i < params.size(); ++i) {
        const std::string where = at + "parameters[" + std::to_string(i) + "]";
        const Json& p = params[i];
        if (!p.is_object())
            return usage(error, where + ": expected an object {\"path\", \"values\" or \"range\"}");
        if (!onlyKeys(p, {"path", "values", "range"}, where, error)) return false;
        if (!p.contains("path") || !p["path"].is_string())
            return usage(error, where + ": missing \"path\" (a field path such as settings.posIters)");
        if (p.contains("values") == p.contains("range"))
            return usage(error, where + " (" + p["path"].get<std::string>() +
                                    "): give either \"values\" or \"range\"");
    }
    // The scenario.
    std::string loadError;
    if (!loadScenario(spec.scenarioPath, spec.scene, loadError)) {
        error = {true, at + "scenario: " + loadError};
        return false;
    }
    int64_t budget = kMaxParameterValues;
    spec.runCount = 1;
    for (size_t i = 0; i < params.size(); ++i) {
        const Json& p = params[i];
        const std::string name = p["path"].get<std::string>();
        const std::string where = at + "parameters[" + std::to_string(i) + "] (" + name + ")";
        SweepParameter param;
        if (std::string e = resolveFieldPath(spec.scene, name, param.path); !e.empty())
            return usage(error, where + ": " + e);
        for (size_t j = 0; j < i; ++j)
            if (spec.parameters[j].path.path == param.path.path)
                return usage(error, where + ": the same field as parameters[" + std::to_string(j) + "]");
        if (p.contains("values")) {
            const Json& v = p["values"];
            if (!v.is_array() || v.empty()) return usage(error, where + ".values: expected a non-empty list");
            if (static_cast<int64_t>(v.size()) > budget)
                return usage(error, where + ".values: a spec holds at most " +
                                        std::to_string(kMaxParameterValues) +
                                        " values over all its parameters");
            for (size_t k = 0; k < v.size(); ++k) {
                FieldPathValue value;
                const std::string vk = where + ".values[" + std::to_string(k) + "]";
                if (!toValue(v[k], param.path, value))
                    return usage(error, vk + ": expected a number, true/false or a name, got " + v[k].dump());
                for (size_t m = 0; m < param.values.size(); ++m)
                    if (param.values[m] == value)
                        return usage(error, vk + ": " + formatFieldPathValue(value) + " is values[" +
                                                std::to_string(m) + "] already");
                param.values.push_back(std::move(value));
            }
        } else if (!rangeValues(p["range"], param, where + ".range", budget, param.values, error)) {
            return false;
        }
        budget -= static_cast<int64_t>(param.values.size());
        for (size_t k = 0; k < param.values.size(); ++k)
            if (std::string e = checkFieldPathValue(param.path, param.values[k]); !e.empty())
                return usage(error, where + (p.contains("values") ? ".values[" : ".range value [") +
                                        std::to_string(k) + "]: " + e);
        const auto n = static_cast<int64_t>(param.values.size());
        if (spec.runCount > kMaxSweepRuns / n)
            return usage(error, at + "parameters: the grid has more than " + std::to_string(kMaxSweepRuns) +
                                    " runs (10^9); split it into several specs");
        spec.runCount *= n;
        spec.parameters.push_back(std::move(param));
    }
    // Cross-field rules (a limit's lower below its upper, ...): every value alone, the others at
    // their first value; and every pair of values of two parameters of the same owner, the only
    // fields such rules link. Each value also has to matter: a field the owner's other fields
    // make irrelevant (settings.baumgarte while autoBaumgarte is true) would give a grid of equal runs.
    Scene base = spec.scene;
    for (const SweepParameter& p : spec.parameters) setFieldPath(base, p.path, p.values[0]);
    for (size_t i = 0; i < spec.parameters.size(); ++i) {
        const SweepParameter& p = spec.parameters[i];
        const std::string where = at + "parameters[" + std::to_string(i) + "] (" + p.path.path + ")";
        if (!fieldPathRelevant(base, p.path))
            return usage(error, where + ": has no effect in this scenario as the spec sets it (" +
                                    p.path.meta.help +
                                    "); set the field it depends on, e.g. settings.autoBaumgarte false for "
                                    "settings.baumgarte, as a parameter with one value");
        for (size_t k = 0; k < p.values.size(); ++k) {
            Scene s = base;
            setFieldPath(s, p.path, p.values[k]);
            if (std::string e = validateScene(s); !e.empty())
                return usage(error, where + ": with " + formatFieldPathValue(p.values[k]) + ": " + e);
        }
        for (size_t j = i + 1; j < spec.parameters.size(); ++j) {
            const SweepParameter& q = spec.parameters[j];
            if (q.path.owner != p.path.owner || q.path.index != p.path.index) continue;
            // Up to 10^5 pairs all of them; beyond, each value with the other's two ends (the rules
            // compare two values, so the extremes are where they fail first).
            const bool all = p.values.size() * q.values.size() <= 100000;
            auto inPairs = [all](size_t k, size_t n) { return all || k == 0 || k + 1 == n; };
            for (size_t ka = 0; ka < p.values.size(); ++ka)
                for (size_t kb = 0; kb < q.values.size(); ++kb) {
                    if (!inPairs(ka, p.values.size()) && !inPairs(kb, q.values.size())) continue;
                    const FieldPathValue& a = p.values[ka];
                    const FieldPathValue& b = q.values[kb];
                    Scene s = base;
                    setFieldPath(s, p.path, a);
                    setFieldPath(s, q.path, b);
                    if (std::string e = validateScene(s); !e.empty())
                        return usage(error, where + " with " + q.path.path + ": the pair " +
                                                formatFieldPathValue(a) + ", " + formatFieldPathValue(b) +
                                                ": " + e);
                }
        }
    }
    spec.canonicalJson = root.dump();
    result = std::move(spec);
    return true;
}

bool loadSweepSpec(const std::string& specPath, SweepSpec& out, SpecError& error) {
    std::ifstream in(specPath, std::ios::binary);
    if (!in) {
        error = {true, specPath + ": cannot read: " + std::strerror(errno)};
        return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return parseSweepSpec(specPath, ss.str(), out, error);
}

}  // namespace jl::runner
