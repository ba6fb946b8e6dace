// The window on any screen (issue 28, point 1): the layout at every size from 1280×720 to
// 3840×2160 and at UI scales 1 and 2 keeps every panel on screen, apart from the others and
// readable; the window fits the monitor's work area; the size and layout are remembered.
#include "shell/layout.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "session/ui_settings.h"
#include "shell/screen_fit.h"

namespace jl::app {
namespace {

struct Screen {
    float width, height, scale;
};
constexpr Screen kScreens[] = {{1280, 720, 1},  {1366, 768, 1},  {1600, 900, 1},
                               {1920, 1080, 1}, {2560, 1440, 1}, {2560, 1440, 2},
                               {3840, 2160, 1}, {3840, 2160, 2}, {1920, 1080, 1.5f}};

bool inside(const PanelRect& r, float w, float h) {
    return r.x >= 0.0f && r.y >= 0.0f && r.right() <= w + 0.5f && r.bottom() <= h + 0.5f;
}

bool overlap(const PanelRect& a, const PanelRect& b) {
    if (a.w <= 0.0f || b.w <= 0.0f || a.h <= 0.0f || b.h <= 0.0f) return false;
    return a.x < b.right() - 0.5f && b.x < a.right() - 0.5f && a.y < b.bottom() - 0.5f &&
           b.y < a.bottom() - 0.5f;
}

TEST(Layout, EveryPanelIsOnScreenApartAndReadableAtEverySize) {
    for (const Screen& s : kScreens) {
        SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height) + " scale " +
                     std::to_string(s.scale));
        const LayoutMetrics m{s.scale, 21.0f * s.scale};
        const PanelVisibility panels;
        const UiLayout l = computeLayout(panels, s.width, s.height, m, LayoutPrefs{}, 420.0f * s.scale);
        const PanelRects r = panelRects(l, panels, s.width, s.height);
        for (const PanelRect* p : {&r.scene, &r.solver, &r.inspector, &r.dock, &r.viewport}) {
            EXPECT_TRUE(inside(*p, s.width, s.height));
            EXPECT_GT(p->w, 0.0f);
            EXPECT_GT(p->h, 0.0f);
        }
        const PanelRect* all[] = {&r.scene, &r.solver, &r.inspector, &r.dock, &r.viewport};
        for (size_t i = 0; i < std::size(all); ++i)
            for (size_t j = i + 1; j < std::size(all); ++j)
                EXPECT_FALSE(overlap(*all[i], *all[j])) << i << " " << j;
        // Readable: the columns keep their minimum (at scale 1 that is 230 px of a 15 px font),
        // the viewport and the dock theirs.
        EXPECT_GE(r.inspector.w, kMinColumnWidth * s.scale - 0.5f);
        EXPECT_GE(r.scene.w, kMinColumnWidth * s.scale - 0.5f);
        EXPECT_GE(r.viewport.w, kMinViewportWidth * s.scale - 0.5f);
        EXPECT_GE(r.viewport.h, kMinViewportHeight * s.scale - 0.5f);
        EXPECT_GE(r.dock.h, kMinDockHeight * s.scale - 0.5f);
        EXPECT_GE(r.scene.h, kMinSceneHeight * s.scale - 0.5f);
    }
}

TEST(Layout, ScaleTwoOnADoubleSizeScreenIsTheSameLayoutTwiceAsLarge) {
    const PanelVisibility panels;
    const UiLayout one = computeLayout(panels, 1280, 720, LayoutMetrics{1, 21}, LayoutPrefs{}, 400);
    const UiLayout two = computeLayout(panels, 2560, 1440, LayoutMetrics{2, 42}, LayoutPrefs{}, 800);
    EXPECT_FLOAT_EQ(two.leftWidth, 2 * one.leftWidth);
    EXPECT_FLOAT_EQ(two.rightWidth, 2 * one.rightWidth);
    EXPECT_NEAR(two.bottomHeight, 2 * one.bottomHeight, 1.0f);
    EXPECT_FLOAT_EQ(two.simulationHeight, 2 * one.simulationHeight);
}

TEST(Layout, ClosedPanelsGiveTheirRoomToTheViewport) {
    PanelVisibility panels;
    panels.scene = panels.simulation = panels.inspector = panels.plots = false;
    const UiLayout l = computeLayout(panels, 1280, 720, LayoutMetrics{}, LayoutPrefs{}, 400);
    const PanelRects r = panelRects(l, panels, 1280, 720);
    EXPECT_EQ(r.viewport.w, 1280.0f);
    EXPECT_EQ(r.viewport.h, 720.0f - l.menuBarHeight - l.statusBarHeight);
}

TEST(Layout, DraggedEdgesStayWithinWhatTheLayoutHonours) {
    LayoutPrefs p;
    p = dragLeftEdge(p, 10000.0f, 1920.0f, 1.0f);
    EXPECT_LE(p.leftWidth, 0.45f * 1920.0f);
    p = dragRightEdge(p, 10000.0f, 1920.0f, 1.0f);  // dragging the right column's edge right narrows it
    EXPECT_EQ(p.rightWidth, kMinColumnWidth);
    p = dragDockEdge(p, -10000.0f, 600.0f);  // up: a taller dock
    EXPECT_LE(p.dockShare, 0.85f);
    // Even the widest columns leave the viewport its minimum on the smallest screen.
    const UiLayout l = computeLayout(PanelVisibility{}, 1280, 720, LayoutMetrics{}, p, 400);
    EXPECT_GE(1280.0f - l.leftWidth - l.rightWidth, kMinViewportWidth);
}

// While the Step tab is in front the dock takes at least kStepDockShare of the height (the rows,
// the stepper and a row's equation at once), at 1280x720 about 430 px against 285 px, and the
// viewport keeps its minimum; with any other tab, and for a person who chose a taller dock, the
// person's share holds.
TEST(Layout, TheStepTabGrowsTheDockAndGivesTheShareBack) {
    LayoutPrefs prefs;
    const UiLayout plots = computeLayout(PanelVisibility{}, 1280, 720, LayoutMetrics{}, prefs, 400);
    LayoutPrefs stepping = prefs;
    stepping.dockShare = dockShareFor(prefs, true);
    const UiLayout step = computeLayout(PanelVisibility{}, 1280, 720, LayoutMetrics{}, stepping, 400);
    const float column = 720.0f - step.menuBarHeight - step.statusBarHeight;
    EXPECT_GE(step.bottomHeight, kStepDockShare * column - 1.0f);
    EXPECT_GT(step.bottomHeight, plots.bottomHeight + 100.0f);
    EXPECT_GE(column - step.bottomHeight, kMinViewportHeight);
    EXPECT_EQ(dockShareFor(prefs, false), prefs.dockShare);
    prefs.dockShare = 0.8f;
    EXPECT_EQ(dockShareFor(prefs, true), 0.8f);
}

TEST(Layout, PlotsShareTheDockTwoByTwoRatherThanRunningOffIt) {
    // Four plots in the dock of a 1280×720 window: two by two, all visible.
    const PlotGrid g = plotGrid(4, 620, 240, 1.0f, 6.0f);
    EXPECT_EQ(g.columns, 2);
    EXPECT_EQ(g.rows, 2);
    EXPECT_LE(g.rows * g.cellHeight + (g.rows - 1) * 6.0f, 240.0f);
    // A wide dock takes them in a row; at scale 2 the same dock twice as large gives the same grid.
    EXPECT_EQ(plotGrid(4, 2400, 300, 1.0f, 6.0f).columns, 4);
    const PlotGrid g2 = plotGrid(4, 1240, 480, 2.0f, 12.0f);
    EXPECT_EQ(g2.columns, 2);
    // Too many for the dock: cells keep a readable height and the grid scrolls.
    EXPECT_GE(plotGrid(30, 620, 240, 1.0f, 6.0f).cellHeight, kMinPlotHeight);
}

TEST(ScreenFit, TheWindowFitsTheWorkAreaAndIsCentred) {
    // A 1280×720 monitor with a 32 px panel: the 1600×900 default shrinks to fit, centred.
    const ScreenArea area{0, 32, 1280, 688};
    const ScreenArea w = fitWindowToWorkArea(area, 1600, 900);
    EXPECT_LE(w.width, area.width);
    EXPECT_LE(w.height, area.height);
    EXPECT_GE(w.x, area.x);
    EXPECT_GE(w.y, area.y);
    EXPECT_LE(w.x + w.width, area.x + area.width);
    EXPECT_LE(w.y + w.height, area.y + area.height);
    // A remembered size that fits is kept; an unknown work area leaves the size alone.
    EXPECT_EQ(fitWindowToWorkArea(ScreenArea{0, 0, 3840, 2120}, 1600, 900).width, 1600);
    EXPECT_EQ(fitWindowToWorkArea(ScreenArea{}, 1600, 900).height, 900);
    // On a second monitor the window is centred there.
    const ScreenArea right = fitWindowToWorkArea(ScreenArea{1920, 0, 1920, 1080}, 1600, 900);
    EXPECT_EQ(right.x, 1920 + 160);
}

TEST(ScreenFit, TheUiScaleFollowsTheMonitorUnlessGiven) {
    EXPECT_EQ(chooseUiScale(0.0f, 2.0f), 2.0f);  // a HiDPI monitor
    EXPECT_EQ(chooseUiScale(0.0f, 1.0f), 1.0f);
    EXPECT_EQ(chooseUiScale(1.5f, 2.0f), 1.5f);    // --scale wins
    EXPECT_EQ(chooseUiScale(0.0f, 1.33f), 1.25f);  // quarter steps keep fonts crisp
    EXPECT_EQ(chooseUiScale(0.0f, 0.0f), 1.0f);
    EXPECT_EQ(chooseUiScale(10.0f, 1.0f), 4.0f);
}

TEST(UiSettings, SizeAndLayoutAreRememberedAndBadValuesIgnored) {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("jointlab-layout-" + std::to_string(::getpid()) + ".json"))
            .string();
    UiSettings s;
    s.windowWidth = 1500;
    s.windowHeight = 850;
    s.panels.inspector = false;
    s.layout.leftWidth = 400.0f;
    s.layout.dockShare = 0.3f;
    ASSERT_TRUE(saveUiSettings(path, s));
    const UiSettings back = loadUiSettings(path);
    EXPECT_EQ(back.windowWidth, 1500);
    EXPECT_EQ(back.windowHeight, 850);
    EXPECT_FALSE(back.panels.inspector);
    EXPECT_TRUE(back.panels.scene);
    EXPECT_EQ(back.layout.leftWidth, 400.0f);
    EXPECT_FLOAT_EQ(back.layout.dockShare, 0.3f);
    // A file with nonsense in it: the defaults, so no panel is lost.
    {
        std::ofstream out(path);
        out << R"({"window": {"width": -5, "height": "big"}, "layout": {"leftWidth": 3, "dockShare": 9}})";
    }
    const UiSettings bad = loadUiSettings(path);
    EXPECT_EQ(bad.windowWidth, 0);
    EXPECT_EQ(bad.layout.leftWidth, LayoutPrefs{}.leftWidth);
    EXPECT_EQ(bad.layout.dockShare, LayoutPrefs{}.dockShare);
    EXPECT_EQ(loadUiSettings(path + ".missing").windowWidth, 0);
    std::filesystem::remove(path);
}

// The PAUSED badge sits in the viewport's top right corner; the joint tool's bar (its type, axis and
// work plane beside the buttons) reaches that corner at 1280x720 and hid it: the badge then goes
// under the bar, still at the right, and never overlaps it.
TEST(Layout, ThePausedBadgeKeepsClearOfTheToolBar) {
    const PanelRect viewport{310, 20, 640, 370};
    const PanelRect badge{0, 0, 70, 24};
    auto overlap = [](const PanelRect& a, const PanelRect& b) {
        return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
    };
    // The bar of the select tool: one row of buttons, well left of the corner.
    const PanelRect narrow{318, 28, 398, 57};
    const PanelRect corner = pausedBadgeRect(viewport, narrow, badge, 8.0f);
    EXPECT_FLOAT_EQ(corner.right(), viewport.right() - 8.0f);
    EXPECT_FLOAT_EQ(corner.y, viewport.y + 8.0f);
    // The joint tool's bar, across the viewport's width.
    const PanelRect wide{318, 28, 624, 82};
    const PanelRect under = pausedBadgeRect(viewport, wide, badge, 8.0f);
    EXPECT_FALSE(overlap(under, wide));
    EXPECT_GE(under.y, wide.bottom());
    EXPECT_FLOAT_EQ(under.right(), viewport.right() - 8.0f) << "still at the right";
    EXPECT_LE(under.bottom(), viewport.bottom());
    // No bar (a video's frames): the corner.
    EXPECT_FLOAT_EQ(pausedBadgeRect(viewport, PanelRect{}, badge, 8.0f).y, viewport.y + 8.0f);
}

}  // namespace
}  // namespace jl::app
