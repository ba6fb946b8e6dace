// Every model libmujoco-samples ships (/usr/share/mujoco/model/**/*.xml) either imports and runs
// 600 steps in JointLab with every body finite, or is refused with a message saying why. The test
// prints the table docs/import.md shows: model, imported fully / partly / refused, what was left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "interop/model_import.h"
#include "jointlab/scenario_io.h"
#include "jointlab/world.h"

namespace jl::interop {
namespace {

namespace fs = std::filesystem;

TEST(SampleModels, ImportAndRunOrAreRefusedWithAReason) {
    const fs::path root(JOINTLAB_MUJOCO_MODELS);
    if (!fs::is_directory(root))
        GTEST_SKIP() << root << " is missing: install libmujoco-samples (scripts/setup.sh)";
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file() && e.path().extension() == ".xml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ASSERT_FALSE(files.empty());
    int imported = 0;
    std::cout << "| model | result | bodies, joints | left out or changed |\n|---|---|---|---|\n";
    for (const fs::path& f : files) {
        const std::string name = fs::relative(f, root).string();
        Scene s;
        std::string warning, error;
        if (!importModel(f.string(), s, warning, error)) {
            EXPECT_FALSE(error.empty()) << name;
            std::cout << "| " << name << " | refused | | " << error << " |\n";
            continue;
        }
        ++imported;
        EXPECT_EQ(validateScene(s), "") << name;
        World w(s);
        for (int k = 0; k < 600; ++k) w.step();
        bool finite = true;
        for (const BodyState& b : w.bodies())
            finite = finite && isFinite(b.pose.p) && isFinite(b.pose.q) && isFinite(b.linearVelocity) &&
                     isFinite(b.angularVelocity);
        EXPECT_TRUE(finite) << name << " went non-finite in 600 steps";
        EXPECT_EQ(w.divergence(), nullptr) << name;
        std::cout << "| " << name << " | " << (warning.empty() ? "fully" : "partly") << " | "
                  << s.bodies.size() << ", " << s.joints.size() << " | " << (warning.empty() ? "" : warning)
                  << " |\n";
    }
    EXPECT_GT(imported, 0);
}

}  // namespace
}  // namespace jl::interop
