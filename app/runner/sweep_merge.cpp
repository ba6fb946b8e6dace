// `jointlab sweep-merge DIR... --out DIR`: joins the outputs of all shards of one sweep, refusing
// a shard given twice, a missing shard or run, and outputs of another spec, scenario or build
// (docs/sweeps.md "Shards").
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "jointlab/file_identity.h"
#include "runner/output_file.h"
#include "runner/runner_args.h"
#include "runner/sweep_io.h"

namespace jl::runner::sweep_io {

namespace {

struct MergeOptions {
    std::vector<std::string> dirs;
    std::string outDir;
};

Parsed parseMergeArgs(int argc, char** argv, MergeOptions& o, std::string& error) {
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return Parsed::Help;
        if (arg.size() > 1 && arg[0] == '-') {
            std::string_view flag, value;
            if (arg.substr(0, 5) != "--out" || (arg.size() > 5 && arg[5] != '=')) {
                error = "unknown option \"" + std::string(arg) + "\" (see jointlab sweep --help)";
                return Parsed::Error;
            }
            if (takeValue(argc, argv, i, arg, flag, value, error) == Parsed::Error) return Parsed::Error;
            o.outDir = value;
            continue;
        }
        o.dirs.emplace_back(arg);
    }
    if (o.dirs.empty()) {
        error = "no shard folders to merge (jointlab sweep-merge DIR... --out DIR)";
        return Parsed::Error;
    }
    if (o.outDir.empty()) {
        error = "missing --out DIR";
        return Parsed::Error;
    }
    return Parsed::Run;
}

struct Shard {
    std::string dir;
    Json manifest;
    std::string header;
    std::vector<std::pair<int64_t, std::string>> rows;  ///< run index, the line with its newline
};

bool readShard(const std::string& dir, Shard& s, std::string& error) {
    s.dir = dir;
    std::string text;
    const std::string mpath = dir + "/manifest.json";
    if (!readAll(mpath, text, error)) return false;
    try {
        s.manifest = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        error = mpath + ": not valid JSON: " + e.what();
        return false;
    }
    const Json& m = s.manifest;
    if (!m.is_object() || m.value("format", "") != kManifestFormat || !m.contains("shard") ||
        !m["shard"].is_object() || !m["shard"].value("index", Json()).is_number_integer() ||
        !m["shard"].value("count", Json()).is_number_integer() ||
        !m.value("runs", Json()).is_number_integer()) {
        error = mpath + ": not a jointlab sweep manifest (format, runs, shard.index, shard.count)";
        return false;
    }
    const std::string rpath = dir + "/results.csv";
    if (!readAll(rpath, text, error)) return false;
    size_t pos = text.find('\n');
    if (pos == std::string::npos) {
        error = rpath + ": no header line";
        return false;
    }
    s.header = text.substr(0, pos + 1);
    for (size_t line = 2; ++pos < text.size(); ++line) {
        const size_t end = text.find('\n', pos);
        if (end == std::string::npos) {
            error = rpath + ": line " + std::to_string(line) + " is cut short (no end of line)";
            return false;
        }
        int64_t run = -1;
        const size_t comma = text.find(',', pos);
        if (comma > end || !parseWhole(std::string_view(text).substr(pos, comma - pos), run) || run < 0) {
            error = rpath + ": line " + std::to_string(line) + ": expected a run number first";
            return false;
        }
        s.rows.emplace_back(run, text.substr(pos, end - pos + 1));
        pos = end;
    }
    return true;
}

int merge(const MergeOptions& o) {
    std::vector<Shard> shards(o.dirs.size());
    std::string error;
    for (size_t i = 0; i < o.dirs.size(); ++i)
        if (!readShard(o.dirs[i], shards[i], error)) return fail("sweep-merge", kExitFile, error);
    // The outputs are not any of the inputs.
    std::vector<NamedFile> inputs;
    for (const std::string& d : o.dirs) {
        inputs.push_back({"the shard's results.csv", d + "/results.csv"});
        inputs.push_back({"the shard's manifest.json", d + "/manifest.json"});
    }
    if (std::string clash =
            checkOutputsAgainstInputs(inputs, {{"--out's results.csv", o.outDir + "/results.csv"},
                                               {"--out's manifest.json", o.outDir + "/manifest.json"}});
        !clash.empty())
        return fail("sweep-merge", kExitUsage, clash);
    // Same sweep, same build.
    const Shard& first = shards[0];
    for (size_t i = 1; i < shards.size(); ++i) {
        for (const char* key :
             {"spec", "scenarioHash", "engineResultsVersion", "revision", "jointlab", "runs"}) {
            if (first.manifest.value(key, Json()) != shards[i].manifest.value(key, Json()))
                return fail("sweep-merge", kExitUsage,
                            shards[i].dir + "/manifest.json: \"" + key + "\" differs from " + first.dir +
                                "'s: not shards of one sweep by one build; nothing was written");
        }
        if (shards[i].manifest["shard"]["count"] != first.manifest["shard"]["count"])
            return fail("sweep-merge", kExitUsage,
                        shards[i].dir + ": a shard of " + shards[i].manifest["shard"]["count"].dump() + ", " +
                            first.dir + " of " + first.manifest["shard"]["count"].dump() +
                            "; nothing was written");
        if (shards[i].header != first.header)
            return fail(
                "sweep-merge", kExitUsage,
                shards[i].dir + "/results.csv: other columns than " + first.dir + "'s; nothing was written");
    }
    const int count = first.manifest["shard"]["count"].get<int>();
    const int64_t runs = first.manifest["runs"].get<int64_t>();
    std::vector<int> owner(static_cast<size_t>(count) + 1, -1);
    for (size_t i = 0; i < shards.size(); ++i) {
        const int index = shards[i].manifest["shard"]["index"].get<int>();
        if (index < 1 || index > count)
            return fail("sweep-merge", kExitUsage, shards[i].dir + ": shard index out of range");
        if (owner[static_cast<size_t>(index)] >= 0)
            return fail("sweep-merge", kExitUsage,
                        "duplicate: shard " + std::to_string(index) + "/" + std::to_string(count) +
                            " is in both " +
                            shards[static_cast<size_t>(owner[static_cast<size_t>(index)])].dir + " and " +
                            shards[i].dir + "; nothing was written");
        owner[static_cast<size_t>(index)] = static_cast<int>(i);
    }
    std::string missing;
    for (int k = 1; k <= count; ++k)
        if (owner[static_cast<size_t>(k)] < 0) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    if (!missing.empty())
        return fail(
            "sweep-merge", kExitUsage,
            "gap: shard(s) " + missing + " of " + std::to_string(count) + " missing; nothing was written");
    // Every run once, each in the shard that owns it. Sorted from the rows the shards hold (never
    // an array of the manifest's run count, which a damaged manifest could make huge).
    std::vector<std::pair<int64_t, const std::string*>> byRun;
    for (const Shard& s : shards) {
        const int index = s.manifest["shard"]["index"].get<int>();
        for (const auto& [run, line] : s.rows) {
            if (run >= runs || run % count != index - 1)
                return fail("sweep-merge", kExitUsage,
                            s.dir + "/results.csv: run " + std::to_string(run) +
                                " does not belong to shard " + std::to_string(index) + "/" +
                                std::to_string(count) + "; nothing was written");
            byRun.emplace_back(run, &line);
        }
    }
    std::sort(byRun.begin(), byRun.end());
    for (size_t i = 0; i < byRun.size(); ++i) {
        const auto k = static_cast<int64_t>(i);
        if (byRun[i].first < k)
            return fail("sweep-merge", kExitUsage,
                        "run " + std::to_string(byRun[i].first) +
                            " twice in the shards' results; nothing was written");
        if (byRun[i].first > k) {
            const Shard& owner1 = shards[static_cast<size_t>(owner[static_cast<size_t>(k % count + 1)])];
            return fail("sweep-merge", kExitUsage,
                        "gap: run " + std::to_string(k) + " is in no shard's results (" + owner1.dir +
                            " should have it); nothing was written");
        }
    }
    if (static_cast<int64_t>(byRun.size()) < runs) {
        const int64_t k = static_cast<int64_t>(byRun.size());
        return fail("sweep-merge", kExitUsage,
                    "gap: run " + std::to_string(k) + " is in no shard's results (" +
                        shards[static_cast<size_t>(owner[static_cast<size_t>(k % count + 1)])].dir +
                        " should have it); nothing was written");
    }
    std::string csv = first.header;
    for (const auto& [run, line] : byRun) csv += *line;
    Json manifest = first.manifest;
    manifest["host"] = hostName();
    manifest["time"] = utcNow();
    manifest["shard"] = {{"index", 1}, {"count", 1}};
    manifest["shardRuns"] = runs;
    manifest.erase("jobs");
    manifest.erase("seconds");
    Json from = Json::array();
    for (int k = 1; k <= count; ++k) {
        const Shard& s = shards[static_cast<size_t>(owner[static_cast<size_t>(k)])];
        from.push_back({{"dir", s.dir},
                        {"shard", s.manifest["shard"]},
                        {"host", s.manifest.value("host", "")},
                        {"time", s.manifest.value("time", "")}});
    }
    manifest["mergedFrom"] = std::move(from);
    if (!makeFolder(o.outDir, error) || !writeOutputs(o.outDir, csv, manifest, error))
        return fail("sweep-merge", kExitFile, error);
    std::printf("jointlab sweep-merge: %lld runs from %d shards; wrote %s/results.csv and %s/manifest.json\n",
                static_cast<long long>(runs), count, o.outDir.c_str(), o.outDir.c_str());
    return kExitOk;
}

}  // namespace

int sweepMerge(int argc, char** argv) {
    MergeOptions o;
    std::string error;
    switch (parseMergeArgs(argc, argv, o, error)) {
        case Parsed::Help:
            std::fputs(sweepUsage().c_str(), stdout);
            return kExitOk;
        case Parsed::Error:
            return fail("sweep-merge", kExitUsage, error);
        case Parsed::Run:
            break;
    }
    return merge(o);
}

}  // namespace jl::runner::sweep_io
