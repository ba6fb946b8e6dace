#include "panels/plots_state.h"

#include "plot/plot.h"

namespace jl::app {

PlotWidgetState::PlotWidgetState() : context_(std::make_unique<plot::Context>()) {}
PlotWidgetState::~PlotWidgetState() = default;

void PlotWidgetState::reset() {
    context_ = std::make_unique<plot::Context>();
}

void PlotsPanelState::forgetRun() {
    plots.reset();
    convergence.clear();
    rowLabels.clear();
    image = PlotImageRequest{};
}

}  // namespace jl::app
