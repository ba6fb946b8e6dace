// JointLab plot — pictures of a sweep's results (docs/sweeps.md): a 1-D sweep as a line plot
// (the plot widget, plot.h), a 2-D sweep as a heat map (one cell per run, coloured by a metric,
// its value written in it), drawn with Dear ImGui draw lists and turned into pixels without a
// window or GL by a small software rasteriser, so `jointlab sweep-plot` works on any machine.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

namespace jl::plot {

/// results.csv of a sweep: the parameter columns (between "run" and "status"), the metric columns
/// (after "steps"), and every row's cells.
struct SweepTable {
    std::vector<std::string> parameters;  ///< field paths
    std::vector<std::string> metrics;     ///< column names (max_error, ...)
    struct Row {
        int64_t run = 0;
        std::vector<std::string> values;  ///< one per parameter, as written
        std::string status;
        std::vector<double> metrics;  ///< NaN for an empty cell
    };
    std::vector<Row> rows;
};

/// Parses results.csv text. Returns "" or the problem ("line 3: 5 cells, the header has 6").
std::string parseSweepTable(const std::string& text, SweepTable& out);

/// The parameters that take more than one value (the sweep's dimensions), as indices.
std::vector<int> sweptParameters(const SweepTable& table);

/// An RGB image.
struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;
};

/// Draws the table's `metric` column: a line over the one swept parameter, or a heat map over the
/// two (the first across, the second down). Needs a current ImGui context with a built font atlas;
/// runs one ImGui frame of `size`. Returns "" or why it cannot (three swept parameters, an unknown
/// metric, ...). The colour scale of a heat map is logarithmic when the values are all positive and
/// span more than two decades.
std::string drawSweepPlot(const SweepTable& table, const std::string& metric, ImVec2 size, Image& out);

/// The same, drawn at the cursor of the current ImGui window (the app's sweep viewer). Returns ""
/// or why it cannot; `hoveredRow` is the index in table.rows of the heat-map cell under the mouse
/// (outlined), −1 when none.
std::string drawSweepPlotHere(const SweepTable& table, const std::string& metric, ImVec2 size,
                              int& hoveredRow);

/// Rasterises draw data (textured, coloured triangles with clip rectangles, alpha-blended in
/// order) over a background into `out`. `texture` is the font atlas in RGBA (the only texture the
/// plots use).
void rasterise(const ImDrawData& data, const uint8_t* texture, int textureWidth, int textureHeight,
               ImU32 background, Image& out);

/// Writes a PNG (temporary file and rename). Returns "" or the problem.
std::string writePng(const std::string& path, const Image& image);

/// The colour of t in [0, 1] on a perceptually even, colour-blind-safe scale (viridis: dark blue
/// through green to yellow).
ImU32 heatColor(double t);

}  // namespace jl::plot
