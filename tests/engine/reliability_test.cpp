// Issue 24, points 4 and 6: runs are bounded (no step count past kMaxStepCount) and text is
// clean (names without control characters or line separators, numbers in messages in their
// shortest round-trip form, "version": 2.0 read as 2, no inf in the CSV).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "jointlab/fields.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"
#include "test_files.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace jl {
namespace {

using test::readFile;

const fs::path kSourceDir = JOINTLAB_SOURCE_DIR;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// [SECTION] numbers in messages

TEST(TextHygiene, NumbersInMessagesAreTheShortestTextThatReadsBack) {
    EXPECT_EQ(shortestNumber(1e15), "1e15");
    EXPECT_EQ(shortestNumber(std::nextafter(1e15, 2e15)), "1.0000000000000001e15");  // 1e15 + 1/8
    EXPECT_EQ(shortestNumber(1.0000000000000002e15), "1.0000000000000002e15");
    EXPECT_EQ(shortestNumber(1e-5), "1e-5");
    EXPECT_EQ(shortestNumber(-1e-300), "-1e-300");
    EXPECT_EQ(shortestNumber(0.1), "0.1");
    EXPECT_EQ(shortestNumber(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(shortestNumber(100.0), "100");
    EXPECT_EQ(shortestNumber(0.0), "0");
    EXPECT_EQ(shortestNumber(5e-324), "5e-324");
    EXPECT_EQ(shortestNumber(std::numeric_limits<double>::infinity()), "inf");
    const Field capped{"kg", 0, 1e15, "a mass"};
    EXPECT_EQ(capped.check(1.0000000000000002e15), "must be <= 1e15, got 1.0000000000000002e15");
    // Every finite double reads back as itself.
    std::mt19937_64 random(24);
    for (int i = 0; i < 100000; ++i) {
        uint64_t bits = random();
        double x;
        std::memcpy(&x, &bits, sizeof x);
        if (!std::isfinite(x)) continue;
        const std::string text = shortestNumber(x);
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
        EXPECT_EQ(text.find('+'), std::string::npos) << text;
    }
}

TEST(TextHygiene, VersionTwoPointZeroIsVersionTwo) {
    const std::string text = readFile(kSourceDir / "assets/scenarios/pendulum.json");
    Scene plain, pointZero;
    std::string error;
    ASSERT_TRUE(parseScenario(text, plain, error)) << error;
    ASSERT_TRUE(parseScenario(replaced(text, "\"version\": 2,", "\"version\": 2.0,"), pointZero, error))
        << error;
    EXPECT_EQ(serializeScenario(pointZero), serializeScenario(plain));
    ASSERT_TRUE(parseScenario(replaced(text, "\"version\": 2,", "\"version\": 2e0,"), pointZero, error))
        << error;
    EXPECT_FALSE(parseScenario(replaced(text, "\"version\": 2,", "\"version\": 2.5,"), pointZero, error));
    EXPECT_EQ(error, "version: expected an integer, got number 2.5");
    EXPECT_FALSE(parseScenario(replaced(text, "\"version\": 2,", "\"version\": 3.0,"), pointZero, error));
    EXPECT_EQ(error, "version: 3 is newer than this JointLab (2); update JointLab to open this file");
}

// [SECTION] names

TEST(TextHygiene, NamesRefuseControlCharactersAndLineSeparators) {
    Scene s;
    s.bodies.push_back(test::box("box", Vec3(0, 1, 0), Vec3(0.1), 1.0));
    EXPECT_EQ(validateScene(s), "");
    for (const char* bad : {"a\x01", "a\x7f", "a\xc2\x80", "a\xc2\x85", "a\xc2\x9f"}) {
        s.bodies[0].name = bad;
        EXPECT_NE(validateScene(s).find("bodies[0].name: must not contain control characters"),
                  std::string::npos)
            << validateScene(s);
    }
    for (const char* bad : {"a\xe2\x80\xa8", "a\xe2\x80\xa9"}) {
        s.bodies[0].name = bad;
        const std::string e = validateScene(s);
        EXPECT_NE(e.find("bodies[0].name: must not contain line or paragraph separators"), std::string::npos)
            << e;
        EXPECT_NE(e.find("\\u202"), std::string::npos) << "shown escaped: " << e;
    }
    // Printable text beyond ASCII stays allowed: U+00A0 (C2 A0), é, U+2027 (E2 80 A7), emoji.
    for (const char* good : {"a\xc2\xa0"
                             "b",
                             "caf\xc3\xa9", "a\xe2\x80\xa7", "\xf0\x9f\x94\xa9"}) {
        s.bodies[0].name = good;
        EXPECT_EQ(validateScene(s), "") << good;
    }
}

// [SECTION] no inf in the CSV

TEST(TextHygiene, ATinyBreakThresholdGivesAFiniteFractionInTheCsv) {
    EXPECT_EQ(breakFraction(10.0, 5e-324), std::numeric_limits<Real>::max());
    EXPECT_EQ(breakFraction(10.0, kInf), 0.0);
    EXPECT_EQ(breakFraction(10.0, 4.0), 2.5);
    Scene s;
    std::string error;
    ASSERT_TRUE(loadScenario((kSourceDir / "assets/scenarios/pendulum.json").string(), s, error)) << error;
    ASSERT_FALSE(s.joints.empty());
    s.joints[0].breakForce = 5e-324;  // the smallest double: accepted (> 0)
    s.joints[0].breakTorque = 5e-324;
    ASSERT_EQ(validateScene(s), "");
    World world(s);
    std::string csv = kTelemetryCsvHeader;
    StepSample sample;
    for (int i = 0; i < 5; ++i) {
        world.step();
        captureStep(world, 0.0, sample);
        for (const JointSample& j : sample.joints) {
            EXPECT_TRUE(std::isfinite(j.forceFraction));
            EXPECT_TRUE(std::isfinite(j.torqueFraction));
        }
        appendCsvRows(world.scene(), sample, csv);
    }
    EXPECT_EQ(csv.find("inf"), std::string::npos) << csv.substr(0, 2000);
    EXPECT_EQ(csv.find("nan"), std::string::npos);
}

// [SECTION] the ignored "app" section is checked, not kept

TEST(LinearLoading, TheAppSectionIsCheckedLikeTheRestButNotKept) {
    const std::string text = readFile(kSourceDir / "assets/scenarios/pendulum.json");
    auto withApp = [&](const std::string& app) {
        return replaced(text, "\"version\": 2,", "\"version\": 2, \"app\": " + app + ",");
    };
    Scene plain, s;
    std::string error;
    ASSERT_TRUE(parseScenario(text, plain, error)) << error;
    ASSERT_TRUE(
        parseScenario(withApp(R"({"a": [1, {"b": {"c": [[], {}]}}], "recovery": {"pid": 3}})"), s, error))
        << error;
    EXPECT_EQ(serializeScenario(s), serializeScenario(plain));
    // Duplicate keys are found at any depth inside it, in small objects and in large ones (hashed).
    EXPECT_FALSE(parseScenario(withApp(R"({"a": [1, {"b": {"x": 1, "x": 2}}]})"), s, error));
    EXPECT_EQ(error, "app.a[1].b: duplicate key \"x\"");
    std::string many = "{\"big\": {";
    for (int i = 0; i < 1000; ++i) many += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    EXPECT_TRUE(parseScenario(withApp(many + "\"last\": 0}}"), s, error)) << error;
    EXPECT_FALSE(parseScenario(withApp(many + "\"k517\": 0}}"), s, error));
    EXPECT_EQ(error, "app.big: duplicate key \"k517\"");
    EXPECT_FALSE(parseScenario(withApp(R"({"app": 1, "app": 2})"), s, error));
    EXPECT_EQ(error, "app: duplicate key \"app\"");
    // A syntax error inside it is named by its place.
    EXPECT_FALSE(parseScenario(withApp(R"({"a": [1, 0x2]})"), s, error));
    EXPECT_NE(error.find("app.a[1]"), std::string::npos) << error;
    // Not an object: refused as before.
    EXPECT_FALSE(parseScenario(withApp("[1, 2]"), s, error));
    EXPECT_EQ(error, "app: expected an object, got array");
    EXPECT_FALSE(parseScenario(withApp("5"), s, error));
    EXPECT_EQ(error, "app: expected an object, got number 5");
}

// [SECTION] bounded runs

TEST(BoundedRuns, AWorldAtTheLongestRunTakesNoMoreStepsAndItsStateSavesAndLoads) {
    const std::string text = readFile(kSourceDir / "tests/data/fuzz_corpus/state_pendulum.json");
    Scene s;
    std::string error;
    ASSERT_TRUE(parseScenario(replaced(text, "\"step\": 45,", "\"step\": 999999999998,"), s, error)) << error;
    World world(s);
    for (int i = 0; i < 5; ++i) world.step();
    EXPECT_EQ(world.stepCount(), kMaxStepCount);
    Scene saved = world.scene();
    saved.state = world.snapshot();
    Scene back;
    ASSERT_TRUE(parseScenario(serializeScenario(saved), back, error)) << error;
    ASSERT_TRUE(back.state);
    EXPECT_EQ(back.state->stepCount, kMaxStepCount);
    // One past it is refused, naming the field.
    EXPECT_FALSE(parseScenario(replaced(text, "\"step\": 45,", "\"step\": 1000000000001,"), s, error));
    EXPECT_EQ(error,
              "state.step: must be <= 1000000000000 (the longest run JointLab takes), got 1000000000001");
    saved.state->stepCount = kMaxStepCount + 1;  // and a scene built in memory the same way
    EXPECT_NE(validateScene(saved).find("state.step: must be <= 1000000000000"), std::string::npos);
}

}  // namespace
}  // namespace jl
