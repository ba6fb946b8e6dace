// Telemetry in the app: the CSV export writes Telemetry::csv atomically; plot names and lists;
// the convergence history keeps the last curve of each solver.
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../engine/test_files.h"
#include "headless_imgui.h"
#include "jointlab/telemetry.h"
#include "plot_frame.h"
#include "telemetry/plot_setup.h"
#include "telemetry/telemetry_export.h"
#include "telemetry/telemetry_plots.h"

namespace fs = std::filesystem;

namespace jl::app {
namespace {

Scene hangingScene() {
    Scene s;
    BodyDesc b;
    b.name = "weight";
    b.position = Vec3(0, 1.5, 0);
    s.bodies.push_back(b);
    JointDesc j;
    j.name = "hook";
    j.params = makeJointParams(findJointType("spherical"));
    j.body1 = "weight";
    j.frame0.p = Vec3(0, 2, 0);
    j.frame1.p = Vec3(0, 0.5, 0);
    s.joints.push_back(j);
    return s;
}

using test::TempDir;

TEST(TelemetryExport, CsvFileIsTheRecordedWindowAndReplacesTheOldFile) {
    World world(hangingScene());
    Telemetry t(30);
    for (int i = 0; i < 45; ++i) {
        world.step();
        t.record(world);
    }
    TempDir dir;
    const fs::path file = dir.path / "telemetry.csv";
    std::ofstream(file) << "old content that is longer than nothing\n";
    std::string error;
    ASSERT_TRUE(exportTelemetryCsv(t, world.scene(), file.string(), error)) << error;
    const std::string csv = test::readFile(file);
    EXPECT_EQ(csv, t.csv(world.scene()));
    EXPECT_EQ(csv.rfind(kTelemetryCsvHeader, 0), 0u);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 30 * 3);  // header + 30 steps × 3 rows
    EXPECT_EQ(dir.entries(), 1u) << "no temporary file left behind";
}

TEST(TelemetryExport, FailureSaysWhyAndLeavesNothing) {
    TempDir dir;
    std::string error;
    EXPECT_FALSE(writeFileAtomically((dir.path / "missing" / "x.csv").string(), "a", error));
    EXPECT_NE(error.find("missing/x.csv"), std::string::npos) << error;
    EXPECT_FALSE(writeFileAtomically(dir.path.string(), "a", error));
    EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
    EXPECT_FALSE(writeFileAtomically("", "a", error));
    if (geteuid() != 0) {  // root may write anywhere
        fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
        EXPECT_FALSE(writeFileAtomically((dir.path / "x.csv").string(), "a", error));
        fs::permissions(dir.path, fs::perms::owner_all);
    }
    EXPECT_EQ(dir.entries(), 0u) << "nothing created, no temporary file left";
}

TEST(TelemetryPlots, ListsSplitTrimAndGrowWithoutDuplicates) {
    EXPECT_EQ(splitList(" a, b ,,c "), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_TRUE(splitList("").empty());
    EXPECT_EQ(addToList("", "pivot"), "pivot");
    EXPECT_EQ(addToList("pivot", "hinge"), "pivot,hinge");
    EXPECT_EQ(addToList("pivot, hinge", "hinge"), "pivot, hinge");
}

TEST(TelemetryPlots, JointsByNameOrSelectionAndTitlesSayWhich) {
    Scene s = hangingScene();
    JointDesc second = s.joints[0];
    second.name = "second";
    s.joints.push_back(second);
    std::vector<int> joints;
    std::string missing;
    PlotDesc follow;  // no joints: follows the selection
    plotJoints(follow, s, 1, joints);
    EXPECT_EQ(joints, std::vector<int>{1});
    EXPECT_EQ(plotTitle(follow, s, 1), "Impulse per row \u2014 second (selected)");
    plotJoints(follow, s, -1, joints);
    EXPECT_TRUE(joints.empty());
    EXPECT_EQ(plotTitle(follow, s, -1), "Impulse per row \u2014 select a joint");
    Scene noJoints = s;  // a box stack: nothing to select
    noJoints.joints.clear();
    EXPECT_EQ(plotTitle(follow, noJoints, -1), "Impulse per row \u2014 no joints in this scene");
    PlotDesc named;
    named.kind = PlotKind::Force;
    named.joints = "second, gone,hook";
    plotJoints(named, s, 0, joints, &missing);
    EXPECT_EQ(joints, (std::vector<int>{1, 0}));
    EXPECT_EQ(missing, "gone");
    EXPECT_EQ(plotTitle(named, s, 0),
              "Force on body 1 vs break force \u2014 second, hook; no joint named gone");
    named.title = "My plot";
    EXPECT_EQ(plotTitle(named, s, 0), "My plot");
}

// Contact plots name bodies (or follow the selected body), and "+" on a contact row adds the body
// to the one contact plot of picked bodies.
TEST(TelemetryPlots, ContactPlotsNameBodiesOrFollowTheSelection) {
    Scene s = hangingScene();
    PlotDesc follow;
    follow.kind = PlotKind::Contact;
    std::vector<int> bodies;
    plotBodies(follow, s, 0, bodies);
    EXPECT_EQ(bodies, std::vector<int>{0});
    const std::string name = s.bodies[0].name;
    EXPECT_EQ(plotTitle(follow, s, -1, nullptr, 0),
              "Net contact force on the body \u2014 " + name + " (selected)");
    EXPECT_EQ(plotTitle(follow, s, -1, nullptr, -1), "Net contact force on the body \u2014 select a body");
    PlotDesc named = follow;
    named.bodies = name + ", nobody";
    std::string missing;
    plotBodies(named, s, -1, bodies, &missing);
    EXPECT_EQ(bodies, std::vector<int>{0});
    EXPECT_EQ(missing, "nobody");
    std::vector<PlotDesc> plots = withContactPlotted({}, "a");
    plots = withContactPlotted(plots, "b");
    ASSERT_EQ(plots.size(), 1u);
    EXPECT_EQ(plots[0].kind, PlotKind::Contact);
    EXPECT_EQ(plots[0].bodies, "a,b");
}

TEST(TelemetryPlots, ConvergenceHistoryKeepsTheLastCurveOfEachSolver) {
    Scene s = hangingScene();
    World world(s);
    Telemetry t(10);
    ConvergenceHistory h;
    world.step();
    t.record(world);
    h.update(t, SolverType::PGS, s.settings.posIters);
    world.settings().solver = SolverType::TGS;
    world.step();
    t.record(world);
    h.update(t, SolverType::TGS, s.settings.posIters);
    EXPECT_EQ(h.curves[0].step, 1);
    EXPECT_EQ(h.curves[1].step, 2);
    EXPECT_EQ(h.curves[0].residuals.size(), size_t(s.settings.posIters + s.settings.velIters));
    EXPECT_EQ(h.curves[1].residuals, t.latest().residuals);
    h.clear();
    EXPECT_EQ(h.curves[0].step, -1);
}

}  // namespace
}  // namespace jl::app

#include "telemetry/plot_setup.h"

namespace jl::app {
namespace {

TEST(PlotSetup, ScenesWithoutPlotsShowTheDefaults) {
    Scene s = hangingScene();
    const std::vector<PlotDesc> shown = shownPlots(s);
    ASSERT_EQ(shown.size(), 4u);
    EXPECT_EQ(shown[0].kind, PlotKind::Impulse);
    EXPECT_TRUE(shown[0].joints.empty()) << "the defaults follow the selected joint";
    EXPECT_EQ(shown[3].kind, PlotKind::Convergence);
    EXPECT_TRUE(shown[3].logScale);
    s.plots.push_back(PlotDesc{});
    EXPECT_EQ(shownPlots(s).size(), 1u);
}

TEST(PlotSetup, PlusPlotOnARowFillsOnePlotOfPickedRows) {
    std::vector<PlotDesc> plots = withRowPlotted(defaultPlots(), "hook", "linear Y lock");
    ASSERT_EQ(plots.size(), 5u);
    EXPECT_EQ(plots[4].kind, PlotKind::Impulse);
    EXPECT_EQ(plots[4].joints, "hook");
    EXPECT_EQ(plots[4].rows, "linear Y lock");
    plots = withRowPlotted(plots, "pivot", "twist lock");
    plots = withRowPlotted(plots, "hook", "linear Y lock");  // twice: no duplicates
    ASSERT_EQ(plots.size(), 5u);
    EXPECT_EQ(plots[4].joints, "hook,pivot");
    EXPECT_EQ(plots[4].rows, "linear Y lock,twist lock");
    plots = withRowPlotted(plots, "hook", "linear X lock", PlotKind::Error);
    EXPECT_EQ(plots.size(), 6u);
    EXPECT_EQ(plots[5].kind, PlotKind::Error);
}

TEST(PlotSetup, PlusPlotOnAJointOverlaysItOnTheLoadPlot) {
    std::vector<PlotDesc> plots = withJointPlotted({}, "hook");
    plots = withJointPlotted(plots, "pivot");
    ASSERT_EQ(plots.size(), 1u);
    EXPECT_EQ(plots[0].kind, PlotKind::Force);
    EXPECT_EQ(plots[0].joints, "hook,pivot");
    plots = withRowPlotted(plots, "hook", "linear Y lock");
    plots = withJointPlotted(plots, "pivot", PlotKind::Impulse);  // not into the picked-rows plot
    EXPECT_EQ(plots.size(), 3u);
    EXPECT_EQ(plots[2].joints, "pivot");
    EXPECT_TRUE(plots[2].rows.empty());
}

// Issue 7: "mouse spring" in a force plot's joint list plots the recorded spring force.
TEST(TelemetryPlots, TheMouseSpringIsPlottedLikeAJointsForce) {
    const Scene s = hangingScene();
    World w(s);
    Telemetry t(600);
    for (int i = 0; i < 120; ++i) {
        w.step();
        PullSample pull;
        pull.active = i >= 60 && i < 90;  // dragged for half a second
        pull.body = 0;
        pull.force = Vec3(0.0, 0.0, pull.active ? 5.0 + (i == 75 ? 40.0 : 0.0) : 0.0);  // one strong tug
        t.record(w, 0.0, pull);
    }
    PlotDesc p;
    p.kind = PlotKind::Force;
    p.joints = kMouseSpring;
    EXPECT_TRUE(plotsMouseSpring(p, s));
    EXPECT_EQ(plotTitle(p, s, 0), "Mouse spring force");
    std::vector<int> joints;
    std::string missing;
    plotJoints(p, s, 0, joints, &missing);
    EXPECT_TRUE(joints.empty());
    EXPECT_TRUE(missing.empty());  // not "no joint named mouse spring"
    p.joints = "hook, mouse spring";
    EXPECT_EQ(plotTitle(p, s, 0), "Force on body 1 vs break force \u2014 hook, mouse spring");
    PlotDesc torque = p;
    torque.kind = PlotKind::Torque;
    EXPECT_FALSE(plotsMouseSpring(torque, s));

    test::HeadlessImGui imgui(ImVec2(800, 400));
    plot::Context ctx;
    test::drawPlotFrame(ctx, p, t, w);
    EXPECT_EQ(ctx.last.seriesDrawn, 2);  // the joint and the spring
    EXPECT_GE(ctx.last.y.max, 45.0);     // the tug is in the picture
    EXPECT_LT(ctx.last.y.max, 60.0);
}

}  // namespace
}  // namespace jl::app
