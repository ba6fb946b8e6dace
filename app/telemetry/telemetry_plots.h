// JointLab app — plots of the recorded telemetry: turns a PlotDesc (what to show, saved in the
// scenario) and the Telemetry ring buffer into calls of the plot widget. Shared by the Plots panel
// and the telemetry benchmark, so the benchmark measures the code the app runs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "jointlab/telemetry.h"
#include "plot/plot.h"

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
    void clear();
};

/// What a plot reads besides its description.
struct PlotInputs {
    const Telemetry* telemetry = nullptr;
    const World* world = nullptr;  ///< its scene's joint indices are the telemetry's
    const ConvergenceHistory* convergence = nullptr;
    int selectedJoint = -1;        ///< the joint plots with no joints of their own follow
    double windowSeconds = 10.0;   ///< width of the moving time window
    plot::PlotFlags flags = plot::PlotFlags_None;
    /// Storage reused from frame to frame for plots that gather many series at once (optional:
    /// without it they allocate).
    std::vector<double>* scratch = nullptr;
};

/// Joint indices a plot shows: its named joints, or the selected joint when it names none.
/// Names with no joint are appended to `missing` (comma-separated) when given.
void plotJoints(const PlotDesc& desc, const Scene& scene, int selectedJoint, std::vector<int>& out,
                std::string* missing = nullptr);

/// The title shown above a plot: desc.title, or one made from the kind and the joints (the first
/// few of them and how many more).
std::string plotTitle(const PlotDesc& desc, const Scene& scene, int selectedJoint);

/// Splits a comma-separated list, trimming spaces around each item; empty items are dropped.
std::vector<std::string> splitList(const std::string& list);
/// Adds `item` to a comma-separated list unless it is there already; returns the new list.
std::string addToList(const std::string& list, const std::string& item);

/// Draws the plot `desc` (with "##id" making its ImGui id unique). Returns false when clipped.
/// `logScale` is the value-axis scale, switchable from the plot's menu.
bool drawTelemetryPlot(plot::Context& ctx, const char* id, const PlotDesc& desc, const PlotInputs& in,
                       const ImVec2& size, bool* logScale);

}  // namespace jl::app
