#include "panels/plots_state.h"

#include "plot/plot.h"

namespace jl::app {

PlotWidgetState::PlotWidgetState() : context_(std::make_unique<plot::Context>()) {}
PlotWidgetState::~PlotWidgetState() = default;

}  // namespace jl::app
