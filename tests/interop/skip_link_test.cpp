// A coupling that skips a link (MuJoCo's adhesion/active_adhesion.xml, equality1): three hinges
// about one axis in a chain, q1 = −0.5·q2 and q3 = −q1 (the third hinge coupled to the first). The
// second law alone holds three moving bodies; with the first added it holds one or two, an exact
// world gear (interop/import_planar.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model_coordinates.h"

namespace jl::interop {
namespace {

const std::string kModel = std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/skip_link.xml";

/// The model with "level" at q3 = −k·q1, written next to the build's other test files.
std::string modelWithLevel(Real k) {
    std::ifstream in(kModel);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    const std::string from = "polycoef=\"0 -1 0 0 0\"";
    s.replace(s.find(from), from.size(), "polycoef=\"0 " + std::to_string(-k) + " 0 0 0\"");
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("jointlab_skip_link_" + std::to_string(static_cast<int>(k)) + ".xml"))
                                 .string();
    std::ofstream(path) << s;
    return path;
}

// The arm falls from level under gravity; each law of the model holds on its joint coordinates.
void expectLawsHold(const std::string& path, Real k, const std::string& gearBodies) {
    std::string warning;
    const Scene model = test::importedModel(path, warning);
    EXPECT_EQ(warning.find("couplings measure turns"), std::string::npos) << warning;
    EXPECT_NE(warning.find("level (+ half)"), std::string::npos) << warning;
    const JointDesc* level = test::findJoint(model, "level");
    ASSERT_NE(level, nullptr);
    EXPECT_EQ(level->body0 + "|" + level->body1, gearBodies);
    EXPECT_FALSE(std::get<GearJoint>(level->params).relative);
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = model;
        s.settings.solver = solver;
        s.settings.groundPlane = s.settings.bodyCollisions = false;
        World w(s);
        Real half = 0.0, skip = 0.0, swing = 0.0;
        // The coordinates followed past ±π (jointCoordinate gives each in (−π, π]).
        Real q[3] = {0.0, 0.0, 0.0}, last[3] = {0.0, 0.0, 0.0};
        const char* names[3] = {"j1", "j2", "j3"};
        for (int i = 0; i < 1500; ++i) {  // 1.5 s at the model's 1 ms
            w.step();
            for (int n = 0; n < 3; ++n) {
                const Real now = test::coordinate(w, names[n]);
                q[n] += std::remainder(now - last[n], 2.0 * kPi);
                last[n] = now;
            }
            const Real q1 = q[0], q2 = q[1], q3 = q[2];
            half = std::max(half, std::abs(q1 + 0.5 * q2));
            skip = std::max(skip, std::abs(q3 + k * q1));
            swing = std::max(swing, std::abs(q1));
        }
        std::printf(
            "[ skip link ] q3 = -%g q1, %s, 1.5 s at 1 ms: arm1 swings up to %.3g rad; |q1 + 0.5 q2| "
            "<= %.3g rad, |q3 + %g q1| <= %.3g rad\n",
            k, kSolverTypeNames[static_cast<int>(solver)], swing, half, k, skip);
        EXPECT_GT(swing, 0.5);  // the arm swings: a law measured against the world would break
        // Both laws to the rows' error at 1 ms (the relative and world gears of relative_gear_test
        // hold to 1e-4 rad at 1 ms); a gear between the hand and arm1 read in the world, the
        // mapping before, is off by the whole of q2 (the swing).
        EXPECT_LT(half, 1e-3);
        EXPECT_LT(skip, 1e-3);
    }
}

// q3 = −q1 with q1 = −0.5·q2: the hand keeps its turn in the world (θ_hand = 0), a gear from the
// hand to the world.
TEST(SkipLink, TheHandStaysLevelAsTheModelSays) {
    expectLawsHold(kModel, 1.0, "hand|");
}

// q3 = −2·q1: then θ_hand = −θ_arm2 in the world (with the first law taking arm1 out), a gear
// between the two.
TEST(SkipLink, AGearBetweenTwoBodiesWhenOneRemains) {
    expectLawsHold(modelWithLevel(2.0), 2.0, "arm2|hand");
}

}  // namespace
}  // namespace jl::interop
