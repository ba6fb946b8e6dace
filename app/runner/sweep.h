// JointLab runner — parameter sweeps: `jointlab sweep SPEC.json --out DIR` runs every point of a
// spec's grid (runner/sweep_spec.h) headless and writes one CSV row per run plus a manifest;
// `jointlab sweep-merge DIR... --out DIR` joins the outputs of shards run apart (docs/sweeps.md).
//
// main() dispatches here when argv[1] is "sweep" or "sweep-merge", before any window or GL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/sweep_spec.h"

namespace jl::runner {

/// What one run of a sweep measured.
struct SweepRunResult {
    int64_t run = 0;
    std::string status = "ok";  ///< ok, diverged (a body became non-finite), invalid (cross-field rules)
    int64_t steps = 0;          ///< steps taken (fewer than the spec's when the run diverged)
    Real maxError = 0.0;  ///< largest row violation over the steps (jointlab run's "max constraint error")
    Real rmsError = 0.0;  ///< sqrt of the mean over the steps of each step's RMS row violation squared
    Real energyDrift =
        0.0;  ///< total energy (kinetic + potential) after the last step minus before the first [J]
    int64_t breakStep = -1;     ///< the step in which a joint first broke; −1: none did
    Real finalResidual = 0.0;   ///< the last solver sweep's residual in the last step (NaN: no sweeps)
    Real settleTime = 0.0;      ///< time from which the kinetic energy stays <= the tolerance (NaN: never)
    Real stepsPerSecond = 0.0;  ///< measured wall-clock rate of the run's steps (not deterministic)
};

/// Runs run k of the spec (deterministic: the same bits on every call and in every thread).
SweepRunResult runSweepPoint(const SweepSpec& spec, int64_t run);

/// The run indices of shard `index` of `count` (1 ≤ index ≤ count): k with k mod count = index − 1.
/// Strided rather than in blocks, so that each shard gets its share of every parameter's values
/// (costly iteration counts spread over all machines).
int64_t shardRunCount(int64_t runCount, int index, int count);
inline int64_t shardRun(int index, int count, int64_t i) {
    return static_cast<int64_t>(index - 1) + i * count;
}

/// The CSV header of a spec's results (run, the parameter paths, status, steps, the metrics).
std::string sweepCsvHeader(const SweepSpec& spec);
/// One CSV row.
std::string sweepCsvRow(const SweepSpec& spec, const SweepRunResult& r);

/// `jointlab sweep ...` and `jointlab sweep-merge ...`: argv[1] names which. Returns the exit code.
int runSweepCommand(int argc, char** argv);

/// The scenario of run `run` of the sweep in `dir`: its manifest's scenario with the run's values
/// from results.csv set, saved as DIR/run-RUN.json (`path`). Refused when the scenario changed since
/// the sweep (its hash). What the app's sweep viewer opens when a cell is clicked.
bool writeRunScenario(const std::string& dir, int64_t run, std::string& path, std::string& error);

/// `jointlab sweep-plot ...` (runner/sweep_plot_cli.cpp, part of the jointlab executable).
int runSweepPlot(int argc, char** argv);

/// FNV-1a 64 of a file's bytes, as 16 hex digits ("" when unreadable).
std::string fileHash(const std::string& path);

}  // namespace jl::runner
