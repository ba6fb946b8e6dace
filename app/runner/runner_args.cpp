// Command line of the headless runner; see runner/runner_args.h.
#include "runner/runner_args.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "jointlab/file_identity.h"
#include "jointlab/history_io.h"

namespace jl::runner {

namespace {

/// The Field (range, unit) of a settings member, found by address in the field list.
struct FieldOf {
    const void* target;
    Field found{};
    template <class E>
    void operator()(const char*, EnumField<E>, const Field&) {}
    template <class T>
    void operator()(const char*, T& member, const Field& f) {
        if (static_cast<const void*>(&member) == target) found = f;
    }
};

template <class M>
Field settingsField(M WorldSettings::*member) {
    static WorldSettings defaults;
    FieldOf finder{&(defaults.*member)};
    defaults.visit(finder);
    return finder.found;
}

std::string quote(std::string_view s) {
    std::string out = "\"";
    for (char c : s.substr(0, 60)) out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
    return out + (s.size() > 60 ? "...\"" : "\"");
}

bool parseInt(std::string_view flag, std::string_view text, int64_t& out, std::string& error) {
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, out);
    if (text.empty() || ec != std::errc() || p != end) {
        error = std::string(flag) + ": expected an integer, got " + quote(text);
        return false;
    }
    return true;
}

bool parseReal(std::string_view flag, std::string_view text, Real& out, std::string& error) {
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, out);
    if (text.empty() || ec != std::errc() || p != end || !std::isfinite(out)) {
        error = std::string(flag) + ": expected a finite number, got " + quote(text);
        return false;
    }
    return true;
}

bool checkRange(std::string_view flag, Real value, const Field& field, std::string& error) {
    if (std::string problem = field.check(value); !problem.empty()) {
        error = std::string(flag) + ": " + problem;
        return false;
    }
    return true;
}

bool parseIters(std::string_view flag, std::string_view text, int WorldSettings::*member,
                std::optional<int>& out, std::string& error) {
    int64_t v = 0;
    if (!parseInt(flag, text, v, error) ||
        !checkRange(flag, static_cast<Real>(v), settingsField(member), error))
        return false;
    out = static_cast<int>(v);
    return true;
}

}  // namespace

std::string runUsage() {
    return "usage: jointlab run SCENARIO.json [options]\n"
           "Runs a scenario without a window and reports what every joint row did.\n"
           "\n"
           "  --steps N            number of steps (default 600, at most 10^12 steps after the file's "
           "start)\n"
           "  --solver pgs|tgs     override the scenario's solver\n"
           "  --pos-iters K        override position iterations (1..255)\n"
           "  --vel-iters K        override velocity iterations (0..255)\n"
           "  --threads T          override the solver threads (1..16): the joints in T parts at once, the\n"
           "                       few between parts first; T changes the result, as a setting does\n"
           "  --kernel K           override the kernel: reference (the plain loop over rows the docs\n"
           "                       explain) or fast (batched, SIMD); same rows and order, same result\n"
           "                       to rounding\n"
           "  --row-order O        override the row order: coloured, wavefront or sequential\n"
           "  --point-solve P      override how point constraints are solved: block (their rows at once),\n"
           "                       rows (one after another, as PhysX) or tree (joints without loops\n"
           "                       solved exactly along their trees)\n"
           "  --correction C       override the position correction: baumgarte, relax (TGS: an\n"
           "                       unbiased sweep after each substep's motion, as Box2D v3) or\n"
           "                       splitImpulse (PGS: the bias moves the bodies, never the velocity)\n"
           "                       or soft (TGS: relax, and joints correct position as Box2D v3's\n"
           "                       soft constraints), or ngs (PGS: a position pass at the new\n"
           "                       poses, as Box2D v2), or rattle (PGS: that pass along the\n"
           "                       start-of-step rows, its motion fed into the velocity, RATTLE)\n"
           "  --baumgarte A|auto   Baumgarte factor in [0, 1], or the solver's default\n"
           "  --dt S               override the time step [s]\n"
           "  --csv OUT.csv        one line per step per joint row: the row (impulse, errors, clamped),\n"
           "                       its joint (force, torque, fractions of the break thresholds) and the\n"
           "                       step (energy, max/RMS error, residual per sweep); step_ms is 0, the\n"
           "                       runner does not time steps, so the same run gives the same bytes\n"
           "  --state OUT.json     final pose and velocity of every body, broken flag of every joint\n"
           "  --trace OUT.csv      one line per visit of a row by the solver: step, phase (position,\n"
           "                       velocity or relax), sweep, joint, row, C, J·v, K, bias, λ before\n"
           "                       and after, clamped; runs the reference kernel (as --kernel\n"
           "                       reference), so the last λ of a row in a step is the impulse --csv\n"
           "                       reports for it\n"
           "  --input LOG.json     replay the mouse input recorded with the run (File > Save run in the\n"
           "                       app); without --steps, runs the recorded number of steps and checks\n"
           "                       that the final state hash is the recorded one\n"
           "  --history OUT.json   write the scenario as run to OUT.json and the run's history to\n"
           "                       OUT.history.json: every step of it can be gone back to (in the app,\n"
           "                       or with --from-step)\n"
           "  --from-step K        continue from step K of SCENARIO's history (SCENARIO.history.json):\n"
           "                       the same state, to the bit, as the run had at step K; the overrides\n"
           "                       change the settings there (a new branch of the history)\n"
           "  --compare PATH=VALUE[,PATH=VALUE...]  run B beside this run (A), from the same state,\n"
           "                       with these fields changed (paths as in the scenario file:\n"
           "                       settings.solver=tgs, joints.elbow.drive.stiffness=50)\n"
           "  --compare-csv OUT.csv  per step: step,max_position_divergence_m,energy_a_J,energy_b_J\n"
           "  --reference mujoco   run MuJoCo beside this run, from the same state, in joint\n"
           "                       coordinates (the scene's joints must form a tree; docs/reference.md)\n"
           "  --reference-csv OUT.csv  per step: step,max_position_divergence_m, then per joint\n"
           "                       <joint>_jointlab,<joint>_mujoco (its angle [rad] or offset [m])\n"
           "  --strict             exit 4 when the engine had to drop a joint row (its bodies cannot\n"
           "                       move along it: unit response under 1e-12) or reset a diverged step;\n"
           "                       without it these are warnings on stderr and in the summary\n"
           "  --size WxH           the video's size in pixels (default 1280x720)\n" +
           jl::app::videoUsage() +
           "  -h, --help           this text\n"
           "\n"
           "\n"
           "The summary's \"max constraint error\" is the largest |geometric error| of a hard row over the\n"
           "run; for one-sided rows (limits, distance bounds) only the part beyond the bound counts, and\n"
           "springs do not count. Broken joints have no rows.\n"
           "Exit codes: 0 ok, 1 the simulation diverged (a body became NaN/Inf: the run stops at that step,\n"
           "the outputs hold the last good state and stderr names the joint), 2 file error, 3 the replay\n"
           "of --input did not reach the recorded state, 4 --strict and the engine dropped a row or reset a\n"
           "diverged step, 64 bad arguments, 69 --video OUT.mp4|OUT.gif without the ffmpeg program.\n";
}

ArgsOutcome parseRunArgs(int argc, char** argv, RunOptions& o, std::string& error) {
    RunOptions result;
    for (int i = 2; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return ArgsOutcome::Help;
        if (arg.size() < 2 || arg.substr(0, 2) != "--") {
            if (arg.size() > 1 && arg[0] == '-') {
                error = "unknown option " + quote(arg) + " (see jointlab run --help)";
                return ArgsOutcome::Error;
            }
            if (!result.scenarioPath.empty()) {
                error = "unexpected argument " + quote(arg) + " (only one scenario file)";
                return ArgsOutcome::Error;
            }
            result.scenarioPath = std::string(arg);
            continue;
        }
        if (arg == "--strict") {
            result.strict = true;
            continue;
        }
        if (jl::app::parseVideoFlag(arg, argc, argv, i, result.video, error)) {
            if (!error.empty()) return ArgsOutcome::Error;
            continue;
        }
        if (arg == "--size") {
            const std::string_view v = i + 1 < argc ? std::string_view(argv[++i]) : std::string_view();
            const size_t x = v.find('x');
            int64_t w = 0, h = 0;
            std::string ignored;
            if (x == std::string_view::npos || !parseInt(arg, v.substr(0, x), w, ignored) ||
                !parseInt(arg, v.substr(x + 1), h, ignored) || w < 64 || h < 64 || w > 8192 || h > 8192) {
                error = "--size: expected WIDTHxHEIGHT between 64x64 and 8192x8192, e.g. 1280x720, got " +
                        quote(v);
                return ArgsOutcome::Error;
            }
            result.videoWidth = static_cast<int>(w);
            result.videoHeight = static_cast<int>(h);
            continue;
        }
        // --flag value or --flag=value
        std::string_view flag = arg, value;
        bool hasValue = false;
        if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
            flag = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            hasValue = true;
        }
        static constexpr const char* kFlags[] = {
            "--steps",       "--solver",      "--pos-iters",    "--vel-iters", "--threads",    "--baumgarte",
            "--dt",          "--csv",         "--state",        "--input",     "--kernel",     "--row-order",
            "--trace",       "--point-solve", "--history",      "--from-step", "--correction", "--compare",
            "--compare-csv", "--reference",   "--reference-csv"};
        bool known = false;
        for (const char* f : kFlags) known = known || flag == f;
        if (!known) {
            error = "unknown option " + quote(flag) + " (see jointlab run --help)";
            return ArgsOutcome::Error;
        }
        if (!hasValue) {
            if (i + 1 >= argc) {
                error = std::string(flag) + ": missing value";
                return ArgsOutcome::Error;
            }
            value = argv[++i];
        }
        if (flag == "--steps") {
            int64_t n = 0;
            if (!parseInt(flag, value, n, error)) return ArgsOutcome::Error;
            if (n < 0 || n > kMaxStepCount) {
                error = "--steps: must be " +
                        std::string(n < 0 ? ">= 0" : "<= " + std::to_string(kMaxStepCount)) + ", got " +
                        std::to_string(n);
                return ArgsOutcome::Error;
            }
            result.steps = n;
            result.stepsGiven = true;
        } else if (flag == "--solver") {
            const int s = findName(value, kSolverTypeNames, 2);
            if (s < 0) {
                error = "--solver: expected pgs or tgs, got " + quote(value);
                return ArgsOutcome::Error;
            }
            result.solver = static_cast<SolverType>(s);
        } else if (flag == "--kernel") {
            const int k = findName(value, kKernelTypeNames, 2);
            if (k < 0) {
                error = "--kernel: expected reference or fast, got " + quote(value);
                return ArgsOutcome::Error;
            }
            result.kernel = static_cast<KernelType>(k);
        } else if (flag == "--row-order") {
            const int k = findName(value, kSolverOrderNames, 3);
            if (k < 0) {
                error = "--row-order: expected coloured, wavefront or sequential, got " + quote(value);
                return ArgsOutcome::Error;
            }
            result.rowOrder = static_cast<SolverOrder>(k);
        } else if (flag == "--point-solve") {
            const int k = findName(value, kPointSolveNames, kPointSolveCount);
            if (k < 0) {
                error = "--point-solve: expected block, rows or tree, got " + quote(value);
                return ArgsOutcome::Error;
            }
            result.pointSolve = static_cast<PointSolve>(k);
        } else if (flag == "--correction") {
            const int k = findName(value, kCorrectionNames,
                                   static_cast<int>(sizeof kCorrectionNames / sizeof kCorrectionNames[0]));
            if (k < 0) {
                error = "--correction: expected baumgarte, relax, splitImpulse, soft, ngs or rattle, got " +
                        quote(value);
                return ArgsOutcome::Error;
            }
            result.correction = static_cast<Correction>(k);
        } else if (flag == "--pos-iters") {
            if (!parseIters(flag, value, &WorldSettings::posIters, result.posIters, error))
                return ArgsOutcome::Error;
        } else if (flag == "--vel-iters") {
            if (!parseIters(flag, value, &WorldSettings::velIters, result.velIters, error))
                return ArgsOutcome::Error;
        } else if (flag == "--threads") {
            if (!parseIters(flag, value, &WorldSettings::threads, result.threads, error))
                return ArgsOutcome::Error;
        } else if (flag == "--baumgarte") {
            if (value == "auto") {
                result.autoBaumgarte = true;
                result.baumgarte.reset();
            } else {
                Real a = 0;
                if (!parseReal(flag, value, a, error)) {
                    error += " (or auto)";
                    return ArgsOutcome::Error;
                }
                if (!checkRange(flag, a, settingsField(&WorldSettings::baumgarte), error))
                    return ArgsOutcome::Error;
                result.autoBaumgarte = false;
                result.baumgarte = a;
            }
        } else if (flag == "--dt") {
            Real dt = 0;
            if (!parseReal(flag, value, dt, error) ||
                !checkRange(flag, dt, settingsField(&WorldSettings::dt), error))
                return ArgsOutcome::Error;
            result.dt = dt;
        } else if (flag == "--from-step") {
            int64_t n = 0;
            if (!parseInt(flag, value, n, error)) return ArgsOutcome::Error;
            if (n < 0 || n > kMaxStepCount) {
                error = "--from-step: must be in [0, " + std::to_string(kMaxStepCount) + "], got " +
                        std::to_string(n);
                return ArgsOutcome::Error;
            }
            result.fromStep = n;
        } else if (flag == "--compare" || flag == "--compare-csv") {
            if (value.empty()) {
                error = std::string(flag) +
                        (flag == "--compare" ? ": expected PATH=VALUE[,PATH=VALUE...]" : ": empty file name");
                return ArgsOutcome::Error;
            }
            (flag == "--compare" ? result.compare : result.compareCsvPath) = std::string(value);
        } else if (flag == "--reference") {
            if (value != "mujoco") {
                error = "--reference: expected mujoco (the only reference engine), got " + quote(value);
                return ArgsOutcome::Error;
            }
            result.reference = std::string(value);
        } else if (flag == "--reference-csv") {
            if (value.empty()) {
                error = "--reference-csv: empty file name";
                return ArgsOutcome::Error;
            }
            result.referenceCsvPath = std::string(value);
        } else if (flag == "--history") {
            if (value.empty()) {
                error = "--history: empty file name";
                return ArgsOutcome::Error;
            }
            result.historyPath = std::string(value);
        } else if (flag == "--trace") {
            if (value.empty()) {
                error = "--trace: empty file name";
                return ArgsOutcome::Error;
            }
            result.tracePath = std::string(value);
        } else if (flag == "--csv" || flag == "--state" || flag == "--input") {
            if (value.empty()) {
                error = std::string(flag) + ": empty file name";
                return ArgsOutcome::Error;
            }
            (flag == "--csv"     ? result.csvPath
             : flag == "--state" ? result.statePath
                                 : result.inputPath) = std::string(value);
        }
    }
    if (result.scenarioPath.empty()) {
        error = "missing SCENARIO.json (usage: jointlab run SCENARIO.json [options])";
        return ArgsOutcome::Error;
    }
    if (result.compare.empty() != result.compareCsvPath.empty()) {
        error = result.compare.empty() ? "--compare-csv needs --compare PATH=VALUE[,...] (what B changes)"
                                       : "--compare needs --compare-csv OUT.csv (where the comparison goes)";
        return ArgsOutcome::Error;
    }
    if (result.reference.empty() != result.referenceCsvPath.empty()) {
        error = result.reference.empty()
                    ? "--reference-csv needs --reference mujoco (what runs beside)"
                    : "--reference needs --reference-csv OUT.csv (where the comparison goes)";
        return ArgsOutcome::Error;
    }
    if (!result.reference.empty() && (!result.inputPath.empty() || result.fromStep)) {
        error =
            "--reference: not together with --input or --from-step (their recorded pulls would move only "
            "JointLab's bodies; a scenario saved mid-run starts the reference mid-run)";
        return ArgsOutcome::Error;
    }
    if (result.fromStep && !result.inputPath.empty()) {
        error = "--from-step and --input cannot be combined: the history holds the run's recorded forces";
        return ArgsOutcome::Error;
    }
    if (!result.video.path.empty()) {
        if (!result.inputPath.empty() || result.fromStep || !result.compare.empty() ||
            !result.reference.empty()) {
            error =
                "--video: not together with --input, --from-step, --compare or --reference (the video runs "
                "the "
                "scenario from its start)";
            return ArgsOutcome::Error;
        }
        if (result.steps > jl::app::kMaxVideoSteps) {
            error =
                "--video: at most 1000000 steps can be recorded, got --steps " + std::to_string(result.steps);
            return ArgsOutcome::Error;
        }
    } else if (result.videoWidth > 0) {
        error = "--size: only used together with --video OUT";
        return ArgsOutcome::Error;
    }
    if (std::string e = jl::app::checkVideoOptions(result.video, result.steps); !e.empty()) {
        error = std::move(e);
        return ArgsOutcome::Error;
    }
    // Every output against every input and each other, as files (jointlab/file_identity.h).
    const std::string historySide = result.historyPath.empty() ? "" : historyPathFor(result.historyPath);
    const std::string historyIn = result.fromStep ? historyPathFor(result.scenarioPath) : "";
    if (std::string clash = checkOutputsAgainstInputs({{"the scenario", result.scenarioPath},
                                                       {"the --input log", result.inputPath},
                                                       {"the scenario's history", historyIn}},
                                                      {{"--csv", result.csvPath},
                                                       {"--state", result.statePath},
                                                       {"--trace", result.tracePath},
                                                       {"--history", result.historyPath},
                                                       {"--compare-csv", result.compareCsvPath},
                                                       {"--reference-csv", result.referenceCsvPath},
                                                       {"--video", result.video.path},
                                                       {"--history's side file", historySide}});
        !clash.empty()) {
        error = std::move(clash);
        return ArgsOutcome::Error;
    }
    o = std::move(result);
    return ArgsOutcome::Run;
}

bool overridesPhysics(const RunOptions& o) {
    return o.solver || o.posIters || o.velIters || o.threads || o.kernel || o.rowOrder || o.pointSolve ||
           o.correction || !o.tracePath.empty() || o.baumgarte || o.autoBaumgarte || o.dt;
}

void applyOverrides(const RunOptions& o, WorldSettings& s) {
    if (o.solver) s.solver = *o.solver;
    if (o.posIters) s.posIters = *o.posIters;
    if (o.velIters) s.velIters = *o.velIters;
    if (o.threads) s.threads = *o.threads;
    if (o.kernel) s.kernel = *o.kernel;
    if (o.rowOrder) s.rowOrder = *o.rowOrder;
    if (o.pointSolve) s.pointSolve = *o.pointSolve;
    if (o.correction) s.correction = *o.correction;
    if (!o.tracePath.empty()) s.kernel = KernelType::Reference;  // the trace is the reference kernel's
    if (o.dt) s.dt = *o.dt;
    if (o.autoBaumgarte) s.autoBaumgarte = true;
    if (o.baumgarte) {
        s.autoBaumgarte = false;
        s.baumgarte = *o.baumgarte;
    }
}

}  // namespace jl::runner
