#include "runner/cli.h"

#include <charconv>
#include <string_view>

#include "jointlab/file_identity.h"

namespace jl::app {

namespace {

bool parseInt(std::string_view text, int& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

constexpr int kMinFrames = 1, kMaxFrames = 100000;
constexpr int kMinSize = 64, kMaxSize = 8192;
constexpr double kMaxAutosaveSeconds = 86400.0;
constexpr float kMinScale = 0.75f, kMaxScale = 4.0f;

}  // namespace

std::string usageText() {
    return "JointLab — a sandbox for constrained rigid-body dynamics\n"
           "\n"
           "usage:\n"
           "  jointlab [SCENARIO.json]                 open the app (default: the showcase scene)\n"
           "  jointlab --screenshot OUT.png [SCENARIO.json] [--frames N] [--size WxH]\n"
           "                                           render N frames (default 5, one physics step\n"
           "                                           each) of the full UI, write a PNG and exit\n"
           "  jointlab --video OUT.mp4|OUT.gif|OUTDIR/ [SCENARIO.json] [--frames N] [--size WxH]\n"
           "                                           run N steps (default 120) off screen and record them\n"
           "  jointlab --bench-frames N [--bench-scene NAME | SCENARIO.json]\n"
           "                                           time N frames off screen, phase by phase (sim, UI,\n"
           "                                           draw), and print the medians\n"
           "  jointlab run SCENARIO.json [options]     headless runner, no window (jointlab run --help)\n"
           "  jointlab sweep SPEC.json --out DIR       a grid of headless runs over scenario fields\n"
           "                                           (jointlab sweep --help, docs/sweeps.md)\n"
           "  jointlab import MODEL.xml|MODEL.urdf -o SCENE.json\n"
           "                                           a MuJoCo (MJCF) or URDF model as a scenario\n"
           "                                           (docs/import.md); `jointlab MODEL.xml` opens one\n"
           "\n"
           "options:\n"
           "  --size WxH      window or image size in pixels (default: what fits the screen, remembered\n"
           "                  between runs; screenshots 1440x900)\n"
           "  --scale S       UI scale, 0.75 to 4: fonts and widgets (default: the monitor's content scale)\n"
           "  --bench-scene NAME  the benchmark's scene: default, bodies1000 (1000 bodies and joints) or\n"
           "                  plots200 (200 joints, every row plotted)\n"
           "  --frames N      screenshot mode: frames to render before writing the image; video mode: the\n"
           "                  steps run (default 120)\n"
           "  --select NAME   select the joint (or else the body) called NAME on start; in screenshot\n"
           "                  mode the pixel of a selected joint's anchor is printed\n"
           "  --hide-joints   start with the joint drawing (frames, limits, forces) switched off\n"
           "  --show-contacts start with the contact drawing (View > Contacts) switched on\n"
           "  --recovery-dir DIR  folder of the autosaves (default $XDG_STATE_HOME/jointlab/recovery or\n"
           "                  ~/.local/state/jointlab/recovery); on start, autosaves left there by a crash\n"
           "                  are offered. Screenshot mode looks there only when this is given, and\n"
           "                  shows the recovery prompt in the picture\n"
           "  --autosave S    autosave every S seconds of wall clock (default 120; 0 = never)\n"
           "  --seek K        screenshot mode: after the frames, go back to step K of the run (the\n"
           "                  timeline under the viewport shows where)\n"
           "  --compare CHANGES  start an A/B compare on start: B runs with the field changes\n"
           "                  PATH=VALUE,... (e.g. settings.solver=tgs); the Compare window opens\n"
           "  --reference mujoco  run MuJoCo beside the scene from the start (Simulation > Reference:\n"
           "                  MuJoCo): its bodies as a green ghost, the Reference window open\n"
           "  --branch K CHANGES  screenshot mode: after the frames, go back to step K, make the field\n"
           "                  changes there (a new branch; the old future shows as its ghost) and run\n"
           "                  on to where the frames had reached\n"
           "  --step-rows N   screenshot mode: after the frames, pause and step N rows into the next step\n"
           "                  (the stepper: Next row N times)\n"
           "  --tab NAME      open the dock's tab NAME: plots, rows, step (the stepper and the equation\n"
           "                  of a row), tuner (the drive tuner), advisor or lesson\n"
           "  --dock-share F  the plots dock's share of the window's height, 0.2 to 0.8 (default: as\n"
           "                  last dragged, 0.42 at first)\n"
           "  --sweep DIR     open the sweep viewer on a sweep's results (jointlab sweep --out DIR): a heat\n"
           "                  map or line of a metric; clicking a cell opens that run in the editor\n"
           "  --lesson-step K the lesson tab starts at step K (a scenario with a lesson)\n"
           "  --advisor-fix K apply the K-th one-click fix of the advisor's first warning on start, as a\n"
           "                  click on it would (undoable)\n"
           "  --plot-png OUT.png  screenshot mode: also save the first plot of the Plots panel as a PNG\n"
           "                  of its own (what its menu's \"Save as PNG\" writes)\n" +
           videoUsage() +
           "  -h, --help      this text\n"
           "  --version       print the version\n"
           "\n"
           "Screenshots and videos need no display: without one they are drawn through EGL (Mesa's\n"
           "surfaceless platform); where that fails too, use a virtual display: xvfb-run -a jointlab ...\n";
}

ParseOutcome parseCommandLine(int argc, char** argv, AppOptions& options, std::string& error) {
    bool framesGiven = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        auto value = [&](std::string_view flag, std::string_view& out) {
            if (i + 1 >= argc) {
                error = std::string(flag) + ": missing value";
                return false;
            }
            out = argv[++i];
            return true;
        };
        std::string_view v;
        if (arg == "-h" || arg == "--help") return ParseOutcome::Help;
        if (parseVideoFlag(arg, argc, argv, i, options.video, error)) {
            if (!error.empty()) return ParseOutcome::Error;
            continue;
        }
        if (arg == "--version") return ParseOutcome::Version;
        if (arg == "--screenshot") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (!endsWith(v, ".png")) {
                error = "--screenshot: the output file must end in .png, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.screenshotPath = v;
        } else if (arg == "--frames") {
            if (!value(arg, v)) return ParseOutcome::Error;
            int n = 0;
            if (!parseInt(v, n) || n < kMinFrames || n > kMaxFrames) {
                error = "--frames: expected a whole number from 1 to 100000, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.frames = n;
            framesGiven = true;
        } else if (arg == "--size") {
            if (!value(arg, v)) return ParseOutcome::Error;
            size_t x = v.find('x');
            int w = 0, h = 0;
            if (x == std::string_view::npos || !parseInt(v.substr(0, x), w) ||
                !parseInt(v.substr(x + 1), h) || w < kMinSize || h < kMinSize || w > kMaxSize ||
                h > kMaxSize) {
                error = "--size: expected WIDTHxHEIGHT between 64x64 and 8192x8192, e.g. 1280x800, got '" +
                        std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.width = w;
            options.height = h;
        } else if (arg == "--scale") {
            if (!value(arg, v)) return ParseOutcome::Error;
            float scale = 0.0f;
            auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), scale);
            if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || !(scale >= kMinScale) ||
                scale > kMaxScale) {
                error = "--scale: expected a number from 0.75 to 4, e.g. 2, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.scale = scale;
        } else if (arg == "--bench-frames") {
            if (!value(arg, v)) return ParseOutcome::Error;
            int n = 0;
            if (!parseInt(v, n) || n < kMinFrames || n > kMaxFrames) {
                error =
                    "--bench-frames: expected a whole number from 1 to 100000, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.benchFrames = n;
        } else if (arg == "--bench-scene") {
            if (!value(arg, v)) return ParseOutcome::Error;
            options.benchScene = v;
        } else if (arg == "--select") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (v.empty()) {
                error = "--select: expected the name of a joint or a body";
                return ParseOutcome::Error;
            }
            options.select = v;
        } else if (arg == "--seek") {
            if (!value(arg, v)) return ParseOutcome::Error;
            int n = 0;
            if (!parseInt(v, n) || n < 0 || n > kMaxFrames) {
                error = "--seek: expected a step from 0 to 100000, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.seekStep = n;
        } else if (arg == "--reference") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (v != "mujoco") {
                error =
                    "--reference: expected mujoco (the only reference engine), got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.reference = true;
        } else if (arg == "--compare") {
            if (!value(arg, v)) return ParseOutcome::Error;
            options.compare = v;
            options.compareGiven = true;
        } else if (arg == "--branch") {
            if (!value(arg, v)) return ParseOutcome::Error;
            int n = 0;
            if (!parseInt(v, n) || n < 0 || n > kMaxFrames) {
                error = "--branch: expected a step from 0 to 100000, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            if (i + 1 >= argc || std::string_view(argv[i + 1]).find('=') == std::string_view::npos) {
                error =
                    "--branch: expected the step and then the changes, e.g. --branch 120 "
                    "settings.posIters=16";
                return ParseOutcome::Error;
            }
            options.branchStep = n;
            options.branchChanges = argv[++i];
        } else if (arg == "--step-rows") {
            if (!value(arg, v)) return ParseOutcome::Error;
            int n = 0;
            if (!parseInt(v, n) || n < 0 || n > kMaxFrames) {
                error =
                    "--step-rows: expected a number of rows from 0 to 100000, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.stepRows = n;
        } else if (arg == "--dock-share") {
            if (!value(arg, v)) return ParseOutcome::Error;
            float f = 0.0f;
            auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), f);
            if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || !(f >= 0.2f && f <= 0.8f)) {
                error = "--dock-share: expected a share of the height from 0.2 to 0.8, got '" +
                        std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.dockShare = f;
        } else if (arg == "--tab") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (v != "plots" && v != "rows" && v != "step" && v != "tuner" && v != "advisor" &&
                v != "lesson") {
                error = "--tab: expected plots, rows, step, tuner, advisor or lesson, got '" +
                        std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.dockTab = v;
        } else if (arg == "--lesson-step" || arg == "--advisor-fix") {
            if (!value(arg, v)) return ParseOutcome::Error;
            int n = 0;
            if (!parseInt(v, n) || n < 1 || n > 1000) {
                error = std::string(arg) + ": expected a whole number from 1 to 1000, got '" +
                        std::string(v) + "'";
                return ParseOutcome::Error;
            }
            (arg == "--lesson-step" ? options.lessonStep : options.advisorFix) = n;
        } else if (arg == "--hide-joints") {
            options.hideJoints = true;
        } else if (arg == "--show-contacts") {
            options.showContacts = true;
        } else if (arg == "--recovery-dir") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (v.empty()) {
                error = "--recovery-dir: expected a folder";
                return ParseOutcome::Error;
            }
            options.recoveryDir = v;
        } else if (arg == "--autosave") {
            if (!value(arg, v)) return ParseOutcome::Error;
            double seconds = 0.0;
            const char* end = v.data() + v.size();
            auto [ptr, ec] = std::from_chars(v.data(), end, seconds);
            if (v.empty() || ec != std::errc() || ptr != end || !(seconds >= 0.0) ||
                seconds > kMaxAutosaveSeconds) {
                error = "--autosave: expected seconds from 0 (off) to 86400, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.autosaveSeconds = seconds;
        } else if (arg == "--sweep") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (v.empty()) {
                error = "--sweep: expected the folder of a sweep (jointlab sweep --out DIR)";
                return ParseOutcome::Error;
            }
            options.sweepDir = v;
        } else if (arg == "--plot-png") {
            if (!value(arg, v)) return ParseOutcome::Error;
            if (!endsWith(v, ".png")) {
                error = "--plot-png: the output file must end in .png, got '" + std::string(v) + "'";
                return ParseOutcome::Error;
            }
            options.plotImagePath = v;
        } else if (arg.size() > 1 && arg[0] == '-') {
            error = "unknown option '" + std::string(arg) + "' (see jointlab --help)";
            return ParseOutcome::Error;
        } else if (options.scenarioPath.empty()) {
            options.scenarioPath = arg;
        } else {
            error = "unexpected argument '" + std::string(arg) + "': only one scenario file can be opened";
            return ParseOutcome::Error;
        }
    }
    if (!options.plotImagePath.empty() && options.screenshotPath.empty()) {
        error = "--plot-png: only used together with --screenshot OUT.png";
        return ParseOutcome::Error;
    }
    if (!options.benchScene.empty() && options.benchFrames == 0) {
        error = "--bench-scene: only used together with --bench-frames N";
        return ParseOutcome::Error;
    }
    if (options.benchFrames > 0 && !options.screenshotPath.empty()) {
        error = "--bench-frames: not together with --screenshot (the benchmark writes no image)";
        return ParseOutcome::Error;
    }
    if (!options.benchScene.empty() && !options.scenarioPath.empty()) {
        error = "--bench-scene: give either a scene name or a scenario file, not both";
        return ParseOutcome::Error;
    }
    const bool video = !options.video.path.empty();
    if (framesGiven && options.screenshotPath.empty() && !video) {
        error = "--frames: only used together with --screenshot OUT.png or --video OUT";
        return ParseOutcome::Error;
    }
    if (video && (!options.screenshotPath.empty() || options.benchFrames > 0 || options.seekStep >= 0)) {
        error = "--video: not together with --screenshot, --bench-frames or --seek";
        return ParseOutcome::Error;
    }
    if (video && !framesGiven) options.frames = kDefaultVideoSteps;
    if (std::string e = checkVideoOptions(options.video, options.frames); !e.empty()) {
        error = std::move(e);
        return ParseOutcome::Error;
    }
    // No output may replace the scenario or the other output (compared as files: jointlab/file_identity.h).
    if (std::string clash = jl::checkOutputsAgainstInputs({{"the scenario", options.scenarioPath}},
                                                          {{"--screenshot", options.screenshotPath},
                                                           {"--plot-png", options.plotImagePath},
                                                           {"--video", options.video.path}});
        !clash.empty()) {
        error = std::move(clash);
        return ParseOutcome::Error;
    }
    return ParseOutcome::Run;
}

}  // namespace jl::app
