// JointLab app — what the Plots dock keeps between frames (the plot set-up itself is in
// Scene::plots and changes only through undoable edits).
#pragma once

#include <cstdint>
#include <glm/vec2.hpp>
#include <memory>
#include <string>

#include "telemetry/plot_history.h"

namespace jl::plot {
struct Context;
}

namespace jl::app {

/// Owns the plot widget's state (plot::Context: per-plot ImGui ids, fixed ranges, hidden series).
/// Held through a pointer so that this header, and shell/app_state.h with it, need no <imgui.h>;
/// plot/plot.h defines the Context, plots_state.cpp the members.
class PlotWidgetState {
public:
    PlotWidgetState();
    ~PlotWidgetState();
    PlotWidgetState(const PlotWidgetState&) = delete;
    PlotWidgetState& operator=(const PlotWidgetState&) = delete;

    plot::Context& context() { return *context_; }
    /// Forgets every plot's state (a new document).
    void reset();

private:
    std::unique_ptr<plot::Context> context_;
};

/// A plot being saved as PNG. The request comes from the plot's menu in one frame; in the next
/// the plot is drawn without menu or readout, its screen rectangle noted, and after that frame is
/// rendered the App reads those pixels back (savePlotImage).
struct PlotImageRequest {
    int plot = -1;                   ///< index in the shown plots; -1 = none
    bool drawn = false;              ///< drawn clean this frame: read back after rendering
    glm::vec2 min{0.0f}, max{0.0f};  ///< its rectangle this frame [ImGui pixels]
    std::string path;
};

struct PlotsPanelState {
    PlotWidgetState plots;           ///< the widget's state (hidden series, fixed ranges)
    ConvergenceHistory convergence;  ///< last residual curve of PGS and of TGS
    RowLabelIndex rowLabels;         ///< the row labels of each plotted joint in the recorded window
    float dockHeight = 0.0f;         ///< height of the dock under the viewport; 0 = default share
    double windowSeconds = 10.0;     ///< time shown by the time plots [s]
    double recordSeconds = 10.0;     ///< length of the telemetry record [s] (applied between frames)
    std::string csvPath = "jointlab-telemetry.csv";
    PlotImageRequest image;
    std::string savedImage;        ///< the last plot image written ("" = none yet)
    uint64_t telemetryLayout = 0;  ///< Simulation::telemetryLayout() the row labels were read under
    int shownPlots = 0;            ///< plots drawn last frame (a new one is scrolled into view)

    /// Another document was opened: nothing of the last one's run stays on screen (its
    /// convergence curves, its row labels, the plot widget's per-plot state).
    void forgetRun();
};

}  // namespace jl::app
