// JointLab engine (private) — reading a whole text file with a size cap, for the file loaders
// (scenarios, input logs). Writing is public: jl::saveTextAtomically (scenario_io.h).
#pragma once

#include <cstddef>
#include <string>

namespace jl::files {

/// Files larger than this are refused before they are parsed.
inline constexpr size_t kMaxFileBytes = 64u << 20;

/// Reads `path` into `text`. On failure sets `error` to one line starting with the path ("x.json:
/// No such file or directory", "x.json: is a directory, not a <what> file") and returns false.
bool readTextFile(const std::string& path, const char* what, std::string& text, std::string& error);

}  // namespace jl::files
