// Scenario files: round trips and every class of bad input.

#include <gtest/gtest.h>

#include "scenario_io_helpers.h"

namespace jl {
namespace {

using namespace scenario_test;

// [SECTION] Round trips

TEST(ScenarioIo, SampleSceneIsValid) {
    EXPECT_EQ(validateScene(sampleScene()), "");
}

TEST(ScenarioIo, SaveLoadSaveIsByteIdentical) {
    const std::string first = serializeScenario(sampleScene());
    Scene loaded;
    std::string error;
    ASSERT_TRUE(parseScenario(first, loaded, error)) << error;
    EXPECT_EQ(serializeScenario(loaded), first);
}

TEST(ScenarioIo, LoadSaveLoadGivesTheSameScene) {
    const Scene original = sampleScene();
    Scene once, twice;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(original), once, error)) << error;
    ASSERT_TRUE(parseScenario(serializeScenario(once), twice, error)) << error;
    EXPECT_EQ(flatten(once), flatten(original));  // full precision: nothing lost on the first save
    EXPECT_EQ(flatten(twice), flatten(once));
}

TEST(ScenarioIo, RandomDoublesRoundTripExactly) {
    std::mt19937_64 rng(42);
    Scene s;
    s.bodies.push_back(body("b", {}));
    for (int i = 0; i < 2000; ++i) {
        Real v[3];
        for (Real& x : v) {
            do x = std::bit_cast<Real>(rng());
            while (!std::isfinite(x) || std::abs(x) > 1e15);
        }
        s.bodies[0].position = {v[0], v[1], v[2]};
        Scene loaded;
        std::string error;
        ASSERT_TRUE(parseScenario(serializeScenario(s), loaded, error)) << error;
        ASSERT_EQ(flatten(loaded), flatten(s));
    }
}

TEST(ScenarioIo, OutputIsCanonical) {
    const std::string text = serializeScenario(sampleScene());
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(text.rfind("{\n  \"format\": \"jointlab-scenario\",\n  \"version\": 2,\n", 0), 0u)
        << text.substr(0, 80);
    EXPECT_NE(text.find("\"position\": [0.0, 2.0, 0.0]"), std::string::npos);
    EXPECT_NE(text.find("\"breakForce\": \"inf\""), std::string::npos);  // ±inf as strings
    EXPECT_NE(text.find("\"frame0\": {\n"), std::string::npos);          // dotted names nest
    EXPECT_EQ(text.find('\t'), std::string::npos);
}

TEST(ScenarioIo, InfinityRoundTripsOnlyWhereAllowed) {
    Scene s;
    std::string error;
    ASSERT_TRUE(parseScenario(twoBodies("", R"(, "breakForce": "inf", "breakTorque": 2.5)"), s, error))
        << error;
    EXPECT_TRUE(std::isinf(s.joints[0].breakForce));
    EXPECT_EQ(s.joints[0].breakTorque, 2.5);
    Scene again;
    ASSERT_TRUE(parseScenario(serializeScenario(s), again, error)) << error;
    EXPECT_TRUE(std::isinf(again.joints[0].breakForce));
}

TEST(ScenarioIo, MissingOptionalFieldsTakeDefaults) {
    Scene s;
    std::string error;
    ASSERT_TRUE(parseScenario(file(R"(, "bodies": [{"name": "only"}])"), s, error)) << error;
    Scene expected;
    expected.bodies.push_back(BodyDesc{});
    expected.bodies[0].name = "only";
    EXPECT_EQ(flatten(s), flatten(expected));
    ASSERT_TRUE(parseScenario(file(""), s, error)) << error;
    EXPECT_EQ(flatten(s), flatten(Scene{}));
}

TEST(ScenarioIo, NearlyUnitQuaternionsAreNormalisedOthersKept) {
    Scene s;
    std::string error;
    ASSERT_TRUE(parseScenario(twoBodies(R"(, "orientation": [1.0005, 0, 0, 0])"), s, error)) << error;
    EXPECT_EQ(s.bodies[0].orientation.w, 1.0);
    const Quat q = glm::normalize(Quat(0.3, 0.4, 0.5, 0.6));
    Scene t = s;
    t.bodies[0].orientation = q;
    Scene u;
    ASSERT_TRUE(parseScenario(serializeScenario(t), u, error)) << error;
    EXPECT_EQ(std::bit_cast<uint64_t>(u.bodies[0].orientation.x), std::bit_cast<uint64_t>(q.x));
}

TEST(ScenarioIo, AppObjectIsAcceptedAndIgnored) {
    Scene s;
    std::string error;
    EXPECT_TRUE(parseScenario(file(R"(, "app": {"panels": [1, {"x": null}]})"), s, error)) << error;
}

TEST(ScenarioIo, NamesAndQuotingSurviveRoundTrip) {
    Scene s;
    s.bodies.push_back(body("a \"quoted\" name, with comma", {}));
    s.bodies.push_back(body("名前", {}));
    s.joints.push_back(joint("j", "spherical", "名前", "a \"quoted\" name, with comma"));
    Scene loaded;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(s), loaded, error)) << error;
    EXPECT_EQ(flatten(loaded), flatten(s));
}

/// Every field list must map onto JSON cleanly: no name twice, and no name that is both a value
/// and a group of dotted names ("drive" and "drive.enabled" cannot both be keys).
struct NameList {
    std::vector<std::string> names;
    template <class T>
    void operator()(const char* n, T&&, const Field&) {
        names.emplace_back(n);
    }
};

void expectCleanNames(const std::vector<std::string>& names, const std::string& what) {
    for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = 0; j < names.size(); ++j) {
            if (i == j) continue;
            EXPECT_NE(names[i], names[j]) << what << ": field listed twice";
            EXPECT_NE(names[j].rfind(names[i] + ".", 0), 0u)
                << what << ": " << names[i] << " is a value and a group";
        }
    for (const std::string& n : names) {
        EXPECT_FALSE(n.empty()) << what;
        EXPECT_EQ(n.find(".."), std::string::npos) << what << ": " << n;
        EXPECT_NE(n.back(), '.') << what << ": " << n;
    }
}

TEST(ScenarioIo, FieldListsMapOntoJsonCleanly) {
    NameList settings, camera, body, joint, plot;
    PlotDesc{}.visit(plot);
    expectCleanNames(plot.names, "PlotDesc");
    WorldSettings{}.visit(settings);
    CameraState{}.visit(camera);
    BodyDesc{}.visit(body);
    JointDesc{}.visitCommon(joint);
    expectCleanNames(settings.names, "WorldSettings");
    expectCleanNames(camera.names, "CameraState");
    expectCleanNames(body.names, "BodyDesc");
    joint.names.push_back("type");  // the keys the format adds to a joint object
    joint.names.push_back("params");
    expectCleanNames(joint.names, "JointDesc");
    for (int i = 0; i < kJointTypeCount; ++i) {
        JointParams p = makeJointParams(i);
        NameList params;
        std::visit([&](auto& t) { t.visit(params); }, p);
        expectCleanNames(params.names, jointTypeInfo(i).name);
    }
}

// [SECTION] Bad input: every class gives "path: problem" and leaves the scene alone

struct BadCase {
    const char* what;
    std::string text;
    std::vector<std::string> expected;  // substrings of the message
};

std::string typeList() {
    std::string s;
    for (int i = 0; i < kJointTypeCount; ++i) s += (i ? ", " : "") + std::string(jointTypeInfo(i).name);
    return s;
}

std::vector<BadCase> badCases() {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const std::string deepObjects = [] {
        std::string s;
        for (int i = 0; i < 5000; ++i) s += "{\"a\":";
        s += "1";
        for (int i = 0; i < 5000; ++i) s += "}";
        return s;
    }();
    return {
        // syntax
        {"empty file", "", {"empty"}},
        {"whitespace only", "  \n ", {"empty"}},
        {"truncated", twoBodies("").substr(0, 60), {"line 1, column"}},
        {"garbage", "hello", {"line 1, column 1", "invalid literal"}},
        {"NaN literal", twoBodies(R"(, "mass": NaN)"), {"bodies[0].mass", "line 1"}},
        {"Infinity literal", twoBodies(R"(, "mass": Infinity)"), {"bodies[0].mass", "line 1"}},
        {"trailing garbage", file("") + "x", {"line 1", "expected end of input"}},
        {"comment", "// hi\n" + file(""), {"line 1, column 1"}},
        {"invalid UTF-8", twoBodies(", \"x\": \"\xff\""), {"UTF-8"}},
        {"deep arrays", deep, {"line 1, column 65", "nesting deeper than 64 levels"}},
        {"deep objects", deepObjects, {"nesting deeper than 64 levels"}},
        {"deep inside a valid field", file(", \"app\": " + deep), {"nesting deeper than 64 levels"}},
        {"number overflow",
         twoBodies(R"(, "mass": 1e400)"),
         {"bodies[0].mass: number out of range: 1e400", "line 1"}},
        {"duplicate key", twoBodies(R"(, "mass": 1, "mass": 2)"), {"bodies[0]: duplicate key \"mass\""}},
        // top level
        {"not an object", "[1, 2]", {"expected a JSON object at the top level, got array"}},
        {"missing format", R"({"version": 1})", {"format: missing"}},
        {"wrong format",
         R"({"format": "blender", "version": 1})",
         {"format: expected \"jointlab-scenario\", got string \"blender\""}},
        {"missing version", R"({"format": "jointlab-scenario"})", {"version: missing"}},
        {"newer version",
         R"({"format": "jointlab-scenario", "version": 3})",
         {"version: 3 is newer than this JointLab (2)"}},
        {"version zero",
         R"({"format": "jointlab-scenario", "version": 0})",
         {"version: must be >= 1, got 0"}},
        {"version string",
         R"({"format": "jointlab-scenario", "version": "1"})",
         {"version: expected an integer, got string \"1\""}},
        {"unknown top-level key",
         file(R"(, "bodys": [])"),
         {"unknown top-level key \"bodys\"", "did you mean \"bodies\""}},
        {"description not string",
         file(R"(, "description": 5)"),
         {"description: expected a string, got number"}},
        {"bodies not array", file(R"(, "bodies": {})"), {"bodies: expected an array, got object"}},
        {"body not object", file(R"(, "bodies": [3])"), {"bodies[0]: expected an object, got number"}},
        {"settings not object", file(R"(, "settings": [])"), {"settings: expected an object, got array"}},
        {"app not object", file(R"(, "app": 1)"), {"app: expected an object, got number"}},
        {"plots not array", file(R"(, "plots": {})"), {"plots: expected an array, got object"}},
        {"plot kind unknown",
         file(R"(, "plots": [{"kind": "speed"}])"),
         {"plots[0].kind: unknown value \"speed\"", "impulse, error, force, torque, energy, convergence"}},
        {"plot unknown key",
         file(R"(, "plots": [{"titel": "x"}])"),
         {"plots[0]: unknown key \"titel\"", "did you mean \"title\""}},
        // types
        {"mass is a string",
         twoBodies(R"(, "mass": "heavy")"),
         {"bodies[0].mass: expected a number, got string \"heavy\""}},
        {"mass is null", twoBodies(R"(, "mass": null)"), {"bodies[0].mass: expected a number, got null"}},
        {"nan string",
         twoBodies(R"(, "mass": "nan")"),
         {"bodies[0].mass: expected a number, got string \"nan\""}},
        {"position too short",
         twoBodies(R"(, "position": [1, 2])"),
         {"bodies[0].position: expected 3 numbers, got 2"}},
        {"position element",
         twoBodies(R"(, "position": [1, true, 2])"),
         {"bodies[0].position[1]: expected a number, got true"}},
        {"position not array",
         twoBodies(R"(, "position": 1)"),
         {"bodies[0].position: expected an array of 3 numbers, got number"}},
        {"bool field",
         twoBodies("", R"(, "startBroken": 1)"),
         {"joints[0].startBroken: expected true or false, got number"}},
        {"int field fraction",
         file(R"(, "settings": {"posIters": 4.5})"),
         {"settings.posIters: expected an integer, got 4.5"}},
        {"int field huge",
         file(R"(, "settings": {"posIters": 99999999999})"),
         {"settings.posIters: integer out of range"}},
        {"name not string",
         file(R"(, "bodies": [{"name": 7}])"),
         {"bodies[0].name: expected a string, got number"}},
        {"enum unknown",
         twoBodies(R"(, "shape": "cube")"),
         {"bodies[0].shape: unknown value \"cube\" (expected one of: box, sphere, capsule, cylinder, hull, "
          "compound)"}},
        {"enum wrong type",
         file(R"(, "settings": {"solver": 1})"),
         {"settings.solver: expected a string, got number"}},
        {"frame not object",
         twoBodies("", R"(, "frame0": [0, 0, 0])"),
         {"joints[0].frame0: expected an object, got array"}},
        // ranges and numbers
        {"negative mass",
         twoBodies(R"(, "linearDamping": 1, "mass": -2)"),
         {"bodies[0].mass: must be >= 1e-6, got -2"}},
        {"zero mass", twoBodies(R"(, "mass": 0)"), {"bodies[0].mass: must be >= 1e-6, got 0"}},
        {"zero half extent",
         twoBodies(R"(, "halfExtents": [0.5, 0, 0.5])"),
         {"bodies[0].halfExtents[1]: must be >= 0.001, got 0"}},
        {"dt too big", file(R"(, "settings": {"dt": 1})"), {"settings.dt: must be <= 0.1, got 1"}},
        {"zero position iterations",
         file(R"(, "settings": {"posIters": 0})"),
         {"settings.posIters: must be >= 1, got 0"}},
        {"baumgarte above one",
         file(R"(, "settings": {"baumgarte": 1.5})"),
         {"settings.baumgarte: must be <= 1, got 1.5"}},
        {"inf mass", twoBodies(R"(, "mass": "inf")"), {"bodies[0].mass: must be finite, got inf"}},
        {"inf position",
         twoBodies(R"(, "position": [0, "-inf", 0])"),
         {"bodies[0].position[1]: must be finite, got -inf"}},
        {"minus inf break force",
         twoBodies("", R"(, "breakForce": "-inf")"),
         {"joints[0].breakForce: must be finite, got -inf"}},
        {"1e39",
         twoBodies(R"(, "position": [1e39, 0, 0])"),
         {"bodies[0].position[0]: magnitude must be <= 1e15, got 1e39"}},
        {"1e39 break force",
         twoBodies("", R"(, "breakForce": 1e39)"),
         {"joints[0].breakForce: magnitude must be <= 1e15", "inf"}},
        {"negative damping",
         twoBodies(R"(, "linearDamping": -0.1)"),
         {"bodies[0].linearDamping: must be >= 0, got -0.1"}},
        // quaternions
        {"zero quaternion",
         twoBodies(R"(, "orientation": [0, 0, 0, 0])"),
         {"bodies[0].orientation: not a unit quaternion (|q| = 0)"}},
        {"long quaternion",
         twoBodies(R"(, "orientation": [2, 0, 0, 0])"),
         {"bodies[0].orientation: not a unit quaternion (|q| = 2)"}},
        {"quaternion size",
         twoBodies(R"(, "orientation": [1, 0, 0])"),
         {"bodies[0].orientation: expected 4 numbers, got 3"}},
        {"zero frame rotation",
         twoBodies("", R"(, "frame1": {"rotation": [0, 0, 0, 0]})"),
         {"joints[0].frame1.rotation: not a unit quaternion (|q| = 0)"}},
        // keys
        {"unknown body key",
         twoBodies(R"(, "mas": 3)"),
         {"bodies[0]: unknown key \"mas\"", "did you mean \"mass\""}},
        {"unknown joint key", twoBodies("", R"(, "bodyA": "a")"), {"joints[0]: unknown key \"bodyA\""}},
        {"unknown frame key",
         twoBodies("", R"(, "frame0": {"positon": [0, 0, 0]})"),
         {"joints[0].frame0: unknown key \"positon\"", "did you mean \"position\""}},
        {"unknown params key",
         twoBodies("", R"(, "params": {"axis": [1, 0, 0]})"),
         {"joints[0].params: unknown key \"axis\""}},
        {"unknown settings key",
         file(R"(, "settings": {"gravityy": [0, 0, 0]})"),
         {"settings: unknown key \"gravityy\"", "did you mean \"gravity\""}},
        {"unknown camera key", file(R"(, "camera": {"fov": 1})"), {"camera: unknown key \"fov\""}},
        // required fields
        {"body without name", file(R"(, "bodies": [{"mass": 1}])"), {"bodies[0].name: missing (required)"}},
        {"joint without type",
         file(R"(, "bodies": [{"name": "a"}], "joints": [{"name": "j", "body0": "", "body1": "a"}])"),
         {"joints[0].type: missing"}},
        {"joint without name",
         file(R"(, "bodies": [{"name": "a"}], "joints": [{"type": "fixed", "body0": "", "body1": "a"}])"),
         {"joints[0].name: missing (required)"}},
        {"joint without body1",
         file(R"(, "bodies": [{"name": "a"}], "joints": [{"type": "fixed", "name": "j", "body0": "a"}])"),
         {"joints[0].body1: missing (required)"}},
        {"unknown joint type",
         twoBodies("").replace(twoBodies("").find("revolute"), 8, "hinge"),
         {"joints[0].type: unknown joint type \"hinge\" (expected one of: " + typeList() + ")"}},
        {"joint type not string",
         file(R"(, "joints": [{"type": 3}])"),
         {"joints[0].type: expected a string, got number"}},
        // names and references
        {"empty body name", file(R"(, "bodies": [{"name": ""}])"), {"bodies[0].name: must not be empty"}},
        {"control character in name",
         file(R"(, "bodies": [{"name": "a\nb"}])"),
         {"bodies[0].name: must not contain control characters, got \"a\\nb\""}},
        {"duplicate body name",
         file(R"(, "bodies": [{"name": "a"}, {"name": "b"}, {"name": "a"}])"),
         {"bodies[2].name: duplicate body name \"a\" (also bodies[0])"}},
        {"duplicate joint name",
         twoBodies("", "").insert(twoBodies("").size() - 2,
                                  R"(, {"type": "fixed", "name": "h", "body0": "a", "body1": "b"})"),
         {"joints[1].name: duplicate joint name \"h\" (also joints[0])"}},
        {"self joint",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "fixed", "name": "j", "body0": "a", "body1": "a"}])"),
         {"joints[0].body1: joins body \"a\" to itself"}},
        {"world to world",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "fixed", "name": "j", "body0": "", "body1": ""}])"),
         {"joints[0]: both bodies are the world"}},
        {"reference to missing body",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "fixed", "name": "j", "body0": "a", "body1": "lever"}])"),
         {"joints[0].body1: no body named \"lever\""}},
        {"reference to missing body0",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "fixed", "name": "j", "body0": "A", "body1": "a"}])"),
         {"joints[0].body0: no body named \"A\""}},
        // cross-field rules of the joint type
        {"min above max",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "distance", "name": "r", "body0": "", "body1": "a", "params": {"minEnabled": true, "minDistance": 2, "maxDistance": 1}}])"),
         {"joints[0].params.minDistance: must be <= maxDistance"}},
        {"negative distance",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "distance", "name": "r", "body0": "", "body1": "a", "params": {"maxDistance": -1}}])"),
         {"joints[0].params.maxDistance: must be >= 0, got -1"}},
        {"negative D6 distance limit",
         file(
             R"(, "bodies": [{"name": "a"}], "joints": [{"type": "d6", "name": "r", "body0": "", "body1": "a", "params": {"distanceLimitEnabled": true, "distanceLimit": {"upper": -0.5}}}])"),
         {"joints[0].params.distanceLimit.upper: must be >= 0"}},
        {"params not object",
         twoBodies("", R"(, "params": [])"),
         {"joints[0].params: expected an object, got array"}},
    };
}

TEST(ScenarioIo, EveryBadInputIsRefusedWithPathAndProblem) {
    const Scene sentinel = sampleScene();
    const std::string before = serializeScenario(sentinel);
    for (const BadCase& c : badCases()) {
        Scene out = sentinel;
        std::string error;
        EXPECT_FALSE(parseScenario(c.text, out, error)) << c.what;
        for (const std::string& e : c.expected)
            EXPECT_NE(error.find(e), std::string::npos) << c.what << ": " << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << c.what << ": message must be one line";
        EXPECT_LT(error.size(), 400u) << c.what;
        EXPECT_EQ(serializeScenario(out), before) << c.what << ": scene changed on failure";
    }
}

TEST(ScenarioIo, ValidFilesAroundTheBadOnesLoad) {
    // The splice helpers themselves produce valid files, so the failures above are the edits.
    Scene s;
    std::string error;
    EXPECT_TRUE(parseScenario(twoBodies(""), s, error)) << error;
    EXPECT_TRUE(parseScenario(twoBodies(R"(, "mass": 1e-6, "halfExtents": [1, 1e-3, 3])"), s, error))
        << error;
    EXPECT_TRUE(parseScenario(twoBodies("", R"(, "breakForce": 1000, "startBroken": true)"), s, error))
        << error;
    EXPECT_TRUE(parseScenario(file(R"(, "settings": {"posIters": 4.0})"), s, error)) << error;
}

TEST(ScenarioIo, DeepNestingInsideStringsIsNotNesting) {
    Scene s;
    std::string error;
    const std::string brackets(10000, '[');
    EXPECT_TRUE(parseScenario(file(R"(, "description": ")" + brackets + R"(\"[")"), s, error)) << error;
    EXPECT_EQ(s.description, brackets + "\"[");
}

TEST(ScenarioIo, RandomlyDamagedFilesNeverCrashAndRoundTripWhenAccepted) {
    // A cheap stand-in for the fuzzer: byte flips, deletions and insertions of JSON punctuation.
    const std::string good = serializeScenario(sampleScene());
    std::mt19937 rng(7);
    const char punctuation[] = "[]{}\",:0-e.9 \\tfn";
    int accepted = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string text = good;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int k = 0; k < edits && !text.empty(); ++k) {
            const size_t at = rng() % text.size();
            switch (rng() % 3) {
                case 0:
                    text[at] = static_cast<char>(rng() % 256);
                    break;
                case 1:
                    text.erase(at, 1 + rng() % 8);
                    break;
                default:
                    text.insert(at, 1, punctuation[rng() % (sizeof punctuation - 1)]);
                    break;
            }
        }
        Scene out = sampleScene();
        std::string error;
        if (parseScenario(text, out, error)) {
            ++accepted;
            Scene again;
            const std::string saved = serializeScenario(out);
            ASSERT_TRUE(parseScenario(saved, again, error)) << error;
            ASSERT_EQ(serializeScenario(again), saved);
        } else {
            ASSERT_FALSE(error.empty());
            ASSERT_EQ(error.find('\n'), std::string::npos) << error;
        }
    }
    EXPECT_GT(accepted, 0);  // some edits are harmless (inside strings, digits of numbers)
}

}  // namespace
}  // namespace jl
