// Scenario files: round trips, every class of bad input, atomic save.
#include "jointlab/scenario_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace jl {
namespace {

// [SECTION] Helpers

/// Every field of a scene as "path=bits" lines, so two scenes compare bit for bit and a failure
/// names the field. Uses the same field lists as the I/O code, independently of it.
struct Flattener {
    std::string prefix;
    std::string out;
    void put(const char* name, const std::string& value) { out += prefix + name + "=" + value + "\n"; }
    static std::string bits(Real x) { return std::to_string(std::bit_cast<uint64_t>(x)); }
    void operator()(const char* n, Real& x, const Field&) { put(n, bits(x)); }
    void operator()(const char* n, Vec3& v, const Field&) {
        put(n, bits(v.x) + "," + bits(v.y) + "," + bits(v.z));
    }
    void operator()(const char* n, Quat& q, const Field&) {
        put(n, bits(q.w) + "," + bits(q.x) + "," + bits(q.y) + "," + bits(q.z));
    }
    void operator()(const char* n, int& i, const Field&) { put(n, std::to_string(i)); }
    void operator()(const char* n, bool& b, const Field&) { put(n, b ? "true" : "false"); }
    void operator()(const char* n, std::string& s, const Field&) { put(n, "\"" + s + "\""); }
    template <class E>
    void operator()(const char* n, EnumField<E> e, const Field&) {
        put(n, std::to_string(static_cast<int>(e.value)));
    }
};

std::string flatten(Scene s) {
    Flattener f;
    f.out = "description=" + s.description + "\n";
    f.prefix = "settings.";
    s.settings.visit(f);
    f.prefix = "camera.";
    s.camera.visit(f);
    for (size_t i = 0; i < s.bodies.size(); ++i) {
        f.prefix = std::string("bodies[").append(std::to_string(i)).append("].");
        s.bodies[i].visit(f);
    }
    for (size_t i = 0; i < s.joints.size(); ++i) {
        f.prefix = std::string("joints[").append(std::to_string(i)).append("].");
        f.out += f.prefix + "type=" + s.joints[i].typeInfo().name + "\n";
        s.joints[i].visitCommon(f);
        f.prefix += "params.";
        std::visit([&](auto& p) { p.visit(f); }, s.joints[i].params);
    }
    for (size_t i = 0; i < s.plots.size(); ++i) {
        f.prefix = std::string("plots[").append(std::to_string(i)).append("].");
        s.plots[i].visit(f);
    }
    return f.out;
}

BodyDesc body(const std::string& name, Vec3 position) {
    BodyDesc b;
    b.name = name;
    b.position = position;
    return b;
}

JointDesc joint(const std::string& name, const char* type, const std::string& b0, const std::string& b1) {
    JointDesc j;
    j.name = name;
    j.params = makeJointParams(findJointType(type));
    j.body0 = b0;
    j.body1 = b1;
    return j;
}

/// Moves every parameter off its default (within range), so round trips cover all of them.
struct Perturb {
    void operator()(const char*, Real& x, const Field& f) {
        if (std::isfinite(x)) x = std::min(x + 0.1234567890123, f.max);
    }
    void operator()(const char*, Vec3& v, const Field& f) {
        for (int k = 0; k < 3; ++k) v[k] = std::min(v[k] + 0.1234567890123 * (k + 1), f.max);
    }
    void operator()(const char*, bool& b, const Field&) { b = !b; }
    template <class E>
    void operator()(const char*, EnumField<E> e, const Field&) {
        e.value = static_cast<E>((static_cast<int>(e.value) + 1) % e.count);
    }
    template <class T>
    void operator()(const char*, T&, const Field&) {}  // int, string, quaternion: keep
};

/// A scene touching every field type, every joint type and awkward numbers.
Scene sampleScene() {
    Scene s;
    s.description = "sample: \"quotes\", backslash \\, newline\nand ünïcødé";
    s.settings.dt = 1.0 / 120.0;
    s.settings.posIters = 8;
    s.settings.solver = SolverType::TGS;
    s.settings.autoBaumgarte = false;
    s.settings.baumgarte = 0.3;
    s.settings.gravity = {0.1, -9.81, -0.0};
    s.camera.yaw = -1.0 / 3.0;
    s.bodies.push_back(body("base", {0, 2, 0}));
    s.bodies[0].motion = MotionType::Static;
    s.bodies.push_back(body("arm", {1.0 / 3.0, 1e-300, 123456789.123456789}));
    s.bodies[1].shape = ShapeType::Capsule;
    s.bodies[1].orientation = glm::normalize(Quat(0.9, 0.1, 0.2, 0.3));
    s.bodies[1].angularVelocity = {0.0, 5e-324, -2.5};
    s.bodies.push_back(body("ball ü", {0, 1, 0}));
    s.bodies[2].shape = ShapeType::Sphere;
    s.bodies[2].massMode = MassMode::Density;
    s.bodies[2].density = 7850.0;
    for (int t = 0; t < kJointTypeCount; ++t) {
        const char* type = jointTypeInfo(t).name;
        JointDesc j = joint(std::string("j_") + type, type, t % 2 ? "" : "base", "arm");
        std::visit(
            [](auto& p) {
                Perturb perturb;
                p.visit(perturb);
            },
            j.params);
        j.frame0.p = {0.1 * t, -0.5, 0.25};
        j.frame1.q = glm::normalize(Quat(1.0, 0.0, 0.3 * t, 0.0));
        j.breakTorque = 100.0 + t;
        j.invMassScale0 = 0.5;
        s.joints.push_back(j);
    }
    s.joints.push_back(joint("ball_rope", "distance", "arm", "ball ü"));
    std::get<DistanceJoint>(s.joints.back().params).minEnabled = true;
    std::get<DistanceJoint>(s.joints.back().params).maxDistance = 2.0;
    PlotDesc impulse;  // defaults, and every field moved off its default
    s.plots.push_back(impulse);
    PlotDesc convergence;
    convergence.title = "residual, \"both\" solvers";
    convergence.kind = PlotKind::Convergence;
    convergence.joints = "j_revolute,ball_rope";
    convergence.rows = "linear Y lock,twist limit (upper)";
    convergence.logScale = true;
    s.plots.push_back(convergence);
    return s;
}

const char* kHeader = R"("format": "jointlab-scenario", "version": 2)";

/// A file with the standard header plus `rest` (which starts with a comma or is empty).
std::string file(const std::string& rest) {
    return std::string("{") + kHeader + rest + "}";
}

/// A small valid file with two bodies and a revolute joint, into which test cases splice.
std::string twoBodies(const std::string& bodyExtra, const std::string& jointExtra = "") {
    return file(
        R"(, "bodies": [{"name": "a")" + bodyExtra +
        R"(}, {"name": "b"}], "joints": [{"type": "revolute", "name": "h", "body0": "", "body1": "a")" +
        jointExtra + "}]");
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "jointlab_io_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
};

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
         {"bodies[0].shape: unknown value \"cube\" (expected one of: box, sphere, capsule)"}},
        {"enum wrong type",
         file(R"(, "settings": {"solver": 1})"),
         {"settings.solver: expected a string, got number"}},
        {"frame not object",
         twoBodies("", R"(, "frame0": [0, 0, 0])"),
         {"joints[0].frame0: expected an object, got array"}},
        // ranges and numbers
        {"negative mass",
         twoBodies(R"(, "linearDamping": 1, "mass": -2)"),
         {"bodies[0].mass: must be > 0, got -2"}},
        {"zero mass", twoBodies(R"(, "mass": 0)"), {"bodies[0].mass: must be > 0, got 0"}},
        {"zero half extent",
         twoBodies(R"(, "halfExtents": [0.5, 0, 0.5])"),
         {"bodies[0].halfExtents[1]: must be > 0, got 0"}},
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
    EXPECT_TRUE(parseScenario(twoBodies(R"(, "mass": 2e-3, "halfExtents": [1, 1e-6, 3])"), s, error))
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

// [SECTION] validateScene on scenes built in memory (the editor's path)

TEST(ValidateScene, ReportsInMemoryProblems) {
    Scene s = sampleScene();
    s.bodies[1].mass = std::nan("");
    EXPECT_EQ(validateScene(s), "bodies[1].mass: must be a number, got NaN");
    s = sampleScene();
    s.bodies[2].orientation = Quat(0, 0, 0, 0);
    EXPECT_EQ(validateScene(s), "bodies[2].orientation: not a unit quaternion (|q| = 0)");
    s = sampleScene();
    s.bodies[2].orientation = Quat(1.0 + 1e-4, 0, 0, 0);  // drift within tolerance is fine
    EXPECT_EQ(validateScene(s), "");
    s = sampleScene();
    s.joints[3].body1 = "lever";
    EXPECT_EQ(validateScene(s), "joints[3].body1: no body named \"lever\"");
    s = sampleScene();
    s.bodies[0].mass = -2;
    EXPECT_EQ(validateScene(s), "bodies[0].mass: must be > 0, got -2");
    s = sampleScene();
    s.settings.gravity.y = kInf;
    EXPECT_EQ(validateScene(s), "settings.gravity[1]: must be finite, got inf");
    s = sampleScene();
    s.bodies[1].shape = static_cast<ShapeType>(7);
    EXPECT_EQ(validateScene(s), "bodies[1].shape: invalid value 7");
}

// [SECTION] Files and atomic save

TEST(ScenarioFile, SaveThenLoad) {
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    std::string error;
    ASSERT_TRUE(saveScenario(path, sampleScene(), error)) << error;
    EXPECT_FALSE(fs::exists(path + ".tmp"));
    Scene loaded;
    ASSERT_TRUE(loadScenario(path, loaded, error)) << error;
    EXPECT_EQ(flatten(loaded), flatten(sampleScene()));
    // Overwrite in place.
    Scene other;
    ASSERT_TRUE(saveScenario(path, other, error)) << error;
    EXPECT_EQ(read(path), serializeScenario(other));
}

TEST(ScenarioFile, LoadErrorsNameTheFile) {
    TempDir dir;
    Scene s;
    std::string error;
    EXPECT_FALSE(loadScenario((dir.path / "missing.json").string(), s, error));
    EXPECT_NE(error.find("missing.json: No such file"), std::string::npos) << error;
    EXPECT_FALSE(loadScenario(dir.path.string(), s, error));
    EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
    std::ofstream(dir.path / "bad.json") << twoBodies(R"(, "linearDamping": 1, "mass": -2)");
    EXPECT_FALSE(loadScenario((dir.path / "bad.json").string(), s, error));
    EXPECT_EQ(error, (dir.path / "bad.json").string() + ": bodies[0].mass: must be > 0, got -2");
}

TEST(ScenarioFile, FailedSaveLeavesTheExistingFileIntact) {
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    std::string error;
    ASSERT_TRUE(saveScenario(path, sampleScene(), error)) << error;
    const std::string original = read(path);

    // The temp file cannot be created: a 250-byte file name leaves no room for the temporary's
    // unique suffix (NAME_MAX 255). (A folder called like the old fixed temporary, PATH.tmp, no
    // longer gets in the way: the temporary has a unique name.)
    const std::string longPath = (dir.path / (std::string(245, 'n') + ".json")).string();
    std::ofstream(longPath, std::ios::binary) << original;
    EXPECT_FALSE(saveScenario(longPath, Scene{}, error));
    EXPECT_NE(error.find("cannot save"), std::string::npos) << error;
    EXPECT_EQ(read(longPath), original);
    fs::remove(longPath);
    fs::create_directory(path + ".tmp");
    ASSERT_TRUE(saveScenario(path, sampleScene(), error)) << error;
    EXPECT_TRUE(fs::is_directory(path + ".tmp"));
    fs::remove(path + ".tmp");
    EXPECT_EQ(read(path), original);

    // The target is a directory.
    const std::string dirTarget = (dir.path / "folder").string();
    fs::create_directory(dirTarget);
    EXPECT_FALSE(saveScenario(dirTarget, Scene{}, error));
    EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
    EXPECT_TRUE(fs::is_directory(dirTarget));

    // The directory does not exist.
    EXPECT_FALSE(saveScenario((dir.path / "no" / "such.json").string(), Scene{}, error));
    EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;

    // The directory is not writable (meaningless for root, who may write anyway).
    if (geteuid() != 0) {
        fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
        EXPECT_FALSE(saveScenario(path, Scene{}, error));
        EXPECT_NE(error.find("Permission denied"), std::string::npos) << error;
        fs::permissions(dir.path, fs::perms::owner_all);
        EXPECT_EQ(read(path), original);
        EXPECT_FALSE(fs::exists(path + ".tmp"));
    }
}

TEST(ScenarioFile, SaveKeepsPermissions) {
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    std::string error;
    ASSERT_TRUE(saveScenario(path, Scene{}, error)) << error;
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    ASSERT_TRUE(saveScenario(path, sampleScene(), error)) << error;
    EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write);
}

// [SECTION] docs/scenario-format.md field tables are generated from the field lists

/// Markdown table rows for one description struct: key, type, unit, valid values, default, meaning.
struct DocTable {
    std::string out;
    std::vector<std::string> infinite;  // fields whose default is infinite accept "inf"
    std::vector<std::string> required;

    static std::string num(Real x) {
        if (std::isinf(x)) return x > 0 ? "\"inf\"" : "\"-inf\"";
        char buf[64];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
        std::string s(buf, end);
        if (s.find_first_of(".e") == std::string::npos) s += ".0";  // as the file writes it
        return s;
    }
    static std::string bound(Real x) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", x);
        return buf;
    }
    static std::string range(const Field& f, bool integer) {
        const bool lo = std::isfinite(f.min), hi = std::isfinite(f.max);
        if (integer && lo && hi) return bound(f.min) + " … " + bound(f.max);
        if (lo && hi)
            return std::string(f.minExclusive ? "(" : "[") + bound(f.min) + ", " + bound(f.max) + "]";
        if (lo) return std::string(f.minExclusive ? "> " : "≥ ") + bound(f.min);
        if (hi) return "≤ " + bound(f.max);
        return "any";
    }
    bool isRequired(const char* name) const {
        return std::find(required.begin(), required.end(), name) != required.end();
    }
    void row(const char* name, const std::string& type, const Field& f, const std::string& valid,
             const std::string& def) {
        std::string help;
        for (const char* c = f.help; *c; ++c)
            help += *c == '|' ? std::string("\\|") : std::string(1, *c);  // keep one cell
        if (f.angle) help += " (radians)";
        out += "| `" + std::string(name) + "` | " + type + " | " + (*f.unit ? f.unit : "–") + " | " + valid +
               " | " + (isRequired(name) ? std::string("**required**") : def) + " | " + help + " |\n";
    }
    std::string realValid(const char* name, const Field& f) const {
        std::string v = range(f, false);
        if (std::find(infinite.begin(), infinite.end(), name) != infinite.end()) v += ", or `\"inf\"`";
        return v;
    }
    void operator()(const char* n, Real& x, const Field& f) {
        row(n, "number", f, realValid(n, f), "`" + num(x) + "`");
    }
    void operator()(const char* n, Vec3& v, const Field& f) {
        row(n, "[x, y, z]", f, realValid(n, f), "`[" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + "]`");
    }
    void operator()(const char* n, Quat& q, const Field& f) {
        row(n, "[w, x, y, z]", f, "unit length (±1e-3, normalised)",
            "`[" + num(q.w) + ", " + num(q.x) + ", " + num(q.y) + ", " + num(q.z) + "]`");
    }
    void operator()(const char* n, int& i, const Field& f) {
        row(n, "integer", f, range(f, true), std::string("`").append(std::to_string(i)).append("`"));
    }
    void operator()(const char* n, bool& b, const Field& f) {
        row(n, "boolean", f, "`true`, `false`", b ? "`true`" : "`false`");
    }
    void operator()(const char* n, std::string& s, const Field& f) {
        row(n, "string", f, "text", "`\"" + s + "\"`");
    }
    template <class E>
    void operator()(const char* n, EnumField<E> e, const Field& f) {
        std::string valid;
        for (int k = 0; k < e.count; ++k) valid += (k ? ", " : "") + std::string("`\"") + e.names[k] + "\"`";
        row(n, "string", f, valid, "`\"" + std::string(e.names[static_cast<int>(e.value)]) + "\"`");
    }
};

struct InfiniteDefaultNames {
    std::vector<std::string> names;
    void operator()(const char* n, Real& x, const Field&) {
        if (std::isinf(x)) names.push_back(n);
    }
    template <class U>
    void operator()(const char*, U&&, const Field&) {}
};

template <class T, class Visit>
std::string docTable(T object, Visit visit, std::vector<std::string> required = {}) {
    InfiniteDefaultNames inf;
    T copy = object;
    visit(copy, inf);
    DocTable t;
    t.infinite = inf.names;
    t.required = std::move(required);
    t.out = "| key | type | unit | valid values | default | meaning |\n|---|---|---|---|---|---|\n";
    visit(object, t);
    return t.out;
}

std::string generatedFieldDocs() {
    auto visit = [](auto& o, auto& v) { o.visit(v); };
    std::string md;
    md += "### `settings`\n\n" + docTable(WorldSettings{}, visit);
    md += "\n### `camera`\n\n" + docTable(CameraState{}, visit);
    md += "\n### `bodies[i]`\n\n" + docTable(BodyDesc{}, visit, {"name"});
    md +=
        "\n### `joints[i]`: fields every joint has\n\n"
        "| key | type | unit | valid values | default | meaning |\n|---|---|---|---|---|---|\n";
    std::string types;
    for (int i = 0; i < kJointTypeCount; ++i)
        types += (i ? ", " : "") + std::string("`\"") + jointTypeInfo(i).name + "\"`";
    md += "| `type` | string | – | " + types + " | **required** | the joint type (below) |\n";
    std::string common =
        docTable(JointDesc{}, [](auto& o, auto& v) { o.visitCommon(v); }, {"name", "body0", "body1"});
    md += common.substr(common.find("|---|---|---|---|---|---|\n") + 26);
    md += "| `params` | object | – | the type's fields (below) | all defaults | type-specific parameters |\n";
    for (int i = 0; i < kJointTypeCount; ++i) {
        const JointTypeInfo& info = jointTypeInfo(i);
        md +=
            "\n### `\"" + std::string(info.name) + "\"`: " + info.title + "\n\n" + info.description + "\n\n";
        JointParams p = makeJointParams(i);
        std::string table = std::visit([&](auto& params) { return docTable(params, visit); }, p);
        md += table.find("| `") == std::string::npos ? std::string("No `params` fields.\n")
                                                     : "`params`:\n\n" + table;
    }
    md += "\n### `plots[i]`\n\n" + docTable(PlotDesc{}, visit);
    return md;
}

TEST(ScenarioDocs, FieldTablesMatchTheFieldLists) {
    const fs::path doc = fs::path(JOINTLAB_SOURCE_DIR) / "docs" / "scenario-format.md";
    const std::string begin = "<!-- generated field tables: begin -->\n",
                      end = "<!-- generated field tables: end -->";
    std::string text = read(doc);
    const size_t b = text.find(begin), e = text.find(end);
    ASSERT_NE(b, std::string::npos) << doc;
    ASSERT_NE(e, std::string::npos) << doc;
    const std::string generated = "\n" + generatedFieldDocs() + "\n";
    const std::string current = text.substr(b + begin.size(), e - b - begin.size());
    if (current != generated && std::getenv("JOINTLAB_UPDATE_DOCS")) {
        text.replace(b + begin.size(), e - b - begin.size(), generated);
        std::ofstream(doc, std::ios::binary) << text;
        GTEST_SKIP() << "rewrote the field tables in " << doc;
    }
    EXPECT_EQ(current, generated)
        << "docs/scenario-format.md is out of date with the field lists; run\n"
           "  JOINTLAB_UPDATE_DOCS=1 jointlab_engine_tests --gtest_filter=ScenarioDocs.*";
}

TEST(ScenarioDocs, ExampleLoads) {
    const std::string text = read(fs::path(JOINTLAB_SOURCE_DIR) / "docs" / "scenario-format.md");
    const size_t b = text.find("```json\n");
    ASSERT_NE(b, std::string::npos);
    const size_t e = text.find("```", b + 8);
    Scene s;
    std::string error;
    ASSERT_TRUE(parseScenario(text.substr(b + 8, e - b - 8), s, error)) << error;
    EXPECT_EQ(s.joints.size(), 1u);
}

}  // namespace
}  // namespace jl
