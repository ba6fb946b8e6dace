// Opening an example shows every body clear of the panels (issue 31, point 1): at 1280×720 the
// floating tool bar covered the top fifth of the viewport and the scenario cameras of atwood,
// door_frame, mass_spring, lesson 08 and ragdoll_steps put bodies under it. CameraFit frames the
// scenario's camera into the part of the viewport that the tool bar and the timeline leave
// uncovered, moving it only when it has to and never turning it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "render/scene_bounds.h"
#include "session/simulation.h"
#include "shell/layout.h"
#include "viewport/camera.h"

namespace jl::app {
namespace {

namespace fs = std::filesystem;

struct Screen {
    float width, height, scale;
};
constexpr Screen kScreens[] = {{1280, 720, 1}, {1366, 768, 1}, {1920, 1080, 1}, {2560, 1440, 2}};

// What covers the viewport at UI scale 1 [px], from the style the panels draw with
// (panels/toolbar.cpp, panels/timeline.cpp, App::keepSceneInView): the tool bar sits 8 below the
// viewport's top, with 5 of padding around rows of 21 px frames 4 apart, and 4 of air under it:
// two rows (the buttons, then the hint: the select tool at 1280×720) cover 68, three (the joint
// tool with its combos) 93. The timeline is a 21 px frame with 6 above and below, and 4 of air: 37.
constexpr float kToolbarCovers[] = {8 + 5 + 21 + 4 + 21 + 5 + 4, 8 + 5 + 21 + 4 + 21 + 4 + 21 + 5 + 4};
constexpr float kTimelineCover = 21 + 12 + 4;

std::vector<std::string> examples() {
    std::vector<std::string> files;
    for (const char* dir : {"/assets/scenarios", "/assets/scenarios/lessons"})
        for (const fs::directory_entry& e : fs::directory_iterator(std::string(JOINTLAB_SOURCE_DIR) + dir))
            if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

/// Points on each outline sphere's surface (26 directions) or the point itself: checked one by one
/// with the viewport's projection, independently of how keepInArea measures.
std::vector<glm::vec3> surfacePoints(const std::vector<glm::vec4>& outlines) {
    std::vector<glm::vec3> points;
    for (const glm::vec4& s : outlines) {
        if (s.w == 0.0f) {
            points.emplace_back(s);
            continue;
        }
        for (int x = -1; x <= 1; ++x)
            for (int y = -1; y <= 1; ++y)
                for (int z = -1; z <= 1; ++z)
                    if (x || y || z)
                        points.push_back(glm::vec3(s) + s.w * glm::normalize(glm::vec3(x, y, z)));
    }
    return points;
}

/// How many of `points` show outside `area` grown by `slack` px on every side (1 px by default:
/// pixels are whole; a negative slack asks for that much room inside the edge).
int outside(const OrbitCamera& camera, const std::vector<glm::vec3>& points, float w, float h,
            const PanelRect& area, float slack = 1.0f) {
    const ViewportProjection p = ViewportProjection::of(camera, w, h);
    int n = 0;
    for (const glm::vec3& point : points) {
        glm::vec2 px;
        if (!p.toScreen(point, px) || px.x < area.x - slack || px.x > area.right() + slack ||
            px.y < area.y - slack || px.y > area.bottom() + slack)
            ++n;
    }
    return n;
}

TEST(ViewFit, EveryExampleOpensWithEveryBodyClearOfTheToolBarAndTheTimeline) {
    // How many examples the scenario's own camera leaves a body under a panel in, per screen and
    // tool bar (printed: the figures in docs/user-guide.md).
    int moved[std::size(kScreens)][std::size(kToolbarCovers)] = {};
    const std::vector<std::string> files = examples();
    for (const std::string& file : files) {
        SCOPED_TRACE(file);
        Simulation sim;
        std::string error;
        ASSERT_TRUE(sim.loadFile(file, error)) << error;
        const World& world = *sim.world();
        const std::vector<glm::vec4> outlines = bodyOutlines(world.scene(), world.bodies());
        ASSERT_FALSE(outlines.empty());
        const std::vector<glm::vec3> points = surfacePoints(outlines);
        const OrbitCamera authored = OrbitCamera::fromState(world.scene().camera);
        for (size_t si = 0; si < std::size(kScreens); ++si) {
            const Screen& s = kScreens[si];
            for (size_t ti = 0; ti < std::size(kToolbarCovers); ++ti) {
                const float toolbar = kToolbarCovers[ti];
                SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height) + " tool bar " +
                             std::to_string(toolbar));
                const PanelVisibility panels;
                const UiLayout l =
                    computeLayout(panels, s.width, s.height, LayoutMetrics{s.scale, 21.0f * s.scale},
                                  LayoutPrefs{}, 380.0f * s.scale);
                const PanelRect view = panelRects(l, panels, s.width, s.height).viewport;
                const PanelRect area =
                    uncoveredViewport(PanelRect{0.0f, 0.0f, view.w, view.h},
                                      ViewportCover{toolbar * s.scale, kTimelineCover * s.scale});
                CameraFit fit;
                fit.start(authored, outlines);
                OrbitCamera camera = authored;
                fit.update(camera, view.w, view.h, ViewportArea{area.x, area.y, area.right(), area.bottom()});
                EXPECT_EQ(outside(camera, points, view.w, view.h, area), 0);
                // The view keeps its direction; only the target and the distance move.
                EXPECT_EQ(camera.yaw, authored.yaw);
                EXPECT_EQ(camera.pitch, authored.pitch);
                const bool clear = outside(authored, points, view.w, view.h, area) == 0;
                // Clear with room to spare (26 points only approximate a sphere's outline): the
                // scenario's camera as it is.
                if (outside(authored, points, view.w, view.h, area, -2.0f) == 0) {
                    EXPECT_EQ(camera.target, authored.target);
                    EXPECT_EQ(camera.distance, authored.distance);
                }
                // Not moved back further than it takes: the scene then no longer spans the area,
                // and never more than twice the scenario's distance (the farthest any example needs
                // is about 1.5 times).
                EXPECT_LE(camera.distance, 2.0f * authored.distance);
                moved[si][ti] += !clear;
            }
        }
    }
    for (size_t si = 0; si < std::size(kScreens); ++si)
        for (size_t ti = 0; ti < std::size(kToolbarCovers); ++ti)
            std::printf(
                "[ ViewFit ] %gx%g scale %g, tool bar %g px: the scenario's camera hid a body in %d of %zu\n",
                kScreens[si].width, kScreens[si].height, kScreens[si].scale, kToolbarCovers[ti],
                moved[si][ti], files.size());
}

TEST(ViewFit, TheFitFollowsTheViewportUntilThePersonMovesTheCamera) {
    // A 1 m box 3 m up, seen level from 6 m: its top is under a tool bar covering a third.
    OrbitCamera authored;
    authored.target = glm::vec3(0.0f, 1.0f, 0.0f);
    authored.distance = 6.0f;
    authored.yaw = authored.pitch = 0.0f;
    std::vector<glm::vec4> box;
    for (int c = 0; c < 8; ++c)
        box.emplace_back(c & 1 ? 0.5f : -0.5f, (c & 2 ? 0.5f : -0.5f) + 3.0f, c & 4 ? 0.5f : -0.5f, 0.0f);
    const ViewportArea covered{0.0f, 200.0f, 640.0f, 560.0f};
    CameraFit fit;
    fit.start(authored, box);
    OrbitCamera camera = authored;
    fit.update(camera, 640.0f, 600.0f, covered);
    EXPECT_EQ(outside(camera, surfacePoints(box), 640.0f, 600.0f, PanelRect{0, 200, 640, 360}), 0);
    EXPECT_NE(camera.target, authored.target);
    // The tool bar shrinks: framed again from the scenario's camera, not from the last fit.
    fit.update(camera, 640.0f, 600.0f, ViewportArea{0.0f, 0.0f, 640.0f, 600.0f});
    EXPECT_EQ(camera.target, authored.target);
    EXPECT_EQ(camera.distance, authored.distance);
    // The person zooms: the view is theirs from then on, whatever the panels do.
    camera.zoom(1.0f);
    const OrbitCamera theirs = camera;
    fit.update(camera, 640.0f, 600.0f, covered);
    EXPECT_FALSE(fit.active);
    EXPECT_EQ(camera.distance, theirs.distance);
    EXPECT_EQ(camera.target, theirs.target);
}

TEST(ViewFit, BodiesTooLargeForTheAreaAreSeenFromFurtherBack) {
    OrbitCamera authored;
    authored.target = glm::vec3(0.0f);
    authored.distance = 2.0f;
    const std::vector<glm::vec4> spheres = {{-3.0f, 0.0f, 0.0f, 0.5f}, {3.0f, 0.0f, 0.0f, 0.5f}};
    const ViewportArea area{0.0f, 60.0f, 640.0f, 400.0f};
    const OrbitCamera c = keepInArea(authored, spheres, 640.0f, 400.0f, area);
    EXPECT_GT(c.distance, authored.distance);
    EXPECT_EQ(outside(c, surfacePoints(spheres), 640.0f, 400.0f, PanelRect{0, 60, 640, 340}), 0);
    // Nothing to frame, or no room: the camera stays.
    EXPECT_EQ(keepInArea(authored, {}, 640.0f, 400.0f, area).distance, authored.distance);
    EXPECT_EQ(keepInArea(authored, spheres, 640.0f, 400.0f, ViewportArea{0, 0, 640, 0}).distance,
              authored.distance);
}

}  // namespace
}  // namespace jl::app
