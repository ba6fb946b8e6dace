// Checks a plot image written by `jointlab --screenshot ... --plot-png PLOT.png`: a real plot with
// at least two series, told apart by their palette colours (plot::seriesColor), and text.
//
//   jointlab_plot_check PLOT.png [SERIES]   exit 0 when the first SERIES (default 2) palette colours
//                                           each cover enough pixels, 1 otherwise
//   jointlab_plot_check --self-test         proves the check rejects a one-series and a blank image
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "plot/plot.h"

namespace {

constexpr int kMinSeriesPixels = 40;  ///< a 2 px line across a few dozen pixels
constexpr int kColourTolerance = 36;  ///< per channel: anti-aliased edges are blends, the core is exact
constexpr int kMinWidth = 200, kMinHeight = 100;

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
};

int pixelsNear(const Image& img, ImU32 colour) {
    const int r = colour & 0xFF, g = (colour >> 8) & 0xFF, b = (colour >> 16) & 0xFF;
    int n = 0;
    for (size_t i = 0; i + 2 < img.rgb.size(); i += 3)
        if (std::abs(img.rgb[i] - r) <= kColourTolerance &&
            std::abs(img.rgb[i + 1] - g) <= kColourTolerance &&
            std::abs(img.rgb[i + 2] - b) <= kColourTolerance)
            ++n;
    return n;
}

/// Light pixels (text, tick labels) on the dark plot background.
int lightPixels(const Image& img) {
    int n = 0;
    for (size_t i = 0; i + 2 < img.rgb.size(); i += 3)
        if (img.rgb[i] > 140 && img.rgb[i + 1] > 140 && img.rgb[i + 2] > 140) ++n;
    return n;
}

bool check(const Image& img, int series, bool verbose) {
    bool ok = img.width >= kMinWidth && img.height >= kMinHeight;
    if (verbose) std::printf("  [%s] size %dx%d\n", ok ? "pass" : "FAIL", img.width, img.height);
    for (int s = 0; s < series; ++s) {
        const int n = pixelsNear(img, jl::plot::seriesColor(s));
        const bool pass = n >= kMinSeriesPixels;
        ok = ok && pass;
        if (verbose)
            std::printf("  [%s] series %d colour: %d pixels (need %d)\n", pass ? "pass" : "FAIL", s, n,
                        kMinSeriesPixels);
    }
    const int text = lightPixels(img);
    ok = ok && text >= 100;
    if (verbose) std::printf("  [%s] text: %d light pixels\n", text >= 100 ? "pass" : "FAIL", text);
    return ok;
}

int selfTest() {
    Image img;
    img.width = 400;
    img.height = 200;
    img.rgb.assign(static_cast<size_t>(img.width) * img.height * 3, 20);
    const bool blank = check(img, 2, false);
    const ImU32 c = jl::plot::seriesColor(0);
    for (int x = 0; x < 300; ++x)
        for (int y = 100; y < 102; ++y) {
            unsigned char* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
            p[0] = c & 0xFF, p[1] = (c >> 8) & 0xFF, p[2] = (c >> 16) & 0xFF;
        }
    for (int x = 0; x < 200; ++x) img.rgb[(10 * static_cast<size_t>(img.width) + x) * 3] = 255;
    const bool oneSeries = check(img, 2, false);
    std::printf("self-test: blank %s, one series %s\n", blank ? "ACCEPTED" : "rejected",
                oneSeries ? "ACCEPTED" : "rejected");
    return blank || oneSeries ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--self-test") return selfTest();
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: jointlab_plot_check PLOT.png [SERIES] | --self-test\n");
        return 2;
    }
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(argv[1], &img.width, &img.height, &channels, 3);
    if (!data) {
        std::fprintf(stderr, "jointlab_plot_check: cannot read %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    img.rgb.assign(data, data + static_cast<size_t>(img.width) * img.height * 3);
    stbi_image_free(data);
    const int series = argc == 3 ? std::atoi(argv[2]) : 2;
    std::printf("jointlab_plot_check %s:\n", argv[1]);
    const bool ok = check(img, series, true);
    std::printf("%s\n", ok ? "plot check passed" : "plot check FAILED");
    return ok ? 0 : 1;
}
