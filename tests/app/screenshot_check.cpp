// Checks that a JointLab screenshot shows a rendered scene and not a blank or broken frame.
//
//   jointlab_screenshot_check SHOT.png     exit 0 when every check passes, 1 otherwise
//   jointlab_screenshot_check --self-test  proves the checks reject a blank and a noise image
//   jointlab_screenshot_check --joint SHOT.png PLAIN.png X Y
//       the selected joint's frames (RGB axes) and limit (magenta) are drawn around its anchor at
//       pixel (X, Y) in SHOT, and not in PLAIN (the same frame rendered with --hide-joints)
//   jointlab_screenshot_check --compare A.png B.png BOTTOM_ROWS
//       A and B are the same picture: equal sizes, and no pixel above the lowest BOTTOM_ROWS rows
//       (the status bar, whose CPU time differs from run to run) differs by more than
//       kCompareTolerance in any channel in more than kCompareMaxFraction of the pixels (issue 30:
//       the EGL rendering without a display against the Xvfb one)
//
// The regions are fractions of the image, chosen from the app's fixed layout (Scene/Simulation
// column on the left, Inspector on the right, menu bar on top, status bar at the bottom, the Plots
// dock under the viewport taking the lower 45% between the columns): the upper middle of the
// image is always 3D viewport, its lower part ground, and the viewport holds the default scene's
// coloured bodies.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

namespace {

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
    const unsigned char* at(int x, int y) const { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
};

struct Region {
    const char* name;
    double x0, y0, x1, y1;  // fractions of width and height, top-left origin
};

/// The colour the app clears the window with (outside panels and viewport); see app.cpp.
constexpr int kClearColor[3] = {23, 26, 28};

// The checks and their thresholds.
constexpr int kMinWidth = 640, kMinHeight = 480;
constexpr double kMinImageStdDev = 12.0;  // luminance, 0..255: a blank frame has ~0
constexpr Region kViewportCentre{"viewport centre", 0.35, 0.12, 0.65, 0.50};
constexpr double kMinDrawnFraction = 0.98;  // of pixels not equal to the clear colour
constexpr Region kGround{"ground", 0.30, 0.40, 0.70, 0.52};
constexpr double kMinGroundStdDev = 2.0;         // grid lines make the ground vary
constexpr double kMinGroundLineFraction = 0.02;  // pixels lighter than the ground's median by 12+
constexpr Region kBodies{"viewport (bodies)", 0.25, 0.06, 0.75, 0.52};
constexpr int kMinSaturatedPixels = 1000;  // lit coloured bodies; ground, sky, grid are grey
constexpr int kSaturation = 70;            // max(r,g,b) - min(r,g,b)
constexpr Region kMenuBar{"menu bar", 0.0, 0.0, 0.30, 0.02};
constexpr double kMinMenuBarStdDev = 8.0;  // menu titles are text on a flat bar

double luminance(const unsigned char* p) {
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

template <class F>
void forEachPixel(const Image& img, const Region& r, F f) {
    const int x0 = static_cast<int>(r.x0 * img.width), x1 = static_cast<int>(r.x1 * img.width);
    const int y0 = static_cast<int>(r.y0 * img.height),
              y1 = std::max(y0 + 1, static_cast<int>(r.y1 * img.height));
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) f(img.at(x, y));
}

double stdDev(const Image& img, const Region& r) {
    double sum = 0.0, sumSq = 0.0;
    long n = 0;
    forEachPixel(img, r, [&](const unsigned char* p) {
        double l = luminance(p);
        sum += l;
        sumSq += l * l;
        ++n;
    });
    if (n == 0) return 0.0;
    double mean = sum / n;
    return std::sqrt(std::max(0.0, sumSq / n - mean * mean));
}

class Checker {
public:
    void check(bool ok, const char* what, const std::string& measured) {
        std::printf("  [%s] %s: %s\n", ok ? "pass" : "FAIL", what, measured.c_str());
        if (!ok) ++failures_;
    }
    int failures() const { return failures_; }

private:
    int failures_ = 0;
};

std::string fmt(const char* format, double a, double b = 0.0) {
    char buf[160];
    std::snprintf(buf, sizeof(buf), format, a, b);
    return buf;
}

/// Runs every check; returns the number of failures.
int checkScreenshot(const Image& img) {
    Checker c;
    c.check(img.width >= kMinWidth && img.height >= kMinHeight, "image size",
            fmt("%.0fx%.0f (at least 640x480)", img.width, img.height));
    if (img.width < kMinWidth || img.height < kMinHeight) return c.failures();

    const Region whole{"image", 0, 0, 1, 1};
    const double sd = stdDev(img, whole);
    c.check(sd >= kMinImageStdDev, "not blank: luminance std dev",
            fmt("%.1f (min %.1f)", sd, kMinImageStdDev));

    long drawn = 0, total = 0;
    forEachPixel(img, kViewportCentre, [&](const unsigned char* p) {
        int diff = std::abs(p[0] - kClearColor[0]) + std::abs(p[1] - kClearColor[1]) +
                   std::abs(p[2] - kClearColor[2]);
        drawn += diff > 6 ? 1 : 0;
        ++total;
    });
    const double drawnFraction = total ? static_cast<double>(drawn) / total : 0.0;
    c.check(drawnFraction >= kMinDrawnFraction,
            "3D viewport drawn: centre pixels differing from the clear colour",
            fmt("%.3f (min %.2f)", drawnFraction, kMinDrawnFraction));

    const double groundSd = stdDev(img, kGround);
    c.check(groundSd >= kMinGroundStdDev, "grid visible: ground luminance std dev",
            fmt("%.2f (min %.1f)", groundSd, kMinGroundStdDev));
    std::vector<double> lum;
    forEachPixel(img, kGround, [&](const unsigned char* p) { lum.push_back(luminance(p)); });
    std::vector<double> sorted = lum;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double median = sorted[sorted.size() / 2];
    long lines = 0;
    for (double l : lum) lines += l >= median + 12.0 ? 1 : 0;
    const double lineFraction = static_cast<double>(lines) / lum.size();
    c.check(lineFraction >= kMinGroundLineFraction,
            "grid visible: ground pixels brighter than its median by 12+",
            fmt("%.3f (min %.2f)", lineFraction, kMinGroundLineFraction));

    long saturated = 0;
    forEachPixel(img, kBodies, [&](const unsigned char* p) {
        int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
        saturated += hi - lo >= kSaturation ? 1 : 0;
    });
    c.check(saturated >= kMinSaturatedPixels, "bodies visible: saturated pixels in the viewport",
            fmt("%.0f (min %.0f)", static_cast<double>(saturated), kMinSaturatedPixels));

    const double menuSd = stdDev(img, kMenuBar);
    c.check(menuSd >= kMinMenuBarStdDev, "UI drawn: menu bar luminance std dev",
            fmt("%.1f (min %.1f)", menuSd, kMinMenuBarStdDev));
    return c.failures();
}

int selfTest() {
    Image blank;
    blank.width = 1280;
    blank.height = 800;
    blank.rgb.resize(static_cast<size_t>(blank.width) * blank.height * 3);
    for (size_t i = 0; i < blank.rgb.size(); ++i)
        blank.rgb[i] = static_cast<unsigned char>(kClearColor[i % 3]);
    std::printf("self-test: a blank frame (clear colour only) must fail\n");
    const bool blankRejected = checkScreenshot(blank) > 0;

    Image noise = blank;
    unsigned state = 12345u;
    for (auto& v : noise.rgb) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<unsigned char>((state >> 24) & 0x3F);  // dark grey noise, no bodies
    }
    std::printf("self-test: dark grey noise (no UI, no bodies) must fail\n");
    const bool noiseRejected = checkScreenshot(noise) > 0;
    std::printf("self-test: %s\n",
                blankRejected && noiseRejected ? "ok" : "FAILED (a check accepts a bad frame)");
    return blankRejected && noiseRejected ? 0 : 1;
}

// [SECTION] Joint drawing: the selected joint's frames and limit around its anchor

/// Colours of the joint drawing (app/debug_draw.h colors::kRed/kGreen/kBlue, app/joint_draw.h
/// joint_colors::kLimit) as 8-bit sRGB.
struct NamedColor {
    const char* name;
    int rgb[3];
};
constexpr NamedColor kFrameColors[] = {
    {"frame X (red)", {230, 64, 56}}, {"frame Y (green)", {89, 204, 77}}, {"frame Z (blue)", {64, 128, 242}}};
constexpr NamedColor kLimitColor{"limit (magenta)", {242, 77, 217}};
constexpr int kColorTolerance = 25;   // per channel: lit bodies of similar hue stay outside
constexpr int kAnchorRadius = 60;     // [pixels] around the anchor
constexpr long kMinFrameExtra = 15;   // pixels of each axis colour the drawing must add
constexpr long kMinLimitPixels = 40;  // magenta pixels with the drawing on
constexpr long kMaxLimitPlain = 5;    // ... and without it (nothing else is magenta)

long countNear(const Image& img, int cx, int cy, const NamedColor& c) {
    long n = 0;
    for (int y = std::max(0, cy - kAnchorRadius); y < std::min(img.height, cy + kAnchorRadius); ++y)
        for (int x = std::max(0, cx - kAnchorRadius); x < std::min(img.width, cx + kAnchorRadius); ++x) {
            const unsigned char* p = img.at(x, y);
            bool close = true;
            for (int k = 0; k < 3; ++k) close = close && std::abs(p[k] - c.rgb[k]) <= kColorTolerance;
            n += close ? 1 : 0;
        }
    return n;
}

/// `shot` has a joint selected with the joint drawing on, `plain` is the same frame with it off
/// (--hide-joints); (x, y) is the joint's anchor as the app printed it. The axis colours must be
/// there only because of the drawing (the world axes may also be near), the limit colour at all.
int checkJointDrawing(const Image& shot, const Image& plain, int x, int y) {
    Checker c;
    for (const NamedColor& color : kFrameColors) {
        const long on = countNear(shot, x, y, color), off = countNear(plain, x, y, color);
        c.check(on - off >= kMinFrameExtra, color.name,
                fmt("%.0f pixels near the anchor with the drawing, %.0f without", on, off));
    }
    const long on = countNear(shot, x, y, kLimitColor), off = countNear(plain, x, y, kLimitColor);
    c.check(on >= kMinLimitPixels && off <= kMaxLimitPlain, kLimitColor.name,
            fmt("%.0f pixels near the anchor with the drawing, %.0f without", on, off));
    return c.failures();
}

bool load(const char* path, Image& img) {
    int channels = 0;
    unsigned char* data = stbi_load(path, &img.width, &img.height, &channels, 3);
    if (!data) {
        std::fprintf(stderr, "jointlab_screenshot_check: cannot read %s: %s\n", path, stbi_failure_reason());
        return false;
    }
    img.rgb.assign(data, data + static_cast<size_t>(img.width) * img.height * 3);
    stbi_image_free(data);
    return true;
}

// [SECTION] Two renderings of one picture

constexpr int kCompareTolerance = 8;          ///< per channel, of 255: rounding in a rasteriser
constexpr double kCompareMaxFraction = 1e-3;  ///< of the pixels compared

int compareImages(const Image& a, const Image& b, int bottomRows) {
    if (a.width != b.width || a.height != b.height) {
        std::printf("FAILED: sizes differ, %dx%d and %dx%d\n", a.width, a.height, b.width, b.height);
        return 1;
    }
    const int rows = std::max(0, a.height - bottomRows);
    long differing = 0, exact = 0, maxDiff = 0;
    double sum = 0.0;
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < a.width; ++x) {
            int d = 0;
            for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(a.at(x, y)[k] - b.at(x, y)[k]));
            differing += d > kCompareTolerance ? 1 : 0;
            exact += d == 0 ? 1 : 0;
            maxDiff = std::max<long>(maxDiff, d);
            sum += d;
        }
    const double total = static_cast<double>(rows) * a.width;
    const double fraction = total > 0 ? static_cast<double>(differing) / total : 1.0;
    std::printf(
        "%.0f pixels compared: %ld identical, %ld differ by more than %d (fraction %.2e, at most %.0e "
        "allowed), largest difference %ld, mean %.4f\n",
        total, exact, differing, kCompareTolerance, fraction, kCompareMaxFraction, maxDiff,
        total > 0 ? sum / total : 0.0);
    const bool ok = total > 0 && fraction <= kCompareMaxFraction;
    std::printf("%s\n", ok ? "images match" : "image comparison FAILED");
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--self-test") return selfTest();
    if (argc == 5 && std::string(argv[1]) == "--compare") {
        Image a, b;
        if (!load(argv[2], a) || !load(argv[3], b)) return 1;
        std::printf("%s vs %s:\n", argv[2], argv[3]);
        return compareImages(a, b, std::atoi(argv[4]));
    }
    if (argc == 6 && std::string(argv[1]) == "--joint") {
        Image shot, plain;
        if (!load(argv[2], shot) || !load(argv[3], plain)) return 1;
        const int x = std::atoi(argv[4]), y = std::atoi(argv[5]);
        std::printf("%s vs %s, anchor at (%d, %d):\n", argv[2], argv[3], x, y);
        const int failures = checkJointDrawing(shot, plain, x, y);
        std::printf("%s\n", failures == 0 ? "joint drawing ok" : "joint drawing check FAILED");
        return failures == 0 ? 0 : 1;
    }
    if (argc != 2) {
        std::fprintf(stderr, "usage: jointlab_screenshot_check SHOT.png | --self-test\n");
        return 2;
    }
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(argv[1], &img.width, &img.height, &channels, 3);
    if (!data) {
        std::fprintf(stderr, "jointlab_screenshot_check: cannot read %s: %s\n", argv[1],
                     stbi_failure_reason());
        return 1;
    }
    img.rgb.assign(data, data + static_cast<size_t>(img.width) * img.height * 3);
    stbi_image_free(data);
    std::printf("%s:\n", argv[1]);
    const int failures = checkScreenshot(img);
    std::printf("%s\n", failures == 0 ? "screenshot ok" : "screenshot check FAILED");
    return failures == 0 ? 0 : 1;
}
