// Internal to the sweep commands (runner/sweep.cpp, runner/sweep_merge.cpp): their command-line
// and file helpers, and `jointlab sweep-merge`. Not part of the runner's interface (runner/sweep.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace jl::runner::sweep_io {

using Json = nlohmann::ordered_json;

inline constexpr const char* kManifestFormat = "jointlab-sweep";

/// What parsing a command line found: go on, print the usage, or stop with `error`.
enum class Parsed { Run, Help, Error };

/// A whole decimal integer (no sign, no trailing characters).
bool parseWhole(std::string_view text, int64_t& out);
/// The usage text of `jointlab sweep` and `jointlab sweep-merge`.
std::string sweepUsage();
/// The value of option `arg` ("--flag=value" or "--flag value", advancing i); `flag` is its name.
Parsed takeValue(int argc, char** argv, int& i, std::string_view arg, std::string_view& flag,
                 std::string_view& value, std::string& error);

std::string hostName();
/// Now, in UTC, as 2026-11-27T16:00:00Z.
std::string utcNow();
bool readAll(const std::string& path, std::string& text, std::string& error);
/// Makes the folder (and its parents) when missing.
bool makeFolder(const std::string& dir, std::string& error);
/// Writes the two outputs whole (temporary + rename): results.csv, then manifest.json.
bool writeOutputs(const std::string& dir, const std::string& csv, const Json& manifest, std::string& error);
/// Prints "jointlab CMD: MESSAGE" on stderr and returns `code`.
int fail(const char* cmd, int code, const std::string& message);

/// `jointlab sweep-merge DIR... --out DIR` (runner/sweep_merge.cpp); the exit code.
int sweepMerge(int argc, char** argv);

}  // namespace jl::runner::sweep_io
