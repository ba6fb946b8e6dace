#include "shell/screen_fit.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

namespace {
constexpr int kFrameMarginX = 16, kFrameMarginY = 48;  ///< room for the window's decorations [px]
constexpr int kMinWidth = 640, kMinHeight = 400;
}  // namespace

ScreenArea fitWindowToWorkArea(const ScreenArea& area, int wantedWidth, int wantedHeight) {
    if (area.width <= 0 || area.height <= 0) return ScreenArea{0, 0, wantedWidth, wantedHeight};
    const int maxWidth = std::max(1, area.width - kFrameMarginX);
    const int maxHeight = std::max(1, area.height - kFrameMarginY);
    ScreenArea w;
    w.width = std::clamp(wantedWidth, std::min(kMinWidth, maxWidth), maxWidth);
    w.height = std::clamp(wantedHeight, std::min(kMinHeight, maxHeight), maxHeight);
    w.x = area.x + (area.width - w.width) / 2;
    w.y = area.y + (area.height - w.height) / 2;
    return w;
}

float chooseUiScale(float requested, float contentScale) {
    float s = requested > 0.0f ? requested : contentScale;
    if (!(s > 0.0f) || !std::isfinite(s)) s = 1.0f;
    return std::clamp(std::round(s * 4.0f) / 4.0f, 0.75f, 4.0f);
}

}  // namespace jl::app
