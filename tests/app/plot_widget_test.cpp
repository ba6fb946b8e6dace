// The plot widget in a real Dear ImGui context without any GL: it lays out, fits, draws two
// series, and a click on a legend entry hides that series in the next frame.
#include "plot/plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace jl::plot {
namespace {

class PlotWidget : public ::testing::Test {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(900, 600);
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the font atlas; no texture upload needed
    }
    void TearDown() override { ImGui::DestroyContext(); }

    /// Runs one frame with the mouse at `mouse` (button 0 held when `down`) and `body` drawing
    /// into a full-screen window.
    void frame(const std::function<void()>& body, ImVec2 mouse = ImVec2(-1, -1), bool down = false) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = mouse;
        io.MouseDown[0] = down;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("plots", nullptr, ImGuiWindowFlags_NoDecoration);
        body();
        ImGui::End();
        ImGui::Render();
        vertices = ImGui::GetDrawData()->TotalVtxCount;
    }

    Context ctx;
    int vertices = 0;
    std::vector<double> t, a, b;
    bool logScale = false;

    void twoSeries() {
        ASSERT_TRUE(BeginPlot(ctx, "Impulse##test", ImVec2(800, 300)));
        SetupAxisX(ctx, "time", "s");
        SetupAxisY(ctx, "impulse", "N·s", &logScale);
        SetupAxisLimitsX(ctx, 0.0, 10.0);
        PlotLine(ctx, "linear Y lock", t.data(), a.data(), static_cast<int>(t.size()));
        PlotLine(ctx, "twist lock", t.data(), b.data(), static_cast<int>(t.size()));
        PlotHLine(ctx, "break force 2 N", 2.0, IM_COL32(255, 0, 0, 255));
        PlotEvent(ctx, "broke", 7.5, IM_COL32(255, 0, 0, 255));
        EndPlot(ctx);
    }
};

TEST_F(PlotWidget, FitsAndDrawsTwoSeriesWithTheirThreshold) {
    for (int i = 0; i <= 600; ++i) {
        t.push_back(i / 60.0);
        a.push_back(std::sin(i / 60.0));
        b.push_back(0.5 * std::cos(i / 60.0) - 3.0);
    }
    frame([&] { twoSeries(); });
    const PlotResult& r = ctx.last;
    EXPECT_EQ(r.seriesDrawn, 2);
    EXPECT_GT(vertices, 1000);
    EXPECT_DOUBLE_EQ(r.x.min, 0.0);  // the caller's time window
    EXPECT_DOUBLE_EQ(r.x.max, 10.0);
    EXPECT_LE(r.y.min, -3.5);  // both series and the threshold line fit
    EXPECT_GE(r.y.max, 2.0);
    EXPECT_LT(r.y.max, 3.0);
    // The data area sits inside the frame, leaving room for labels on the left and below.
    EXPECT_GT(r.areaMin.x, r.frameMin.x + 20.0f);
    EXPECT_LT(r.areaMax.y, r.frameMax.y - 10.0f);
    EXPECT_GT(r.areaMin.y, r.frameMin.y + 10.0f);
}

TEST_F(PlotWidget, LogScaleShowsOnlyPositiveDecades) {
    for (int i = 0; i < 8; ++i) {
        t.push_back(i);
        a.push_back(std::pow(10.0, -i));
        b.push_back(i == 3 ? 0.0 : 2.0 * std::pow(10.0, -i));  // a zero leaves a gap, not a crash
    }
    logScale = true;
    frame([&] { twoSeries(); });
    EXPECT_EQ(ctx.last.yScale, Scale::Log10);
    EXPECT_GT(ctx.last.y.min, 0.0);
    EXPECT_LE(ctx.last.y.min, 1e-7);
    EXPECT_GE(ctx.last.y.max, 2.0);
}

TEST_F(PlotWidget, ClickingALegendEntryHidesItsSeries) {
    for (int i = 0; i <= 60; ++i) {
        t.push_back(i / 6.0);
        a.push_back(i);
        b.push_back(-i);
    }
    frame([&] { twoSeries(); });
    ASSERT_EQ(ctx.last.seriesDrawn, 2);
    // The legend sits in the corner where it hides the least data; its first entry is "linear Y lock".
    const PlotResult& r = ctx.last;
    EXPECT_GT(r.legendMax.x, r.legendMin.x);
    EXPECT_TRUE(r.legendMin.x >= r.areaMin.x && r.legendMax.x <= r.areaMax.x && r.legendMin.y >= r.areaMin.y &&
                r.legendMax.y <= r.areaMax.y);
    const ImVec2 entry(r.legendMin.x + 30.0f, r.legendMin.y + 3.0f + 0.5f * ImGui::GetFontSize());
    frame([&] { twoSeries(); }, entry, false);
    frame([&] { twoSeries(); }, entry, true);  // press: toggles
    frame([&] { twoSeries(); }, entry, false);
    EXPECT_EQ(ctx.last.seriesDrawn, 1);
    EXPECT_LE(ctx.last.y.max, 10.0) << "the hidden series (up to 60) no longer takes part in the fit";
    ASSERT_EQ(ctx.states.size(), 1u);
    EXPECT_EQ(ctx.states.begin()->second.hidden.size(), 1u);
    frame([&] { twoSeries(); }, entry, true);  // again: shown again
    frame([&] { twoSeries(); }, entry, false);
    EXPECT_EQ(ctx.last.seriesDrawn, 2);
}

TEST_F(PlotWidget, HoverReadsTheNearestSampleOfEachSeries) {
    for (int i = 0; i <= 60; ++i) {
        t.push_back(i / 10.0);  // 0 … 6 s of a 10 s window
        a.push_back(i);
        b.push_back(-i);
    }
    frame([&] { twoSeries(); });
    const PlotResult& r = ctx.last;
    auto at = [&](double time) {  // the screen point of a time, in the middle of the area's height
        return ImVec2(r.areaMin.x + static_cast<float>(time / 10.0) * (r.areaMax.x - r.areaMin.x),
                      0.5f * (r.areaMin.y + r.areaMax.y));
    };
    frame([&] { twoSeries(); }, at(3.02));
    EXPECT_EQ(ctx.last.readoutLines, 2);
    EXPECT_DOUBLE_EQ(ctx.last.readoutX, 3.0);  // the sample's time, not the cursor's
    frame([&] { twoSeries(); }, at(8.0));  // right of the data: nothing to read
    EXPECT_EQ(ctx.last.readoutLines, 0);
    frame([&] { twoSeries(); }, ImVec2(5, 5));  // outside the plot: no readout
    EXPECT_EQ(ctx.last.readoutLines, 0);
}

TEST_F(PlotWidget, AFixedRangeHoldsUntilDoubleClick) {
    for (int i = 0; i <= 60; ++i) {
        t.push_back(i / 6.0);
        a.push_back(i);
        b.push_back(0.0);
    }
    frame([&] { twoSeries(); });
    PlotState& state = ctx.states.begin()->second;
    state.autoFit = false;
    state.fixed = {-5.0, 5.0};
    frame([&] { twoSeries(); });
    EXPECT_DOUBLE_EQ(ctx.last.y.min, -5.0);
    EXPECT_DOUBLE_EQ(ctx.last.y.max, 5.0);
    EXPECT_EQ(ctx.last.seriesDrawn, 2);
    const ImVec2 middle(0.5f * (ctx.last.areaMin.x + ctx.last.areaMax.x), 0.5f * (ctx.last.areaMin.y + ctx.last.areaMax.y));
    frame([&] { twoSeries(); }, middle, true);
    frame([&] { twoSeries(); }, middle, false);
    frame([&] { twoSeries(); }, middle, true);  // second press within the double-click time
    EXPECT_TRUE(state.autoFit);
    frame([&] { twoSeries(); }, middle, false);
    EXPECT_GE(ctx.last.y.max, 60.0);
}

TEST_F(PlotWidget, PlotsKeepSeparateStateAndGettersWork) {
    frame([&] {
        for (const char* title : {"A", "B"}) {
            ASSERT_TRUE(BeginPlot(ctx, title, ImVec2(400, 150)));
            SetupAxisY(ctx, "value", "");
            PlotLineF(ctx, "square", 11, [](int i) { return Point{double(i), double(i * i)}; });
            EndPlot(ctx);
        }
    });
    EXPECT_EQ(ctx.states.size(), 2u);
    EXPECT_DOUBLE_EQ(ctx.last.x.min, 0.0);  // x fits the data when no window is given
    EXPECT_DOUBLE_EQ(ctx.last.x.max, 10.0);
    EXPECT_GE(ctx.last.y.max, 100.0);
}

}  // namespace
}  // namespace jl::plot
