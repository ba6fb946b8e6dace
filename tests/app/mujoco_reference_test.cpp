// Simulation > Reference: MuJoCo (session/mujoco_reference.h) following a live Simulation through
// its onSync: it steps with the run, goes back with it, rebuilds after an edit, and refuses a
// scene whose joints close a loop, saying which joint.
#include "session/mujoco_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <glm/geometric.hpp>

#include "headless_imgui.h"
#include "jointlab/scenario_io.h"
#include "plot_frame.h"
#include "session/simulation.h"
#include "telemetry/telemetry_plots.h"

namespace jl::app {
namespace {

Scene example(const char* name) {
    Scene s;
    std::string error;
    EXPECT_TRUE(loadScenario(
        (std::filesystem::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios" / name).string(), s, error))
        << error;
    return s;
}

struct Followed {
    Simulation sim;
    MujocoReference reference;
    Followed() {
        sim.onSync = [this](const World& w, bool jumped) { reference.sync(w, jumped, sim.sceneRevision()); };
    }
    void steps(int n) {
        sim.clock.playing = true;
        for (int i = 0; i < n; ++i) sim.advance(sim.scene().settings.dt);
    }
};

TEST(MujocoReference, FollowsTheLiveRunBackAndThroughAnEdit) {
    if (!MujocoReference::available()) GTEST_SKIP() << "built without MuJoCo";
    Followed f;
    std::string error;
    ASSERT_TRUE(f.sim.setScene(example("reference_arm.json"), "", error)) << error;
    f.reference.setEnabled(true, f.sim.world(), f.sim.sceneRevision());
    ASSERT_TRUE(f.reference.running()) << f.reference.refusal();
    ASSERT_EQ(f.reference.jointNames(), (std::vector<std::string>{"shoulder", "elbow", "wrist"}));
    f.steps(30);
    ASSERT_EQ(f.reference.sampleCount(), 30u);
    EXPECT_EQ(f.reference.sampleStep(29), 30);
    // The first step from rest: semi-implicit Euler moves a coordinate by a·h² in one step, TGS's
    // 8 substeps by a·h²·(1 + 2 + … + 8)/64 = 0.5625·a·h² (the exact motion is 0.5·a·h²). So
    // MuJoCo's shoulder has turned 1/0.5625 = 1.78 times as far as JointLab's (measured 1.79: the
    // constraints shift a a little within the step).
    EXPECT_NEAR(f.reference.sampleMujoco(0, 0) / f.reference.sampleJointlab(0, 0), 64.0 / 36.0,
                0.05 * 64.0 / 36.0);
    // The ghost has a pose per scene body, the static post where the scene puts it.
    ASSERT_EQ(f.reference.bodies().size(), f.sim.scene().bodies.size());
    EXPECT_EQ(f.reference.bodies()[0].pose.p, f.sim.scene().bodies[0].position);

    // Back to step 10 on the timeline: the record keeps the steps up to it, MuJoCo starts again
    // from the live state there (no divergence but JointLab's joint error).
    ASSERT_TRUE(f.sim.seekStep(10));
    EXPECT_EQ(f.reference.sampleCount(), 10u);
    f.steps(1);
    EXPECT_EQ(f.reference.sampleStep(f.reference.sampleCount() - 1), 11);
    EXPECT_LT(f.reference.sampleDivergence(f.reference.sampleCount() - 1), 2e-3);

    // An edit rebuilds MuJoCo's model: a heavier hand is a new scene revision.
    Scene edited = f.sim.scene();
    edited.bodies[3].mass = 5.0;
    ASSERT_TRUE(f.sim.applyEdit(edited, {}, {}, error)) << error;
    EXPECT_TRUE(f.reference.running());
    EXPECT_EQ(f.reference.sampleCount(), 0u);  // a new model, a new record
    f.steps(5);
    EXPECT_EQ(f.reference.sampleCount(), 5u);

    f.reference.setEnabled(false, f.sim.world(), f.sim.sceneRevision());
    f.steps(2);
    EXPECT_FALSE(f.reference.running());
    EXPECT_EQ(f.reference.sampleCount(), 0u);
}

TEST(MujocoReference, RefusesALoopAndTriesAgainAfterAnEdit) {
    if (!MujocoReference::available()) GTEST_SKIP() << "built without MuJoCo";
    Followed f;
    std::string error;
    Scene bridge = example("bridge.json");
    bridge.joints.pop_back();  // the crate's rope (a distance joint): only the loop is left
    ASSERT_TRUE(f.sim.setScene(bridge, "", error)) << error;
    f.reference.setEnabled(true, f.sim.world(), f.sim.sceneRevision());
    EXPECT_TRUE(f.reference.enabled());
    EXPECT_FALSE(f.reference.running());
    EXPECT_NE(f.reference.refusal().find("\"joint 5\" closes a loop"), std::string::npos)
        << f.reference.refusal();
    f.steps(3);  // nothing runs, nothing breaks
    EXPECT_EQ(f.reference.sampleCount(), 0u);
    // Take out the far anchor: a hanging chain, a tree. The edit starts the reference.
    Scene edited = f.sim.scene();
    edited.joints.erase(edited.joints.begin() + static_cast<std::ptrdiff_t>(edited.findJoint("joint 10")));
    ASSERT_TRUE(f.sim.applyEdit(edited, {}, {}, error)) << error;
    EXPECT_TRUE(f.reference.running()) << f.reference.refusal();
    EXPECT_TRUE(f.reference.refusal().empty());
}

// The Plots tab's mujoco and divergence plots (PlotKind::Mujoco, PlotKind::Divergence) read the
// reference's record: each named joint's angle in JointLab (solid) and MuJoCo (dashed, the same
// colour), and the largest body distance, which the test recomputes from the two sides' poses.
TEST(MujocoReference, PlotsOverlayEachJointInBothAndTheDivergence) {
    if (!MujocoReference::available()) GTEST_SKIP() << "built without MuJoCo";
    Followed f;
    std::string error;
    ASSERT_TRUE(f.sim.setScene(example("reference_arm.json"), "", error)) << error;

    test::HeadlessImGui imgui(ImVec2(800, 400));
    plot::Context ctx;
    PlotDesc angles;
    angles.kind = PlotKind::Mujoco;
    angles.joints = "shoulder,wrist";
    PlotDesc divergence;
    divergence.kind = PlotKind::Divergence;
    auto draw = [&](const PlotDesc& desc, const ReferenceRecordView& view) {
        PlotInputs in;
        in.telemetry = &f.sim.telemetry();
        in.world = f.sim.world();
        in.mujoco = &view;
        test::drawPlotFrame(ctx, desc, in);
    };

    // Off: no series, and the title says why.
    f.steps(2);
    ReferenceRecordView off = f.reference.recordView();
    EXPECT_EQ(off.status, "off (Simulation > Reference: MuJoCo)");
    draw(angles, off);
    EXPECT_EQ(ctx.building.series.size(), 0u);
    EXPECT_EQ(std::string(ctx.building.label(ctx.building.title))
                  .rfind("Joint angle vs MuJoCo (dashed): off (Simulation > Reference: MuJoCo)", 0),
              0u);

    f.reference.setEnabled(true, f.sim.world(), f.sim.sceneRevision());
    ASSERT_TRUE(f.reference.running()) << f.reference.refusal();
    f.steps(60);
    ASSERT_EQ(f.reference.sampleCount(), 60u);
    const ReferenceRecordView view = f.reference.recordView();
    EXPECT_TRUE(view.status.empty()) << view.status;
    draw(angles, view);
    const auto& b = ctx.building;
    ASSERT_EQ(b.series.size(), 4u);  // shoulder in both, wrist in both
    const Real dt = f.sim.scene().settings.dt;
    for (size_t s = 0; s < 4; ++s) {
        const size_t joint = s < 2 ? 0 : 2;  // shoulder, wrist: compared joints 0 and 2
        const bool mujoco = s % 2 == 1;
        EXPECT_EQ(b.series[s].dashed, mujoco);
        EXPECT_EQ(b.series[s].color, b.series[s & ~size_t(1)].color);
        ASSERT_EQ(b.series[s].count, 60);
        const plot::Point* p = b.pointsOf(b.series[s]);
        for (size_t i = 0; i < 60; ++i) {
            EXPECT_DOUBLE_EQ(p[i].x, static_cast<double>(f.reference.sampleStep(i)) * dt);
            EXPECT_EQ(p[i].y,
                      mujoco ? f.reference.sampleMujoco(i, joint) : f.reference.sampleJointlab(i, joint));
        }
    }
    EXPECT_NE(b.series[0].color, b.series[2].color);
    // The arm falls from straight out: after 1 s both shoulders have turned, the same way.
    const plot::Point* jl = b.pointsOf(b.series[0]);
    const plot::Point* mj = b.pointsOf(b.series[1]);
    EXPECT_GT(std::abs(jl[59].y), 0.1);
    EXPECT_GT(jl[59].y * mj[59].y, 0.0);

    draw(divergence, view);
    ASSERT_EQ(b.series.size(), 1u);
    ASSERT_EQ(b.series[0].count, 60);
    // The last point is the largest distance between a dynamic body's centre in the two engines.
    Real largest = 0.0;
    const World& w = *f.sim.world();
    for (size_t i = 0; i < w.scene().bodies.size(); ++i)
        if (w.scene().bodies[i].motion == MotionType::Dynamic)
            largest = std::max(largest, glm::length(w.bodies()[i].pose.p - f.reference.bodies()[i].pose.p));
    EXPECT_GT(largest, 0.0);
    EXPECT_NEAR(b.pointsOf(b.series[0])[59].y, largest, 1e-12);
}

}  // namespace
}  // namespace jl::app
