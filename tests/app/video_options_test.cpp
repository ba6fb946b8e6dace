// Issue 30: the video flags (runner/video_options.h): which steps the frames show, the format a
// path asks for, the real-time frame rate, and the refusals before anything is drawn.
#include "runner/video_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace jl::app {
namespace {

TEST(VideoOptions, FramesAreTheRangeOverTheStride) {
    // After steps from + k·stride up to `to`: (to - from) / stride of them, rounded down.
    EXPECT_EQ(videoFrameSteps(0, 120, 1).size(), 120u);
    EXPECT_EQ(videoFrameSteps(10, 40, 3), (std::vector<int64_t>{13, 16, 19, 22, 25, 28, 31, 34, 37, 40}));
    EXPECT_EQ(videoFrameSteps(0, 25, 2).size(), 12u);
    EXPECT_EQ(videoFrameSteps(0, 25, 2).back(), 24);
    EXPECT_TRUE(videoFrameSteps(5, 7, 3).empty());
    for (int stride = 1; stride <= 7; ++stride)
        for (int64_t to = 1; to <= 30; ++to) {
            const std::vector<int64_t> steps = videoFrameSteps(2, 2 + to, stride);
            ASSERT_EQ(steps.size(), static_cast<size_t>(to / stride));
            for (size_t k = 1; k < steps.size(); ++k) EXPECT_EQ(steps[k] - steps[k - 1], stride);
        }
}

TEST(VideoOptions, FormatFromThePath) {
    EXPECT_EQ(videoFormatOf("out.mp4"), VideoFormat::Mp4);
    EXPECT_EQ(videoFormatOf("a/b/clip.gif"), VideoFormat::Gif);
    EXPECT_EQ(videoFormatOf("frames/"), VideoFormat::PngFolder);
    EXPECT_EQ(videoFormatOf(std::filesystem::temp_directory_path().string()), VideoFormat::PngFolder);
    EXPECT_EQ(videoFormatOf("scene.json"), VideoFormat::None);
    EXPECT_EQ(videoFormatOf(""), VideoFormat::None);
}

TEST(VideoOptions, RealTimeFrameRate) {
    VideoOptions o;
    EXPECT_DOUBLE_EQ(videoFps(o, 1.0 / 60.0), 60.0);
    o.stride = 2;
    EXPECT_DOUBLE_EQ(videoFps(o, 1.0 / 60.0), 30.0);
    o.stride = 1;
    EXPECT_DOUBLE_EQ(videoFps(o, 1.0 / 1000.0), kMaxVideoFps);  // clamped
    o.fps = 24.0;
    EXPECT_DOUBLE_EQ(videoFps(o, 1.0 / 60.0), 24.0);
}

/// Parses `args` (after a dummy argv[0]) as video flags; returns the error ("" = accepted).
std::string parse(std::vector<std::string> args, VideoOptions& o) {
    std::vector<char*> argv{const_cast<char*>("jointlab")};
    for (std::string& a : args) argv.push_back(a.data());
    std::string error;
    for (int i = 1; i < static_cast<int>(argv.size()); ++i)
        if (!parseVideoFlag(argv[static_cast<size_t>(i)], static_cast<int>(argv.size()), argv.data(), i, o,
                            error))
            return "not a video flag: " + std::string(argv[static_cast<size_t>(i)]);
        else if (!error.empty())
            return error;
    return "";
}

TEST(VideoOptions, BadValuesNameTheFlag) {
    VideoOptions o;
    EXPECT_EQ(parse({"--video", "a.mp4", "--fps", "25", "--video-range", "5:65", "--video-stride", "3"}, o),
              "");
    EXPECT_EQ(o.format, VideoFormat::Mp4);
    EXPECT_EQ(o.fps, 25.0);
    EXPECT_EQ(o.from, 5);
    EXPECT_EQ(o.to, 65);
    EXPECT_EQ(o.stride, 3);
    VideoOptions p;
    EXPECT_NE(parse({"--video", "scene.json"}, p).find("--video: expected OUT.mp4"), std::string::npos);
    EXPECT_NE(parse({"--fps", "0"}, p).find("--fps"), std::string::npos);
    EXPECT_NE(parse({"--fps", "121"}, p).find("--fps"), std::string::npos);
    EXPECT_NE(parse({"--video-range", "10:10"}, p).find("--video-range"), std::string::npos);
    EXPECT_NE(parse({"--video-range", "-1:10"}, p).find("--video-range"), std::string::npos);
    EXPECT_NE(parse({"--video-stride", "x"}, p).find("--video-stride"), std::string::npos);
    EXPECT_NE(parse({"--video"}, p).find("--video: missing value"), std::string::npos);
}

TEST(VideoOptions, ChecksAfterTheFlags) {
    VideoOptions o;
    o.fps = 30.0;
    EXPECT_NE(checkVideoOptions(o, 100).find("only used together with --video"), std::string::npos);
    VideoOptions v;
    v.path = "a.mp4";
    v.format = VideoFormat::Mp4;
    EXPECT_EQ(checkVideoOptions(v, 100), "");
    EXPECT_EQ(v.to, 100);  // the run's length
    v.to = 150;
    EXPECT_NE(checkVideoOptions(v, 100).find("ends at step 150 but the run has 100"), std::string::npos);
    v.from = 98;
    v.to = 100;
    v.stride = 5;
    EXPECT_NE(checkVideoOptions(v, 100).find("hold no frame"), std::string::npos);

    // A frames folder must be new or empty: frames replace nothing.
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "jointlab_video_options_test";
    std::filesystem::remove_all(dir);
    VideoOptions f;
    f.path = dir.string() + "/";
    f.format = VideoFormat::PngFolder;
    EXPECT_EQ(checkVideoOptions(f, 10), "");
    std::filesystem::create_directories(dir);
    EXPECT_EQ(checkVideoOptions(f, 10), "");
    std::ofstream(dir / "frame_000001.png") << "x";
    EXPECT_NE(checkVideoOptions(f, 10).find("holds files already"), std::string::npos);
    std::filesystem::remove_all(dir);
    EXPECT_EQ(videoFrameName(0), "frame_000001.png");
}

}  // namespace
}  // namespace jl::app
