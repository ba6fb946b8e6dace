// App tests that draw a telemetry plot headless (a test::HeadlessImGui must exist): one ImGui frame
// with the plot in a window filling the display, rendered. Afterwards ctx.last holds what was
// drawn and ctx.building the series built (kept until the next plot begins).
#pragma once

#include <gtest/gtest.h>
#include <imgui.h>

#include "telemetry/telemetry_plots.h"

namespace jl::test {

/// Draws `desc` from `in` at 700 × 300 px (id "0", linear scale) in one frame; the drawing must
/// not be clipped (a failure otherwise).
inline void drawPlotFrame(plot::Context& ctx, const PlotDesc& desc, const app::PlotInputs& in) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("plots", nullptr, ImGuiWindowFlags_NoDecoration);
    bool logScale = false;
    EXPECT_TRUE(app::drawTelemetryPlot(ctx, "0", desc, in, ImVec2(700, 300), &logScale));
    ImGui::End();
    ImGui::Render();
}

/// The same for the telemetry `t` of `w`.
inline void drawPlotFrame(plot::Context& ctx, const PlotDesc& desc, const Telemetry& t, const World& w) {
    app::PlotInputs in;
    in.telemetry = &t;
    in.world = &w;
    drawPlotFrame(ctx, desc, in);
}

}  // namespace jl::test
