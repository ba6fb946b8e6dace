// JointLab app — what the telemetry plots remember between frames: the last convergence curve of
// each solver and the row labels of the plotted joints. No ImGui here, so the app's state
// (shell/app_state.h) can hold them without the widget's headers; defined in telemetry_plots.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "jointlab/telemetry.h"

namespace jl::app {

/// The last residual curve of each solver, so that switching between PGS and TGS shows both
/// convergence curves on the same axes.
struct ConvergenceHistory {
    struct Curve {
        std::vector<double> residuals;  ///< one per sweep: position sweeps, then velocity sweeps [m/s]
        int posIters = 0;
        int64_t step = -1;  ///< step the curve comes from; -1 = none yet
    };
    Curve curves[2];  ///< indexed by SolverType

    /// Takes the newest recorded step as `solver`'s curve (the solver that ran it).
    void update(const Telemetry& telemetry, SolverType solver, int posIters);
    /// Takes the world's last step as its solver's curve (a step gone back to on the timeline,
    /// which is not the newest recorded one). Nothing when the world has taken no step.
    void update(const World& world);
    /// The stepper (jointlab/step_inspector.h): step `step`'s curve as far as its sweeps are done.
    void showSweeps(std::span<const Real> residuals, SolverType solver, int posIters, int64_t step);
    void clear();
};

/// The MuJoCo reference run's record (session/mujoco_reference.h) as the mujoco and divergence plots
/// read it: one sample per live step since the reference (re)started. Empty `steps` with a
/// `status` = the reference is off or refused (status says which and why).
struct ReferenceRecordView {
    std::span<const int64_t> steps;       ///< the live step of each sample
    std::span<const Real> divergence;     ///< per sample: the largest body distance [m]
    std::span<const Real> coordinates;    ///< per sample, per joint: JointLab's, then MuJoCo's
    std::span<const std::string> joints;  ///< the compared joints' names, in coordinates' order
    std::string status;                   ///< "" while running; else why there is nothing to plot
};

/// The labels of the rows each joint produced in the recorded window, kept up to date from the
/// steps recorded since the last call (a whole window is 600 steps of several hundred rows).
class RowLabelIndex {
public:
    /// Labels of the rows `joint` produced anywhere in t's window: the newest step's, in its row
    /// order, then the others from older steps.
    /// Each call reads only the steps recorded since the last call for that joint, however many
    /// joints are plotted (an entry per joint index, no cap).
    void labels(const Telemetry& t, int joint, std::vector<const char*>& out);
    /// Forgets every joint (their indices changed, or another record is read).
    void clear() { entries_.clear(); }

private:
    struct Entry {
        int64_t next = -1;                                  ///< serial of the next step to read
        std::vector<std::pair<const char*, int64_t>> seen;  ///< label, serial of the newest step with it
    };
    const Telemetry* telemetry_ = nullptr;  ///< the record the entries describe
    std::vector<Entry> entries_;            ///< by joint index
};

}  // namespace jl::app
