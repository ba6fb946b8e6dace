// JointLab benchmark — the tables (Markdown, pasted as-is into docs/benchmark.md) and the CSV.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "harness.h"
#include "scene_spec.h"
#include "sim.h"

namespace bench {

struct EngineResult {
    EngineInfo engine{};
    std::vector<RunResult> runs;  ///< one per iteration count, ascending
    RunResult accuracy;           ///< the run at the accuracy iteration count

    /// Straight line through the median step times over the iterations run: slope = ms per
    /// iteration, intercept = the step's fixed cost (prep, set-up, integration; JointLab's
    /// velocity iteration) [ms].
    LineFit fit() const;
    double msPerIteration() const { return fit().slope; }
    /// Rows per step × iterations per second of marginal solver time [row-iterations/s].
    double marginalRate() const;
    bool diverged() const;
};

struct SceneResult {
    SceneSpec scene;
    std::vector<EngineResult> engines;
};

struct Report {
    std::string header;
    std::vector<int> iters;
    int accIters = 10;
    double erp = -1;
    std::vector<SceneResult> scenes;
};

/// CPU, cores, compiler and peer versions.
std::string machineHeader();
void printTables(const Report& r, std::FILE* out);
void writeCsv(const Report& r, const std::string& path);

}  // namespace bench
