// JointLab app — the File > Recent list: most recent first, kept in a small text file
// ($XDG_CONFIG_HOME/jointlab/recent-files.txt, else ~/.config/jointlab/recent-files.txt).
#pragma once

#include <string>
#include <vector>

namespace jl::app {

inline constexpr size_t kMaxRecentFiles = 10;

/// Moves `path` to the front (absolute, without duplicates), keeping at most kMaxRecentFiles.
void addRecentFile(std::vector<std::string>& list, const std::string& path);

/// Where the list is kept; "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string defaultRecentFilesPath();

/// One path per line; a missing file gives an empty list.
std::vector<std::string> loadRecentFiles(const std::string& file);
/// Writes the list (creating the folder); false when it cannot.
bool saveRecentFiles(const std::string& file, const std::vector<std::string>& list);

}  // namespace jl::app
