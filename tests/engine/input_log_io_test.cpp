// Input log files (issue 10 item 4): saved and read back exactly, and every malformed log refused
// with the field and the problem, changing nothing.
#include "jointlab/input_log_io.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

/// Two dynamic boxes on a hinge and a static post.
Scene scene() {
    Scene s;
    s.bodies.push_back(test::box("post", Vec3(0, 1, 0), Vec3(0.1, 1, 0.1), 1.0));
    s.bodies.back().motion = MotionType::Static;
    s.bodies.push_back(test::box("door", Vec3(0.6, 1, 0), Vec3(0.5, 0.8, 0.05), 10.0));
    s.bodies.push_back(test::box("lid", Vec3(0.6, 2, 0), Vec3(0.5, 0.05, 0.5), 2.0));
    s.joints.push_back(test::joint<RevoluteJoint>(s, "hinge", "post", "door", Vec3(0.1, 1, 0)));
    return s;
}

InputRecording recorded(const Scene& s) {
    World w(s);
    InputRecording r;
    for (int i = 0; i < 40; ++i) {
        if (i % 3 == 0)
            r.log.applyForce(w, 1, Vec3(0.1 * i, 1.0 / 3.0, -2.5e-7 * i), Vec3(1.0, 1.0 + 0.01 * i, 0.05));
        if (i == 9) r.log.applyForce(w, 2, Vec3(0, 0, 1e-300), Vec3(0.6, 2.05, 0));
        w.step();
    }
    r.endStep = w.stepCount();
    r.finalStateHash = w.stateHash();
    return r;
}

TEST(InputLogFile, SavedAndReadBackExactly) {
    const Scene s = scene();
    const InputRecording r = recorded(s);
    const std::string text = serializeInputRecording(r, s);
    EXPECT_NE(text.find("\"body\": \"door\""), std::string::npos);  // bodies by name
    InputRecording back;
    std::string error;
    ASSERT_TRUE(parseInputRecording(text, s, back, error)) << error;
    EXPECT_EQ(back.startStep, 0);
    EXPECT_EQ(back.endStep, 40);
    EXPECT_EQ(back.finalStateHash, r.finalStateHash);
    ASSERT_EQ(back.log.events().size(), r.log.events().size());
    for (size_t i = 0; i < r.log.events().size(); ++i) {
        const InputEvent &a = r.log.events()[i], &b = back.log.events()[i];
        EXPECT_EQ(a.step, b.step);
        EXPECT_EQ(a.body, b.body);
        EXPECT_EQ(a.force, b.force);  // bit for bit, including 1/3 and 1e-300
        EXPECT_EQ(a.worldPoint, b.worldPoint);
    }
    EXPECT_EQ(serializeInputRecording(back, s), text);

    // Replayed from the file, the run ends in the recorded state.
    World replay(s);
    for (int i = 0; i < 40; ++i) {
        back.log.replay(replay);
        replay.step();
    }
    EXPECT_EQ(replay.stateHash(), *r.finalStateHash);
}

// A log records the engine results version it was made with (jointlab/engine_version.h); one
// written before logs recorded it is version 1.
TEST(InputLogFile, RecordsTheEngineVersion) {
    const Scene s = scene();
    InputRecording r = recorded(s);
    EXPECT_EQ(r.engineVersion, kEngineResultsVersion);
    const std::string text = serializeInputRecording(r, s);
    EXPECT_NE(text.find("\"engineVersion\": " + std::to_string(kEngineResultsVersion) + ","),
              std::string::npos)
        << text;
    InputRecording back;
    std::string error;
    ASSERT_TRUE(parseInputRecording(text, s, back, error)) << error;
    EXPECT_EQ(back.engineVersion, kEngineResultsVersion);

    std::string old = text;
    const size_t at = old.find("  \"engineVersion\"");
    old.erase(at, old.find('\n', at) + 1 - at);
    ASSERT_TRUE(parseInputRecording(old, s, back, error)) << error;
    EXPECT_EQ(back.engineVersion, 1) << "a log without the field predates it: version 1";
    EXPECT_EQ(back.finalStateHash, r.finalStateHash);
}

TEST(InputLogFile, StartsWhereTheScenarioStarts) {
    Scene s = scene();
    World w(s);
    for (int i = 0; i < 25; ++i) w.step();
    s.state = w.snapshot();  // a scenario saved at step 25
    EXPECT_EQ(startStepOf(s), 25);
    InputRecording r;
    r.startStep = 25;
    r.endStep = 30;
    std::string error;
    InputRecording back;
    EXPECT_TRUE(parseInputRecording(serializeInputRecording(r, s), s, back, error)) << error;
    EXPECT_FALSE(parseInputRecording(serializeInputRecording(r, scene()), scene(), back, error));
    EXPECT_NE(error.find("startStep: 25 does not match the scenario, which starts at step 0"),
              std::string::npos)
        << error;
}

TEST(InputLogFile, SaveIsAtomicWithABackup) {
    const Scene s = scene();
    const std::string path = ::testing::TempDir() + "input_log_io_test.input.json";
    std::string error;
    InputRecording r = recorded(s);
    ASSERT_TRUE(saveInputRecording(path, r, s, error)) << error;
    r.log.clear();
    ASSERT_TRUE(saveInputRecording(path, r, s, error)) << error;
    InputRecording back;
    ASSERT_TRUE(loadInputRecording(path, s, back, error)) << error;
    EXPECT_TRUE(back.log.empty());
    ASSERT_TRUE(loadInputRecording(path + ".bak", s, back, error)) << error;  // the previous version
    EXPECT_EQ(back.log.events().size(), recorded(s).log.events().size());
    EXPECT_FALSE(loadInputRecording(path + ".missing", s, back, error));
    EXPECT_EQ(error.rfind(path + ".missing: ", 0), 0u) << error;
}

/// A log text around one event (or another "events" value).
std::string logText(const std::string& top, const std::string& events) {
    return "{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 0, \"endStep\": 10" + top +
           ", \"events\": " + events + "}";
}
std::string oneEvent(const std::string& fields) {
    return logText("", "[{" + fields + "}]");
}
const std::string kStep = "\"step\": 3", kBody = "\"body\": \"door\"", kForce = "\"force\": [1, 2, 3]",
                  kPoint = "\"point\": [0, 1, 0]";

struct BadLog {
    std::string text;
    std::vector<std::string> expect;  ///< fragments the message must contain
};

TEST(InputLogFile, MalformedLogsAreRefusedWithFieldAndProblemAndChangeNothing) {
    const std::string deep(100000, '[');
    const std::vector<BadLog> cases = {
        {"", {"empty"}},
        {"{\"format\": \"jointlab-input\",", {"line 1"}},
        {"[]", {"expected a JSON object at the top level"}},
        {deep, {"nest"}},
        {logText(", \"startStep\": 0", "[]"), {"duplicate top-level key \"startStep\""}},
        {"{\"version\": 1, \"startStep\": 0, \"endStep\": 1, \"events\": []}", {"format: missing"}},
        {"{\"format\": \"jointlab-scenario\", \"version\": 1}", {"format:", "this is a scenario file"}},
        {"{\"format\": \"jointlab-input\", \"version\": 2}", {"version: 2 is newer than this JointLab (1)"}},
        {"{\"format\": \"jointlab-input\", \"version\": 0}", {"version: must be >= 1, got 0"}},
        {"{\"format\": \"jointlab-input\", \"version\": \"1\"}", {"version: expected a whole number"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"endStep\": 1, \"events\": []}",
         {"startStep: missing"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": -1}",
         {"startStep: must be a whole number >= 0, got -1"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 1.5}",
         {"startStep: expected a whole number"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 7, \"endStep\": 9, \"events\": []}",
         {"startStep: 7 does not match the scenario, which starts at step 0"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 0, \"endStep\": "
         "99999999999999999999}",
         {"endStep"}},
        {logText(", \"finalStateHash\": \"0x12\"", "[]"),
         {"finalStateHash: expected \"0x\" and 16 hexadecimal digits"}},
        {logText(", \"finalStateHash\": \"0x00000000000000zz\"", "[]"), {"finalStateHash:"}},
        {logText(", \"finalStateHash\": 12", "[]"), {"finalStateHash:", "got number 12"}},
        {logText(", \"comment\": 1", "[]"), {"unknown top-level key \"comment\""}},
        {logText(", \"engineVersion\": 0", "[]"),
         {"engineVersion: expected a whole number from 1", "got number 0"}},
        {logText(", \"engineVersion\": -2", "[]"), {"engineVersion:", "got number -2"}},
        {logText(", \"engineVersion\": 2.5", "[]"), {"engineVersion:", "got number 2.5"}},
        {logText(", \"engineVersion\": \"2\"", "[]"), {"engineVersion:", "got string \"2\""}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 0, \"endStep\": 1}",
         {"events: missing"}},
        {logText("", "{}"), {"events: expected an array, got object"}},
        {logText("", "[3]"), {"events[0]: expected an object, got number 3"}},
        {oneEvent(kStep + ", " + kBody + ", " + kForce + ", " + kPoint + ", \"forse\": 1"),
         {"events[0]: unknown key \"forse\""}},
        {oneEvent(kBody + ", " + kForce + ", " + kPoint), {"events[0].step: missing (required)"}},
        {oneEvent("\"step\": 2.5, " + kBody + ", " + kForce + ", " + kPoint),
         {"events[0].step: expected a whole number"}},
        {oneEvent("\"step\": 10, " + kBody + ", " + kForce + ", " + kPoint),
         {"events[0].step: must be in [startStep, endStep) = [0, 10), got 10"}},
        {logText("", "[{" + kStep + ", " + kBody + ", " + kForce + ", " + kPoint + "}, {\"step\": 2, " +
                         kBody + ", " + kForce + ", " + kPoint + "}]"),
         {"events[1].step: 2 is before the previous event's step 3"}},
        {oneEvent(kStep + ", " + kForce + ", " + kPoint), {"events[0].body: missing (required)"}},
        {oneEvent(kStep + ", \"body\": 1, " + kForce + ", " + kPoint),
         {"events[0].body: expected a body name, got number 1"}},
        {oneEvent(kStep + ", \"body\": \"Door\", " + kForce + ", " + kPoint),
         {"events[0].body: no body named \"Door\""}},
        {oneEvent(kStep + ", \"body\": \"post\", " + kForce + ", " + kPoint),
         {"events[0].body: \"post\" is not dynamic"}},
        {oneEvent(kStep + ", " + kBody + ", " + kPoint), {"events[0].force: missing (required)"}},
        {oneEvent(kStep + ", " + kBody + ", \"force\": [1, 2], " + kPoint),
         {"events[0].force: expected an array of 3 numbers, got 2 elements"}},
        {oneEvent(kStep + ", " + kBody + ", \"force\": [1, \"NaN\", 2], " + kPoint),
         {"events[0].force[1]: expected a number"}},
        {oneEvent(kStep + ", " + kBody + ", \"force\": [1, 2, NaN], " + kPoint), {"line 1"}},
        {oneEvent(kStep + ", " + kBody + ", \"force\": [1, 2, 1e400], " + kPoint),
         {"events[0].force[2]", "1e400"}},
        {oneEvent(kStep + ", " + kBody + ", \"force\": [1e16, 2, 3], " + kPoint),
         {"events[0].force[0]: must be within ±1e15"}},
        {oneEvent(kStep + ", " + kBody + ", " + kForce + ", \"point\": null"),
         {"events[0].point: expected an array of 3 numbers, got null"}},
        {oneEvent(kStep + ", " + kBody + ", " + kForce + ", \"point\": \"inf\""), {"events[0].point:"}},
        // Bounded runs (issue 24): no log asks for a run past step 10^12.
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 0, \"endStep\": "
         "9223372036854775807, \"events\": []}",
         {"endStep: must be <= 1000000000000 (the longest run JointLab takes), got 9223372036854775807"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 0, \"endStep\": "
         "1000000000001, \"events\": []}",
         {"endStep: must be <= 1000000000000"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1, \"startStep\": 1000000000001}",
         {"startStep: must be <= 1000000000000"}},
        {"{\"format\": \"jointlab-input\", \"version\": 1.5}",
         {"version: expected a whole number, got number 1.5"}},
        {"{\"format\": \"jointlab-input\", \"version\": 2.0}",
         {"version: 2 is newer than this JointLab (1)"}},
    };
    const Scene s = scene();
    InputRecording out = recorded(s);
    const std::string before = serializeInputRecording(out, s);
    for (const BadLog& c : cases) {
        SCOPED_TRACE(c.text.substr(0, 200));
        std::string error;
        EXPECT_FALSE(parseInputRecording(c.text, s, out, error));
        for (const std::string& fragment : c.expect)
            EXPECT_NE(error.find(fragment), std::string::npos) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << "one line";
        EXPECT_LT(error.size(), 400u);
        EXPECT_EQ(serializeInputRecording(out, s), before) << "the output changed";
    }
    // The valid base the cases damage is accepted.
    std::string error;
    EXPECT_TRUE(
        parseInputRecording(oneEvent(kStep + ", " + kBody + ", " + kForce + ", " + kPoint), s, out, error))
        << error;
}

TEST(InputLogFile, RandomDamageNeverCrashesAndNeverHalfLoads) {
    // A small deterministic fuzzer: 20 000 copies of a real log, each damaged at random (bytes
    // changed, removed, duplicated or cut off). Every one is either refused, leaving the output as
    // it was, or accepted as a log that saves and reads back to the same text.
    const Scene s = scene();
    const std::string base = serializeInputRecording(recorded(s), s);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    auto next = [&rng](uint64_t n) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;  // xorshift64
        return static_cast<size_t>(rng % n);
    };
    const char alphabet[] = "0123456789.-+eE\"{}[],: \ntruefalsnulx";
    InputRecording out;
    const std::string empty = serializeInputRecording(out, s);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string text = base;
        for (size_t k = 0, n = 1 + next(4); k < n && !text.empty(); ++k) {
            const size_t at = next(text.size());
            switch (next(4)) {
                case 0:
                    text[at] = alphabet[next(sizeof alphabet - 1)];
                    break;
                case 1:
                    text.erase(at, 1 + next(8));
                    break;
                case 2:
                    text.insert(at, text.substr(next(text.size()), 1 + next(16)));
                    break;
                default:
                    text.resize(at);
                    break;
            }
        }
        std::string error;
        if (!parseInputRecording(text, s, out, error)) {
            ASSERT_FALSE(error.empty());
            ASSERT_EQ(serializeInputRecording(out, s), empty) << "a refused log changed the output";
            continue;
        }
        ++accepted;
        const std::string saved = serializeInputRecording(out, s);
        InputRecording again;
        ASSERT_TRUE(parseInputRecording(saved, s, again, error)) << error;
        ASSERT_EQ(serializeInputRecording(again, s), saved);
        out = InputRecording{};
    }
    EXPECT_GT(accepted, 0);  // some damage (a digit changed) still gives a valid log
}

}  // namespace
}  // namespace jl
