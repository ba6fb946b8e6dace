// Helpers for engine tests that read and write files: whole-file read and write, and a
// temporary folder removed (with everything in it) when the test ends.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>

#include "jointlab/scenario_io.h"

namespace jl::test {

/// An example scenario from assets/scenarios/ by file name; the calling test fails if it does not
/// load (and gets an empty scene).
inline Scene exampleScenario(const char* name) {
    Scene scene;
    std::string error;
    EXPECT_TRUE(loadScenario(
        (std::filesystem::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios" / name).string(), scene, error))
        << error;
    return scene;
}

inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline void writeFile(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

/// A fresh folder under the system's temporary folder; removed at the end of the scope, also
/// when a test made it read-only.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "jointlab_test_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    /// The path of `name` inside the folder.
    std::string operator/(const std::string& name) const { return (path / name).string(); }
    /// How many files and folders it holds.
    size_t entries() const {
        return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(path), {}));
    }
};

}  // namespace jl::test
