// JointLab app — the convergence plot's kept curves (telemetry/plot_history.h: ConvergenceHistory).
#include "telemetry/plot_history.h"

namespace jl::app {

// [SECTION] Convergence history

void ConvergenceHistory::update(const Telemetry& telemetry, SolverType solver, int posIters) {
    if (telemetry.size() == 0) return;
    const StepSample& s = telemetry.latest();
    Curve& c = curves[static_cast<int>(solver)];
    if (c.step == s.step && c.residuals.size() == s.residuals.size()) return;
    c.residuals.assign(s.residuals.begin(), s.residuals.end());
    c.posIters = posIters;
    c.step = s.step;
}

void ConvergenceHistory::update(const World& world) {
    const std::span<const Real> r = world.lastResiduals();
    if (r.empty()) return;
    Curve& c = curves[static_cast<int>(world.scene().settings.solver)];
    if (c.step == world.stepCount() && c.residuals.size() == r.size()) return;
    c.residuals.assign(r.begin(), r.end());
    c.posIters = world.scene().settings.posIters;
    c.step = world.stepCount();
}

void ConvergenceHistory::showSweeps(std::span<const Real> r, SolverType solver, int posIters, int64_t step) {
    Curve& c = curves[static_cast<int>(solver)];
    if (c.step == step && c.residuals.size() == r.size()) return;
    c.residuals.assign(r.begin(), r.end());
    c.posIters = posIters;
    c.step = step;
}

void ConvergenceHistory::clear() {
    for (Curve& c : curves) c = Curve{};
}

}  // namespace jl::app
