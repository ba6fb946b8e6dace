// jointlab_telemetry_bench — what live plots cost per frame on a 200-joint scene at 60 Hz.
//
//   jointlab_telemetry_bench [--frames N] [--joints J] [--overlay K]
//
// Each frame takes one physics step (not timed), then times separately:
//   record  Telemetry::record of that step (every row, joint, energy, residuals) into the 10 s ring
//   draw    a Dear ImGui frame (NewFrame … Render) drawing plots with the same code as the Plots
//           panel (drawTelemetryPlot): first the panel's default set for the selected joint (impulse
//           and geometric error per row, energy, convergence), then the same plus a force plot
//           overlaying K joints (default: all of them) in one plot, the worst case: once with a
//           break force on every joint (its line is part of the value axis's fit, so the curves
//           lie in a band at the bottom), once without (the curves fill the plot's height).
// It prints the median and 95th percentile over the frames of the thread's CPU time (and of the
// wall-clock time, which on a busy machine includes time the core was given to other processes). The draw
// time is the CPU work of building the vertex buffers; the GPU then draws them (that part depends on the
// graphics card). The telemetry ring is full (600 steps) before timing starts, so every series has 600
// samples. The plot widget keeps them decimated between frames and reads only the newest step (the first 30
// frames, not timed, fill its caches). No GL context is needed.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "cpu_time.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "telemetry/plot_setup.h"
#include "telemetry/telemetry_plots.h"

namespace {

using Clock = std::chrono::steady_clock;
using jl::Vec3;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string name(char prefix, int index) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%c%d", prefix, index);
    return buf;
}

/// `joints` joints in chains of five hanging links, cycling through the five basic joint types
/// (about five rows per joint).
jl::Scene scene(int joints, double breakForce) {
    const char* types[] = {"revolute", "spherical", "prismatic", "distance", "fixed"};
    jl::Scene s;
    s.settings.groundPlane = false;
    for (int j = 0; j < joints; ++j) {
        const int chain = j / 5, link = j % 5;
        const Vec3 top(2.0 * (chain % 10), 20.0, 2.0 * (chain / 10));
        jl::BodyDesc b;
        b.name = name('b', j);
        b.halfExtents = Vec3(0.1, 0.25, 0.1);
        b.position = top - Vec3(0.1 * link, 0.5 * link + 0.25, 0.0);
        s.bodies.push_back(b);
        jl::JointDesc d;
        d.name = name('j', j);
        d.params = jl::makeJointParams(jl::findJointType(types[j % 5]));
        d.body0 = link == 0 ? std::string() : name('b', j - 1);
        d.body1 = b.name;
        d.frame0.p = link == 0 ? top : Vec3(0.0, -0.25, 0.0);
        d.frame1.p = Vec3(0.0, 0.25, 0.0);
        d.breakForce = breakForce;
        s.joints.push_back(d);
    }
    return s;
}

struct Stats {
    double median = 0, p95 = 0;
};
Stats stats(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 95 / 100)]};
}

/// Steps the world `frames` times; each time records the step and draws `plots`; prints a line.
void measure(const char* label, const std::vector<jl::PlotDesc>& plots, jl::World& world,
             jl::Telemetry& telemetry, int frames) {
    jl::plot::Context ctx;
    jl::app::ConvergenceHistory convergence;
    jl::app::RowLabelIndex rowLabels;
    std::vector<double> recordMs, drawMs, totalMs, wallMs;
    for (int f = 0; f < frames + 30; ++f) {  // the first 30 frames warm the caches and buffers up
        world.step();
        const auto w0 = Clock::now();
        const double r0 = bench::threadCpuMs();
        telemetry.record(world);
        const double record = bench::threadCpuMs() - r0;

        const double d0 = bench::threadCpuMs();
        convergence.update(telemetry, world.scene().settings.solver, world.scene().settings.posIters);
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(310, 480));
        ImGui::SetNextWindowSize(ImVec2(960, 400));
        ImGui::Begin("Plots", nullptr, ImGuiWindowFlags_NoDecoration);
        jl::app::PlotInputs in;
        in.telemetry = &telemetry;
        in.world = &world;
        in.convergence = &convergence;
        in.selectedJoint = 0;
        in.rowLabels = &rowLabels;
        for (size_t i = 0; i < plots.size(); ++i) {
            bool logScale = plots[i].logScale;
            jl::app::drawTelemetryPlot(ctx, std::to_string(i).c_str(), plots[i], in, ImVec2(470, 160),
                                       &logScale);
            if (i % 2 == 0) ImGui::SameLine();
        }
        ImGui::End();
        ImGui::Render();
        const double draw = bench::threadCpuMs() - d0;
        const double wall = msSince(w0);
        if (f < 30) continue;
        recordMs.push_back(record);
        drawMs.push_back(draw);
        totalMs.push_back(record + draw);
        wallMs.push_back(wall);
    }
    const Stats rec = stats(recordMs), drw = stats(drawMs), tot = stats(totalMs), wl = stats(wallMs);
    std::printf("  %-60s %9.3f %9.3f %9.3f %9.3f %9.3f   %d vertices\n", label, rec.median, drw.median,
                tot.median, tot.p95, wl.median, ImGui::GetDrawData()->TotalVtxCount);
}

}  // namespace

int main(int argc, char** argv) {
    int frames = 600, joints = 200, overlay = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--frames")
            frames = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--joints")
            joints = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--overlay")
            overlay = std::atoi(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: jointlab_telemetry_bench [--frames N] [--joints J] [--overlay K]\n");
            return 2;
        }
    }
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 900);
    io.DeltaTime = 1.0f / 60.0f;
    io.BackendFlags |=
        ImGuiBackendFlags_RendererHasVtxOffset;  // as the app's OpenGL 3 backend: > 64k vertices
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);

    // Twice: with a break force on every joint (its dashed line is counted in the value axis's fit,
    // so the 200 force curves lie in a band near the bottom of the plot), then without one (the
    // axis fits the forces and the curves fill the plot: the most line to draw).
    if (overlay < 0 || overlay > joints) overlay = joints;
    for (const double breakForce : {1e4, jl::kInf}) {
        const jl::Scene s = scene(joints, breakForce);
        if (std::string problem = jl::validateScene(s); !problem.empty()) {
            std::fprintf(stderr, "jointlab_telemetry_bench: bad scene: %s\n", problem.c_str());
            return 1;
        }
        jl::World world(s);
        jl::Telemetry telemetry(600);  // the app's default: 10 s at 60 Hz
        for (int i = 0; i < 600; ++i) {
            world.step();
            telemetry.record(world);
        }
        std::vector<jl::PlotDesc> plots = jl::app::defaultPlots();
        if (std::isfinite(breakForce)) {
            std::printf(
                "telemetry + plots: %d joints, %zu rows per step, %zu steps recorded (%.1f MB), %d frames of "
                "one step each\n",
                joints, telemetry.latest().rows.size(), telemetry.size(), telemetry.memoryBytes() / 1048576.0,
                frames);
            std::printf("  %-60s %9s %9s %9s %9s %9s\n", "plots drawn", "record", "draw", "total",
                        "total p95", "wall");
            measure("Plots panel defaults (4 plots)", plots, world, telemetry, frames);
        }
        if (overlay == 0) break;
        jl::PlotDesc all;
        all.kind = jl::PlotKind::Force;
        for (int j = 0; j < overlay; ++j)
            all.joints = jl::app::addToList(all.joints, s.joints[static_cast<size_t>(j)].name);
        plots.push_back(all);
        char label[96];
        std::snprintf(label, sizeof label, "defaults + force of %d joints in one plot, %s", overlay,
                      std::isfinite(breakForce) ? "break force" : "no break force");
        measure(label, plots, world, telemetry, frames);
    }
    std::printf("  (medians of thread CPU time per frame [ms]; wall: median wall clock; budget 1 ms)\n");
    ImGui::DestroyContext();
    return 0;
}
