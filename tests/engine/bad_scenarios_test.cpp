// The bad-scenario suite (issue 10 item 1): tests/data/bad_scenarios/*.json, each the valid
// tests/data/bad_scenarios_base.json damaged in one way, written by
// tests/data/generate_bad_scenarios.py together with expected.tsv (per file, the fragments its
// error message must contain). Every file is refused, with a one-line message that names the
// place and the problem, and the scene passed in is left exactly as it was.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "jointlab/scenario_io.h"
#include "test_files.h"

namespace fs = std::filesystem;

namespace jl {
namespace {

using test::readFile;

const fs::path kData = fs::path(JOINTLAB_SOURCE_DIR) / "tests/data";
const fs::path kSuite = kData / "bad_scenarios";

/// expected.tsv: file name → fragments.
std::map<std::string, std::vector<std::string>> manifest() {
    std::map<std::string, std::vector<std::string>> m;
    std::istringstream in(readFile(kSuite / "expected.tsv"));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> fields;
        size_t start = 0;
        for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
            fields.push_back(line.substr(start, tab - start));
        fields.push_back(line.substr(start));
        const std::string name = fields.front();
        fields.erase(fields.begin());
        m[name] = fields;
    }
    return m;
}

std::vector<std::string> suiteFiles() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(kSuite))
        if (e.path().extension() == ".json") names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

Scene baseScene() {
    Scene s;
    std::string error;
    EXPECT_TRUE(loadScenario((kData / "bad_scenarios_base.json").string(), s, error)) << error;
    return s;
}

TEST(BadScenarios, TheBaseIsValid) {
    // Each bad file is this one with one thing damaged, so the refusal is about that one thing.
    const Scene s = baseScene();
    EXPECT_EQ(s.joints.size(), static_cast<size_t>(kJointTypeCount)) << "one joint of every type";
    EXPECT_TRUE(s.state.has_value());
    EXPECT_EQ(validateScene(s), "");
}

TEST(BadScenarios, ManifestCoversEveryFile) {
    const auto m = manifest();
    const std::vector<std::string> files = suiteFiles();
    EXPECT_GE(files.size(), 300u);
    for (const std::string& f : files) EXPECT_TRUE(m.count(f)) << f << " has no line in expected.tsv";
    for (const auto& [name, fragments] : m) {
        EXPECT_TRUE(fs::exists(kSuite / name)) << name << " is in expected.tsv but missing";
        EXPECT_FALSE(fragments.empty()) << name;
    }
}

TEST(BadScenarios, EachIsRefusedWithPlaceAndProblemAndChangesNothing) {
    const Scene sentinel = baseScene();
    const std::string before = serializeScenario(sentinel);
    const auto m = manifest();
    int checked = 0;
    for (const std::string& name : suiteFiles()) {
        SCOPED_TRACE(name);
        const auto it = m.find(name);
        if (it == m.end()) continue;  // reported by ManifestCoversEveryFile
        const std::string path = (kSuite / name).string();
        Scene out = sentinel;
        std::string error;
        ASSERT_FALSE(loadScenario(path, out, error)) << "accepted";
        EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << "the message starts with the file: " << error;
        const std::string message = error.substr(std::min(error.size(), path.size() + 2));
        for (const std::string& fragment : it->second)
            EXPECT_NE(message.find(fragment), std::string::npos)
                << "expected \"" << fragment << "\" in: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
        EXPECT_LT(message.size(), 400u) << message;
        EXPECT_EQ(serializeScenario(out), before) << "a refused load changed the scene";
        // The same through the in-memory entry point.
        Scene again = sentinel;
        std::string direct;
        EXPECT_FALSE(parseScenario(readFile(kSuite / name), again, direct));
        EXPECT_EQ(direct, message);
        EXPECT_EQ(serializeScenario(again), before);
        ++checked;
    }
    EXPECT_GE(checked, 300);
}

TEST(BadScenarios, OneLeadingUtf8ByteOrderMarkIsAccepted) {
    // RFC 8259 lets parsers ignore one; editors on Windows write it. Only a second one, one in the
    // middle, or a UTF-16/32 mark is refused (files in the suite).
    const std::string base = readFile(kData / "bad_scenarios_base.json");
    Scene s;
    std::string error;
    EXPECT_TRUE(parseScenario("\xEF\xBB\xBF" + base, s, error)) << error;
}

TEST(BadScenarios, FilesOver64MiBAreRefusedWithoutReadingThemWhole) {
    const fs::path dir = fs::temp_directory_path() / ("jointlab_big_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path big = dir / "big.json";
    {
        std::ofstream(big) << "{";
        fs::resize_file(big, (64u << 20) + 1);  // sparse: costs no disk space
    }
    Scene s = baseScene();
    const std::string before = serializeScenario(s);
    std::string error;
    EXPECT_FALSE(loadScenario(big.string(), s, error));
    EXPECT_NE(error.find("file is larger than 64 MiB; not a scenario"), std::string::npos) << error;
    EXPECT_EQ(serializeScenario(s), before);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace jl
