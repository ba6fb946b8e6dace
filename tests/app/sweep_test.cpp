// Parameter sweeps (runner/sweep_spec.h, runner/sweep.h): specs are checked entry by entry before
// anything runs, the grid is indexed without being built, a run's metrics are what `jointlab run`
// reports for the same settings, and the table is the same for any --jobs and any sharding.
#include "runner/sweep.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "runner/sweep_spec.h"

namespace jl::runner {
namespace {

namespace fs = std::filesystem;

const std::string kAssets = JOINTLAB_SOURCE_DIR "/assets";
const std::string kArm = kAssets + "/scenarios/driven_arm.json";

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name)
        : path(fs::temp_directory_path() / ("jointlab_sweep_" + std::to_string(::getpid()) + "_" + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    std::string operator/(const std::string& f) const { return (path / f).string(); }
};

std::string readFile(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void writeFile(const std::string& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

int runCommand(const std::string& command, std::string& output) {
    const std::string outPath =
        (fs::temp_directory_path() / ("jointlab_sweep_cmd_" + std::to_string(::getpid()))).string();
    const int status = std::system((command + " > " + outPath + " 2>&1").c_str());
    output = readFile(outPath);
    fs::remove(outPath);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string specText(const std::string& scenario, const std::string& parameters, int steps = 60,
                     const std::string& extra = "") {
    return "{\"scenario\": \"" + scenario + "\", \"parameters\": [" + parameters +
           "], \"steps\": " + std::to_string(steps) + extra + "}";
}

/// Parses `text` as a spec at "spec.json" (the scenario paths in these tests are absolute).
bool parse(const std::string& text, SweepSpec& spec, SpecError& error) {
    return parseSweepSpec("spec.json", text, spec, error);
}

std::string refusal(const std::string& text) {
    SweepSpec spec;
    SpecError error;
    EXPECT_FALSE(parse(text, spec, error)) << text;
    EXPECT_FALSE(error.file) << error.message;
    return error.message;
}

// [SECTION] Specs

TEST(SweepSpec, BadEntriesAreRefusedByName) {
    const std::string stiff = "{\"path\": \"joints.shoulder.drive.stiffness\", \"values\": [100, 200]}";
    struct Case {
        std::string text, expected;
    } cases[] = {
        {"{\"scenario\": ", "spec.json: not valid JSON: "},
        {specText(kArm, "{\"path\": \"joints.elbow.drive.stiffness\", \"values\": [1]}"),
         "spec.json: parameters[0] (joints.elbow.drive.stiffness): no joint named \"elbow\""},
        {specText(kArm, stiff + ", {\"path\": \"settings.posIters\", \"values\": [4, 300]}"),
         "spec.json: parameters[1] (settings.posIters).values[1]: must be <= 255, got 300"},
        {specText(kArm,
                  "{\"path\": \"settings.dt\", \"range\": {\"from\": 0.01, \"to\": 0.02, \"count\": 0}}"),
         "spec.json: parameters[0] (settings.dt).range: empty range (count 0)"},
        {specText(kArm,
                  "{\"path\": \"settings.dt\", \"range\": {\"from\": 0.001, \"to\": 0.5, \"count\": 3}}"),
         "spec.json: parameters[0] (settings.dt).range value [1]: must be <= 0.1, got 0.2505"},
        {specText(kArm,
                  "{\"path\": \"settings.posIters\", \"range\": {\"from\": 1, \"to\": 3, \"count\": 5}}"),
         "settings.posIters takes whole numbers and the range gives 2 twice"},
        {specText(kArm, "{\"path\": \"settings.baumgarte\", \"values\": [0.2, 0.5]}"),
         "spec.json: parameters[0] (settings.baumgarte): has no effect in this scenario as the spec sets it"},
        {specText(kArm, "{\"path\": \"settings.solver\", \"values\": [\"pgs\", \"sor\"]}"),
         "parameters[0] (settings.solver).values[1]: expected one of pgs, tgs, got sor"},
        {specText(kArm, stiff + ", {\"path\": \"joints.shoulder.params.drive.stiffness\", \"values\": [1]}"),
         "parameters[1] (joints.shoulder.params.drive.stiffness): the same field as parameters[0]"},
        {specText(kArm, stiff, 60, ", \"metrics\": [\"maxError\", \"jitter\"]"),
         "spec.json: metrics[1]: unknown metric \"jitter\""},
        {specText(kArm, stiff, 0), "spec.json: steps: must be from 1 to 10^9, got 0"},
        {specText(kArm, "{\"path\": \"settings.posIters\", \"vals\": [1]}"),
         "spec.json: parameters[0]: unknown key \"vals\""},
        {specText(kArm, stiff, 60, ", \"paramters\": []"), "spec.json: unknown key \"paramters\""},
        // A cross-field rule between two swept fields of one joint: the limit's lower above its upper.
        {specText(kArm,
                  "{\"path\": \"joints.shoulder.limit.enabled\", \"values\": [true]}, {\"path\": "
                  "\"joints.shoulder.limit.lower\", \"values\": [-1, 0.5]}, {\"path\": "
                  "\"joints.shoulder.limit.upper\", \"values\": [1, 0.2]}"),
         "parameters[1] (joints.shoulder.limit.lower) with joints.shoulder.limit.upper: the pair 0.5, 0.2: "},
    };
    for (const Case& c : cases) {
        const std::string message = refusal(c.text);
        EXPECT_NE(message.find(c.expected), std::string::npos)
            << "got: " << message << "\nwanted: " << c.expected;
    }
    // A missing scenario is a file error (exit 2 in the CLI), named with the spec's key.
    SweepSpec spec;
    SpecError error;
    EXPECT_FALSE(parse(specText("/nonexistent/x.json", stiff), spec, error));
    EXPECT_TRUE(error.file);
    EXPECT_NE(error.message.find("spec.json: scenario: "), std::string::npos) << error.message;
}

TEST(SweepSpec, RangesHaveExactEndsAndTheGridIsNestedLoopsInSpecOrder) {
    SweepSpec spec;
    SpecError error;
    ASSERT_TRUE(
        parse(specText(kArm,
                       "{\"path\": \"joints.shoulder.drive.stiffness\", \"range\": {\"from\": 0, \"to\": 1, "
                       "\"count\": 5}}, {\"path\": \"joints.shoulder.drive.damping\", \"range\": {\"from\": "
                       "1, \"to\": 1000, \"count\": 4, \"log\": true}}, {\"path\": \"settings.posIters\", "
                       "\"range\": {\"from\": 1, \"to\": 8, \"count\": 4}}"),
              spec, error))
        << error.message;
    ASSERT_EQ(spec.parameters.size(), 3u);
    const auto value = [&](size_t p, size_t i) { return std::get<Real>(spec.parameters[p].values[i]); };
    EXPECT_EQ(value(0, 0), 0.0);
    EXPECT_EQ(value(0, 1), 0.25);
    EXPECT_EQ(value(0, 2), 0.5);
    EXPECT_EQ(value(0, 4), 1.0);
    EXPECT_EQ(value(1, 0), 1.0);
    EXPECT_NEAR(value(1, 1), 10.0, 1e-12);
    EXPECT_NEAR(value(1, 2), 100.0, 1e-10);
    EXPECT_EQ(value(1, 3), 1000.0);
    // Whole numbers: 1, 3.33 -> 3, 5.67 -> 6, 8.
    EXPECT_EQ(value(2, 1), 3.0);
    EXPECT_EQ(value(2, 2), 6.0);
    EXPECT_EQ(spec.runCount, 5 * 4 * 4);
    // Run 4·16 + 2·4 + 3 = 75: the last stiffness, the third damping, the last iteration count.
    EXPECT_EQ(spec.digits(75), (std::vector<size_t>{4, 2, 3}));
    const Scene s = spec.sceneOf(75);
    const auto& drive = std::get<RevoluteJoint>(s.joints[0].params).drive;
    EXPECT_EQ(drive.stiffness, 1.0);
    EXPECT_EQ(drive.damping, value(1, 2));
    EXPECT_EQ(s.settings.posIters, 8);
}

TEST(SweepSpec, AHundredThousandRunGridIsCheckedFromItsValuesAlone) {
    // 100 × 100 × 10 runs; only the 210 values are held and checked, never the grid.
    SweepSpec spec;
    SpecError error;
    ASSERT_TRUE(
        parse(specText(kArm,
                       "{\"path\": \"joints.shoulder.drive.stiffness\", \"range\": {\"from\": 1, \"to\": "
                       "1e4, \"count\": 100, \"log\": true}}, {\"path\": \"joints.shoulder.drive.damping\", "
                       "\"range\": {\"from\": 0, \"to\": 100, \"count\": 100}}, {\"path\": "
                       "\"settings.posIters\", \"range\": {\"from\": 1, \"to\": 10, \"count\": 10}}"),
              spec, error))
        << error.message;
    EXPECT_EQ(spec.runCount, 100000);
    EXPECT_EQ(spec.digits(99999), (std::vector<size_t>{99, 99, 9}));
    EXPECT_EQ(spec.digits(12345), (std::vector<size_t>{12, 34, 5}));
    EXPECT_EQ(spec.sceneOf(99999).settings.posIters, 10);
    // A grid past 10^9 runs is refused before any value is checked against the scene.
    const std::string big = refusal(specText(kArm,
                                             "{\"path\": \"joints.shoulder.drive.stiffness\", \"range\": "
                                             "{\"from\": 1, \"to\": 2, \"count\": 100000}}, "
                                             "{\"path\": \"joints.shoulder.drive.damping\", \"range\": "
                                             "{\"from\": 1, \"to\": 2, \"count\": 100000}}"));
    EXPECT_NE(big.find("the grid has more than 1000000000 runs"), std::string::npos) << big;
}

// [SECTION] Metrics

struct CsvStep {
    Real kinetic = 0, potential = 0, maxError = 0, rmsError = 0;
    bool anyBroken = false;
    Real lastResidual = 0;
    Real time = 0;
};

/// The per-step values of a `jointlab run --csv` file (one line per row; the step's columns repeat),
/// read by the header's names so that a column added to the CSV does not move them.
std::vector<CsvStep> readRunCsv(const std::string& path) {
    std::istringstream in(readFile(path));
    std::string line;
    std::getline(in, line);  // header
    std::map<std::string, size_t> column;
    {
        std::stringstream hs(line);
        size_t k = 0;
        for (std::string c; std::getline(hs, c, ',');) column[c] = k++;
    }
    for (const char* name : {"step", "time", "broken", "kinetic_energy", "potential_energy", "max_error",
                             "rms_error", "residuals"})
        EXPECT_TRUE(column.count(name)) << "no column " << name << " in " << line;
    const size_t columns = column.size();
    std::map<int64_t, CsvStep> steps;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream ls(line);
        for (std::string c; std::getline(ls, c, ',');) f.push_back(c);
        if (line.back() == ',') f.emplace_back();
        EXPECT_EQ(f.size(), columns) << line;
        if (f.size() != columns) break;
        CsvStep& s = steps[std::stoll(f[column["step"]])];
        s.time = std::stod(f[column["time"]]);
        const std::string& broken = f[column["broken"]];
        s.anyBroken = s.anyBroken || broken == "1" || broken == "true";
        s.kinetic = std::stod(f[column["kinetic_energy"]]);
        s.potential = std::stod(f[column["potential_energy"]]);
        s.maxError = std::stod(f[column["max_error"]]);
        s.rmsError = std::stod(f[column["rms_error"]]);
        const std::string& res = f[column["residuals"]];
        s.lastResidual = std::stod(res.substr(res.rfind(';') == std::string::npos ? 0 : res.rfind(';') + 1));
    }
    std::vector<CsvStep> out;
    for (auto& [k, s] : steps) out.push_back(s);
    return out;
}

TEST(SweepMetrics, AreWhatJointlabRunReportsForTheSameSettings) {
    // One point of a drive-gain sweep against `jointlab run` of the scenario saved with that gain.
    TempDir dir("metrics");
    SweepSpec spec;
    SpecError error;
    ASSERT_TRUE(
        parse(specText(kArm,
                       "{\"path\": \"joints.shoulder.drive.stiffness\", \"values\": [100, 250]}, {\"path\": "
                       "\"settings.posIters\", \"values\": [2]}",
                       240, ", \"settle\": {\"kineticEnergy\": 0.01}"),
              spec, error))
        << error.message;
    const SweepRunResult r = runSweepPoint(spec, 1);  // stiffness 250
    ASSERT_EQ(r.status, "ok");
    EXPECT_EQ(r.steps, 240);

    Scene scene = spec.scene;
    std::get<RevoluteJoint>(scene.joints[0].params).drive.stiffness = 250;
    const std::string copy = dir / "arm250.json";
    ASSERT_TRUE(saveScenario(copy, scene, error.message)) << error.message;
    std::string out;
    ASSERT_EQ(runCommand(std::string(JOINTLAB_EXE) + " run " + copy + " --pos-iters 2 --steps 240 --csv " +
                             (dir / "run.csv"),
                         out),
              0)
        << out;
    const std::vector<CsvStep> steps = readRunCsv(dir / "run.csv");
    ASSERT_EQ(steps.size(), 240u);
    Real maxError = 0, sum = 0, settle = std::nan("");
    for (const CsvStep& s : steps) {
        maxError = std::max(maxError, s.maxError);
        sum += s.rmsError * s.rmsError;
        if (s.kinetic > 0.01)
            settle = std::nan("");
        else if (std::isnan(settle))
            settle = s.time;
    }
    EXPECT_EQ(r.maxError, maxError);
    EXPECT_NE(out.find("max constraint error = " + shortestNumber(maxError)), std::string::npos) << out;
    EXPECT_EQ(r.rmsError, std::sqrt(sum / 240));
    scene.settings.posIters = 2;
    const World start(scene);
    EXPECT_EQ(r.energyDrift, steps.back().kinetic + steps.back().potential -
                                 (start.kineticEnergy() + start.potentialEnergy()));
    EXPECT_EQ(r.finalResidual, steps.back().lastResidual);
    ASSERT_FALSE(std::isnan(settle)) << "the arm settles within 4 s: the settle check is not vacuous";
    EXPECT_GT(settle, steps.front().time);
    EXPECT_EQ(r.settleTime, settle);
    EXPECT_EQ(r.breakStep, -1);
    // The other point differs: the parameter was applied.
    EXPECT_NE(runSweepPoint(spec, 0).energyDrift, r.energyDrift);
}

TEST(SweepMetrics, BreakStepIsTheFirstStepWithABrokenJoint) {
    TempDir dir("break");
    const std::string bridge = kAssets + "/scenarios/bridge.json";
    SweepSpec spec;
    SpecError error;
    ASSERT_TRUE(
        parse(specText(bridge, "{\"path\": \"settings.posIters\", \"values\": [4, 8]}", 60), spec, error))
        << error.message;
    const SweepRunResult r = runSweepPoint(spec, 0);
    std::string out;
    ASSERT_EQ(runCommand(std::string(JOINTLAB_EXE) + " run " + bridge + " --pos-iters 4 --steps 60 --csv " +
                             (dir / "run.csv"),
                         out),
              0)
        << out;
    const std::vector<CsvStep> steps = readRunCsv(dir / "run.csv");
    int64_t first = -1;
    for (size_t i = 0; i < steps.size() && first < 0; ++i)
        if (steps[i].anyBroken) first = static_cast<int64_t>(i) + 1;
    ASSERT_GT(first, 1) << "the bridge breaks after a few steps (about step 28)";
    EXPECT_EQ(r.breakStep, first);
}

TEST(SweepMetrics, EnergyDriftOfAFreeFallIsTheIntegratorsClosedForm) {
    // Semi-implicit Euler from rest: v_n = −g·n·dt, y_n = y0 − g·dt²·n(n+1)/2, so after N steps
    // E_N − E_0 = ½m(gNdt)² − m·g²·dt²·N(N+1)/2 = −½·m·g²·dt²·N: a loss linear in N and in m.
    TempDir dir("fall");
    Scene scene;
    scene.settings.groundPlane = false;
    BodyDesc box;
    box.name = "box";
    box.position = Vec3(0, 10, 0);
    scene.bodies.push_back(box);
    std::string e;
    ASSERT_TRUE(saveScenario(dir / "fall.json", scene, e)) << e;
    SweepSpec spec;
    SpecError error;
    ASSERT_TRUE(
        parse(specText(dir / "fall.json", "{\"path\": \"bodies.box.mass\", \"values\": [1, 2.5]}", 100), spec,
              error))
        << error.message;
    const Real g = 9.81, dt = scene.settings.dt;
    for (int64_t run = 0; run < 2; ++run) {
        const Real m = std::get<Real>(spec.parameters[0].values[static_cast<size_t>(run)]);
        const Real expected = -0.5 * m * g * g * dt * dt * 100;
        EXPECT_NEAR(runSweepPoint(spec, run).energyDrift, expected, 1e-9 * std::fabs(expected))
            << "m = " << m;
    }
}

// [SECTION] The command: jobs, shards, merge

std::string exe() {
    return JOINTLAB_EXE;
}

TEST(SweepCommand, JobsAndMergedShardsGiveTheSameTableAsOneJob) {
    TempDir dir("shards");
    for (const char* name : {"drive_gains", "baumgarte_iterations"}) {
        SCOPED_TRACE(name);
        const std::string spec = kAssets + "/sweeps/" + name + ".json";
        std::string out;
        ASSERT_EQ(runCommand(exe() + " sweep " + spec + " --out " + (dir / "one"), out), 0) << out;
        ASSERT_EQ(runCommand(exe() + " sweep " + spec + " --jobs 2 --out " + (dir / "two"), out), 0) << out;
        ASSERT_EQ(runCommand(exe() + " sweep " + spec + " --shard 1/2 --out " + (dir / "s1"), out), 0) << out;
        ASSERT_EQ(runCommand(exe() + " sweep " + spec + " --shard 2/2 --out " + (dir / "s2"), out), 0) << out;
        ASSERT_EQ(runCommand(exe() + " sweep-merge " + (dir / "s2") + " " + (dir / "s1") + " --out " +
                                 (dir / "merged"),
                             out),
                  0)
            << out;
        const std::string one = readFile(dir / "one/results.csv");
        SweepSpec parsed;
        SpecError error;
        ASSERT_TRUE(loadSweepSpec(spec, parsed, error)) << error.message;
        ASSERT_GE(parsed.runCount, 4);
        EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), parsed.runCount + 1);
        EXPECT_EQ(readFile(dir / "two/results.csv"), one);
        EXPECT_EQ(readFile(dir / "merged/results.csv"), one);
        EXPECT_NE(readFile(dir / "s1/results.csv"), one);
        // The manifest says what was run.
        const std::string manifest = readFile(dir / "one/manifest.json");
        EXPECT_NE(manifest.find("\"scenarioHash\": \"" + fileHash(parsed.scenarioPath) + "\""),
                  std::string::npos);
        EXPECT_NE(manifest.find("\"runs\": " + std::to_string(parsed.runCount)), std::string::npos);
        for (const char* d : {"one", "two", "s1", "s2", "merged"}) fs::remove_all(dir / d);
    }
}

TEST(SweepCommand, MergeRefusesDuplicatesGapsAndOtherSweeps) {
    TempDir dir("merge");
    const std::string spec = kAssets + "/sweeps/drive_gains.json";
    std::string out;
    for (int i = 1; i <= 3; ++i)
        ASSERT_EQ(runCommand(exe() + " sweep " + spec + " --shard " + std::to_string(i) + "/3 --out " +
                                 (dir / ("s" + std::to_string(i))),
                             out),
                  0)
            << out;
    const std::string s1 = dir / "s1", s2 = dir / "s2", s3 = dir / "s3", merged = dir / "merged";
    EXPECT_EQ(runCommand(exe() + " sweep-merge " + s1 + " " + s2 + " " + s2 + " --out " + merged, out), 64);
    EXPECT_NE(out.find("duplicate: shard 2/3 is in both"), std::string::npos) << out;
    EXPECT_EQ(runCommand(exe() + " sweep-merge " + s1 + " " + s3 + " --out " + merged, out), 64);
    EXPECT_NE(out.find("gap: shard(s) 2 of 3 missing"), std::string::npos) << out;
    // Another scenario (its hash differs) is another sweep.
    std::string m = readFile(s3 + "/manifest.json");
    const size_t at = m.find("\"scenarioHash\": \"") + 17;
    m[at] = m[at] == '0' ? '1' : '0';
    writeFile(s3 + "/manifest.json", m);
    EXPECT_EQ(runCommand(exe() + " sweep-merge " + s1 + " " + s2 + " " + s3 + " --out " + merged, out), 64);
    EXPECT_NE(out.find("manifest.json: \"scenarioHash\" differs from"), std::string::npos) << out;
    // A shard whose table lost a line.
    ASSERT_EQ(runCommand(exe() + " sweep " + spec + " --shard 3/3 --out " + s3, out), 0) << out;
    std::string csv = readFile(s2 + "/results.csv");
    csv.erase(csv.rfind('\n', csv.size() - 2) + 1);
    writeFile(s2 + "/results.csv", csv);
    EXPECT_EQ(runCommand(exe() + " sweep-merge " + s1 + " " + s2 + " " + s3 + " --out " + merged, out), 64);
    EXPECT_NE(out.find("gap: run "), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(merged)) << "a refused merge writes nothing";
}

TEST(SweepCommand, BadSpecsAndClashingOutputsWriteNothing) {
    TempDir dir("refuse");
    std::string out;
    writeFile(
        dir / "bad.json",
        specText(kArm,
                 "{\"path\": \"settings.posIters\", \"range\": {\"from\": 1, \"to\": 4, \"count\": 0}}"));
    EXPECT_EQ(runCommand(exe() + " sweep " + (dir / "bad.json") + " --out " + (dir / "out"), out), 64);
    EXPECT_NE(out.find("parameters[0] (settings.posIters).range: empty range (count 0); nothing was run"),
              std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(dir / "out"));
    // The spec is called results.csv and --out is its own folder: the output would replace it.
    writeFile(dir / "results.csv", specText(kArm, "{\"path\": \"settings.posIters\", \"values\": [1, 2]}"));
    EXPECT_EQ(
        runCommand(exe() + " sweep " + (dir / "results.csv") + " --out " + dir.path.string() + "/.", out),
        64);
    EXPECT_NE(out.find("would overwrite the spec"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir / "manifest.json"));
    EXPECT_EQ(runCommand(exe() + " sweep " + (dir / "bad.json") + " --out x --shard 3/2", out), 64);
    EXPECT_NE(out.find("--shard: expected I/N with 1 <= I <= N"), std::string::npos) << out;
    EXPECT_EQ(runCommand(exe() + " sweep " + (dir / "bad.json") + " --out x --jobs 0", out), 64);
    // --check: the spec is checked and counted, nothing is run or written.
    EXPECT_EQ(runCommand(exe() + " sweep " + kAssets + "/sweeps/drive_gains.json --check --shard 4/4", out),
              0);
    EXPECT_NE(out.find("drive_gains.json: ok: 30 runs (6 x 5) of 600 steps; shard 4/4 has 7"),
              std::string::npos)
        << out;
    EXPECT_EQ(runCommand(exe() + " sweep " + (dir / "bad.json") + " --check", out), 64);
}

TEST(SweepCommand, ARunsScenarioIsTheScenarioWithItsRowsValues) {
    // What the sweep viewer opens: run 17 of the drive-gain grid as a file of its own.
    TempDir dir("runfile");
    const std::string specPath = kAssets + "/sweeps/drive_gains.json";
    std::string out;
    ASSERT_EQ(runCommand(exe() + " sweep " + specPath + " --out " + (dir / "g"), out), 0) << out;
    SweepSpec spec;
    SpecError specError;
    ASSERT_TRUE(loadSweepSpec(specPath, spec, specError)) << specError.message;
    std::string path, error;
    ASSERT_TRUE(writeRunScenario(dir / "g", 17, path, error)) << error;
    EXPECT_EQ(path, (dir / "g") + "/run-17.json");
    Scene saved;
    ASSERT_TRUE(loadScenario(path, saved, error)) << error;
    const Scene expected = spec.sceneOf(17);
    const auto& drive = std::get<RevoluteJoint>(saved.joints[0].params).drive;
    EXPECT_EQ(drive.stiffness, std::get<RevoluteJoint>(expected.joints[0].params).drive.stiffness);
    EXPECT_EQ(drive.damping, 20.0);  // run 17 = stiffness index 3, damping index 2
    World a(saved), b(expected);
    for (int i = 0; i < 120; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.stateHash(), b.stateHash());
    EXPECT_FALSE(writeRunScenario(dir / "g", 30, path, error));
    EXPECT_NE(error.find("no run 30"), std::string::npos) << error;
    // A scenario that changed since the sweep would not give the table's run.
    std::string m = readFile(dir / "g/manifest.json");
    const size_t at = m.find("\"scenarioHash\": \"") + 17;
    m[at] = m[at] == '0' ? '1' : '0';
    writeFile(dir / "g/manifest.json", m);
    EXPECT_FALSE(writeRunScenario(dir / "g", 3, path, error));
    EXPECT_NE(error.find("changed since the sweep"), std::string::npos) << error;
}

TEST(SweepCommand, PlotWritesAPngOfTheTableAndRefusesWhatItCannotDraw) {
    TempDir dir("plot");
    std::string out;
    ASSERT_EQ(runCommand(exe() + " sweep " + kAssets + "/sweeps/drive_gains.json --out " + (dir / "g"), out),
              0)
        << out;
    ASSERT_EQ(runCommand(exe() + " sweep-plot " + (dir / "g") +
                             " --metric settle_time --size 640x400 --png " + (dir / "g/settle.png"),
                         out),
              0)
        << out;
    // A PNG of the asked size: the signature, then IHDR's width and height (big-endian).
    const std::string png = readFile(dir / "g/settle.png");
    ASSERT_GT(png.size(), 24u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    const auto be32 = [&](size_t at) {
        return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
               (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
    };
    EXPECT_EQ(be32(16), 640u);
    EXPECT_EQ(be32(20), 400u);
    EXPECT_EQ(
        runCommand(exe() + " sweep-plot " + (dir / "g") + " --metric jitter --png " + (dir / "x.png"), out),
        64);
    EXPECT_NE(out.find("no metric \"jitter\" in the table"), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir / "x.png"));
    // The table itself is never the picture.
    EXPECT_EQ(
        runCommand(exe() + " sweep-plot " + (dir / "g/results.csv") + " --png " + (dir / "g/results.csv"),
                   out),
        64);
    EXPECT_NE(out.find("--png: the output file must end in .png"), std::string::npos) << out;
}

}  // namespace
}  // namespace jl::runner
