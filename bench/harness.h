// JointLab benchmark — running one engine on one scene and measuring it.
#pragma once

#include <vector>

#include "metrics.h"
#include "sim.h"

namespace bench {

/// What one run (one engine, one scene, one iteration count) measured.
struct RunResult {
    int iterations = 0;
    int stepsRun = 0;
    double medianMs =
        0;  ///< median thread CPU time of step() over the timing window [ms] (wall time if multi-threaded)
    double medianWallMs = 0;    ///< median wall-clock time of step() over the timing window [ms]
    double iterationsDone = 0;  ///< mean solver iterations actually run per step (Bullet may stop early)
    double rows = 0;            ///< mean 1D rows per step over the timing window
    bool diverged = false;      ///< a non-finite state or energy
    bool hasAt1 = false, hasAt5 = false, hasAt10 = false;
    ErrorStats at1, at5;     ///< joint errors after 1 s and 5 s
    double peakSep = 0;      ///< largest joint separation seen over the run (sampled at 10 Hz) [m]
    double peakAng = 0;      ///< largest angular error seen over the run (sampled at 10 Hz) [rad]
    double energy0 = 0;      ///< initial total energy [J]
    double energyDrift = 0;  ///< E(10 s) − E(0) [J]
};

struct RunPlan {
    int steps = 60;        ///< steps to simulate
    int timingSteps = 60;  ///< the first timingSteps steps are timed (median)
};

RunResult runOnce(EngineKind kind, const SceneSpec& s, const SimSettings& cfg, const RunPlan& plan);

/// Least-squares line y = intercept + slope·x.
struct LineFit {
    double slope = 0, intercept = 0;
};
LineFit fitLine(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace bench
