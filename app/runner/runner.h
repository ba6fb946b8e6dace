// JointLab — the headless runner: `jointlab run SCENARIO.json [options]`.
//
// main() dispatches here when argv[1] == "run", before any window or GL is touched, so the
// runner works on machines without a display. Implemented in runner/runner.cpp.
#pragma once

/// Runs a scenario without a window and prints/writes the results. argv[1] is "run".
/// Returns the process exit code.
int runHeadless(int argc, char** argv);
