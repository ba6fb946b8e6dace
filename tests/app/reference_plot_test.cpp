// The reference plot (PlotKind::Reference, telemetry/telemetry_plots.cpp): the simulated quantity,
// its closed form drawn dashed and, when asked, their difference, read from the telemetry.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "headless_imgui.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "plot_frame.h"
#include "telemetry/telemetry_plots.h"

namespace jl::app {
namespace {

TEST(ReferencePlot, DrawsTheSimulationTheDashedClosedFormAndTheirDifference) {
    Scene s;
    std::string error;
    ASSERT_TRUE(
        loadScenario(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/drive_step.json", s, error))
        << error;
    ASSERT_EQ(s.references.size(), 2u);
    World w(s);
    Telemetry t(600);
    for (int n = 0; n < 120; ++n) {
        w.step();
        t.record(w);
    }
    ASSERT_EQ(t.latest().references.size(), 2u);
    // The recorded closed form is the engine's: the recurrence equals the simulation.
    EXPECT_NEAR(t.latest().references[1].simulated, t.latest().references[1].reference, 1e-12);

    PlotDesc p;
    p.kind = PlotKind::Reference;
    p.reference = "continuous";
    p.difference = true;
    EXPECT_EQ(findReference(s, "continuous"), 0);
    EXPECT_EQ(plotTitle(p, s, -1), "Simulated vs closed form \u2014 continuous");
    PlotDesc missing = p;
    missing.reference = "nope";
    EXPECT_EQ(plotTitle(missing, s, -1), "Simulated vs closed form \u2014 no reference named \"nope\"");

    test::HeadlessImGui imgui(ImVec2(800, 400));
    plot::Context ctx;
    test::drawPlotFrame(ctx, p, t, w);
    ASSERT_EQ(ctx.building.series.size(), 3u);  // simulated, closed form, difference
    EXPECT_FALSE(ctx.building.series[0].dashed);
    EXPECT_TRUE(ctx.building.series[1].dashed);
    EXPECT_FALSE(ctx.building.series[2].dashed);
    EXPECT_EQ(ctx.last.seriesDrawn, 3);
    EXPECT_GE(ctx.last.y.max, 0.7);  // the overshoot (0.70 simulated, 0.76 continuous) is in view
    EXPECT_LT(ctx.last.y.min, 0.0);  // and the difference goes below zero
}

}  // namespace
}  // namespace jl::app
