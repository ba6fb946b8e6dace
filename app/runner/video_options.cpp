#include "runner/video_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace jl::app {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

template <class T>
bool parseNumber(std::string_view text, T& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

VideoFormat videoFormatOf(std::string_view path) {
    if (path.empty()) return VideoFormat::None;
    if (endsWith(path, ".mp4")) return VideoFormat::Mp4;
    if (endsWith(path, ".gif")) return VideoFormat::Gif;
    std::error_code ec;
    if (path.back() == '/' || std::filesystem::is_directory(std::filesystem::path(path), ec))
        return VideoFormat::PngFolder;
    return VideoFormat::None;
}

bool parseVideoFlag(std::string_view arg, int argc, char** argv, int& i, VideoOptions& options,
                    std::string& error) {
    if (arg == "--video-plots") {
        options.plots = true;
        return true;
    }
    if (arg != "--video" && arg != "--fps" && arg != "--video-range" && arg != "--video-stride") return false;
    if (i + 1 >= argc) {
        error = std::string(arg) + ": missing value";
        return true;
    }
    const std::string_view v = argv[++i];
    if (arg == "--video") {
        options.format = videoFormatOf(v);
        if (options.format == VideoFormat::None) {
            error = "--video: expected OUT.mp4, OUT.gif or a folder for PNG frames ending in '/', got '" +
                    std::string(v) + "'";
            return true;
        }
        options.path = v;
    } else if (arg == "--fps") {
        double fps = 0.0;
        if (!parseNumber(v, fps) || !(fps >= 1.0) || fps > kMaxVideoFps) {
            error = "--fps: expected frames per second from 1 to 120, got '" + std::string(v) + "'";
            return true;
        }
        options.fps = fps;
    } else if (arg == "--video-stride") {
        int stride = 0;
        if (!parseNumber(v, stride) || stride < 1 || stride > kMaxVideoStride) {
            error = "--video-stride: expected a whole number of steps per frame from 1 to 10000, got '" +
                    std::string(v) + "'";
            return true;
        }
        options.stride = stride;
    } else {  // --video-range FROM:TO
        const size_t colon = v.find(':');
        int64_t from = 0, to = 0;
        if (colon == std::string_view::npos || !parseNumber(v.substr(0, colon), from) ||
            !parseNumber(v.substr(colon + 1), to) || from < 0 || to <= from || to > kMaxVideoSteps) {
            error =
                "--video-range: expected FROM:TO, steps with 0 <= FROM < TO <= 1000000, e.g. 0:120, got '" +
                std::string(v) + "'";
            return true;
        }
        options.from = from;
        options.to = to;
    }
    return true;
}

std::string checkVideoOptions(VideoOptions& options, int64_t runSteps) {
    const bool other = options.fps > 0.0 || options.to >= 0 || options.stride != 1 || options.plots;
    if (options.path.empty()) {
        return other ? "--fps, --video-range, --video-stride and --video-plots: only used together with "
                       "--video OUT"
                     : "";
    }
    if (options.to < 0) options.to = runSteps;
    if (options.to > runSteps)
        return "--video-range: ends at step " + std::to_string(options.to) + " but the run has " +
               std::to_string(runSteps) + " steps";
    if (videoFrameSteps(options.from, options.to, options.stride).empty())
        return "--video-range: steps " + std::to_string(options.from) + " to " + std::to_string(options.to) +
               " hold no frame at a stride of " + std::to_string(options.stride);
    if (options.format == VideoFormat::PngFolder) {
        std::error_code ec;
        std::string name = options.path;
        while (name.size() > 1 && name.back() == '/') name.pop_back();  // "x/" of a file x: still x
        const std::filesystem::path folder(name);
        if (std::filesystem::exists(folder, ec)) {
            if (!std::filesystem::is_directory(folder, ec))
                return "--video: '" + options.path + "' is a file, not a folder";
            if (!std::filesystem::is_empty(folder, ec))
                return "--video: the folder '" + options.path +
                       "' holds files already; give a new or empty folder (frames replace nothing)";
        }
    }
    return "";
}

std::vector<int64_t> videoFrameSteps(int64_t from, int64_t to, int stride) {
    std::vector<int64_t> steps;
    if (stride < 1) return steps;
    for (int64_t s = from + stride; s <= to; s += stride) steps.push_back(s);
    return steps;
}

double videoFps(const VideoOptions& options, double dt) {
    if (options.fps > 0.0) return options.fps;
    const double realTime = 1.0 / (dt * std::max(1, options.stride));
    return std::clamp(std::round(realTime), 1.0, kMaxVideoFps);
}

std::string videoFrameName(int index) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.png", index + 1);
    return name;
}

std::string videoUsage() {
    return "  --video OUT     record the run: OUT.mp4 (H.264), OUT.gif, or OUT/ (a folder of numbered PNG\n"
           "                  frames); frames are piped to the ffmpeg program (Debian package ffmpeg).\n"
           "                  Shows the viewport with its overlays, and the Plots dock with --video-plots\n"
           "  --video-range FROM:TO  the steps recorded (default 0:the run's length): one frame after each\n"
           "                  of steps FROM+K, FROM+2K, ... up to TO (K = --video-stride, default 1)\n"
           "  --video-stride K  steps per frame\n"
           "  --fps F         frames per second of the file, 1 to 120 (default real time: 1/(dt*K))\n"
           "  --video-plots   the Plots dock under the viewport is in the video too\n";
}

}  // namespace jl::app
