#include "telemetry/plot_setup.h"

#include "telemetry/telemetry_plots.h"

namespace jl::app {

std::vector<PlotDesc> defaultPlots() {
    std::vector<PlotDesc> plots(4);
    plots[0].kind = PlotKind::Impulse;
    plots[1].kind = PlotKind::Error;
    plots[2].kind = PlotKind::Energy;
    plots[3].kind = PlotKind::Convergence;
    plots[3].logScale = true;
    return plots;
}

std::vector<PlotDesc> shownPlots(const Scene& scene) {
    return scene.plots.empty() ? defaultPlots() : scene.plots;
}

std::vector<PlotDesc> withRowPlotted(std::vector<PlotDesc> plots, const std::string& joint,
                                     const std::string& row, PlotKind kind) {
    for (PlotDesc& p : plots) {
        if (p.kind != kind || p.joints.empty() || p.rows.empty()) continue;
        p.joints = addToList(p.joints, joint);
        p.rows = addToList(p.rows, row);
        return plots;
    }
    PlotDesc p;
    p.kind = kind;
    p.joints = joint;
    p.rows = row;
    plots.push_back(p);
    return plots;
}

std::vector<PlotDesc> withJointPlotted(std::vector<PlotDesc> plots, const std::string& joint, PlotKind kind) {
    const bool rowKind = kind == PlotKind::Impulse || kind == PlotKind::Error;
    for (PlotDesc& p : plots) {
        if (p.kind != kind || p.joints.empty() || (rowKind && !p.rows.empty())) continue;
        p.joints = addToList(p.joints, joint);
        return plots;
    }
    PlotDesc p;
    p.kind = kind;
    p.joints = joint;
    plots.push_back(p);
    return plots;
}

std::vector<PlotDesc> withContactPlotted(std::vector<PlotDesc> plots, const std::string& body) {
    for (PlotDesc& p : plots) {
        if (p.kind != PlotKind::Contact || p.bodies.empty()) continue;
        p.bodies = addToList(p.bodies, body);
        return plots;
    }
    PlotDesc p;
    p.kind = PlotKind::Contact;
    p.bodies = body;
    plots.push_back(p);
    return plots;
}

}  // namespace jl::app
