// JointLab app — File > Export video: the dialog's choices and the export in progress. The App
// (shell/app_video.cpp) goes to each step of the run's history in turn, draws the frame and hands
// the viewport's pixels to a VideoWriter; the dialog and the progress bar are in
// panels/video_export_panel.cpp. No GL here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jl::app {

struct VideoExportState {
    // The dialog.
    bool dialogOpen = false;
    std::string path = "jointlab-run.mp4";  ///< .mp4, .gif or a folder ending in '/'
    int64_t from = 0, to = 0;               ///< history steps [absolute step numbers]
    int stride = 1;
    double fps = 0.0;     ///< 0 = real time
    bool plots = false;   ///< the Plots dock is in the picture too
    std::string message;  ///< why the last start was refused, or what the last export wrote

    // The export in progress (running = true): one frame per step in `steps`.
    bool running = false;
    std::vector<int64_t> steps;
    size_t next = 0;              ///< frames written
    int64_t returnStep = -1;      ///< where the run was before: gone back to at the end
    bool returnPlaying = false;   ///< it was playing then
    bool returnScrubbed = false;  ///< it was at a step before the history's end
    int width = 0, height = 0;    ///< the video's size [framebuffer px]: the viewport's at the start
};

}  // namespace jl::app
