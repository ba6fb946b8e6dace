// Parameter sweeps; see runner/sweep.h and docs/sweeps.md.
#include "runner/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <thread>

#include "build_info.h"  // generated: JOINTLAB_BUILD_VERSION, JOINTLAB_BUILD_REVISION
#include "jointlab/engine_version.h"
#include "jointlab/file_identity.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"
#include "runner/output_file.h"
#include "runner/runner_args.h"

namespace jl::runner {

namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr int kMaxJobs = 256;
constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();
constexpr const char* kManifestFormat = "jointlab-sweep";

std::string cell(Real x) {  // NaN: an empty cell ("never", "none")
    return std::isnan(x) ? "" : shortestNumber(x);
}

// [SECTION] Progress: a bar with ETA on a terminal, plain lines otherwise

class Progress {
public:
    Progress(int64_t total, const char* what) : total_(total), what_(what), tty_(::isatty(2) == 1) {}

    void update(int64_t done) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
        const bool last = done == total_;
        if (!tty_) {  // at most one line a second, and the last
            if (!last && elapsed - lastLine_ < 1.0) return;
            lastLine_ = elapsed;
            std::fprintf(stderr, "jointlab %s: %lld/%lld runs, %.1f s%s\n", what_,
                         static_cast<long long>(done), static_cast<long long>(total_), elapsed,
                         eta(done, elapsed).c_str());
            return;
        }
        if (!last && elapsed - lastLine_ < 0.1) return;  // at most ten redraws a second
        lastLine_ = elapsed;
        constexpr int kWidth = 30;
        const int filled = total_ > 0 ? static_cast<int>(kWidth * done / total_) : kWidth;
        std::string bar(static_cast<size_t>(filled), '#');
        bar.resize(kWidth, '.');
        std::fprintf(stderr, "\r[%s] %lld/%lld runs, %.1f s%s   %s", bar.c_str(),
                     static_cast<long long>(done), static_cast<long long>(total_), elapsed,
                     eta(done, elapsed).c_str(), last ? "\n" : "");
        std::fflush(stderr);
    }

private:
    std::string eta(int64_t done, double elapsed) const {
        if (done == 0 || done == total_) return "";
        const double left = elapsed / static_cast<double>(done) * static_cast<double>(total_ - done);
        char buf[64];
        if (left >= 3600)
            std::snprintf(buf, sizeof buf, ", ETA %dh%02dm", static_cast<int>(left / 3600),
                          static_cast<int>(std::fmod(left, 3600) / 60));
        else
            std::snprintf(buf, sizeof buf, ", ETA %dm%02ds", static_cast<int>(left / 60),
                          static_cast<int>(std::fmod(left, 60)));
        return buf;
    }

    int64_t total_;
    const char* what_;
    bool tty_;
    Clock::time_point start_ = Clock::now();
    double lastLine_ = -1.0;
};

// [SECTION] Command lines

struct SweepOptions {
    std::string specPath, outDir;
    int jobs = 1;
    int shardIndex = 1, shardCount = 1;
    bool checkOnly = false;  ///< --check: check the spec, say how many runs, run nothing
};

struct MergeOptions {
    std::vector<std::string> dirs;
    std::string outDir;
};

bool parseWhole(std::string_view text, int64_t& out) {
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, out);
    return !text.empty() && ec == std::errc() && p == end;
}

std::string sweepUsage() {
    return "usage: jointlab sweep SPEC.json --out DIR [--jobs N] [--shard I/N]\n"
           "       jointlab sweep SPEC.json --check [--shard I/N]\n"
           "       jointlab sweep-merge DIR... --out DIR\n"
           "Runs a grid of headless runs over fields of a scenario (docs/sweeps.md) and writes\n"
           "DIR/results.csv (one row per run: the parameters, status, steps, the metrics) and\n"
           "DIR/manifest.json (the spec, the scenario's hash, version, revision, host, time).\n"
           "\n"
           "  --out DIR      the output folder (made if missing)\n"
           "  --jobs N       runs at once on N threads (1..256, default 1); the table is the same for any N\n"
           "  --shard I/N    run only the I-th of N disjoint slices of the grid (runs k with k mod N = "
           "I-1),\n"
           "                 for several machines; join the outputs with jointlab sweep-merge\n"
           "  --check        check the spec and print the number of runs; run and write nothing\n"
           "  -h, --help     this text\n"
           "\n"
           "sweep-merge joins the outputs of all N shards of one sweep; it refuses a shard given twice, a\n"
           "missing shard, and outputs of another spec, scenario or build.\n"
           "Exit codes: 0 ok (diverged runs are results: their status column says so), 2 file error,\n"
           "64 bad arguments or a bad spec (nothing is run or written).\n";
}

enum class Parsed { Run, Help, Error };

Parsed takeValue(int argc, char** argv, int& i, std::string_view arg, std::string_view& flag,
                 std::string_view& value, std::string& error) {
    flag = arg;
    if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
        flag = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        return Parsed::Run;
    }
    if (i + 1 >= argc) {
        error = std::string(flag) + ": missing value";
        return Parsed::Error;
    }
    value = argv[++i];
    return Parsed::Run;
}

Parsed parseSweepArgs(int argc, char** argv, SweepOptions& o, std::string& error) {
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return Parsed::Help;
        if (arg.size() < 2 || arg.substr(0, 2) != "--") {
            if (arg.size() > 1 && arg[0] == '-') {
                error = "unknown option \"" + std::string(arg) + "\" (see jointlab sweep --help)";
                return Parsed::Error;
            }
            if (!o.specPath.empty()) {
                error = "unexpected argument \"" + std::string(arg) + "\" (only one spec file)";
                return Parsed::Error;
            }
            o.specPath = arg;
            continue;
        }
        if (arg == "--check") {
            o.checkOnly = true;
            continue;
        }
        std::string_view flag, value;
        if (takeValue(argc, argv, i, arg, flag, value, error) == Parsed::Error) return Parsed::Error;
        if (flag == "--out") {
            if (value.empty()) {
                error = "--out: empty folder name";
                return Parsed::Error;
            }
            o.outDir = value;
        } else if (flag == "--jobs") {
            int64_t n = 0;
            if (!parseWhole(value, n) || n < 1 || n > kMaxJobs) {
                error = "--jobs: expected a whole number from 1 to 256, got \"" + std::string(value) + "\"";
                return Parsed::Error;
            }
            o.jobs = static_cast<int>(n);
        } else if (flag == "--shard") {
            const size_t slash = value.find('/');
            int64_t a = 0, b = 0;
            if (slash == std::string_view::npos || !parseWhole(value.substr(0, slash), a) ||
                !parseWhole(value.substr(slash + 1), b) || b < 1 || a < 1 || a > b || b > 1000000) {
                error = "--shard: expected I/N with 1 <= I <= N (N up to 10^6), e.g. 2/4, got \"" +
                        std::string(value) + "\"";
                return Parsed::Error;
            }
            o.shardIndex = static_cast<int>(a);
            o.shardCount = static_cast<int>(b);
        } else {
            error = "unknown option \"" + std::string(flag) + "\" (see jointlab sweep --help)";
            return Parsed::Error;
        }
    }
    if (o.specPath.empty()) {
        error = "missing the spec file (jointlab sweep SPEC.json --out DIR)";
        return Parsed::Error;
    }
    if (o.outDir.empty() && !o.checkOnly) {
        error = "missing --out DIR (the folder for results.csv and manifest.json)";
        return Parsed::Error;
    }
    return Parsed::Run;
}

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

// [SECTION] Files

std::string hostName() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

std::string utcNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

bool readAll(const std::string& path, std::string& text, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot read: " + std::strerror(errno);
        return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return true;
}

/// Makes the folder (and its parents) when missing.
bool makeFolder(const std::string& dir, std::string& error) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        error = dir + ": cannot make the output folder" + (ec ? ": " + ec.message() : "");
        return false;
    }
    return true;
}

/// Writes the two outputs whole (temporary + rename): results.csv, then manifest.json.
bool writeOutputs(const std::string& dir, const std::string& csv, const Json& manifest, std::string& error) {
    OutputFile results, man;
    if (!results.open(dir + "/results.csv", error) || !man.open(dir + "/manifest.json", error)) return false;
    results.write(csv);
    man.write(manifest.dump(2) + "\n");
    return results.commit(error) && man.commit(error);
}

int fail(const char* cmd, int code, const std::string& message) {
    std::fprintf(stderr, "jointlab %s: %s\n", cmd, message.c_str());
    return code;
}

// [SECTION] jointlab sweep

int sweep(const SweepOptions& o) {
    SweepSpec spec;
    SpecError specError;
    if (!loadSweepSpec(o.specPath, spec, specError))
        return fail("sweep", specError.file ? kExitFile : kExitUsage,
                    specError.message + "; nothing was run");
    if (o.checkOnly) {
        std::string sizes;
        for (const SweepParameter& p : spec.parameters)
            sizes += (sizes.empty() ? "" : " x ") + std::to_string(p.values.size());
        std::printf("jointlab sweep: %s: ok: %lld runs (%s) of %lld steps; shard %d/%d has %lld\n",
                    o.specPath.c_str(), static_cast<long long>(spec.runCount), sizes.c_str(),
                    static_cast<long long>(spec.steps), o.shardIndex, o.shardCount,
                    static_cast<long long>(shardRunCount(spec.runCount, o.shardIndex, o.shardCount)));
        return kExitOk;
    }
    const std::string results = o.outDir + "/results.csv", manifestPath = o.outDir + "/manifest.json";
    if (std::string clash = checkOutputsAgainstInputs(
            {{"the spec", o.specPath}, {"the scenario", spec.scenarioPath}},
            {{"--out's results.csv", results}, {"--out's manifest.json", manifestPath}});
        !clash.empty())
        return fail("sweep", kExitUsage, clash);
    const std::string scenarioHash = fileHash(spec.scenarioPath);

    const int64_t count = shardRunCount(spec.runCount, o.shardIndex, o.shardCount);
    const int jobs = static_cast<int>(std::min<int64_t>(o.jobs, std::max<int64_t>(count, 1)));
    std::vector<SweepRunResult> out(static_cast<size_t>(count));
    Progress progress(count, "sweep");
    std::atomic<int64_t> next{0};
    std::mutex m;
    int64_t done = 0;
    const auto start = Clock::now();
    auto worker = [&] {
        for (int64_t i; (i = next.fetch_add(1)) < count;) {
            out[static_cast<size_t>(i)] = runSweepPoint(spec, shardRun(o.shardIndex, o.shardCount, i));
            std::lock_guard<std::mutex> lock(m);
            progress.update(++done);
        }
    };
    if (count == 0) progress.update(0);
    std::vector<std::thread> threads;
    for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

    std::string csv = sweepCsvHeader(spec);
    int64_t diverged = 0, invalid = 0;
    for (const SweepRunResult& r : out) {
        csv += sweepCsvRow(spec, r);
        diverged += r.status == "diverged";
        invalid += r.status == "invalid";
    }
    Json manifest = Json::object();
    manifest["format"] = kManifestFormat;
    manifest["version"] = 1;
    manifest["spec"] = Json::parse(spec.canonicalJson);
    manifest["specFile"] = o.specPath;
    manifest["scenario"] = spec.scenarioPath;
    // Where the scenario is for a reader started in another folder (the app's sweep viewer).
    manifest["scenarioAbsolute"] = std::filesystem::absolute(spec.scenarioPath).lexically_normal().string();
    manifest["scenarioHash"] = scenarioHash;
    manifest["jointlab"] = JOINTLAB_BUILD_VERSION;
    manifest["revision"] = JOINTLAB_BUILD_REVISION;
    manifest["engineResultsVersion"] = kEngineResultsVersion;
    manifest["host"] = hostName();
    manifest["time"] = utcNow();
    manifest["runs"] = spec.runCount;
    manifest["shard"] = {{"index", o.shardIndex}, {"count", o.shardCount}};
    manifest["shardRuns"] = count;
    manifest["jobs"] = jobs;
    manifest["seconds"] = seconds;
    std::string error;
    if (!makeFolder(o.outDir, error) || !writeOutputs(o.outDir, csv, manifest, error))
        return fail("sweep", kExitFile, error);
    std::string shard;
    if (o.shardCount > 1)
        shard = " (shard " + std::to_string(o.shardIndex) + "/" + std::to_string(o.shardCount) + " of " +
                std::to_string(spec.runCount) + ")";
    std::printf(
        "jointlab sweep: %lld runs%s of %lld steps on %d job(s) in %.2f s (%.2f runs/s): %lld ok, %lld "
        "diverged, %lld invalid; wrote %s and %s\n",
        static_cast<long long>(count), shard.c_str(), static_cast<long long>(spec.steps), jobs, seconds,
        seconds > 0 ? static_cast<double>(count) / seconds : 0.0,
        static_cast<long long>(count - diverged - invalid), static_cast<long long>(diverged),
        static_cast<long long>(invalid), results.c_str(), manifestPath.c_str());
    return kExitOk;
}

// [SECTION] jointlab sweep-merge

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

// [SECTION] One run

SweepRunResult runSweepPoint(const SweepSpec& spec, int64_t run) {
    SweepRunResult r;
    r.run = run;
    Scene scene = spec.sceneOf(run);
    if (std::string e = validateScene(scene); !e.empty()) {
        // Only a rule linking three or more swept fields gets here (pairs are checked up front).
        std::fprintf(stderr, "jointlab sweep: run %lld not run: %s\n", static_cast<long long>(run),
                     e.c_str());
        r.status = "invalid";
        r.maxError = r.rmsError = r.energyDrift = r.finalResidual = r.settleTime = kNaN;
        return r;
    }
    std::vector<char> brokenAtStart(scene.joints.size());
    for (size_t j = 0; j < scene.joints.size(); ++j) brokenAtStart[j] = scene.joints[j].startBroken;
    World world(std::move(scene));
    for (size_t j = 0; j < brokenAtStart.size(); ++j)
        brokenAtStart[j] = brokenAtStart[j] || world.jointState(static_cast<int>(j)).broken;
    const Real energy0 = world.kineticEnergy() + world.potentialEnergy();
    StepSample sample;
    Real sumSquares = 0.0;
    r.settleTime = kNaN;
    r.finalResidual = kNaN;
    const auto start = Clock::now();
    for (int64_t i = 0; i < spec.steps; ++i) {
        world.step();
        if (world.divergence()) {
            r.status = "diverged";
            break;
        }
        ++r.steps;
        captureStep(world, 0.0, sample);
        r.maxError = std::max(r.maxError, sample.maxError);
        sumSquares += sample.rmsError * sample.rmsError;
        if (r.breakStep < 0)
            for (size_t j = 0; j < sample.joints.size(); ++j)
                if (sample.joints[j].broken && !brokenAtStart[j]) {
                    r.breakStep = sample.step;
                    break;
                }
        if (sample.kineticEnergy > spec.settleKineticEnergy)
            r.settleTime = kNaN;
        else if (std::isnan(r.settleTime))
            r.settleTime = sample.time;
        r.finalResidual = sample.residuals.empty() ? kNaN : sample.residuals.back();
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    r.stepsPerSecond = seconds > 0 ? static_cast<Real>(r.steps) / seconds : 0.0;
    r.rmsError = r.steps > 0 ? std::sqrt(sumSquares / static_cast<Real>(r.steps)) : 0.0;
    r.energyDrift = world.kineticEnergy() + world.potentialEnergy() - energy0;
    return r;
}

bool writeRunScenario(const std::string& dir, int64_t run, std::string& path, std::string& error) {
    std::string text;
    if (!readAll(dir + "/manifest.json", text, error)) return false;
    Json m;
    try {
        m = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        error = dir + "/manifest.json: not valid JSON: " + e.what();
        return false;
    }
    const std::string scenario = m.value("scenarioAbsolute", m.value("scenario", ""));
    Scene scene;
    if (!loadScenario(scenario, scene, error)) return false;
    if (fileHash(scenario) != m.value("scenarioHash", "")) {
        error = scenario + " changed since the sweep (its hash is not the manifest's): run " +
                std::to_string(run) + " would not be the run in the table";
        return false;
    }
    if (!readAll(dir + "/results.csv", text, error)) return false;
    const size_t headerEnd = text.find('\n');
    std::vector<std::string> header, cells;
    auto split = [](std::string_view line, std::vector<std::string>& out) {
        out.clear();
        for (size_t start = 0;;) {
            const size_t comma = line.find(',', start);
            out.emplace_back(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start));
            if (comma == std::string_view::npos) return;
            start = comma + 1;
        }
    };
    split(std::string_view(text).substr(0, headerEnd), header);
    const std::string prefix = std::to_string(run) + ",";
    size_t at = headerEnd == std::string::npos ? std::string::npos : text.find("\n" + prefix, headerEnd - 1);
    if (at == std::string::npos) {
        error = dir + "/results.csv: no run " + std::to_string(run);
        return false;
    }
    ++at;
    split(std::string_view(text).substr(at, text.find('\n', at) - at), cells);
    if (cells.size() != header.size()) {
        error = dir + "/results.csv: run " + std::to_string(run) + ": the line does not match the header";
        return false;
    }
    // The parameter columns lie between "run" and "status"; each is set as the sweep set it.
    for (size_t c = 1; c < header.size() && header[c] != "status"; ++c) {
        FieldPath fp;
        if (std::string e = resolveFieldPath(scene, header[c], fp); !e.empty()) {
            error = header[c] + ": " + e;
            return false;
        }
        FieldPathValue value = cells[c];
        if (fp.kind == FieldPathKind::Bool) value = cells[c] == "true";
        if (fp.kind == FieldPathKind::Real || fp.kind == FieldPathKind::Int) {
            Real x = 0;
            const char* end = cells[c].data() + cells[c].size();
            auto [p, ec] = std::from_chars(cells[c].data(), end, x);
            if (ec != std::errc() || p != end) {
                error = header[c] + ": not a number in run " + std::to_string(run) + ": " + cells[c];
                return false;
            }
            value = x;
        }
        if (std::string e = checkFieldPathValue(fp, value); !e.empty()) {
            error = header[c] + ": " + e;
            return false;
        }
        setFieldPath(scene, fp, value);
    }
    if (std::string e = validateScene(scene); !e.empty()) {
        error = "run " + std::to_string(run) + ": " + e;
        return false;
    }
    scene.description = "Run " + std::to_string(run) + " of the sweep in " + dir + ": " + scene.description;
    path = dir + "/run-" + std::to_string(run) + ".json";
    if (std::string clash =
            checkOutputsAgainstInputs({{"the sweep's scenario", scenario}}, {{"the run's file", path}});
        !clash.empty()) {
        error = clash;
        return false;
    }
    return saveScenario(path, scene, error);
}

int64_t shardRunCount(int64_t runCount, int index, int count) {
    return runCount >= index ? (runCount - index) / count + 1 : 0;
}

std::string sweepCsvHeader(const SweepSpec& spec) {
    std::string h = "run";
    for (const SweepParameter& p : spec.parameters) h += "," + p.path.path;
    h += ",status,steps";
    for (int k = 0; k < kMetricCount; ++k)
        if (spec.metrics[k]) h += std::string(",") + kMetricColumns[k];
    return h + "\n";
}

std::string sweepCsvRow(const SweepSpec& spec, const SweepRunResult& r) {
    std::string line = std::to_string(r.run);
    const std::vector<size_t> d = spec.digits(r.run);
    for (size_t i = 0; i < spec.parameters.size(); ++i)
        line += "," + formatFieldPathValue(spec.parameters[i].values[d[i]]);
    line += "," + r.status + "," + std::to_string(r.steps);
    const Real values[kMetricCount] = {
        r.maxError,      r.rmsError,
        r.energyDrift,   r.breakStep < 0 ? kNaN : static_cast<Real>(r.breakStep),
        r.finalResidual, r.settleTime,
        r.stepsPerSecond};
    for (int k = 0; k < kMetricCount; ++k)
        if (spec.metrics[k]) line += "," + cell(values[k]);
    return line + "\n";
}

std::string fileHash(const std::string& path) {
    std::string text, error;
    if (!readAll(path, text, error)) return "";
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

int runSweepCommand(int argc, char** argv) {
    const bool merging = std::string_view(argv[1]) == "sweep-merge";
    const char* cmd = merging ? "sweep-merge" : "sweep";
    std::string error;
    try {
        if (merging) {
            MergeOptions o;
            switch (parseMergeArgs(argc, argv, o, error)) {
                case Parsed::Help:
                    std::fputs(sweepUsage().c_str(), stdout);
                    return kExitOk;
                case Parsed::Error:
                    return fail(cmd, kExitUsage, error);
                case Parsed::Run:
                    return merge(o);
            }
        }
        SweepOptions o;
        switch (parseSweepArgs(argc, argv, o, error)) {
            case Parsed::Help:
                std::fputs(sweepUsage().c_str(), stdout);
                return kExitOk;
            case Parsed::Error:
                return fail(cmd, kExitUsage, error);
            case Parsed::Run:
                return sweep(o);
        }
    } catch (const std::exception& e) {
        return fail(cmd, kExitFile, e.what());
    }
    return kExitFile;
}

}  // namespace jl::runner
