// JointLab — what a video export asks for: the output (an MP4, a GIF or a folder of PNG frames),
// the steps it shows, its frame rate and whether the Plots dock is in the picture. Shared by the
// app's screenshot mode (`jointlab --video OUT ...`), the runner (`jointlab run ... --video OUT`)
// and File > Export video. No GL here: parsed and checked before any window or context exists.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jl::app {

enum class VideoFormat { None, Mp4, Gif, PngFolder };

struct VideoOptions {
    std::string path;  ///< "" = no video
    VideoFormat format = VideoFormat::None;
    /// Frames per second of the file; 0 = real time, 1 / (dt × stride) rounded, within 1..120.
    double fps = 0.0;
    /// The frames show the state after steps from + stride, from + 2·stride, ... up to `to` (steps
    /// counted from the start of the run). to < 0: the run's length (--frames, --steps).
    int64_t from = 0;
    int64_t to = -1;
    int stride = 1;
    bool plots = false;  ///< the Plots dock under the viewport is in the picture too
};

/// Limits of the flags [-].
inline constexpr double kMaxVideoFps = 120.0;
inline constexpr int kMaxVideoStride = 10000;
inline constexpr int64_t kMaxVideoSteps = 1000000;

/// The format a path asks for: .mp4, .gif, or a folder (a path ending in '/' or an existing folder).
VideoFormat videoFormatOf(std::string_view path);

/// Parses one of the video flags (--video, --fps, --video-range, --video-stride, --video-plots) at
/// argv[i], advancing i past its value. Returns false when `arg` is not a video flag; sets `error`
/// (naming the flag and the problem) when it is one but its value is bad.
bool parseVideoFlag(std::string_view arg, int argc, char** argv, int& i, VideoOptions& options,
                    std::string& error);

/// After all flags: the range within the run of `runSteps` steps, the other flags only with
/// --video, and a frames folder that is new or empty (its frames replace nothing). "" = fine.
std::string checkVideoOptions(VideoOptions& options, int64_t runSteps);

/// The steps the frames show (after each of them): from + stride·k for k = 1, 2, ... while ≤ to.
std::vector<int64_t> videoFrameSteps(int64_t from, int64_t to, int stride);

/// The frame rate: options.fps, or real time for steps of `dt` seconds.
double videoFps(const VideoOptions& options, double dt);

/// The name of frame `index` (0-based) in a PNG folder: frame_000001.png for index 0.
std::string videoFrameName(int index);

/// The --help lines of the video flags (the same for `jointlab` and `jointlab run`).
std::string videoUsage();

}  // namespace jl::app
