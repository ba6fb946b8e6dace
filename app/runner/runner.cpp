// JointLab — the headless runner: load a scenario, step it, write per-row CSV and the final state.
//
// Same path as the app: Scene (validated file) → World → step(). Outputs are written to
// "<path>.tmp" and renamed into place only when the run has finished, so bad arguments, a bad
// scenario or a failed write never leave a half-written or clobbered output behind.
//
// Numbers in both outputs are the shortest decimal text that reads back as the same double
// (std::to_chars / nlohmann), so they carry full precision and the same inputs give the same bytes.
#include "runner/runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "jointlab/compare.h"
#include "jointlab/file_identity.h"
#include "jointlab/history.h"
#include "jointlab/history_io.h"
#include "jointlab/input_log_io.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"
#include "render/video_writer.h"
#include "runner/output_file.h"
#include "runner/reference_csv.h"
#include "runner/runner_args.h"

namespace jl::runner {

namespace {

using Json = nlohmann::ordered_json;

// [SECTION] Formatting

std::string num(Real x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip form
    return ec == std::errc() ? std::string(buf, end) : "nan";
}

Json realJson(Real x) {  // the scenario format's convention for non-finite values
    if (std::isfinite(x)) return x;
    return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
}

Json vecJson(const Vec3& v) {
    return Json::array({realJson(v.x), realJson(v.y), realJson(v.z)});
}

// [SECTION] The run

struct Extreme {
    Real value = 0.0;
    int joint = -1;
    int row = -1;
    int64_t step = 0;
};

/// Appends one CSV line per row of every joint for the step just taken (the telemetry's own
/// formatter, so the app's export and the runner agree); tracks the largest violation. The step
/// is not timed (step_ms 0): wall time would make two runs of the same scenario differ.
void recordStep(const World& world, StepSample& sample, std::string& csv, bool writeCsv, Extreme& maxError) {
    captureStep(world, 0.0, sample);
    for (const RowSample& r : sample.rows) {
        const Row& row = world.jointRows(r.joint)[static_cast<size_t>(r.row)];
        if (const Real v = rowViolation(row, r.result); v > maxError.value)
            maxError = {v, r.joint, r.row, world.stepCount()};
    }
    if (writeCsv) appendCsvRows(world.scene(), sample, csv);
}

std::string stateJson(const World& world) {
    const Scene& scene = world.scene();
    Json root = Json::object();
    root["step"] = world.stepCount();
    root["time"] = realJson(world.time());
    Json bodies = Json::object();
    const auto states = world.bodies();
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
        const BodyState& s = states[i];
        Json b = Json::object();
        b["position"] = vecJson(s.pose.p);
        b["orientation"] = Json::array(
            {realJson(s.pose.q.w), realJson(s.pose.q.x), realJson(s.pose.q.y), realJson(s.pose.q.z)});
        b["linearVelocity"] = vecJson(s.linearVelocity);
        b["angularVelocity"] = vecJson(s.angularVelocity);
        bodies[scene.bodies[i].name] = std::move(b);
    }
    root["bodies"] = std::move(bodies);
    Json joints = Json::object();
    for (size_t j = 0; j < scene.joints.size(); ++j)
        joints[scene.joints[j].name] = Json{{"broken", world.jointState(static_cast<int>(j)).broken}};
    root["joints"] = std::move(joints);
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

/// Rows the engine dropped (World::jointsWithInactiveRows): a warning on stderr the first time a
/// joint has one, and the totals for the summary.
struct DroppedRows {
    int64_t rowSteps = 0;  ///< dropped rows summed over the steps
    size_t jointCount = 0;
    std::string names;  ///< the joints, comma separated
    std::vector<char> warned;

    void check(const World& world) {
        const std::vector<int> joints = world.jointsWithInactiveRows();
        if (joints.empty()) return;
        const Scene& scene = world.scene();
        warned.resize(scene.joints.size(), 0);
        for (int j : joints) {
            const auto results = world.jointRowResults(j);
            const auto rows = world.jointRows(j);
            for (size_t k = 0; k < results.size(); ++k) {
                if (results[k].active) continue;
                ++rowSteps;
                if (warned[static_cast<size_t>(j)]) continue;
                warned[static_cast<size_t>(j)] = 1;
                const std::string& name = scene.joints[static_cast<size_t>(j)].name;
                names += (jointCount++ ? ", " : "") + name;
                std::fprintf(stderr,
                             "jointlab run: warning: step %lld: joint \"%s\" row %zu (%s) dropped: its unit "
                             "response J M^-1 J^T = %s is under %s, so the solver cannot move its bodies "
                             "along it (both immovable through their motion or the joint's mass scales)\n",
                             static_cast<long long>(world.stepCount()), name.c_str(), k, rows[k].label,
                             num(results[k].unitResponse).c_str(), num(World::minRowResponse()).c_str());
            }
        }
    }
};

/// The replay's verdict against the recording's final state hash (a replay that reached endStep
/// without diverging): one line on stdout; when the state differs and no option changed the
/// physics, why on stderr and kExitReplayDiffers. A log recorded by another engine version
/// (jointlab/engine_version.h) is expected to end elsewhere, and the message says so.
int compareReplay(const World& world, const InputRecording& input, bool physicsOverridden) {
    const bool same = world.stateHash() == *input.finalStateHash;
    const bool otherEngine = input.engineVersion != kEngineResultsVersion;
    const std::string engine = "recorded with another engine version (" +
                               std::to_string(input.engineVersion) + ", this build is " +
                               std::to_string(kEngineResultsVersion) + ")";
    std::string verdict = same ? "the same as the recorded run" : "NOT the recorded run's";
    if (!same && otherEngine) verdict += ": " + engine;
    std::printf("jointlab run: state hash at step %lld: 0x%016llx, %s\n",
                static_cast<long long>(input.endStep), static_cast<unsigned long long>(world.stateHash()),
                verdict.c_str());
    if (same || physicsOverridden) return kExitOk;
    if (otherEngine)
        std::fprintf(stderr,
                     "jointlab run: the log was %s, whose results differ: the replay ended in another state "
                     "than the recording (0x%016llx); record the run again with this build\n",
                     engine.c_str(), static_cast<unsigned long long>(*input.finalStateHash));
    else
        std::fprintf(stderr,
                     "jointlab run: the replay ended in another state than the recording (0x%016llx)\n",
                     static_cast<unsigned long long>(*input.finalStateHash));
    return kExitReplayDiffers;
}

int fileError(const std::string& message) {
    std::fprintf(stderr, "jointlab run: %s\n", message.c_str());
    return kExitFile;
}

}  // namespace

int run(const RunOptions& options) {
    Scene scene;
    std::string error;
    if (!loadScenario(options.scenarioPath, scene, error)) return fileError(error);
    const Scene document = options.fromStep ? scene : Scene{};  // what the history was saved with
    // The recorded input belongs to this scene and its start step; read it before anything is written.
    InputRecording input;
    const bool replaying = !options.inputPath.empty();
    if (replaying && !loadInputRecording(options.inputPath, scene, input, error)) return fileError(error);
    const int64_t steps = replaying && !options.stepsGiven ? input.endStep - input.startStep : options.steps;
    // No run goes past kMaxStepCount (a saved state near it plus --steps, say): refused before
    // anything is written.
    if (const int64_t start = startStepOf(scene); steps > kMaxStepCount - start) {
        std::fprintf(
            stderr,
            "jointlab run: --steps: %lld steps from step %lld (the file's saved state) would pass step "
            "%lld, the longest run JointLab takes; nothing was written\n",
            static_cast<long long>(steps), static_cast<long long>(start),
            static_cast<long long>(kMaxStepCount));
        return kExitUsage;
    }
    applyOverrides(options, scene.settings);
    if (std::string e = validateScene(scene);
        !e.empty()) {  // flags are range-checked already; belt and braces
        std::fprintf(stderr, "jointlab run: %s\n", e.c_str());
        return kExitUsage;
    }

    // --from-step: the scenario's history, read (and checked against the scenario) before
    // anything is written.
    History history;
    const bool recording = !options.historyPath.empty();
    if (options.fromStep) {
        const std::string historyIn = historyPathFor(options.scenarioPath);
        if (!loadHistory(historyIn, document, history, error)) return fileError(error);
        if (*options.fromStep < history.firstStep() || *options.fromStep > history.lastStep()) {
            std::fprintf(
                stderr,
                "jointlab run: --from-step: %lld is outside the history of %s, which holds steps %lld "
                "to %lld; nothing was written\n",
                static_cast<long long>(*options.fromStep), options.scenarioPath.c_str(),
                static_cast<long long>(history.firstStep()), static_cast<long long>(history.lastStep()));
            return kExitUsage;
        }
    }

    OutputFile csvFile, stateFile, traceFile;
    if (!options.csvPath.empty() && !csvFile.open(options.csvPath, error)) return fileError(error);
    if (!options.statePath.empty() && !stateFile.open(options.statePath, error)) return fileError(error);
    if (!options.tracePath.empty() && !traceFile.open(options.tracePath, error)) return fileError(error);

    std::unique_ptr<World> built;
    Scene runScene;  // the scene as run (overrides applied): what --history saves
    if (options.fromStep) {
        built = history.worldAt(*options.fromStep);
        // The overrides are a change of settings at that step (a branch when it is in the past).
        if (overridesPhysics(options)) {
            built->settings() = scene.settings;
            history.changed(*built, HistoryMark::Setting, "jointlab run overrides");
        }
    } else {
        // Moved, not copied: a scene of 100 000 bodies is 30 MB, and --history alone needs a copy.
        if (recording) runScene = scene;
        built = std::make_unique<World>(std::move(scene));
        if (recording) history.start(*built);
    }
    // --compare: B from A's state now, with its fields changed.
    std::unique_ptr<World> b;
    OutputFile compareFile;
    std::string compareCsv = "step,max_position_divergence_m,energy_a_J,energy_b_J\n";
    if (!options.compare.empty()) {
        std::vector<FieldChange> changes;
        if (std::string e = parseFieldChanges(built->scene(), options.compare, changes); !e.empty()) {
            std::fprintf(stderr, "jointlab run: --compare: %s; nothing was written\n", e.c_str());
            return kExitUsage;
        }
        b = compareWorld(*built, changes, error);
        if (!b) {
            std::fprintf(stderr, "jointlab run: --compare: %s; nothing was written\n", error.c_str());
            return kExitUsage;
        }
        if (!compareFile.open(options.compareCsvPath, error)) return fileError(error);
    }
    // --reference mujoco: MuJoCo from the run's state now.
    ReferenceCsv reference;
    OutputFile referenceFile;
    if (!options.reference.empty()) {
        if (!reference.start(*built, error)) {
            std::fprintf(stderr, "jointlab run: --reference mujoco: %s; nothing was written\n",
                         error.c_str());
            return kExitUsage;
        }
        if (!referenceFile.open(options.referenceCsvPath, error)) return fileError(error);
    }
    std::string trace = kTraceCsvHeader;
    if (traceFile.isOpen())
        built->setRowTrace([&](const World::RowTrace& v) { appendTraceRow(built->scene(), v, trace); });
    std::string csv = kTelemetryCsvHeader;
    StepSample sample;
    Extreme maxError;
    std::optional<Divergence> diverged;
    DroppedRows dropped;
    size_t nextEvent = 0;
    for (int64_t i = 0; i < steps; ++i) {
        if (options.fromStep && built->stepCount() < history.lastStep()) {
            // Continuing inside the history: its recorded future (forces, and any change it had
            // at this step) is retaken, so that nothing is lost; past its end the run is new.
            if (history.changeAt(built->stepCount())) {
                built = history.worldAt(built->stepCount());
                if (traceFile.isOpen())
                    built->setRowTrace(
                        [&](const World::RowTrace& v) { appendTraceRow(built->scene(), v, trace); });
            }
            if (b) history.replayForces(*b);  // B feels the recorded pulls too (not the recorded edits)
            history.replayForces(*built);
        }
        if (replaying) {
            // Recorded forces go through the history when there is one (it records them).
            const std::span<const InputEvent> events = input.log.events();
            for (; nextEvent < events.size() && events[nextEvent].step <= built->stepCount(); ++nextEvent) {
                const InputEvent& e = events[nextEvent];
                if (e.step < built->stepCount()) continue;
                if (recording)
                    history.applyForce(*built, e.body, e.force, e.worldPoint);
                else
                    built->applyForce(e.body, e.force, e.worldPoint);
                if (b) b->applyForce(e.body, e.force, e.worldPoint);
            }
        }
        built->step();
        if (recording || options.fromStep) history.stepped(*built);
        if (b) {
            b->step();
            char line[160];
            std::snprintf(line, sizeof line, "%lld,%.17g,%.17g,%.17g\n",
                          static_cast<long long>(built->stepCount()), maxPositionDivergence(*built, *b),
                          built->kineticEnergy() + built->potentialEnergy(),
                          b->kineticEnergy() + b->potentialEnergy());
            compareCsv += line;
        }
        if (reference.running()) {
            reference.step(*built);
            if (reference.text().size() > (1u << 20)) {
                referenceFile.write(reference.text());
                reference.text().clear();
            }
        }
        if (const Divergence* d = built->divergence()) {
            // A body became non-finite: the World put every body back to its state before this
            // step and did not advance. Further steps would fail the same way; the outputs hold
            // the run up to the last good step.
            diverged = *d;
            break;
        }
        dropped.check(*built);
        recordStep(*built, sample, csv, csvFile.isOpen(), maxError);
        if (csv.size() > (1u << 20)) {  // stream in 1 MiB pieces
            csvFile.write(csv);
            csv.clear();
        }
        if (trace.size() > (1u << 20)) {
            traceFile.write(trace);
            trace.clear();
        }
    }
    csvFile.write(csv);
    traceFile.write(trace);
    if (stateFile.isOpen()) stateFile.write(stateJson(*built));
    compareFile.write(compareCsv);
    referenceFile.write(reference.text());
    if (recording) {
        // The scenario as run (overrides applied) and its history beside it.
        const Scene& saved = options.fromStep ? document : runScene;
        if (!saveScenario(options.historyPath, saved, error) ||
            !saveHistory(historyPathFor(options.historyPath), history, saved, error))
            return fileError(error);
    }
    if (!csvFile.commit(error) || !stateFile.commit(error) || !traceFile.commit(error) ||
        !compareFile.commit(error) || !referenceFile.commit(error))
        return fileError(error);

    // Summary: one line.
    const Scene& s = built->scene();
    std::string broken;
    int brokenCount = 0;
    for (size_t j = 0; j < s.joints.size(); ++j)
        if (built->jointState(static_cast<int>(j)).broken) {
            broken += (brokenCount++ ? ", " : " (") + s.joints[j].name;
        }
    if (brokenCount) broken += ")";
    std::string worst;
    if (maxError.joint >= 0) {
        worst = " (joint \"" + s.joints[static_cast<size_t>(maxError.joint)].name + "\" row " +
                std::to_string(maxError.row) + ", step " + std::to_string(maxError.step) + ")";
    }
    std::printf(
        "jointlab run: %lld steps, t = %s s, solver %s (%s kernel), max constraint error = %s%s, broken "
        "joints: %d%s\n",
        static_cast<long long>(built->stepCount()), num(built->time()).c_str(),
        kSolverTypeNames[static_cast<int>(s.settings.solver)],
        kKernelTypeNames[static_cast<int>(s.settings.kernel)], num(maxError.value).c_str(), worst.c_str(),
        brokenCount, broken.c_str());
    if (reference.running()) std::printf("jointlab run: %s\n", reference.summary().c_str());
    if (replaying) {
        std::printf("jointlab run: replayed %zu recorded forces from %s\n", input.log.events().size(),
                    options.inputPath.c_str());
        if (!diverged && input.finalStateHash && built->stepCount() == input.endStep)
            if (const int code = compareReplay(*built, input, overridesPhysics(options)); code != kExitOk)
                return code;
    }
    if (dropped.rowSteps > 0) {
        std::printf(
            "jointlab run: dropped rows: %lld row-steps in %zu joint(s) (%s): the solver could not move "
            "their bodies along them\n",
            static_cast<long long>(dropped.rowSteps), dropped.jointCount, dropped.names.c_str());
    }
    if (diverged) {
        // One line naming the joint and the step (World::recoverFromDivergence writes the message).
        std::fprintf(stderr, "jointlab run: stopped: %s\n", diverged->message.c_str());
        return options.strict ? kExitStrict : kExitDiverged;
    }
    if (options.strict && dropped.rowSteps > 0) {
        std::fprintf(stderr, "jointlab run: --strict: the engine dropped rows (see the warnings above)\n");
        return kExitStrict;
    }
    return kExitOk;
}

}  // namespace jl::runner

int runHeadless(int argc, char** argv, jl::runner::VideoRenderer renderVideo) {
    using namespace jl::runner;
    RunOptions options;
    std::string error;
    switch (parseRunArgs(argc, argv, options, error)) {
        case ArgsOutcome::Help:
            std::fputs(runUsage().c_str(), stdout);
            return kExitOk;
        case ArgsOutcome::Error:
            std::fprintf(stderr, "jointlab run: %s\n", error.c_str());
            return kExitUsage;
        case ArgsOutcome::Run:
            break;
    }
    // A video that needs ffmpeg says so before the run, not after it.
    if (!options.video.path.empty() && options.video.format != jl::app::VideoFormat::PngFolder &&
        jl::app::findFfmpeg(error).empty()) {
        std::fprintf(stderr, "jointlab run: --video: %s\n", error.c_str());
        return jl::app::kExitNoFfmpeg;
    }
    int status = kExitOk;
    try {
        status = run(options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "jointlab run: %s\n", e.what());
        return kExitFile;
    }
    // The video of the same run (a diverged run too: it shows where it stopped).
    if (!options.video.path.empty() && (status == kExitOk || status == kExitDiverged)) {
        if (!renderVideo) {
            std::fprintf(stderr, "jointlab run: --video: this build cannot draw\n");
            return kExitFile;
        }
        if (const int videoStatus = renderVideo(options); videoStatus != 0) return videoStatus;
    }
    return status;
}
