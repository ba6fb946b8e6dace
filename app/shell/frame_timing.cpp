#include "shell/frame_timing.h"

#include <algorithm>
#include <ctime>

namespace jl::app {

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

void smoothPhases(PhaseTimes& s, const PhaseTimes& f) {
    constexpr double k = 0.1;
    if (s.total() == 0.0) {
        s = f;
        return;
    }
    s.sim += k * (f.sim - s.sim);
    s.ui += k * (f.ui - s.ui);
    s.draw += k * (f.draw - s.draw);
    s.gl += k * (f.gl - s.gl);
}

namespace {

void percentiles(std::vector<double> v, double& median, double& p95) {
    if (v.empty()) return;
    std::sort(v.begin(), v.end());
    median = v[v.size() / 2];
    p95 = v[std::min(v.size() - 1, v.size() * 95 / 100)];
}

}  // namespace

PhaseSummary summarizePhases(const std::vector<PhaseTimes>& frames) {
    PhaseSummary s;
    std::vector<double> sim, ui, draw, gl, ours, total;
    for (const PhaseTimes& f : frames) {
        sim.push_back(f.sim);
        ui.push_back(f.ui);
        draw.push_back(f.draw);
        gl.push_back(f.gl);
        ours.push_back(f.ours());
        total.push_back(f.total());
    }
    percentiles(sim, s.median.sim, s.p95.sim);
    percentiles(ui, s.median.ui, s.p95.ui);
    percentiles(draw, s.median.draw, s.p95.draw);
    percentiles(gl, s.median.gl, s.p95.gl);
    percentiles(ours, s.medianOurs, s.p95Ours);
    percentiles(total, s.medianTotal, s.p95Total);
    return s;
}

}  // namespace jl::app
