// Command line of the desktop app: what is accepted, and that every error names its flag.
#include "runner/cli.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace jl::app {
namespace {

struct Parsed {
    ParseOutcome outcome;
    AppOptions options;
    std::string error;
};

Parsed parse(std::initializer_list<const char*> args) {
    std::vector<char*> argv{const_cast<char*>("jointlab")};
    for (const char* a : args) argv.push_back(const_cast<char*>(a));
    Parsed p{};
    p.outcome = parseCommandLine(static_cast<int>(argv.size()), argv.data(), p.options, p.error);
    return p;
}

TEST(AppCli, SelectAndHideJoints) {
    Parsed p = parse({"--screenshot", "out.png", "door.json", "--select", "hinge", "--hide-joints"});
    ASSERT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    EXPECT_EQ(p.options.select, "hinge");
    EXPECT_TRUE(p.options.hideJoints);
    p = parse({"--select"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("--select"), std::string::npos);
}

TEST(AppCli, ScaleAndTheFrameBenchmark) {
    Parsed p = parse({"--screenshot", "out.png", "--size", "2560x1440", "--scale", "2"});
    ASSERT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    EXPECT_EQ(p.options.scale, 2.0f);
    EXPECT_EQ(parse({}).options.scale, 0.0f);  // the monitor's
    for (const char* bad : {"0.5", "5", "two", ""}) {
        p = parse({"--scale", bad});
        EXPECT_EQ(p.outcome, ParseOutcome::Error) << bad;
        EXPECT_NE(p.error.find("--scale"), std::string::npos);
    }
    p = parse({"--bench-frames", "100", "--bench-scene", "bodies1000"});
    ASSERT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    EXPECT_EQ(p.options.benchFrames, 100);
    EXPECT_EQ(p.options.benchScene, "bodies1000");
    EXPECT_EQ(parse({"--bench-scene", "plots200"}).outcome, ParseOutcome::Error);  // needs --bench-frames
    EXPECT_EQ(parse({"--bench-frames", "10", "--screenshot", "a.png"}).outcome, ParseOutcome::Error);
    EXPECT_EQ(parse({"--bench-frames", "0"}).outcome, ParseOutcome::Error);
}

TEST(AppCli, RecoveryFolderAndAutosaveInterval) {
    Parsed p = parse({"--screenshot", "out.png", "--recovery-dir", "/tmp/rec", "--autosave", "0.5"});
    ASSERT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    EXPECT_EQ(p.options.recoveryDir, "/tmp/rec");
    EXPECT_EQ(p.options.autosaveSeconds, 0.5);
    EXPECT_EQ(parse({}).options.autosaveSeconds, 120.0);  // every 2 minutes by default
    EXPECT_TRUE(parse({}).options.recoveryDir.empty());
    EXPECT_EQ(parse({"--autosave", "0"}).options.autosaveSeconds, 0.0);  // off
    for (const char* bad : {"-1", "nan", "1e9", "2m", ""}) {
        p = parse({"--autosave", bad});
        EXPECT_EQ(p.outcome, ParseOutcome::Error) << bad;
        EXPECT_EQ(p.error.rfind("--autosave: ", 0), 0u) << p.error;
    }
    p = parse({"--recovery-dir", ""});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_EQ(p.error.rfind("--recovery-dir: ", 0), 0u) << p.error;
}

TEST(AppCli, NoArgumentsOpensTheDefaultScene) {
    Parsed p = parse({});
    EXPECT_EQ(p.outcome, ParseOutcome::Run);
    EXPECT_TRUE(p.options.scenarioPath.empty());
    EXPECT_TRUE(p.options.screenshotPath.empty());
}

TEST(AppCli, ScreenshotWithScenarioFramesAndSize) {
    Parsed p = parse({"--screenshot", "out.png", "scene.json", "--frames", "12", "--size", "800x600"});
    ASSERT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    EXPECT_EQ(p.options.screenshotPath, "out.png");
    EXPECT_EQ(p.options.scenarioPath, "scene.json");
    EXPECT_EQ(p.options.frames, 12);
    EXPECT_EQ(p.options.width, 800);
    EXPECT_EQ(p.options.height, 600);
}

TEST(AppCli, ScreenshotDefaultsToFiveFrames) {
    EXPECT_EQ(parse({"--screenshot", "a.png"}).options.frames, 5);
}

TEST(AppCli, UnknownFlagIsNamed) {
    Parsed p = parse({"--bogus-flag"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("--bogus-flag"), std::string::npos) << p.error;
}

TEST(AppCli, BadValuesNameTheFlagAndTheValue) {
    for (auto args : {std::vector<const char*>{"--screenshot", "a.png", "--frames", "0"},
                      std::vector<const char*>{"--screenshot", "a.png", "--frames", "3x"},
                      std::vector<const char*>{"--size", "800"}, std::vector<const char*>{"--size", "10x10"},
                      std::vector<const char*>{"--size", "800x-5"}}) {
        std::vector<char*> argv{const_cast<char*>("jointlab")};
        for (const char* a : args) argv.push_back(const_cast<char*>(a));
        AppOptions options;
        std::string error;
        EXPECT_EQ(parseCommandLine(static_cast<int>(argv.size()), argv.data(), options, error),
                  ParseOutcome::Error);
        const std::string flag = args[args.size() - 2];
        EXPECT_EQ(error.rfind(flag + ":", 0), 0u) << error;
        EXPECT_NE(error.find(args.back()), std::string::npos) << error;
    }
}

TEST(AppCli, MissingValueIsReported) {
    Parsed p = parse({"--screenshot"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_EQ(p.error, "--screenshot: missing value");
}

TEST(AppCli, ScreenshotMustBePng) {
    EXPECT_EQ(parse({"--screenshot", "out.jpg"}).outcome, ParseOutcome::Error);
}

TEST(AppCli, PlotPngGoesWithAScreenshot) {
    Parsed p = parse({"--screenshot", "out.png", "--plot-png", "plot.png"});
    ASSERT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    EXPECT_EQ(p.options.plotImagePath, "plot.png");
    p = parse({"--plot-png", "plot.png"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("--screenshot"), std::string::npos) << p.error;
    p = parse({"--screenshot", "out.png", "--plot-png", "plot.jpg"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("plot.jpg"), std::string::npos) << p.error;
}

TEST(AppCli, NoImageReplacesTheScenarioOrTheOtherImage) {
    // Compared as files (issue 24): a .png that is a link to the scenario, or the two images
    // spelled differently, are refused before any window opens, naming both paths.
    namespace fs = std::filesystem;
    std::string tmpl = (fs::temp_directory_path() / "jointlab_cli_XXXXXX").string();
    const fs::path dir = mkdtemp(tmpl.data());
    const std::string scene = (dir / "scene.json").string(), link = (dir / "scene.png").string();
    std::ofstream(scene) << "{}";
    fs::create_symlink(scene, link);
    Parsed p = parse({"--screenshot", link.c_str(), scene.c_str()});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_EQ(p.error, "--screenshot " + link + " would overwrite the scenario " + scene +
                           " (the same file); nothing was written");
    const std::string a = (dir / "a.png").string(), sameA = (dir / "x/../a.png").string();
    fs::create_directory(dir / "x");
    p = parse({"--screenshot", a.c_str(), "--plot-png", sameA.c_str(), scene.c_str()});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("--plot-png " + sameA + " and --screenshot " + a + " name one output file"),
              std::string::npos)
        << p.error;
    const std::string hard = (dir / "hard.png").string();
    fs::create_hard_link(scene, hard);
    p = parse({"--screenshot", (dir / "ok.png").string().c_str(), "--plot-png", hard.c_str(), scene.c_str()});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("--plot-png " + hard + " would overwrite the scenario"), std::string::npos)
        << p.error;
    p = parse({"--screenshot", a.c_str(), "--plot-png", (dir / "plot.png").string().c_str(), scene.c_str()});
    EXPECT_EQ(p.outcome, ParseOutcome::Run) << p.error;
    fs::remove_all(dir);
}

TEST(AppCli, FramesWithoutScreenshotIsAnError) {
    Parsed p = parse({"--frames", "3"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("--screenshot"), std::string::npos);
}

TEST(AppCli, OnlyOneScenario) {
    Parsed p = parse({"a.json", "b.json"});
    EXPECT_EQ(p.outcome, ParseOutcome::Error);
    EXPECT_NE(p.error.find("b.json"), std::string::npos);
}

TEST(AppCli, HelpAndVersion) {
    EXPECT_EQ(parse({"--help"}).outcome, ParseOutcome::Help);
    EXPECT_EQ(parse({"-h"}).outcome, ParseOutcome::Help);
    EXPECT_EQ(parse({"--version"}).outcome, ParseOutcome::Version);
}

}  // namespace
}  // namespace jl::app
