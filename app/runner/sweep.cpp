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
#include "runner/sweep_io.h"

namespace jl::runner {

namespace {

using namespace sweep_io;
using Clock = std::chrono::steady_clock;

constexpr int kMaxJobs = 256;
constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();

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
        if (merging) return sweepMerge(argc, argv);
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
