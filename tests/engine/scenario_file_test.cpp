// Scenario files: validation of scenes built in memory, atomic saves, and the field tables of
// docs/scenario-format.md generated from the field lists.
#include <gtest/gtest.h>

#include "scenario_io_helpers.h"

namespace jl {
namespace {

using namespace scenario_test;

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
    EXPECT_EQ(validateScene(s), "bodies[0].mass: must be >= 1e-6, got -2");
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
    EXPECT_EQ(readFile(path), serializeScenario(other));
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
    EXPECT_EQ(error, (dir.path / "bad.json").string() + ": bodies[0].mass: must be >= 1e-6, got -2");
}

TEST(ScenarioFile, FailedSaveLeavesTheExistingFileIntact) {
    TempDir dir;
    const std::string path = (dir.path / "scene.json").string();
    std::string error;
    ASSERT_TRUE(saveScenario(path, sampleScene(), error)) << error;
    const std::string original = readFile(path);

    // The temp file cannot be created: a 250-byte file name leaves no room for the temporary's
    // unique suffix (NAME_MAX 255). (A folder called like the old fixed temporary, PATH.tmp, no
    // longer gets in the way: the temporary has a unique name.)
    const std::string longPath = (dir.path / (std::string(245, 'n') + ".json")).string();
    std::ofstream(longPath, std::ios::binary) << original;
    EXPECT_FALSE(saveScenario(longPath, Scene{}, error));
    EXPECT_NE(error.find("cannot save"), std::string::npos) << error;
    EXPECT_EQ(readFile(longPath), original);
    fs::remove(longPath);
    fs::create_directory(path + ".tmp");
    ASSERT_TRUE(saveScenario(path, sampleScene(), error)) << error;
    EXPECT_TRUE(fs::is_directory(path + ".tmp"));
    fs::remove(path + ".tmp");
    EXPECT_EQ(readFile(path), original);

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
        EXPECT_EQ(readFile(path), original);
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
    md += "\n### `references[i]`\n\n" + docTable(ReferenceDesc{}, visit);
    md += "\n### `lesson`\n\n" + docTable(Lesson{}, visit, {"title"});
    md += "| `steps` | array | – | at least one step (below) | **required** | the numbered steps |\n";
    md += "\n### `lesson.steps[i]`\n\n" + docTable(LessonStep{}, visit, {"text"});
    return md;
}

TEST(ScenarioDocs, FieldTablesMatchTheFieldLists) {
    const fs::path doc = fs::path(JOINTLAB_SOURCE_DIR) / "docs" / "scenario-format.md";
    const std::string begin = "<!-- generated field tables: begin -->\n",
                      end = "<!-- generated field tables: end -->";
    std::string text = readFile(doc);
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
    const std::string text = readFile(fs::path(JOINTLAB_SOURCE_DIR) / "docs" / "scenario-format.md");
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
