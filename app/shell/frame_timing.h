// JointLab app — what a frame costs, phase by phase, in CPU time of the main thread:
//
//   sim   the physics steps of the frame (Simulation::advance) and recording them
//   ui    building the panels (ImGui::NewFrame … Render: their vertices) and applying their requests
//   draw  building the 3D viewport's draw data: body instances, joint and overlay lines
//   gl    handing it all to OpenGL (buffer uploads, draw calls; not the swap). With a hardware GPU
//         this is small; with Mesa's software rasterizer (llvmpipe, a virtual display) it includes
//         the vertex and geometry shading, which llvmpipe runs on the calling thread.
//
// Thread CPU time, not wall time: on a busy machine the wall clock also counts the time other
// processes had the core. The status bar's tooltip shows the smoothed figures; the frame benchmark
// (jointlab --bench-frames) prints medians and 95th percentiles.
#pragma once

#include <vector>

namespace jl::app {

/// CPU time used by the calling thread so far [ms].
double threadCpuMs();

struct PhaseTimes {
    double sim = 0.0, ui = 0.0, draw = 0.0, gl = 0.0;  ///< [ms]
    /// What JointLab's own code costs: the frame budget (8 ms) is about this.
    double ours() const { return sim + ui + draw; }
    double total() const { return sim + ui + draw + gl; }
};

/// Times consecutive phases: lap() returns the thread CPU time since the last lap (or start).
class PhaseClock {
public:
    PhaseClock() : last_(threadCpuMs()) {}
    double lap() {
        const double now = threadCpuMs();
        const double ms = now - last_;
        last_ = now;
        return ms;
    }

private:
    double last_;
};

/// Exponential average of the phase times (for the status bar).
void smoothPhases(PhaseTimes& smoothed, const PhaseTimes& frame);

/// Median and 95th percentile of each phase over many frames (the benchmark).
struct PhaseSummary {
    PhaseTimes median, p95;                    ///< per phase
    double medianOurs = 0.0, p95Ours = 0.0;    ///< of the frames' sim + ui + draw
    double medianTotal = 0.0, p95Total = 0.0;  ///< of the frames' totals (not the sums of the above)
};
PhaseSummary summarizePhases(const std::vector<PhaseTimes>& frames);

}  // namespace jl::app
