#include "render/video_writer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

extern char** environ;

namespace jl::app {

namespace {

constexpr const char* kInstallFfmpeg =
    "ffmpeg is needed for MP4 and GIF videos: install it (Debian: apt-get install ffmpeg) or name it in "
    "the JOINTLAB_FFMPEG environment variable; a folder (--video OUT/) gets PNG frames without it";

bool executable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

/// Writes all of `size` bytes to `fd` (a pipe takes them in pieces).
bool writeAll(int fd, const uint8_t* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

}  // namespace

std::string findFfmpeg(std::string& error) {
    if (const char* named = std::getenv("JOINTLAB_FFMPEG"); named && *named) {
        if (executable(named)) return named;
        error = std::string("JOINTLAB_FFMPEG names '") + named + "', which is not an executable program; " +
                kInstallFfmpeg;
        return "";
    }
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/ffmpeg";
        if (executable(candidate)) return candidate;
    }
    error = std::string("ffmpeg was not found on the PATH; ") + kInstallFfmpeg;
    return "";
}

VideoWriter::~VideoWriter() {
    abandon();
}

bool VideoWriter::open(const VideoOptions& options, int width, int height, double fps,
                       const std::vector<NamedFile>& inputs, std::string& error) {
    abandon();
    missingFfmpeg_ = false;
    frames_ = 0;
    width_ = width;
    height_ = height;
    format_ = options.format;
    inputs_ = inputs;
    if (std::string clash = checkOutputsAgainstInputs(inputs, {{"--video", options.path}}); !clash.empty()) {
        error = std::move(clash);
        return false;
    }
    if (format_ == VideoFormat::PngFolder) {
        std::error_code ec;
        std::filesystem::create_directories(options.path, ec);
        if (ec) {
            error = options.path + ": cannot create the folder for the frames: " + ec.message();
            return false;
        }
        target_ = options.path;
        open_ = true;
        return true;
    }
    const std::string ffmpeg = findFfmpeg(error);
    if (ffmpeg.empty()) {
        missingFfmpeg_ = true;
        return false;
    }
    target_ = writeTargetOf(options.path, error);
    if (target_.empty()) return false;
    // The temporary is created here with O_EXCL (nothing existing is truncated); ffmpeg's -y then
    // writes into it. Its extension says nothing: the container is named with -f.
    tmp_ = target_ + ".XXXXXX.tmp";
    const int fd = ::mkstemps(tmp_.data(), 4);
    if (fd < 0) {
        error = options.path + ": cannot write (" + tmp_ + "): " + std::strerror(errno);
        return false;
    }
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);  // what a new file gets, not mkstemps' 0600
    ::close(fd);
    log_ = std::filesystem::temp_directory_path().string() + "/jointlab-ffmpeg-XXXXXX.log";
    const int logFd = ::mkstemps(log_.data(), 4);

    char size[32], rate[32];
    std::snprintf(size, sizeof size, "%dx%d", width, height);
    std::snprintf(rate, sizeof rate, "%.6g", fps);
    std::vector<std::string> args = {
        ffmpeg,  "-hide_banner", "-loglevel", "error",      "-y", "-f", "rawvideo", "-pixel_format",
        "rgb24", "-video_size",  size,        "-framerate", rate, "-i", "pipe:0"};
    if (format_ == VideoFormat::Mp4) {
        // yuv420p (what every player takes) needs even sizes: an odd edge gets one black row/column.
        for (const char* a : {"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt",
                              "yuv420p", "-crf", "20", "-movflags", "+faststart", "-f", "mp4"})
            args.emplace_back(a);
    } else {
        // One palette for the whole clip (palettegen), then each frame mapped onto it (paletteuse).
        for (const char* a :
             {"-vf", "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse", "-f", "gif"})
            args.emplace_back(a);
    }
    args.push_back(tmp_);

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        error = std::string("cannot make a pipe to ffmpeg: ") + std::strerror(errno);
        std::remove(tmp_.c_str());
        if (logFd >= 0) ::close(logFd);
        std::remove(log_.c_str());
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    if (logFd >= 0) posix_spawn_file_actions_adddup2(&actions, logFd, STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int spawned = ::posix_spawn(&child_, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[0]);
    if (logFd >= 0) ::close(logFd);
    if (spawned != 0) {
        child_ = -1;
        ::close(fds[1]);
        error = "cannot start " + ffmpeg + ": " + std::strerror(spawned);
        std::remove(tmp_.c_str());
        std::remove(log_.c_str());
        return false;
    }
    pipe_ = fds[1];
    // A pipe whose reader died must give EPIPE (and a message), not kill the program.
    std::signal(SIGPIPE, SIG_IGN);
    open_ = true;
    return true;
}

bool VideoWriter::addFrame(const RgbImage& image, std::string& error) {
    if (!open_) {
        error = "the video is not open";
        return false;
    }
    if (image.width != width_ || image.height != height_) {
        error = "a frame of " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                " in a video of " + std::to_string(width_) + "x" + std::to_string(height_);
        return false;
    }
    if (format_ == VideoFormat::PngFolder) {
        const std::string path = (std::filesystem::path(target_) / videoFrameName(frames_)).string();
        if (!writePng(path, image, error, inputs_)) return false;
        ++frames_;
        return true;
    }
    if (!writeAll(pipe_, image.pixels.data(), image.pixels.size())) {
        const std::string why = std::strerror(errno);
        const std::string complaint = ffmpegComplaint();  // EPIPE: ffmpeg has exited, its log is whole
        abandon();
        error = "ffmpeg stopped taking frames (" + why + ")" + (complaint.empty() ? "" : ": " + complaint);
        return false;
    }
    ++frames_;
    return true;
}

bool VideoWriter::finish(std::string& error) {
    if (!open_) return false;
    open_ = false;
    if (format_ == VideoFormat::PngFolder) return true;
    ::close(pipe_);
    pipe_ = -1;
    int status = 0;
    while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
    }
    child_ = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const std::string complaint = ffmpegComplaint();
        error = "ffmpeg failed to encode " + target_ + (complaint.empty() ? "" : ": " + complaint);
        std::remove(tmp_.c_str());
        std::remove(log_.c_str());
        return false;
    }
    std::remove(log_.c_str());
    if (std::rename(tmp_.c_str(), target_.c_str()) != 0) {
        error = target_ + ": cannot replace: " + std::strerror(errno);
        std::remove(tmp_.c_str());
        return false;
    }
    return true;
}

void VideoWriter::abandon() {
    if (pipe_ >= 0) ::close(pipe_);
    pipe_ = -1;
    if (child_ > 0) {
        ::kill(child_, SIGTERM);
        int status = 0;
        while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
        }
        child_ = -1;
    }
    if (open_ && format_ != VideoFormat::PngFolder) {
        std::remove(tmp_.c_str());
        std::remove(log_.c_str());
    }
    open_ = false;
}

std::string VideoWriter::ffmpegComplaint() const {
    std::ifstream in(log_);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last;
}

}  // namespace jl::app
