// `jointlab sweep-plot`: a sweep's results.csv as a PNG, with no window, display or GL
// (plot/sweep_plot.h draws it and rasterises it in software).
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "jointlab/file_identity.h"
#include "plot/sweep_plot.h"
#include "runner/runner_args.h"
#include "runner/sweep.h"

namespace jl::runner {

namespace {

constexpr const char* kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // fonts-dejavu-core

std::string plotUsage() {
    return "usage: jointlab sweep-plot DIR|RESULTS.csv --png OUT.png [--metric NAME] [--size WxH]\n"
           "Draws a sweep's results: a line over the one parameter that varies, or a heat map over\n"
           "two (the first across, the second down), coloured by the metric (default: the first\n"
           "metric column). Needs no display.\n";
}

int usageError(const std::string& message) {
    std::fprintf(stderr, "jointlab sweep-plot: %s\n", message.c_str());
    return kExitUsage;
}

}  // namespace

int runSweepPlot(int argc, char** argv) {
    std::string input, png, metric;
    int width = 900, height = 600;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(plotUsage().c_str(), stdout);
            return kExitOk;
        }
        if (arg == "--png" || arg == "--metric" || arg == "--size") {
            if (i + 1 >= argc) return usageError(std::string(arg) + ": missing value");
            const std::string value = argv[++i];
            if (arg == "--png") {
                if (value.size() < 5 || value.substr(value.size() - 4) != ".png")
                    return usageError("--png: the output file must end in .png, got \"" + value + "\"");
                png = value;
            } else if (arg == "--metric") {
                metric = value;
            } else {
                const size_t x = value.find('x');
                auto whole = [](std::string_view s, int& out) {
                    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
                    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
                };
                if (x == std::string::npos || !whole(std::string_view(value).substr(0, x), width) ||
                    !whole(std::string_view(value).substr(x + 1), height) || width < 320 || height < 240 ||
                    width > 8192 || height > 8192)
                    return usageError("--size: expected WIDTHxHEIGHT between 320x240 and 8192x8192, got \"" +
                                      value + "\"");
            }
            continue;
        }
        if (arg.size() > 1 && arg[0] == '-') return usageError("unknown option \"" + std::string(arg) + "\"");
        if (!input.empty()) return usageError("unexpected argument \"" + std::string(arg) + "\" (one table)");
        input = arg;
    }
    if (input.empty()) return usageError("missing the sweep's folder or results.csv");
    if (png.empty()) return usageError("missing --png OUT.png");
    if (std::filesystem::is_directory(input)) input += "/results.csv";
    if (std::string clash = checkOutputsAgainstInputs({{"the results", input}}, {{"--png", png}});
        !clash.empty())
        return usageError(clash);
    std::ifstream in(input, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "jointlab sweep-plot: %s: cannot read\n", input.c_str());
        return kExitFile;
    }
    std::stringstream text;
    text << in.rdbuf();
    plot::SweepTable table;
    if (std::string e = plot::parseSweepTable(text.str(), table); !e.empty())
        return usageError(input + ": " + e);
    if (metric.empty()) {
        if (table.metrics.empty()) return usageError(input + ": no metric columns");
        metric = table.metrics[0];
    }
    ImGui::CreateContext();
    ImGui::StyleColorsDark();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    std::error_code ec;
    if (std::filesystem::is_regular_file(kFont, ec))
        io.Fonts->AddFontFromFileTTF(kFont, 15.0f);
    else
        io.Fonts->AddFontDefault();
    unsigned char* pixels = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
    plot::Image image;
    const std::string error = plot::drawSweepPlot(
        table, metric, ImVec2(static_cast<float>(width), static_cast<float>(height)), image);
    ImGui::DestroyContext();
    if (!error.empty()) return usageError(input + ": " + error);
    if (std::string e = plot::writePng(png, image); !e.empty()) {
        std::fprintf(stderr, "jointlab sweep-plot: %s\n", e.c_str());
        return kExitFile;
    }
    std::printf("jointlab sweep-plot: %s of %zu runs -> %s (%dx%d)\n", metric.c_str(), table.rows.size(),
                png.c_str(), width, height);
    return kExitOk;
}

}  // namespace jl::runner
