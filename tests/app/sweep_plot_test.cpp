// Pictures of sweep results (plot/sweep_plot.h): the software rasteriser covers exactly the
// pixels a shape covers, a heat map colours each run's cell by its metric on the scale, in the
// sweep's order, and a line plot draws the one swept parameter.
#include "plot/sweep_plot.h"

#include <gtest/gtest.h>

#include <cmath>

#include "headless_imgui.h"
#include "plot/plot.h"

namespace jl::plot {
namespace {

struct Rgb {
    int r, g, b;
};

Rgb rgbOf(ImU32 c) {
    return {static_cast<int>(c & 0xff), static_cast<int>((c >> 8) & 0xff),
            static_cast<int>((c >> 16) & 0xff)};
}

Rgb pixel(const Image& im, int x, int y) {
    const uint8_t* p =
        &im.rgb[(static_cast<size_t>(y) * static_cast<size_t>(im.width) + static_cast<size_t>(x)) * 3];
    return {p[0], p[1], p[2]};
}

/// The pixels of exactly colour c: their count and centroid.
struct Region {
    int count = 0;
    double x = 0, y = 0;
};
Region regionOf(const Image& im, ImU32 c) {
    const Rgb want = rgbOf(c);
    Region r;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            const Rgb p = pixel(im, x, y);
            if (p.r == want.r && p.g == want.g && p.b == want.b) {
                ++r.count;
                r.x += x;
                r.y += y;
            }
        }
    if (r.count) {
        r.x /= r.count;
        r.y /= r.count;
    }
    return r;
}

Image renderOnly(ImVec2 size, void (*draw)(ImDrawList*)) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = size;
    ImGui::NewFrame();
    draw(ImGui::GetForegroundDrawList());
    ImGui::Render();
    unsigned char* tex = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&tex, &tw, &th);
    Image im;
    rasterise(*ImGui::GetDrawData(), tex, tw, th, IM_COL32(0, 0, 0, 255), im);
    return im;
}

TEST(SweepPlot, RasteriserCoversExactlyTheShapesPixelsOnce) {
    test::HeadlessImGui imgui(ImVec2(64, 48));
    // A 10 × 10 opaque square, and a half-transparent one over two triangles sharing a diagonal:
    // every pixel of it blended once (no darker or lighter seam along the diagonal).
    const Image im = renderOnly(ImVec2(64, 48), [](ImDrawList* dl) {
        dl->Flags = ImDrawListFlags_None;  // no anti-aliased fringe: exact edges
        dl->AddRectFilled(ImVec2(10, 10), ImVec2(20, 20), IM_COL32(255, 255, 255, 255));
        dl->AddRectFilled(ImVec2(30, 5), ImVec2(60, 40), IM_COL32(200, 100, 0, 128));
    });
    EXPECT_EQ(regionOf(im, IM_COL32(255, 255, 255, 255)).count, 100);
    EXPECT_EQ(regionOf(im, IM_COL32(255, 255, 255, 255)).x, 14.5);
    // 200·128/255 = 100.4 → 100; 100·128/255 = 50.2 → 50.
    EXPECT_EQ(regionOf(im, IM_COL32(100, 50, 0, 255)).count, 30 * 35);
    EXPECT_EQ(regionOf(im, IM_COL32(0, 0, 0, 255)).count, 64 * 48 - 100 - 30 * 35);
}

SweepTable grid2x2() {
    SweepTable t;
    EXPECT_EQ(parseSweepTable(
                  "run,settings.autoBaumgarte,settings.baumgarte,settings.posIters,status,steps,max_error\n"
                  "0,false,0.1,1,ok,10,1\n"
                  "1,false,0.1,4,ok,10,2\n"
                  "2,false,1,1,ok,10,3\n"
                  "3,false,1,4,ok,10,4\n",
                  t),
              "");
    return t;
}

TEST(SweepPlot, HeatMapColoursEachCellByItsValueInSweepOrder) {
    test::HeadlessImGui imgui(ImVec2(640, 480));
    const SweepTable t = grid2x2();
    EXPECT_EQ(sweptParameters(t), (std::vector<int>{1, 2}));  // autoBaumgarte takes one value
    Image im;
    ASSERT_EQ(drawSweepPlot(t, "max_error", ImVec2(640, 480), im), "");
    ASSERT_EQ(im.width, 640);
    // Values 1..4 on a linear scale: 0, 1/3, 2/3, 1. Baumgarte across (0.1 left, 1 right),
    // iterations down (1 above, 4 below): run 0 top left, 1 bottom left, 2 top right, 3 bottom right.
    const Region r[4] = {regionOf(im, heatColor(0.0)), regionOf(im, heatColor(1.0 / 3)),
                         regionOf(im, heatColor(2.0 / 3)), regionOf(im, heatColor(1.0))};
    for (const Region& c : r) EXPECT_GT(c.count, 5000) << "a cell is a large block of its colour";
    EXPECT_LT(r[0].x, r[2].x);
    EXPECT_LT(r[1].x, r[3].x);
    EXPECT_LT(r[0].y, r[1].y);
    EXPECT_LT(r[2].y, r[3].y);
    EXPECT_NEAR(r[0].x, r[1].x, 2.0);
    EXPECT_NEAR(r[0].y, r[2].y, 2.0);
}

TEST(SweepPlot, LinePlotAndRefusals) {
    test::HeadlessImGui imgui(ImVec2(640, 480));
    SweepTable t;
    ASSERT_EQ(parseSweepTable("run,joints.a.drive.stiffness,status,steps,settle_time\n"
                              "0,10,ok,5,0.5\n1,20,ok,5,\n2,40,diverged,3,0.25\n",
                              t),
              "");
    EXPECT_TRUE(std::isnan(t.rows[1].metrics[0]));
    Image im;
    ASSERT_EQ(drawSweepPlot(t, "settle_time", ImVec2(640, 480), im), "");
    // The series is drawn in the palette's first colour.
    EXPECT_GT(regionOf(im, seriesColor(0)).count, 20);
    EXPECT_EQ(drawSweepPlot(t, "max_error", ImVec2(640, 480), im),
              "no metric \"max_error\" in the table (it has settle_time)");
    SweepTable three;
    ASSERT_EQ(parseSweepTable("run,a,b,c,status,steps,m\n0,1,1,1,ok,1,1\n1,2,2,2,ok,1,1\n", three), "");
    EXPECT_EQ(drawSweepPlot(three, "m", ImVec2(640, 480), im),
              "the table varies 3 parameters; a picture shows 1 (a line) or 2 (a heat map)");
    SweepTable bad;
    EXPECT_EQ(parseSweepTable("run,a,status,steps,m\n0,1,ok,1\n", bad), "line 2: 4 cells, the header has 5");
}

}  // namespace
}  // namespace jl::plot
