// JointLab app — command line of the desktop program.
//
//   jointlab [SCENARIO.json]
//   jointlab --screenshot OUT.png [SCENARIO.json] [--frames N] [--size WxH] [--scale S]
//   jointlab --video OUT.mp4|OUT.gif|OUTDIR/ [SCENARIO.json] [--frames N] [--size WxH] [--fps F]
//            [--video-range FROM:TO] [--video-stride K] [--video-plots]
//   jointlab --bench-frames N [--bench-scene NAME | SCENARIO.json] [--size WxH] [--scale S]
//   either with --select NAME (select a joint or body on start) and --hide-joints,
//   --recovery-dir DIR (autosaves; in screenshot mode: show the crash-recovery prompt for DIR)
//   and --autosave SECONDS (the autosave interval; 0 = off)
//   jointlab run SCENARIO.json ...        (headless runner, see runner.h; dispatched before this)
#pragma once

#include <functional>
#include <string>

#include "jointlab/scene.h"
#include "runner/video_options.h"

namespace jl::app {

struct AppOptions {
    std::string scenarioPath;    ///< empty: the default showcase
    std::string screenshotPath;  ///< non-empty: screenshot mode, write this PNG and exit
    int frames = 5;              ///< screenshot mode: frames rendered (one physics step each)
    std::string plotImagePath;   ///< screenshot mode: also save the first plot as this PNG ("" = no)
    int seekStep = -1;           ///< screenshot mode: after the frames, go back to this step (the timeline)
    int stepRows = 0;            ///< screenshot mode: then pause and step this many rows into the next step
    float dockShare = 0.0f;      ///< the plots dock's share of the height (0 = as saved)
    std::string dockTab;  ///< the dock tab open on start: "plots", "rows", "step", "tuner" ("" = as saved)
    int width = 0;        ///< window / image size in pixels; 0 = default for the mode
    int height = 0;
    float scale = 0.0f;  ///< UI scale (fonts and widgets); 0 = the monitor's content scale
    /// > 0: the frame benchmark: render this many frames off screen (one physics step each), time
    /// each frame's phases (shell/frame_timing.h) and print their medians; no window appears.
    int benchFrames = 0;
    std::string benchScene;  ///< the benchmark's scene (session/bench_scenes.h); "" = the scenario or default
    std::string select;      ///< joint (or else body) selected on start; "" = the default choice
    bool hideJoints = false;    ///< start with the joint drawing off (View > Joints)
    bool showContacts = false;  ///< start with the contact drawing on (View > Contacts)
    /// Where autosaves go and where the start looks for a crash's ("" = the default,
    /// $XDG_STATE_HOME/jointlab/recovery). Screenshot mode neither autosaves nor looks unless given.
    std::string recoveryDir;
    double autosaveSeconds = 120.0;  ///< autosave interval [s] (wall clock); 0 = no autosave
    std::string sweepDir;            ///< --sweep DIR: open the sweep viewer on DIR/results.csv ("" = no)
    /// --video: record the run (runner/video_options.h); `frames` is then the run's length in steps
    /// (default kDefaultVideoSteps) and --size the video's size (default 1280x720).
    VideoOptions video;
    /// Applied to the loaded scene before the run starts (`jointlab run --video` passes its
    /// --solver, --pos-iters, ... this way); empty = none.
    std::function<void(Scene&)> adjustScene;
    /// --compare CHANGES: start an A/B compare with these field changes on start, window open
    /// ("" with compareGiven: B with no change).
    std::string compare;
    bool compareGiven = false;
    /// --reference mujoco: Simulation > Reference: MuJoCo on from the start, its window open.
    bool reference = false;
    /// Screenshot mode, --branch K PATH=VALUE,…: after the frames, go back to step K, make the
    /// changes there as an edit (a branch; the old future becomes its ghost) and run on as far.
    int branchStep = -1;
    std::string branchChanges;
    int lessonStep = 0;  ///< --lesson-step K: the lesson tab starts at step K (1-based; 0 = first)
    int advisorFix = 0;  ///< --advisor-fix K: apply the first warning's K-th fix on start (1-based; 0 = none)
};

inline constexpr int kDefaultVideoSteps = 120;
inline constexpr int kDefaultVideoWidth = 1280, kDefaultVideoHeight = 720;

enum class ParseOutcome { Run, Help, Version, Error };

/// Parses argv. On Error, `error` is one line naming the flag and the problem.
ParseOutcome parseCommandLine(int argc, char** argv, AppOptions& options, std::string& error);

/// The --help text.
std::string usageText();

}  // namespace jl::app
