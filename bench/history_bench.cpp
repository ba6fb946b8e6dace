// jointlab_bench_history: what the time machine (jointlab/history.h) costs on a 1000-body jointed
// scene — the memory of 10 minutes at 60 Hz of history within its 256 MB budget, the time a step
// takes with and without recording, and the time to jump to a step (make bench; docs/benchmark.md).
//
//   jointlab_bench_history [--minutes M] [--jumps N] [--interval K] [--md OUT.md]
//
// --interval K: a keyframe every K steps instead of the budget's choice (to compare intervals at
// the same load, two runs side by side).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu_time.h"
#include "jointlab/history.h"
#include "jointlab/scene.h"
#include "jointlab/world.h"

namespace {

using namespace jl;
using Clock = std::chrono::steady_clock;

/// 100 chains of 10 hinged boxes (1000 bodies, 1000 revolute joints), hanging from the world in a
/// 10 × 10 grid and released 30° from the vertical, so that they swing and collide with nothing.
/// posIters + 1 iterations: 4 + 1 (PhysX's default, the budget's) or 8 + 1 (JointLab's default).
Scene chainsScene(SolverType solver, int posIters) {
    Scene s;
    s.settings.solver = solver;
    s.settings.posIters = posIters;
    s.settings.velIters = 1;
    s.settings.groundPlane = false;
    const Quat hinge = glm::angleAxis(-kPi / 2, Vec3(0, 1, 0));
    const Quat tilt = glm::angleAxis(kPi / 6, Vec3(0, 0, 1));
    for (int c = 0; c < 100; ++c) {
        const Vec3 top(2.0 * (c % 10), 12.0, 2.0 * (c / 10));
        std::string prev;
        for (int i = 0; i < 10; ++i) {
            BodyDesc b;
            b.name = "c" + std::to_string(c) + "_" + std::to_string(i);
            b.shape = ShapeType::Box;
            b.halfExtents = Vec3(0.05, 0.2, 0.05);
            b.mass = 1.0;
            b.position = top + tilt * Vec3(0.0, -0.4 * i - 0.2, 0.0);
            b.orientation = tilt;
            s.bodies.push_back(b);
            JointDesc j;
            j.name = "j" + std::to_string(c) + "_" + std::to_string(i);
            j.body0 = prev;
            j.body1 = b.name;
            const Vec3 anchor = top + tilt * Vec3(0.0, -0.4 * i, 0.0);
            j.frame0 =
                prev.empty() ? Transform{anchor, tilt * hinge} : Transform{Vec3(0.0, -0.2, 0.0), hinge};
            j.frame1 = Transform{Vec3(0.0, 0.2, 0.0), hinge};
            j.params = RevoluteJoint{};
            s.joints.push_back(j);
            prev = b.name;
        }
    }
    return s;
}

double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

/// The machine's 1-minute load average (Linux), or −1: on a shared machine the wall times
/// (`jump max (wall)`) grow with it.
double loadAverage() {
    double load = -1.0;
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1) load = -1.0;
        std::fclose(f);
    }
    return load;
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(std::min<double>(v.size() - 1, p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
    double minutes = 10.0;
    int jumps = 200, interval = 0;
    std::string md;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--minutes") && i + 1 < argc)
            minutes = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--jumps") && i + 1 < argc)
            jumps = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--interval") && i + 1 < argc && std::atoi(argv[i + 1]) > 0)
            interval = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--md") && i + 1 < argc)
            md = argv[++i];
        else {
            std::fprintf(
                stderr,
                "usage: jointlab_bench_history [--minutes M] [--jumps N] [--interval K] [--md OUT.md]\n");
            return 64;
        }
    }
    std::string table =
        "| solver | iterations | steps | keyframe every | keyframes | history | budget | dropped | step | "
        "step (recording) | decode | K × step + decode | jump median | jump p95 | jump max | jump max (wall) "
        "| "
        "load |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const int posIters : {4, 8})
        for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
            const Scene scene = chainsScene(solver, posIters);
            const int64_t steps = static_cast<int64_t>(minutes * 60.0 / scene.settings.dt + 0.5);
            // The step alone, for the recording's overhead.
            World plain(scene);
            const double c0 = bench::threadCpuMs();
            for (int i = 0; i < 600; ++i) plain.step();
            const double plainMs = (bench::threadCpuMs() - c0) / 600.0;

            World w(scene);
            History h(
                History::Budget{size_t{256} << 20, interval});  // 256 MB; interval 0: chosen for 10 minutes
            h.start(w);
            const double c1 = bench::threadCpuMs();
            for (int64_t i = 0; i < steps; ++i) {
                w.step();
                h.stepped(w);
            }
            const double recordingMs = (bench::threadCpuMs() - c1) / static_cast<double>(steps);
            // Unpacking one keyframe (the newest), the least of 20: the fixed part of a jump.
            double decodeMs = 1e300;
            {
                const HistoryKeyframe& key = h.branches()[static_cast<size_t>(h.currentBranch())].keys.back();
                for (int k = 0; k < 20; ++k) {
                    WorldSnapshot snap;
                    const double c = bench::threadCpuMs();
                    const bool ok = unpackSnapshot(key.packed, snap, key.scene.get());
                    decodeMs = std::min(decodeMs, bench::threadCpuMs() - c);
                    if (!ok) {
                        std::fprintf(stderr, "jointlab_bench_history: a keyframe did not unpack\n");
                        return 1;
                    }
                }
            }
            // Jumps to random steps, each timed 3 times and the least kept: the work of a jump is the
            // same each time, what a busy machine adds is not. The 3 timings of a jump are taken in
            // 3 rounds over all the jumps, each in its own shuffled order, so that one burst of load
            // (a build next door: it lasts longer than 3 jumps) does not spoil all 3. Before each
            // timing, a jump to the first step, so that no jump continues from the one before.
            std::mt19937_64 rng(12345);
            std::uniform_int_distribution<int64_t> pick(h.firstStep(), h.lastStep());
            std::vector<int64_t> targets(static_cast<size_t>(jumps));
            for (int64_t& t : targets) t = pick(rng);
            std::vector<double> times(targets.size(), 1e300), wall(targets.size(), 1e300);
            std::vector<size_t> order(targets.size());
            for (size_t j = 0; j < order.size(); ++j) order[j] = j;
            for (int round = 0; round < 3; ++round) {
                std::shuffle(order.begin(), order.end(), rng);
                for (const size_t j : order) {
                    h.seek(h.firstStep());
                    const auto t2 = Clock::now();
                    const double c2 = bench::threadCpuMs();
                    const World& then = h.seek(targets[j]);
                    times[j] = std::min(times[j], bench::threadCpuMs() - c2);
                    wall[j] = std::min(wall[j], ms(Clock::now() - t2));
                    if (then.stepCount() != targets[j]) {
                        std::fprintf(stderr, "jointlab_bench_history: seek(%lld) gave step %lld\n",
                                     static_cast<long long>(targets[j]),
                                     static_cast<long long>(then.stepCount()));
                        return 1;
                    }
                }
            }
            char row[512];
            std::snprintf(row, sizeof row,
                          "| %s | %d + 1 | %" PRId64
                          " | %d | %zu | %.1f MB | %.0f MB | %s | %.2f ms | %.2f ms | %.2f ms | %d × %.2f + "
                          "%.2f = %.1f ms "
                          "| %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f |\n",
                          kSolverTypeNames[int(solver)], posIters, steps, h.interval(), h.keyframeCount(),
                          static_cast<double>(h.bytes()) / 1048576.0,
                          static_cast<double>(h.budget().bytes) / 1048576.0,
                          h.droppedBefore() > 0 ? ("before step " + std::to_string(h.droppedBefore())).c_str()
                                                : "nothing",
                          plainMs, recordingMs, decodeMs, h.interval(), plainMs, decodeMs,
                          h.interval() * plainMs + decodeMs, percentile(times, 0.5), percentile(times, 0.95),
                          *std::max_element(times.begin(), times.end()),
                          *std::max_element(wall.begin(), wall.end()), loadAverage());
            table += row;
            std::fputs(row, stdout);
            std::fflush(stdout);
        }
    if (!md.empty()) {
        FILE* f = std::fopen(md.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "jointlab_bench_history: cannot write %s\n", md.c_str());
            return 2;
        }
        std::fprintf(
            f,
            "# History benchmark\n\nWritten by `make bench` (`jointlab_bench_history`): 100 chains of 10 "
            "hinged boxes (1000 bodies, 1000 revolute joints) swinging for %.0f minutes at 60 Hz (4 + 1 "
            "and 8 + 1 iterations), recorded into a History with its default budget; then %d jumps to random "
            "steps (`History::seek`: the keyframe before the step, then re-simulation), each timed 3 times "
            "(in 3 rounds over all the jumps, each round in its own random order) and the least kept. Times "
            "are the CPU time of the thread (what the work costs, without the "
            "time a busy machine gives the core to other processes), except `jump max (wall)`, the "
            "longest jump by the wall clock; load is the "
            "machine's 1-minute load average after the jumps (2 cores: above 2, other work shared them). "
            "A jump unpacks the keyframe before its step (`decode`: one keyframe, the least of 20) and "
            "re-simulates 1 to K steps (K: `keyframe every`; the step itself is re-taken for its rows), "
            "so the worst jump is about K × `step` + `decode`, the column that states it."
            "\n\n%s",
            minutes, jumps, table.c_str());
        std::fclose(f);
    }
    return 0;
}
