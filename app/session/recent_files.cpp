#include "session/recent_files.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace jl::app {

void addRecentFile(std::vector<std::string>& list, const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
    if (ec) absolute = path;
    std::erase(list, absolute);
    list.insert(list.begin(), absolute);
    if (list.size() > kMaxRecentFiles) list.resize(kMaxRecentFiles);
}

std::string defaultRecentFilesPath() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::string(xdg) + "/jointlab/recent-files.txt";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.config/jointlab/recent-files.txt";
    return "";
}

std::vector<std::string> loadRecentFiles(const std::string& file) {
    std::vector<std::string> list;
    if (file.empty()) return list;
    std::ifstream in(file);
    std::string line;
    while (list.size() < kMaxRecentFiles && std::getline(in, line))
        if (!line.empty() && std::find(list.begin(), list.end(), line) == list.end()) list.push_back(line);
    return list;
}

bool saveRecentFiles(const std::string& file, const std::vector<std::string>& list) {
    if (file.empty()) return false;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
    std::ofstream out(file, std::ios::trunc);
    for (const std::string& p : list) out << p << '\n';
    return static_cast<bool>(out);
}

}  // namespace jl::app
