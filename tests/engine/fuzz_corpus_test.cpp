// Replays the fuzzer's saved inputs (tests/data/fuzz_corpus/: crashes it found once, and seeds
// with a saved run state) plus the examples and the bad-scenario suite through the same round
// trip the fuzzer drives (tests/fuzz/scenario_roundtrip.h), built with the normal compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "../fuzz/scenario_roundtrip.h"
#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_files.h"

namespace fs = std::filesystem;

namespace jl {
namespace {

using test::readFile;

const fs::path kSourceDir = JOINTLAB_SOURCE_DIR;

std::vector<fs::path> filesIn(const fs::path& dir) {
    std::vector<fs::path> files;
    if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

void replay(const fs::path& dir, size_t atLeast) {
    const std::vector<fs::path> files = filesIn(dir);
    EXPECT_GE(files.size(), atLeast) << dir;
    for (const fs::path& f : files) {
        const std::string problem = fuzz::scenarioRoundTrip(readFile(f));
        EXPECT_EQ(problem, "") << f.filename();
    }
}

TEST(FuzzCorpus, SavedInputsRoundTrip) {
    replay(kSourceDir / "tests/data/fuzz_corpus", 1);
}

TEST(FuzzCorpus, ExamplesRoundTrip) {
    replay(kSourceDir / "assets/scenarios", 20);
}

TEST(FuzzCorpus, BadScenariosAreRefusedCleanly) {
    replay(kSourceDir / "tests/data/bad_scenarios", 300);
}

// Seeds with a saved run state, so the fuzzer starts from files that exercise the "state" reader.
// Regenerate with JOINTLAB_UPDATE_FUZZ_SEEDS=1 (writes tests/data/fuzz_corpus/state_*.json).
TEST(FuzzCorpus, StateSeeds) {
    if (!std::getenv("JOINTLAB_UPDATE_FUZZ_SEEDS"))
        GTEST_SKIP() << "set JOINTLAB_UPDATE_FUZZ_SEEDS=1 to rewrite";
    for (const char* name :
         {"pendulum", "door_limits", "gear_train", "bridge", "welded_pair", "d6_ragdoll_shoulder"}) {
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario((kSourceDir / "assets/scenarios" / (std::string(name) + ".json")).string(),
                                 scene, error))
            << error;
        World world(scene);
        for (int i = 0; i < 45; ++i) world.step();
        Scene saved = world.scene();
        saved.state = world.snapshot();
        std::ofstream(kSourceDir / "tests/data/fuzz_corpus" / ("state_" + std::string(name) + ".json"),
                      std::ios::binary)
            << serializeScenario(saved);
    }
}

}  // namespace
}  // namespace jl
