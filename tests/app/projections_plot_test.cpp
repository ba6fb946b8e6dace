// The projections plot (PlotKind::Projections, telemetry/telemetry_plots.cpp): per joint the times
// it was projected in each step and their total, the same numbers as the CSV's `projections`
// column, on a scene whose top joint projects (a 100 kg ball hung through a 1 g link, two position
// iterations: the solver cannot hold it, projection snaps the joint back).
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "headless_imgui.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "plot_frame.h"
#include "telemetry/telemetry_plots.h"

namespace jl::app {
namespace {

Scene heavyLoad() {
    Scene s;
    s.settings.groundPlane = false;
    s.settings.posIters = 2;
    s.settings.velIters = 1;
    BodyDesc link;
    link.name = "link";
    link.shape = ShapeType::Sphere;
    link.radius = 0.05;
    link.mass = 0.001;
    link.position = Vec3(0.0, -0.5, 0.0);
    BodyDesc ball = link;
    ball.name = "ball";
    ball.radius = 0.2;
    ball.mass = 100.0;
    ball.position = Vec3(0.6, -1.0, 0.0);
    ball.linearVelocity = Vec3(0.0, 0.0, 3.0);
    s.bodies = {link, ball};
    JointDesc top;
    top.name = "top";
    top.body1 = "link";
    top.params = SphericalJoint{};
    top.frame0.p = Vec3(0.0);
    top.frame1.p = Vec3(0.0, 0.5, 0.0);  // the world's origin, in the link's frame
    top.projection.enabled = true;
    top.projection.linearTolerance = 0.01;
    JointDesc bottom;
    bottom.name = "bottom";
    bottom.body0 = "link";
    bottom.body1 = "ball";
    bottom.params = SphericalJoint{};
    bottom.frame0.p = Vec3(0.0);
    bottom.frame1.p = Vec3(-0.6, 0.5, 0.0);  // the link's centre, in the ball's frame
    s.joints = {top, bottom};
    return s;
}

TEST(ProjectionsPlot, CountsWhatTheCsvCounts) {
    const Scene s = heavyLoad();
    ASSERT_EQ(validateScene(s), "");
    World w(s);
    Telemetry t(400);
    int csvTotal = 0, plotTotal = 0, stepsWithOne = 0;
    for (int n = 0; n < 300; ++n) {
        w.step();
        t.record(w);
        const StepSample& sample = t.latest();
        // The CSV's rows of this step: one per joint row, each carrying its joint's projections
        // (column 17, `projections`; column 3, `joint`).
        std::string csv;
        appendCsvRows(s, sample, csv);
        int perJoint[2] = {-1, -1};
        std::istringstream lines(csv);
        for (std::string lineText; std::getline(lines, lineText);) {
            std::vector<std::string> f;
            std::stringstream fields(lineText);
            for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
            ASSERT_GT(f.size(), 16u);
            const int j = f[2] == "top" ? 0 : f[2] == "bottom" ? 1 : -1;
            ASSERT_GE(j, 0) << lineText;
            const int p = std::stoi(f[16]);
            if (perJoint[j] >= 0) EXPECT_EQ(perJoint[j], p) << "one value per joint and step";
            perJoint[j] = p;
        }
        ASSERT_GE(perJoint[0], 0);
        ASSERT_GE(perJoint[1], 0);
        EXPECT_EQ(projectionCount(sample, 0), perJoint[0]) << "step " << n + 1;
        EXPECT_EQ(projectionCount(sample, 1), perJoint[1]) << "step " << n + 1;
        EXPECT_EQ(projectionCount(sample, -1), perJoint[0] + perJoint[1]) << "step " << n + 1;
        EXPECT_TRUE(std::isnan(projectionCount(sample, 2))) << "no such joint";
        csvTotal += perJoint[0] + perJoint[1];
        plotTotal += static_cast<int>(projectionCount(sample, -1));
        stepsWithOne += perJoint[0];
    }
    std::printf("projections over 300 steps: %d in the CSV, %d in the plot's total\n", csvTotal, plotTotal);
    EXPECT_EQ(plotTotal, csvTotal);
    EXPECT_GT(stepsWithOne, 10) << "the top joint projects";

    // Drawn: one series per joint, and the total when there are several.
    PlotDesc p;
    p.kind = PlotKind::Projections;
    p.joints = "top,bottom";
    EXPECT_EQ(plotTitle(p, s, -1), "Projections per step \u2014 top, bottom");
    PlotDesc all;
    all.kind = PlotKind::Projections;
    EXPECT_EQ(plotTitle(all, s, -1), "Projections per step \u2014 total over every joint");
    test::HeadlessImGui imgui(ImVec2(800, 400));
    plot::Context ctx;
    test::drawPlotFrame(ctx, p, t, w);
    EXPECT_EQ(ctx.building.series.size(), 3u);  // top, bottom, total
    EXPECT_EQ(ctx.last.seriesDrawn, 3);
    EXPECT_GE(ctx.last.y.max, 1.0);  // a projecting step is in view
}

}  // namespace
}  // namespace jl::app
