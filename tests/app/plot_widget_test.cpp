// The plot widget in a real Dear ImGui context without any GL: it lays out, fits, draws two
// series, and a click on a legend entry hides that series in the next frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "headless_imgui.h"
#include "plot/plot.h"

namespace jl::plot {
namespace {

class PlotWidget : public ::testing::Test {
protected:
    test::HeadlessImGui imgui{ImVec2(900, 600)};

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

/// The rectangles [aMin, aMax] and [bMin, bMax] do not overlap.
bool outside(ImVec2 aMin, ImVec2 aMax, ImVec2 bMin, ImVec2 bMax) {
    return aMax.x <= bMin.x || bMax.x <= aMin.x || aMax.y <= bMin.y || bMax.y <= aMin.y;
}
/// [aMin, aMax] lies within [bMin, bMax].
bool inside(ImVec2 aMin, ImVec2 aMax, ImVec2 bMin, ImVec2 bMax) {
    return aMin.x >= bMin.x && aMin.y >= bMin.y && aMax.x <= bMax.x && aMax.y <= bMax.y;
}

// A joint's five rows in a wide, short plot (the Plots dock's cells): too many for one row above
// the data, so they stand in a column beside it, every entry named, none over the data; in a
// narrow plot they take rows above it instead.
TEST_F(PlotWidget, ALegendOfFiveRowsGoesBesideOrAboveTheDataNeverOverIt) {
    const char* names[] = {"linear X lock", "linear Y lock", "linear Z lock", "angular Y lock",
                           "angular Z lock"};
    t = {0.0, 1.0};
    a = {0.0, 1.0};
    for (const ImVec2 size : {ImVec2(440, 160), ImVec2(360, 320), ImVec2(800, 300)}) {
        auto plot = [&] {
            ASSERT_TRUE(BeginPlot(ctx, "Impulse per row##five", size));
            SetupAxisX(ctx, "time", "s");
            SetupAxisY(ctx, "accumulated impulse", "N·s; N·m·s for angular rows");
            for (const char* n : names) PlotLine(ctx, n, t.data(), a.data(), 2);
            EndPlot(ctx);
        };
        frame(plot);
        const PlotResult r = ctx.last;
        SCOPED_TRACE(size.x);
        EXPECT_TRUE(outside(r.legendMin, r.legendMax, r.areaMin, r.areaMax));
        EXPECT_TRUE(inside(r.legendMin, r.legendMax, r.frameMin, r.frameMax));
        EXPECT_GT(r.legendMax.y - r.legendMin.y, 0.5f * ImGui::GetTextLineHeight());
        EXPECT_GT(r.areaMax.y - r.areaMin.y, 0.35f * size.y) << "the data keeps most of the height";
        EXPECT_GT(r.areaMax.x - r.areaMin.x, 0.5f * size.x) << "and most of the width";
        if (size.x == 440) {
            EXPECT_GE(r.legendMin.x, r.areaMax.x) << "a column right of the data";
        }
    }
}

TEST_F(PlotWidget, ClickingALegendEntryHidesItsSeries) {
    for (int i = 0; i <= 60; ++i) {
        t.push_back(i / 6.0);
        a.push_back(i);
        b.push_back(-i);
    }
    frame([&] { twoSeries(); });
    ASSERT_EQ(ctx.last.seriesDrawn, 2);
    // The legend sits outside the data area (here on a row above it), so it hides no data; its
    // first entry is "linear Y lock".
    const PlotResult& r = ctx.last;
    EXPECT_GT(r.legendMax.x, r.legendMin.x);
    EXPECT_TRUE(outside(r.legendMin, r.legendMax, r.areaMin, r.areaMax))
        << "the legend never covers the data area";
    EXPECT_TRUE(inside(r.legendMin, r.legendMax, r.frameMin, r.frameMax));
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
    frame([&] { twoSeries(); }, at(8.0));      // right of the data: nothing to read
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
    const ImVec2 middle(0.5f * (ctx.last.areaMin.x + ctx.last.areaMax.x),
                        0.5f * (ctx.last.areaMin.y + ctx.last.areaMax.y));
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

/// Lowest and highest screen y of the vertices drawn in `color` this frame.
std::pair<float, float> drawnExtent(ImU32 color) {
    float top = 1e9f, bottom = -1e9f;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l)
        for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
            if (v.col == color) top = std::min(top, v.pos.y), bottom = std::max(bottom, v.pos.y);
    return {top, bottom};
}

TEST_F(PlotWidget, AStreamedSeriesShowsTheSameMinAndMaxAsItsRawDataAndReadsOnlyNewSamples) {
    // 10 s at 600 Hz in an 800 px plot: 7.5 samples per pixel, with one-sample spikes up and down.
    for (int i = 0; i < 6000; ++i) {
        t.push_back(i / 600.0);
        a.push_back(std::sin(i / 300.0) + 0.1 * std::sin(i * 1.7));
    }
    a[2345] = 4.0;
    a[4321] = -3.0;
    const ImU32 rawColor = IM_COL32(11, 22, 33, 255), streamColor = IM_COL32(44, 55, 66, 255);
    int reads = 0;
    int64_t firstSerial = 0;
    auto plot = [&](bool streamed) {
        // No legend: its swatch, in the series' colour above the data, is not the line measured.
        ASSERT_TRUE(BeginPlot(ctx, streamed ? "streamed" : "raw", ImVec2(800, 300), PlotFlags_NoLegend));
        SetupAxisX(ctx, "time", "s");
        SetupAxisY(ctx, "value", "");
        SetupAxisLimitsX(ctx, t.front(), t.back());
        if (streamed)
            PlotLineStreamF(
                ctx, "signal", static_cast<int>(t.size()), firstSerial, 7,
                [&](int i) {
                    ++reads;
                    return Point{t[static_cast<size_t>(i)], a[static_cast<size_t>(i)]};
                },
                streamColor);
        else
            PlotLine(ctx, "signal", t.data(), a.data(), static_cast<int>(t.size()), rawColor);
        EndPlot(ctx);
    };
    frame([&] { plot(false); });
    const PlotResult raw = ctx.last;
    const auto [rawTop, rawBottom] = drawnExtent(rawColor);
    frame([&] { plot(true); });
    const PlotResult streamed = ctx.last;
    const auto [top, bottom] = drawnExtent(streamColor);
    EXPECT_EQ(reads, 6000);
    // The same fitted range (from the same min and max), and the spikes drawn as far out.
    EXPECT_EQ(streamed.y.min, raw.y.min);
    EXPECT_EQ(streamed.y.max, raw.y.max);
    const float height = streamed.areaMax.y - streamed.areaMin.y;
    auto screenY = [&](double v) {
        return streamed.areaMax.y - static_cast<float>((v - streamed.y.min) / streamed.y.size()) * height;
    };
    EXPECT_NEAR(top, screenY(4.0), 2.5f);  // the line reaches the one-sample spike (±its half width)
    EXPECT_NEAR(bottom, screenY(-3.0), 2.5f);
    EXPECT_NEAR(top, rawTop, 1.5f);  // (the corner at the tip is mitred from other neighbours)
    EXPECT_NEAR(bottom, rawBottom, 1.5f);
    EXPECT_LT(ImGui::GetDrawData()->TotalVtxCount, 2 * 2 * 800 + 400);  // at most ~2 points per pixel

    // A ring buffer moving on by 10 samples: only those 10 are read.
    for (int k = 0; k < 10; ++k) {
        t.erase(t.begin());
        a.erase(a.begin());
        t.push_back(t.back() + 1.0 / 600.0);
        a.push_back(0.0);
    }
    firstSerial += 10;
    reads = 0;
    frame([&] { plot(true); });
    EXPECT_EQ(reads, 10);
    // Serials that do not follow on (the buffer was cleared and refilled): everything again.
    firstSerial += 100000;
    reads = 0;
    frame([&] { plot(true); });
    EXPECT_EQ(reads, 6000);
}

TEST_F(PlotWidget, ALegendWithMoreEntriesThanFitCollapsesToACountThatOpensTheList) {
    std::vector<std::string> names;
    for (int s = 0; s < 40; ++s) names.push_back("joint " + std::to_string(s));
    t = {0.0, 1.0};
    a = {0.0, 1.0};
    auto plot = [&] {
        ASSERT_TRUE(BeginPlot(ctx, "many", ImVec2(600, 200)));
        for (const std::string& n : names) PlotLine(ctx, n.c_str(), t.data(), a.data(), 2);
        EndPlot(ctx);
    };
    frame(plot);
    const PlotResult r = ctx.last;
    EXPECT_LT(r.legendMax.y - r.legendMin.y, 2.5f * ImGui::GetTextLineHeight());  // one line: "40 series"
    EXPECT_TRUE(outside(r.legendMin, r.legendMax, r.areaMin, r.areaMax)) << "beside the data, not over it";
    const ImVec2 legend((r.legendMin.x + r.legendMax.x) * 0.5f, (r.legendMin.y + r.legendMax.y) * 0.5f);
    frame(plot, legend, false);
    frame(plot, legend, true);  // click: the list opens
    frame(plot, legend, false);
    EXPECT_TRUE(ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel));
}

// The Plots dock's impulse plot names its unit at length ("[N·s; N·m·s for angular rows]"). At
// 1280x720 its cell is narrower than that label, which ran on into the next plot: it is now cut
// with "…" inside its own frame, and still drawn whole where it fits.
TEST_F(PlotWidget, AValueAxisLabelWiderThanThePlotIsShortenedInsideItsFrame) {
    t = {0.0, 1.0};
    a = {0.0, 1.0};
    const char* unit = "N·s; N·m·s for angular rows";
    float whole = 0.0f;  // the label's width in the font (known inside a frame)
    frame([&] { whole = ImGui::CalcTextSize("accumulated impulse [N·s; N·m·s for angular rows]").x; });
    ASSERT_GT(whole, 100.0f);
    for (const float width : {0.6f * whole, 2.0f * whole}) {
        SCOPED_TRACE(width);
        frame([&] {
            ASSERT_TRUE(BeginPlot(ctx, "Impulse per row##cut", ImVec2(width, 200)));
            SetupAxisX(ctx, "time", "s");
            SetupAxisY(ctx, "accumulated impulse", unit);
            PlotLine(ctx, "linear X lock", t.data(), a.data(), 2);
            EndPlot(ctx);
        });
        const PlotResult r = ctx.last;
        ASSERT_GT(r.yLabelMax.x, r.yLabelMin.x) << "the label is drawn";
        EXPECT_LE(r.yLabelMax.x, r.frameMax.x) << "within the plot's own frame";
        if (width > whole)
            EXPECT_FLOAT_EQ(r.yLabelMax.x - r.yLabelMin.x, whole) << "whole where it fits";
        else
            EXPECT_GT(r.yLabelMax.x - r.yLabelMin.x, 0.5f * width) << "cut, not dropped";
    }
}

// At 1280x720 a plot's cell is narrower than "Impulse per row — pendulum pivot": cut at its end,
// the joint's name went, which is what tells two impulse plots apart. The title keeps its subject
// and shortens the kind (the value axis names it too), hovering it shows it whole, and a title too
// long even for that is cut at its end. Where it fits it is drawn whole, with no tooltip.
TEST_F(PlotWidget, ATitleTooLongKeepsItsSubjectAndShowsWholeOnHover) {
    t = {0.0, 1.0};
    a = {0.0, 1.0};
    const char* title = "Impulse per row \u2014 pendulum pivot (selected)";
    float whole = 0.0f, subject = 0.0f, joint = 0.0f;
    frame([&] {
        whole = ImGui::CalcTextSize(title).x;
        subject = ImGui::CalcTextSize("Impulse\u2026 \u2014 pendulum pivot (selected)").x;
        joint = ImGui::CalcTextSize("Impulse\u2026 \u2014 pendulum pivot\u2026").x;
    });
    ctx.titleReserve = 40.0f;  // the caller's buttons at the right end of the title row
    auto draw = [&](float width, ImVec2 mouse) {
        frame(
            [&] {
                ASSERT_TRUE(BeginPlot(ctx, (std::string(title) + "##t").c_str(), ImVec2(width, 200)));
                SetupAxisX(ctx, "time", "s");
                SetupAxisY(ctx, "accumulated impulse", "N\u00b7s");
                PlotLine(ctx, "linear X lock", t.data(), a.data(), 2);
                EndPlot(ctx);
            },
            mouse);
    };
    // The title row's room: the frame less its padding on both sides and the caller's reserve.
    auto room = [&](float width) { return width - 40.0f - 2.0f * 6.0f; };  // kPad = 6 design px
    for (const float width : {whole + 100.0f, subject + 60.0f, joint + 60.0f, joint + 20.0f, 100.0f}) {
        SCOPED_TRACE(width);
        draw(width, ImVec2(-1, -1));
        const PlotResult r = ctx.last;
        EXPECT_LE(r.titleMax.x, r.frameMax.x - ctx.titleReserve) << "clear of the caller's buttons";
        if (room(width) >= whole) {
            EXPECT_FALSE(r.titleCut);
            EXPECT_EQ(ctx.lastTitle, title);
        } else if (room(width) >= subject) {  // the kind shortened, at a word's end
            EXPECT_TRUE(r.titleCut);
            EXPECT_NE(ctx.lastTitle.find("\u2026 \u2014 pendulum pivot (selected)"), std::string::npos)
                << ctx.lastTitle;
            EXPECT_TRUE(ctx.lastTitle.rfind("Impulse\u2026", 0) == 0 ||
                        ctx.lastTitle.rfind("Impulse per\u2026", 0) == 0)
                << ctx.lastTitle;
        } else if (room(width) >= joint) {  // then the subject's end, back to the end of a word
            EXPECT_EQ(ctx.lastTitle, "Impulse\u2026 \u2014 pendulum pivot\u2026");
        } else if (width > 150.0f) {  // some of the subject still shows
            EXPECT_EQ(ctx.lastTitle.rfind("Impulse\u2026 \u2014 pen", 0), 0u) << ctx.lastTitle;
        } else {  // too narrow even for that: the end cut
            EXPECT_TRUE(r.titleCut);
            EXPECT_EQ(ctx.lastTitle.find("\u2014"), std::string::npos) << ctx.lastTitle;
        }
        // Hovering the title: the whole title in a tooltip, only when it was cut.
        const ImVec2 over(0.5f * (r.titleMin.x + r.titleMax.x), 0.5f * (r.titleMin.y + r.titleMax.y));
        draw(width, over);
        draw(width, over);  // ImGui hovers an item from the frame after the mouse arrives
        EXPECT_EQ(ctx.last.titleTooltip, r.titleCut);
    }
}

/// Distance from q to the polyline `line` (runs split at NaN points) [px].
float distanceToLine(const std::vector<ImVec2>& line, ImVec2 q) {
    float best = 1e9f;
    for (size_t i = 0; i + 1 < line.size(); ++i) {
        const ImVec2 a = line[i], b = line[i + 1];
        if (std::isnan(a.y) || std::isnan(b.y)) continue;
        const float dx = b.x - a.x, dy = b.y - a.y, d2 = dx * dx + dy * dy;
        const float t = d2 > 0.0f ? std::clamp(((q.x - a.x) * dx + (q.y - a.y) * dy) / d2, 0.0f, 1.0f) : 0.0f;
        best = std::min(best, std::hypot(a.x + t * dx - q.x, a.y + t * dy - q.y));
    }
    return best;
}

// Frame after frame a ring buffer moves on and the plot keeps last frame's line, mapping only the
// new samples: the line it draws still passes within the tolerance of every decimated point, with
// the axes fixed (the kept line is moved) and auto-fitted (it is redrawn when they change).
TEST_F(PlotWidget, AStreamedLineKeptBetweenFramesStaysOnTheData) {
    auto value = [](int64_t serial) {
        return std::sin(serial * 0.02) + 0.3 * std::sin(serial * 0.37) + (serial % 97 == 0 ? 2.0 : 0.0);
    };
    for (const bool fixedAxis : {true, false}) {
        Context fresh;
        std::swap(ctx, fresh);
        const int window = 600;
        for (int64_t first = 0; first <= 300; first += 3) {  // three steps per frame
            frame([&] {
                ASSERT_TRUE(BeginPlot(ctx, "ring", ImVec2(500, 200)));
                SetupAxisLimitsX(ctx, first / 60.0, (first + window) / 60.0);
                if (fixedAxis) SetupAxisLimitsY(ctx, -2.0, 3.0);
                PlotLineStreamF(ctx, "value", window, first, 1, [&](int i) {
                    return Point{(first + i) / 60.0, value(first + i)};
                });
                EndPlot(ctx);
            });
        }
        ASSERT_EQ(ctx.streams.size(), 1u);
        const Context::Stream& stream = ctx.streams.begin()->second;
        ASSERT_TRUE(stream.line.valid);
        const PlotResult& r = ctx.last;
        const float width = r.areaMax.x - r.areaMin.x, height = r.areaMax.y - r.areaMin.y;
        const ColumnSeries::Span span = stream.columns.points(r.x.min, r.x.max);
        int checked = 0;
        for (size_t i = 0; i < span.size; ++i) {
            const Point& p = span.data[i];
            const ImVec2 q(r.areaMin.x + static_cast<float>((p.x - r.x.min) / r.x.size()) * width,
                           r.areaMax.y - static_cast<float>((p.y - r.y.min) / r.y.size()) * height);
            if (q.x < r.areaMin.x + 2.0f || q.x > r.areaMax.x) continue;
            EXPECT_LE(distanceToLine(stream.line.points, q), 0.5f)
                << "point " << i << (fixedAxis ? " fixed" : " fitted");
            ++checked;
        }
        EXPECT_GT(checked, 300);
    }
}

// The UI scale (--scale, a HiDPI monitor) scales the font, and every fixed size of the plot
// follows it (issue 31, point 3): at twice the font a plot twice as large is the same picture
// twice as large. Before, paddings, gaps and line widths stayed at their 1x pixels, so at --scale 2
// the text grew into margins that did not. Each inset between the frame and the data area is
// compared: text widths double exactly (the font is scaled), the ticks are the same, so only
// rounding of half pixels is allowed (1 px).
TEST_F(PlotWidget, EverySizeFollowsTheUiScale) {
    for (int i = 0; i <= 120; ++i) {
        t.push_back(i / 12.0);
        a.push_back(std::sin(i / 12.0));
        b.push_back(std::cos(i / 12.0));
    }
    struct Insets {
        float left, top, right, bottom, legend;
    };
    auto insetsAt = [&](float scale) {
        ImGui::GetIO().FontGlobalScale = scale;
        Insets in{};
        for (int f = 0; f < 2; ++f)
            frame([&] {
                ASSERT_TRUE(BeginPlot(ctx, "Impulse##scaled", ImVec2(400 * scale, 260 * scale)));
                SetupAxisX(ctx, "time", "s");
                SetupAxisY(ctx, "impulse", "N\u00b7s");
                PlotLine(ctx, "a", t.data(), a.data(), static_cast<int>(t.size()));
                PlotLine(ctx, "b", t.data(), b.data(), static_cast<int>(t.size()));
                EndPlot(ctx);
            });
        const PlotResult& r = ctx.last;
        in.left = r.areaMin.x - r.frameMin.x;
        in.top = r.areaMin.y - r.frameMin.y;
        in.right = r.frameMax.x - r.areaMax.x;
        in.bottom = r.frameMax.y - r.areaMax.y;
        in.legend = r.legendMax.x - r.legendMin.x;
        return in;
    };
    const Insets one = insetsAt(1.0f), two = insetsAt(2.0f);
    ImGui::GetIO().FontGlobalScale = 1.0f;
    EXPECT_NEAR(two.left, 2.0f * one.left, 1.0f);
    EXPECT_NEAR(two.top, 2.0f * one.top, 1.0f);
    EXPECT_NEAR(two.right, 2.0f * one.right, 1.0f);
    EXPECT_NEAR(two.bottom, 2.0f * one.bottom, 1.0f);
    EXPECT_NEAR(two.legend, 2.0f * one.legend, 1.0f);
}

}  // namespace
}  // namespace jl::plot
