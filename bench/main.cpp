// jointlab_bench: JointLab's PGS and TGS side by side with Bullet and ODE on the same scenes.
//
//   jointlab_bench [--quick] [--scene a,b] [--engine jl-pgs,bullet] [--iters 1,4,10,20]
//                  [--acc-iters 10] [--erp X] [--csv FILE] [--md FILE] [--sweep FILE] [--sweep-only]
//
// For every scene and engine: median ms per step at each iteration count, the marginal
// row-iteration rate (rows per step / slope of ms over the iteration count, which removes the
// set-up cost), joint errors after 1 s and 5 s and the energy drift after 10 s at --acc-iters,
// and the ratios JointLab / peer. --sweep writes the 1000-link chain's error against time per
// step for 1–20 iterations (docs/bench_chain1000_accuracy.csv). Speed is printed, never asserted.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "harness.h"
#include "jointlab/solver_kernel.h"
#include "report.h"
#include "sweep_chart.h"

namespace bench {
namespace {

struct Options {
    bool quick = false;
    std::vector<std::string> scenes;  ///< empty: all (or the quick set)
    std::vector<std::string> engineIds;
    std::vector<int> iters{1, 4, 10, 20};
    int accIters = 10;
    double erp = -1;
    jl::SolverOrder order = jl::SolverOrder::Coloured;
    jl::PointSolve pointSolve = jl::PointSolve::Block;
    jl::Correction correction = jl::Correction::Relax;
    std::string csv, md, sweep;
    bool sweepOnly = false;
    int repeats = 3;  ///< timed windows per iteration count (the fastest median counts)
    int steps = 0;    ///< > 0: simulate only this many steps per run, all timed (for profilers)
};

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

void usage(std::FILE* f) {
    std::fprintf(
        f,
        "usage: jointlab_bench [options]\n"
        "  --quick            CI-sized run: short timing windows; without --scene, the small scenes only\n"
        "  --scene a,b        scenes to run (default: all): ");
    for (const std::string& n : sceneNames()) std::fprintf(f, "%s ", n.c_str());
    std::fprintf(f, "(and on request: ");
    for (const std::string& n : extraSceneNames()) std::fprintf(f, "%s ", n.c_str());
    std::fprintf(f, ")");
    std::fprintf(
        f,
        "\n  --engine a,b       engines (default: all built): jl-pgs jl-tgs jl-pgs2 jl-tgs2 bullet ode\n"
        "                     (jl-pgs2, jl-tgs2: 2 solver threads, timed by wall clock)\n"
        "  --iters 1,4,10,20  iteration counts timed (JointLab: position iterations, + 1 velocity "
        "iteration)\n"
        "  --repeats R        timed windows per iteration count, fastest median kept (default 3, --quick 1)\n"
        "  --steps N          profiling: every run is N timed steps, no accuracy columns (e.g. under "
        "valgrind)\n"
        "  --acc-iters N      iteration count of the accuracy columns (default 10; added to --iters)\n"
        "  --erp X            the same Baumgarte/ERP for every engine (default: each engine's own)\n"
        "  --order O          JointLab's row order: coloured (default), wavefront or sequential\n"
        "  --point-solve P    JointLab's point constraints: block (default, their rows at once), rows\n"
        "                     or tree (direct solve along joint trees)\n"
        "  --correction C     JointLab's position correction: relax (default; TGS's relax sweeps),\n"
        "                     baumgarte, splitImpulse (PGS) soft (TGS: Box2D v3's soft joints) or ngs (PGS)\n"
        "  --kernel K         JointLab's PGS kernel: auto (AVX2 when available, default) or scalar\n"
        "  --csv FILE         also write every measured number as CSV\n"
        "  --md FILE          also write the tables (Markdown, as printed) to FILE\n"
        "  --sweep FILE       also write the chain1000 accuracy-vs-cost sweep (1-20 iterations) as CSV, and\n"
        "                     as a chart (SVG) next to it (FILE with .svg for .csv)\n"
        "  --sweep-only       run only the sweep\n");
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--quick")
            o.quick = true, o.repeats = 1;
        else if (a == "--repeats")
            o.repeats = std::max(1, std::stoi(value()));
        else if (a == "--steps")
            o.steps = std::max(1, std::stoi(value()));
        else if (a == "--scene")
            o.scenes = split(value());
        else if (a == "--engine")
            o.engineIds = split(value());
        else if (a == "--iters") {
            o.iters.clear();
            for (const std::string& s : split(value())) o.iters.push_back(std::stoi(s));
        } else if (a == "--acc-iters")
            o.accIters = std::stoi(value());
        else if (a == "--erp")
            o.erp = std::stod(value());
        else if (a == "--order") {
            const std::string v = value();
            const int i = jl::findName(v, jl::kSolverOrderNames, 3);
            if (i < 0) throw std::invalid_argument("--order: coloured, wavefront or sequential");
            o.order = static_cast<jl::SolverOrder>(i);
        } else if (a == "--point-solve") {
            const std::string v = value();
            const int i = jl::findName(v, jl::kPointSolveNames, jl::kPointSolveCount);
            if (i < 0) throw std::invalid_argument("--point-solve: block, rows or tree");
            o.pointSolve = static_cast<jl::PointSolve>(i);
        } else if (a == "--correction") {
            const std::string v = value();
            const int i =
                jl::findName(v, jl::kCorrectionNames,
                             static_cast<int>(sizeof jl::kCorrectionNames / sizeof jl::kCorrectionNames[0]));
            if (i < 0)
                throw std::invalid_argument("--correction: baumgarte, relax, splitImpulse, soft or ngs");
            o.correction = static_cast<jl::Correction>(i);
        } else if (a == "--kernel") {
            const std::string v = value();
            if (v == "auto")
                jl::setSolverKernel(jl::SolverKernel::Auto);
            else if (v == "scalar")
                jl::setSolverKernel(jl::SolverKernel::Scalar);
            else
                throw std::invalid_argument("--kernel: auto or scalar");
        } else if (a == "--csv")
            o.csv = value();
        else if (a == "--md")
            o.md = value();
        else if (a == "--sweep")
            o.sweep = value();
        else if (a == "--sweep-only")
            o.sweepOnly = true;
        else if (a == "--help" || a == "-h") {
            usage(stdout);
            std::exit(0);
        } else
            throw std::invalid_argument("unknown option '" + a + "'");
    }
    for (int n : o.iters)
        if (n < 1 || n > 255) throw std::invalid_argument("--iters: each count must be in 1..255");
    if (o.accIters < 1 || o.accIters > 255) throw std::invalid_argument("--acc-iters must be in 1..255");
    bool found = false;
    for (int n : o.iters) found = found || n == o.accIters;
    if (!found) o.iters.push_back(o.accIters);
    std::sort(o.iters.begin(), o.iters.end());
    const auto names = sceneNames();
    const auto extra = extraSceneNames();
    for (const std::string& s : o.scenes)
        if (std::find(names.begin(), names.end(), s) == names.end() &&
            std::find(extra.begin(), extra.end(), s) == extra.end())
            throw std::invalid_argument("--scene: unknown scene '" + s + "'");
    if (o.scenes.empty())
        o.scenes =
            o.quick ? std::vector<std::string>{"chain10", "chain10_heavy", "chain100", "train"} : names;
    return o;
}

std::vector<EngineInfo> selectedEngines(const Options& o) {
    std::vector<EngineInfo> out;
    for (const EngineInfo& e : engines()) {
        const bool wanted = o.engineIds.empty() ||
                            std::find(o.engineIds.begin(), o.engineIds.end(), e.id) != o.engineIds.end();
        if (wanted && e.available) out.push_back(e);
        if (wanted && !e.available && !o.engineIds.empty())
            std::fprintf(stderr, "jointlab_bench: %s was not built (package not found by pkg-config)\n",
                         e.id);
    }
    return out;
}

/// One scene, every engine: each iteration count timed, and the accuracy run at accIters. The
/// repeats of the timed windows go round the engines (engine A, B, C, D, then A, B, C, D again):
/// the simulation is deterministic, so each repeat does the same work, and the fastest median
/// counts, the one least disturbed by the rest of the machine. Going round keeps a slow spell of
/// a shared machine from landing on one engine only, which would skew the ratios.
std::vector<EngineResult> measure(const std::vector<EngineInfo>& engines, const SceneSpec& s,
                                  const Options& o) {
    const int perSecond = static_cast<int>(std::lround(1.0 / s.dt));
    const int timing = o.quick ? std::max(5, s.timingSteps / 4) : s.timingSteps;
    std::vector<EngineResult> out(engines.size());
    for (size_t e = 0; e < engines.size(); ++e) {
        out[e].engine = engines[e];
        for (int n : o.iters) {
            SimSettings cfg;
            cfg.iterations = n;
            cfg.erp = o.erp;
            cfg.order = o.order;
            cfg.pointSolve = o.pointSolve;
            cfg.correction = o.correction;
            RunPlan plan;
            plan.timingSteps = timing;
            plan.steps = n == o.accIters ? std::max(timing, 10 * perSecond) : timing;
            if (o.steps > 0) plan.steps = plan.timingSteps = o.steps;
            RunResult r = runOnce(engines[e].kind, s, cfg, plan);
            if (n == o.accIters) out[e].accuracy = r;
            out[e].runs.push_back(r);
        }
        std::fprintf(stderr, "  %-13s done\n", engines[e].label);
    }
    for (int k = 1; k < (o.steps > 0 ? 1 : o.repeats); ++k)
        for (size_t e = 0; e < engines.size(); ++e)
            for (size_t i = 0; i < o.iters.size(); ++i) {
                SimSettings cfg;
                cfg.iterations = o.iters[i];
                cfg.erp = o.erp;
                cfg.order = o.order;
                cfg.pointSolve = o.pointSolve;
                cfg.correction = o.correction;
                cfg.correction = o.correction;
                const RunResult again = runOnce(engines[e].kind, s, cfg, RunPlan{timing, timing});
                RunResult& r = out[e].runs[i];
                if (again.medianMs < r.medianMs) r.medianMs = again.medianMs;
                if (again.medianWallMs < r.medianWallMs) r.medianWallMs = again.medianWallMs;
                if (o.iters[i] == o.accIters) {
                    out[e].accuracy.medianMs = r.medianMs;
                    out[e].accuracy.medianWallMs = r.medianWallMs;
                }
            }
    return out;
}

/// Where the sweep's chart goes: the CSV's name with .svg for .csv (or .svg appended).
std::string chartPath(const std::string& csv) {
    const std::string ext = ".csv";
    if (csv.size() > ext.size() && csv.compare(csv.size() - ext.size(), ext.size(), ext) == 0)
        return csv.substr(0, csv.size() - ext.size()) + ".svg";
    return csv + ".svg";
}

/// Runs the chain1000 sweep, writes its CSV and its chart (chartPath) and returns it as a Markdown
/// table. --quick: 1, 4 and 10 iterations over 1 s (errors after 1 s), for the ctest.
std::string runSweep(const Options& o) {
    const SceneSpec s = makeScene("chain1000");
    const std::vector<int> counts =
        o.quick ? std::vector<int>{1, 4, 10} : std::vector<int>{1, 2, 4, 6, 10, 15, 20};
    const int seconds = o.quick ? 1 : 5;
    std::ofstream f(o.sweep);
    if (!f) throw std::runtime_error("cannot write " + o.sweep);
    if (o.quick) f << "# --quick: 1 s of simulation; the 5 s columns repeat the 1 s errors\n";
    f << "# chain1000: joint error against time per step for 1 to 20 iterations at 60 Hz over 5 s of "
         "simulation\n"
         "# erp default = each engine's own: JointLab PGS 1 and TGS 1/sqrt(iterations) and Bullet and ODE "
         "0.2\n"
         "# separation in m and angular error in rad; ms_per_step = median thread CPU time over the 300 "
         "steps\n"
         "engine,erp,iterations,ms_per_step,rows_per_step,sep_max_1s,sep_rms_1s,ang_max_1s,ang_rms_1s,"
         "sep_max_5s,sep_rms_5s,ang_max_5s,ang_rms_5s,diverged\n";
    struct Variant {
        EngineInfo e;
        double erp;
        int colour;  ///< the engine's place in the chart's palette
    };
    std::vector<Variant> variants;
    int engineIndex = 0;
    for (const EngineInfo& e : selectedEngines(o)) {
        // (one thread each: the sweep is about what the iterations buy; the speed tables have ×2)
        if (e.kind == EngineKind::JointLabPGS2 || e.kind == EngineKind::JointLabTGS2) continue;
        variants.push_back({e, -1.0, engineIndex});
        if (e.kind == EngineKind::JointLabPGS || e.kind == EngineKind::JointLabTGS)
            variants.push_back({e, 0.2, engineIndex});
        ++engineIndex;
    }
    std::map<int, std::vector<std::string>> cells;  // iterations -> one cell per variant
    std::vector<ChartSeries> chart;
    for (const Variant& v : variants) {
        chart.push_back({std::string(v.e.label) + (v.erp < 0 ? "" : " α=0.2"), v.erp >= 0, v.colour, {}});
        for (int n : counts) {
            SimSettings cfg;
            cfg.iterations = n;
            cfg.erp = v.erp;
            RunPlan plan{seconds * 60, seconds * 60};
            RunResult r = runOnce(v.e.kind, s, cfg, plan);
            if (o.quick) r.at5 = r.at1, r.hasAt5 = r.hasAt1;
            if (r.hasAt5 && !r.diverged) chart.back().points.push_back({n, r.medianMs, r.at5.sepRms});
            char line[512];
            std::snprintf(line, sizeof line,
                          "%s,%s,%d,%.4f,%.0f,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%d\n", v.e.id,
                          v.erp < 0 ? "default" : "0.2", n, r.medianMs, r.rows, r.at1.sepMax, r.at1.sepRms,
                          r.at1.angMax, r.at1.angRms, r.at5.sepMax, r.at5.sepRms, r.at5.angMax, r.at5.angRms,
                          r.diverged ? 1 : 0);
            f << line;
            std::fprintf(stderr, "sweep %-7s erp=%-7s iters=%2d  %.3f ms/step  sep5 rms %.3g m\n", v.e.id,
                         v.erp < 0 ? "default" : "0.2", n, r.medianMs, r.at5.sepRms);
            char cell[96];
            if (r.hasAt5)
                std::snprintf(cell, sizeof cell, "%.3g ms · %.3g m%s", r.medianMs, r.at5.sepRms,
                              r.at5.angRms > 0.01 ? " ⟂" : "");
            else
                std::snprintf(cell, sizeof cell, "%.3g ms · diverged", r.medianMs);
            cells[n].push_back(cell);
        }
    }
    const std::string svgPath = chartPath(o.sweep);
    std::ofstream svg(svgPath);
    if (!svg) throw std::runtime_error("cannot write " + svgPath);
    svg << errorCostChartSvg(
        chart,
        std::string("chain1000: joint error against cost (60 Hz, after ") + std::to_string(seconds) + " s)",
        "time per step [ms], thread CPU time, median", "joint separation, RMS over the joints [m]");
    std::string md = "\n### chain1000: error against cost (ms per step · separation RMS after " +
                     std::to_string(seconds) +
                     " s; ⟂ = hinge axes misaligned, angular RMS > 0.01 rad)\n\n| iterations |";
    for (const Variant& v : variants) md += std::string(" ") + v.e.label + (v.erp < 0 ? "" : " α=0.2") + " |";
    md += "\n|---:|";
    for (size_t i = 0; i < variants.size(); ++i) md += "---:|";
    md += "\n";
    for (const auto& [n, row] : cells) {
        md += "| " + std::to_string(n) + " |";
        for (const std::string& c : row) md += " " + c + " |";
        md += "\n";
    }
    std::printf("%s", md.c_str());
    std::printf("\nwrote %s and %s\n", o.sweep.c_str(), svgPath.c_str());
    return md;
}

int run(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const std::vector<EngineInfo> selected = selectedEngines(o);
    Report report;
    report.iters = o.iters;
    report.accIters = o.accIters;
    report.erp = o.erp;
    report.header = machineHeader();
    std::printf("%s\n", report.header.c_str());
    std::fflush(stdout);
    if (!o.sweepOnly) {
        for (const std::string& name : o.scenes) {
            SceneResult sr;
            sr.scene = makeScene(name);
            std::fprintf(stderr, "%s: %zu bodies, %zu joints\n", name.c_str(), sr.scene.bodies.size(),
                         sr.scene.joints.size());
            sr.engines = measure(selected, sr.scene, o);
            report.scenes.push_back(std::move(sr));
        }
        printTables(report, stdout);
        if (!o.csv.empty()) writeCsv(report, o.csv);
    }
    const std::string sweepMd = o.sweep.empty() ? std::string() : runSweep(o);
    if (!o.md.empty()) {
        std::FILE* f = std::fopen(o.md.c_str(), "w");
        if (!f) throw std::runtime_error("cannot write " + o.md);
        std::fprintf(f, "%s\n", report.header.c_str());
        if (!o.sweepOnly) printTables(report, f);
        std::fprintf(f, "%s", sweepMd.c_str());
        std::fclose(f);
    }
    return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
    try {
        return bench::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "jointlab_bench: %s\n", e.what());
        bench::usage(stderr);
        return 2;
    }
}
