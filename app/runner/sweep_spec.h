// JointLab runner — sweep specs: which fields of a scenario a parameter sweep varies, over which
// values, for how many steps, and what it records of each run (docs/sweeps.md).
//
//   {
//     "scenario": "../scenarios/chain20.json",          relative to the spec file
//     "parameters": [
//       {"path": "settings.posIters", "values": [1, 2, 4, 8]},
//       {"path": "settings.baumgarte", "range": {"from": 0.05, "to": 1, "count": 5, "log": true}}
//     ],
//     "steps": 300,
//     "metrics": ["maxError", "rmsError", "energyDrift", "settleTime"],
//     "settle": {"kineticEnergy": 0.001}
//   }
//
// The grid is the product of the parameters' values; run k takes the values of the digits of k in
// the mixed radix of the value counts, the first parameter varying slowest (nested loops in spec
// order). Only each parameter's own values are held, never the grid: a spec of 10^8 runs loads
// and is checked in the time of its few hundred values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jointlab/field_path.h"
#include "jointlab/scene.h"

namespace jl::runner {

/// The metrics a run can record, in the order of the CSV columns.
enum class Metric { MaxError, RmsError, EnergyDrift, BreakStep, FinalResidual, SettleTime, StepsPerSecond };
inline constexpr int kMetricCount = 7;
inline constexpr const char* kMetricNames[] = {"maxError",      "rmsError",   "energyDrift",   "breakStep",
                                               "finalResidual", "settleTime", "stepsPerSecond"};
inline constexpr const char* kMetricColumns[] = {"max_error",       "rms_error",      "energy_drift",
                                                 "break_step",      "final_residual", "settle_time",
                                                 "steps_per_second"};

inline constexpr int64_t kMaxSweepRuns = 1000000000;     ///< 10^9 runs in one grid
inline constexpr int64_t kMaxParameterValues = 1000000;  ///< values of all parameters together

struct SweepParameter {
    FieldPath path;
    std::vector<FieldPathValue> values;
};

struct SweepSpec {
    std::string specPath;
    std::string scenarioPath;   ///< resolved against the spec's folder
    std::string canonicalJson;  ///< the spec as read, re-serialised (for manifests and merges)
    Scene scene;                ///< the scenario as loaded
    std::vector<SweepParameter> parameters;
    int64_t steps = 0;
    bool metrics[kMetricCount] = {};
    Real settleKineticEnergy = 1e-3;  ///< [J]: settled once the kinetic energy stays at or below this
    int64_t runCount = 0;             ///< product of the value counts

    /// The value index of each parameter in run k (0 ≤ k < runCount).
    std::vector<size_t> digits(int64_t run) const;
    /// The scenario with run k's values applied.
    Scene sceneOf(int64_t run) const;
};

/// What went wrong reading a spec: usage errors (exit 64) and file errors (exit 2) are told apart.
struct SpecError {
    bool file = false;  ///< the spec or the scenario could not be read (else: the spec is wrong)
    std::string message;
};

/// Parses and checks a spec held in `text` (`specPath` names it in messages and anchors the
/// scenario path). Every entry is checked before anything runs: unknown keys, unknown field paths,
/// values of the wrong kind or outside the field's range (each value alone, and every pair of
/// values of two parameters of the same body, joint or settings, against the scene's cross-field
/// rules), empty or degenerate ranges, unknown metrics. Returns false with `error` naming the entry.
bool parseSweepSpec(const std::string& specPath, std::string_view text, SweepSpec& out, SpecError& error);

/// Reads the file and parses it.
bool loadSweepSpec(const std::string& specPath, SweepSpec& out, SpecError& error);

}  // namespace jl::runner
