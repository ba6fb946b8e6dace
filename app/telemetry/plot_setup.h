// JointLab app — the plot set-up: which plots the Plots panel shows and the one-click changes to
// it ("+ plot" on a row or a joint). Pure functions on PlotDesc lists; the panel turns the result
// into an undoable edit of Scene::plots.
#pragma once

#include <string>
#include <vector>

#include "jointlab/scene.h"

namespace jl::app {

/// What a scene without a saved set-up shows: impulse and geometric error per row of the selected
/// joint, energy, and the last step's convergence (log scale).
std::vector<PlotDesc> defaultPlots();

/// The plots shown for `scene`: its own, or the defaults when it has none.
std::vector<PlotDesc> shownPlots(const Scene& scene);

/// Adds (joint, row) to the plot of picked rows of `kind` (the first one of that kind naming its
/// own joints and rows), creating it when there is none.
std::vector<PlotDesc> withRowPlotted(std::vector<PlotDesc> plots, const std::string& joint,
                                     const std::string& row, PlotKind kind = PlotKind::Impulse);

/// Adds a joint to the plot of picked joints of `kind` (the first one of that kind naming its own
/// joints; for impulse and error plots only one showing every row), creating it when there is none.
std::vector<PlotDesc> withJointPlotted(std::vector<PlotDesc> plots, const std::string& joint,
                                       PlotKind kind = PlotKind::Force);

/// Adds a body to the contact plot of picked bodies (the first contact plot naming its own
/// bodies), creating it when there is none.
std::vector<PlotDesc> withContactPlotted(std::vector<PlotDesc> plots, const std::string& body);

}  // namespace jl::app
