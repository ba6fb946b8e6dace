#include "harness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

#include "cpu_time.h"

namespace bench {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

}  // namespace

RunResult runOnce(EngineKind kind, const SceneSpec& s, const SimSettings& cfg, const RunPlan& plan) {
    RunResult r;
    r.iterations = cfg.iterations;
    r.energy0 = totalEnergy(s, initialState(s));
    std::unique_ptr<Sim> sim = makeSim(kind, s, cfg);
    const int perSecond = static_cast<int>(std::lround(1.0 / s.dt));
    std::vector<double> times, wall;
    times.reserve(static_cast<size_t>(plan.timingSteps));
    wall.reserve(static_cast<size_t>(plan.timingSteps));
    double itersSum = 0;
    std::vector<BodyState> st;
    double rowSum = 0;
    using Clock = std::chrono::steady_clock;
    for (int i = 1; i <= plan.steps; ++i) {
        sim->beforeStep();
        const auto t0 = Clock::now();
        const double c0 = threadCpuMs();
        sim->step();
        const double c1 = threadCpuMs();
        const auto t1 = Clock::now();
        sim->afterStep();
        r.stepsRun = i;
        if (i <= plan.timingSteps) {
            times.push_back(c1 - c0);
            wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            rowSum += sim->rows();
            itersSum += sim->iterationsDone() < 0 ? cfg.iterations : sim->iterationsDone();
        }
        const bool at1 = i == perSecond, at5 = i == 5 * perSecond, at10 = i == 10 * perSecond;
        const bool check = at1 || at5 || at10 || i == plan.steps || i % std::max(1, perSecond / 10) == 0;
        if (!check) continue;
        sim->state(st);
        const double e = totalEnergy(s, st);
        const ErrorStats err = jointErrors(s, st);
        if (!std::isfinite(e) || !err.finite) {
            r.diverged = true;
            break;
        }
        r.peakSep = std::max(r.peakSep, err.sepMax);
        r.peakAng = std::max(r.peakAng, err.angMax);
        if (at1) r.at1 = err, r.hasAt1 = true;
        if (at5) r.at5 = err, r.hasAt5 = true;
        if (at10) r.energyDrift = e - r.energy0, r.hasAt10 = true;
    }
    if (!times.empty()) {
        // (a step on several threads: its wall-clock time; the caller's CPU time would leave out
        // the workers' share)
        r.medianMs = sim->multiThreaded() ? median(wall) : median(times);
        r.medianWallMs = median(wall);
        r.rows = rowSum / static_cast<double>(times.size());
        r.iterationsDone = itersSum / static_cast<double>(times.size());
    }
    return r;
}

LineFit fitLine(const std::vector<double>& x, const std::vector<double>& y) {
    const size_t n = x.size();
    if (n < 2) return {0, n ? y[0] : 0};
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; ++i) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
    const double slope = sxx > 0 ? sxy / sxx : 0;
    return {slope, my - slope * mx};
}

}  // namespace bench
