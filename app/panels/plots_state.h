// JointLab app — what the Plots dock keeps between frames (the plot set-up itself is in
// Scene::plots and changes only through undoable edits).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "plot/plot.h"
#include "telemetry/telemetry_plots.h"

namespace jl::app {

/// A plot being saved as PNG. The request comes from the plot's menu in one frame; in the next
/// the plot is drawn without menu or readout, its screen rectangle noted, and after that frame is
/// rendered the App reads those pixels back (savePlotImage).
struct PlotImageRequest {
    int plot = -1;       ///< index in the shown plots; -1 = none
    bool drawn = false;  ///< drawn clean this frame: read back after rendering
    ImVec2 min, max;     ///< its rectangle this frame [ImGui pixels]
    std::string path;
};

struct PlotsPanelState {
    plot::Context plots;             ///< the widget's state (hidden series, fixed ranges)
    ConvergenceHistory convergence;  ///< last residual curve of PGS and of TGS
    RowLabelIndex rowLabels;         ///< the row labels of each plotted joint in the recorded window
    float dockHeight = 0.0f;         ///< height of the dock under the viewport; 0 = default share
    double windowSeconds = 10.0;     ///< time shown by the time plots [s]
    double recordSeconds = 10.0;     ///< length of the telemetry record [s] (applied between frames)
    std::string csvPath = "jointlab-telemetry.csv";
    PlotImageRequest image;
    std::string savedImage;  ///< the last plot image written ("" = none yet)
};

}  // namespace jl::app
