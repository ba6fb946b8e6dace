// JointLab app — writing frames as a video: an MP4 (H.264, yuv420p) or an animated GIF through the
// ffmpeg program, fed raw RGB frames on a pipe, or a folder of numbered PNG frames (writePng).
//
// Output guard: the file is checked against the inputs (the scenario, ...) before anything is
// written; ffmpeg writes a unique temporary beside it (created with O_EXCL, so nothing existing is
// truncated) which is renamed into place only when the whole video is encoded. A cancelled or
// failed export leaves no partial file behind.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "jointlab/file_identity.h"
#include "render/screenshot.h"
#include "runner/video_options.h"

namespace jl::app {

/// Exit status when ffmpeg is needed but missing (EX_UNAVAILABLE).
inline constexpr int kExitNoFfmpeg = 69;

/// The ffmpeg program: $JOINTLAB_FFMPEG if set, else `ffmpeg` on the PATH. "" when there is none;
/// `error` then says how to install it.
std::string findFfmpeg(std::string& error);

class VideoWriter {
public:
    VideoWriter() = default;
    ~VideoWriter();
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    /// Starts a video of width × height frames at `fps` into options.path (options.format).
    /// Refused, with nothing written, when the path is one of `inputs`. ffmpeg missing: false with
    /// `missingFfmpeg` set and a message that says how to install it.
    bool open(const VideoOptions& options, int width, int height, double fps,
              const std::vector<NamedFile>& inputs, std::string& error);
    /// Adds a frame of the size given to open().
    bool addFrame(const RgbImage& image, std::string& error);
    /// Ends the video: ffmpeg finishes encoding and the file is renamed into place.
    bool finish(std::string& error);
    /// Stops without a file: ffmpeg is stopped, the temporary removed (frames already written to a
    /// folder stay).
    void abandon();

    bool isOpen() const { return open_; }
    int frames() const { return frames_; }
    int width() const { return width_; }
    int height() const { return height_; }
    bool missingFfmpeg() const { return missingFfmpeg_; }
    /// Where the video goes (the file a symlink points to).
    const std::string& target() const { return target_; }

private:
    /// ffmpeg's last line of complaint (its stderr went to a log file).
    std::string ffmpegComplaint() const;

    VideoFormat format_ = VideoFormat::None;
    std::vector<NamedFile> inputs_;
    std::string target_, tmp_, log_;
    int width_ = 0, height_ = 0, frames_ = 0;
    int pipe_ = -1;
    pid_t child_ = -1;
    bool open_ = false;
    bool missingFfmpeg_ = false;
};

}  // namespace jl::app
