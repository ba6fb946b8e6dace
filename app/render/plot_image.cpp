#include "render/plot_image.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "render/screenshot.h"
#include "viewport/viewport.h"

namespace jl::app {

void finishPlotsFrame(AppState& state, const std::function<void()>& bindReadBuffer) {
    PlotsPanelState& ps = state.plotsPanel;
    if (state.sim.telemetrySeconds() != ps.recordSeconds) state.sim.setTelemetrySeconds(ps.recordSeconds);
    PlotImageRequest& image = ps.image;
    if (image.plot < 0) return;
    if (!image.drawn) {  // requested this frame (or the plot was not visible): drawn clean next frame
        if (!state.panels.plots) image = PlotImageRequest{};
        return;
    }
    const ImGuiIO& io = ImGui::GetIO();
    ScreenRect rect;
    rect.min = ImVec2(std::max(0.0f, image.min.x), std::max(0.0f, image.min.y));
    rect.max = ImVec2(std::min(io.DisplaySize.x, image.max.x), std::min(io.DisplaySize.y, image.max.y));
    const std::string path = image.path;
    image = PlotImageRequest{};
    if (rect.width() < 2.0f || rect.height() < 2.0f) {
        state.status.error("cannot save the plot: it is not on screen");
        return;
    }
    bindReadBuffer();
    const PixelRect px = toFramebufferRect(rect, io.DisplaySize, io.DisplayFramebufferScale);
    std::string error;
    if (writePng(path, readFramebuffer(px.x, px.y, px.width, px.height), error,
                 {{"the open scenario", state.sim.sourcePath()}})) {
        state.status.info("saved plot " + path);
        ps.savedImage = path;
    } else {
        state.status.error(error);
    }
}

}  // namespace jl::app
