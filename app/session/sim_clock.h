// JointLab app — the fixed-timestep clock: how many physics steps to take this frame.
//
// Physics always advances by the scene's dt. Real (wall-clock) time, scaled by `timeScale`, is
// added to an accumulator and whole steps are taken from it, at most `maxStepsPerFrame`; when the
// machine cannot keep up, the backlog is dropped (the simulation then runs slower than real time
// and `behind` says so) instead of spiralling into ever longer frames.
#pragma once

namespace jl::app {

struct SimClock {
    bool playing = true;         ///< false: only single steps advance the simulation
    double timeScale = 1.0;      ///< slow motion < 1 < fast forward [-]
    int maxStepsPerFrame = 8;    ///< cap on steps per rendered frame
    int fixedStepsPerFrame = 0;  ///< > 0: ignore wall time and take exactly this many steps (screenshots)
    double accumulator = 0.0;    ///< scaled wall time not yet simulated [s]
    int pendingSingleSteps = 0;  ///< single steps requested while paused
    bool behind = false;         ///< the last frame hit maxStepsPerFrame and dropped time

    /// Number of steps of length dt to take for a frame that lasted frameSeconds of wall time.
    int stepsForFrame(double frameSeconds, double dt);
    void requestSingleStep() { ++pendingSingleSteps; }
    void resetTime() {
        accumulator = 0.0;
        pendingSingleSteps = 0;
        behind = false;
    }
};

}  // namespace jl::app
