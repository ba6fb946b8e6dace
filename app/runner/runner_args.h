// JointLab — command line of the headless runner, kept apart from the run so it can be tested.
//
//   jointlab run SCENARIO.json [--steps N] [--solver pgs|tgs] [--pos-iters K] [--vel-iters K]
//                              [--threads T] [--baumgarte A|auto] [--dt S] [--csv OUT.csv] [--state OUT.json]
//                              [--input LOG.input.json] [--history OUT.json] [--from-step K]
//                              [--compare PATH=VALUE[,…] --compare-csv OUT.csv]
//                              [--reference mujoco --reference-csv OUT.csv]
//                              [--video OUT.mp4|OUT.gif|OUTDIR/ [--size WxH] [--fps F] ...]
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "jointlab/scene.h"
#include "runner/video_options.h"

namespace jl::runner {

/// Exit codes (sysexits.h style where one exists).
inline constexpr int kExitOk = 0;
inline constexpr int kExitDiverged =
    1;  ///< a step diverged (a body became NaN/Inf): the run stopped there, the joint is named
inline constexpr int kExitFile = 2;           ///< the scenario cannot be read or an output cannot be written
inline constexpr int kExitReplayDiffers = 3;  ///< --input: the replay did not reach the recorded state
inline constexpr int kExitStrict = 4;         ///< --strict: the engine dropped a row or reset a diverged step
inline constexpr int kExitUsage = 64;         ///< EX_USAGE: bad arguments

struct RunOptions {
    std::string scenarioPath;
    int64_t steps = 600;
    bool stepsGiven = false;  ///< --steps was given (else --input runs the recorded length)
    // Overrides of the scenario's settings; unset = keep the file's value.
    std::optional<SolverType> solver;
    std::optional<int> posIters;
    std::optional<int> velIters;
    std::optional<int> threads;
    std::optional<KernelType> kernel;      ///< --kernel reference|fast
    std::optional<SolverOrder> rowOrder;   ///< --row-order coloured|wavefront|sequential
    std::optional<PointSolve> pointSolve;  ///< --point-solve block|rows|tree
    std::optional<Correction> correction;  ///< --correction baumgarte|relax|splitImpulse|soft|ngs
    std::optional<Real> baumgarte;         ///< a value in [0, 1]
    bool autoBaumgarte = false;            ///< --baumgarte auto
    std::optional<Real> dt;
    std::string csvPath;    ///< empty: no CSV
    std::string statePath;  ///< empty: no state file
    std::string inputPath;  ///< empty: no recorded input to replay
    std::string tracePath;  ///< empty: no row trace (--trace: runs the reference kernel)
    /// --history OUT.json: the scenario as run goes to OUT.json and the run's history (every step
    /// retrievable: jointlab/history.h) to OUT.history.json beside it.
    std::string historyPath;
    /// --from-step K: continue from step K of the scenario's history (SCENARIO.history.json); the
    /// overrides change the settings at that step (a branch when K is before the history's end).
    std::optional<int64_t> fromStep;
    /// --compare PATH=VALUE[,…]: run B beside the run (A), from the same state, with these fields
    /// changed (jointlab/compare.h); --compare-csv OUT.csv: per step, how far they drift apart.
    std::string compare;
    std::string compareCsvPath;
    /// --reference mujoco: MuJoCo runs the scene beside the run, from the same state, in joint
    /// coordinates (interop/reference_run.h); --reference-csv OUT.csv: per step the largest body
    /// position difference and each joint's coordinate in both.
    std::string reference;
    std::string referenceCsvPath;
    bool strict = false;  ///< --strict: a dropped row or a diverged step is an error (exit 4)
    /// --video OUT and its flags (runner/video_options.h): after the run, the same run is drawn
    /// off screen by the app's video mode (no display needed: EGL) and recorded.
    jl::app::VideoOptions video;
    int videoWidth = 0, videoHeight = 0;  ///< --size WxH (0 = 1280x720)
};

/// True when a flag changes the physics (solver, iterations, threads, Baumgarte, dt).
bool overridesPhysics(const RunOptions& options);

enum class ArgsOutcome { Run, Help, Error };

/// Parses argv (argv[1] is "run"). On Error, `error` is one line naming the flag and the problem.
/// Ranges come from the WorldSettings field list, so `--dt 5` is refused with the same words as a
/// file's `settings.dt`.
ArgsOutcome parseRunArgs(int argc, char** argv, RunOptions& options, std::string& error);

/// Applies the overrides to the settings.
void applyOverrides(const RunOptions& options, WorldSettings& settings);

/// The --help text.
std::string runUsage();

}  // namespace jl::runner
