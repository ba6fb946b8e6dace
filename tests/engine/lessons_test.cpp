// The guided lessons in assets/scenarios/lessons/ (jointlab/lesson.h): each loads and is what
// the serializer writes, together they cover the topics the lessons promise, and every claim a
// step makes with a number holds when the lesson is run as the step says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>

#include "jointlab/lesson.h"
#include "jointlab/scenario_io.h"
#include "test_files.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace jl {
namespace {

const fs::path kLessonDir = fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios" / "lessons";

std::vector<fs::path> lessonFiles() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kLessonDir))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST(Lessons, AtLeastEightCoveringTheTopics) {
    std::set<std::string> names;
    for (const fs::path& f : lessonFiles()) {
        Scene s;
        std::string error;
        ASSERT_TRUE(loadScenario(f.string(), s, error)) << error;
        EXPECT_FALSE(s.lesson.empty()) << f.filename();
        EXPECT_GE(s.lesson.steps.size(), 3u) << f.filename();
        names.insert(f.stem().string());
        const std::string canonical = serializeScenario(s);
        if (canonical != test::readFile(f) && std::getenv("JOINTLAB_UPDATE_SCENARIOS")) {
            ASSERT_TRUE(saveScenario(f.string(), s, error)) << error;
            fs::remove(f.string() + ".bak");
            continue;
        }
        EXPECT_EQ(canonical, test::readFile(f)) << f.filename() << " is not what the serializer writes";
    }
    EXPECT_GE(names.size(), 8u);
    for (const char* topic : {"rows_and_jacobians", "baumgarte", "pgs_vs_tgs", "mass_ratios", "soft_limits",
                              "drives", "breakage", "couplings"}) {
        EXPECT_TRUE(std::any_of(names.begin(), names.end(),
                                [&](const std::string& n) { return n.find(topic) != std::string::npos; }))
            << "no lesson on " << topic;
    }
}

TEST(Lessons, EveryNumberAStepClaimsHolds) {
    int claims = 0;
    for (const fs::path& f : lessonFiles()) {
        Scene s;
        std::string error;
        ASSERT_TRUE(loadScenario(f.string(), s, error)) << error;
        for (size_t i = 0; i < s.lesson.steps.size(); ++i) {
            const LessonStep& step = s.lesson.steps[i];
            if (step.measure == LessonMeasure::None) continue;
            Real value = 0.0;
            ASSERT_EQ(measureLessonStep(s, i, value), "") << f.filename() << " step " << i + 1;
            std::printf("%-28s step %zu  %-10s %-12s = %.6g  (claim [%g, %g])\n", f.filename().c_str(), i + 1,
                        kLessonMeasureNames[static_cast<int>(step.measure)], step.joint.c_str(), value,
                        step.atLeast, step.atMost);
            EXPECT_GE(value, step.atLeast) << f.filename() << " step " << i + 1 << ": " << step.text;
            EXPECT_LE(value, step.atMost) << f.filename() << " step " << i + 1 << ": " << step.text;
            ++claims;
        }
    }
    EXPECT_GE(claims, 16) << "each lesson checks at least two of its claims";
}

Scene smallLesson() {
    Scene s;
    s.bodies.push_back(test::sphere("bob", Vec3(1, 2, 0), 1.0, 0.1));
    s.joints.push_back(test::joint<SphericalJoint>(s, "pivot", "", "bob", Vec3(0, 2, 0)));
    s.lesson.title = "A pendulum";
    LessonStep a;
    a.text = "Press play.";
    a.measure = LessonMeasure::MaxError;
    a.run = 30;
    a.atMost = 0.01;
    LessonStep b;
    b.text = "Raise the iterations.";
    b.set = "settings.posIters=16; settings.solver=tgs";
    s.lesson.steps = {a, b};
    return s;
}

TEST(Lessons, RoundTripAndBadStepsNameTheField) {
    Scene s = smallLesson();
    ASSERT_EQ(validateScene(s), "");
    const std::string text = serializeScenario(s);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(text, back, error)) << error;
    EXPECT_EQ(serializeScenario(back), text);
    ASSERT_EQ(back.lesson.steps.size(), 2u);
    EXPECT_EQ(back.lesson.steps[1].set, "settings.posIters=16; settings.solver=tgs");

    Scene applied = s;
    EXPECT_EQ(applyLessonSet(applied, s.lesson.steps[1].set), "");
    EXPECT_EQ(applied.settings.posIters, 16);
    EXPECT_EQ(applied.settings.solver, SolverType::TGS);

    auto refused = [&](const std::function<void(Scene&)>& edit) {
        Scene bad = s;
        edit(bad);
        return validateScene(bad);
    };
    const std::string typo = refused([](Scene& x) { x.lesson.steps[1].set = "settings.posIter=16"; });
    EXPECT_EQ(typo.rfind("lesson.steps[1].set: \"settings.posIter=16\": ", 0), 0u) << typo;
    EXPECT_NE(typo.find("no field \"posIter\""), std::string::npos) << typo;
    EXPECT_EQ(refused([](Scene& x) { x.lesson.steps[1].set = "settings.posIters=300"; }),
              "lesson.steps[1].set: \"settings.posIters=300\": must be <= 255, got 300");
    EXPECT_EQ(refused([](Scene& x) { x.lesson.steps[0].run = 0; }),
              "lesson.steps[0].run: must be >= 1 for a claim (measure)");
    EXPECT_EQ(refused([](Scene& x) { x.lesson.steps[0].atLeast = 1.0; }),
              "lesson.steps[0].atMost: must be >= atLeast (1), got 0.01");
    EXPECT_EQ(refused([](Scene& x) { x.lesson.steps[0].text = ""; }),
              "lesson.steps[0].text: must not be empty");
    EXPECT_EQ(refused([](Scene& x) { x.lesson.title = ""; }), "lesson.title: must not be empty");
    Scene out;
    EXPECT_FALSE(parseScenario(R"({"format": "jointlab-scenario", "version": 2, "lesson": {"title": "x"}})",
                               out, error));
    EXPECT_EQ(error, "lesson.steps: missing (required: the lesson's numbered steps)");
    EXPECT_FALSE(parseScenario(
        R"({"format": "jointlab-scenario", "version": 2, "lesson": {"title": "x", "steps": [{"txt": "a"}]}})",
        out, error));
    EXPECT_EQ(error, "lesson.steps[0]: unknown key \"txt\" (did you mean \"text\"?)");

    Real value = -1.0;
    EXPECT_EQ(measureLessonStep(s, 0, value), "");
    EXPECT_GT(value, 0.0);  // the pendulum's rows are never exactly satisfied
    EXPECT_LT(value, 0.01);
}

}  // namespace
}  // namespace jl
