// JointLab — the headless runner: `jointlab run SCENARIO.json [options]`.
//
// main() dispatches here when argv[1] == "run", before any window or GL is touched, so the
// runner works on machines without a display. Implemented in runner/runner.cpp.
#pragma once

namespace jl::runner {
struct RunOptions;
/// Draws and records the run's video (--video): the app's video mode, given by main.cpp.
using VideoRenderer = int (*)(const RunOptions& options);
}  // namespace jl::runner

/// Runs a scenario without a window and prints/writes the results. argv[1] is "run". With
/// --video, `renderVideo` then records the same run. Returns the process exit code.
int runHeadless(int argc, char** argv, jl::runner::VideoRenderer renderVideo = nullptr);
