#include "session/ui_settings.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace jl::app {

namespace {

using nlohmann::json;

constexpr int kMaxWindow = 16384;

template <class T>
void read(const json& j, const char* key, T& out, T lo, T hi) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return;
    const T v = it->get<T>();
    if (v >= lo && v <= hi) out = v;
}

void read(const json& j, const char* key, bool& out) {
    const auto it = j.find(key);
    if (it != j.end() && it->is_boolean()) out = it->get<bool>();
}

}  // namespace

std::string defaultUiSettingsPath() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::string(xdg) + "/jointlab/layout.json";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.config/jointlab/layout.json";
    return "";
}

UiSettings loadUiSettings(const std::string& path) {
    UiSettings s;
    if (path.empty()) return s;
    std::ifstream in(path);
    if (!in) return s;
    std::stringstream text;
    text << in.rdbuf();
    const json j = json::parse(text.str(), nullptr, false);
    if (!j.is_object()) return s;
    if (const auto w = j.find("window"); w != j.end() && w->is_object()) {
        read(*w, "width", s.windowWidth, 64, kMaxWindow);
        read(*w, "height", s.windowHeight, 64, kMaxWindow);
    }
    if (const auto p = j.find("panels"); p != j.end() && p->is_object()) {
        read(*p, "scene", s.panels.scene);
        read(*p, "solver", s.panels.simulation);
        read(*p, "inspector", s.panels.inspector);
        read(*p, "plots", s.panels.plots);
    }
    if (const auto l = j.find("layout"); l != j.end() && l->is_object()) {
        read(*l, "leftWidth", s.layout.leftWidth, kMinColumnWidth, 4000.0f);
        read(*l, "rightWidth", s.layout.rightWidth, kMinColumnWidth, 4000.0f);
        read(*l, "dockShare", s.layout.dockShare, 0.05f, 0.95f);
    }
    return s;
}

std::string uiSettingsText(const UiSettings& s) {
    json j;
    j["window"] = {{"width", s.windowWidth}, {"height", s.windowHeight}};
    j["panels"] = {{"scene", s.panels.scene},
                   {"solver", s.panels.simulation},
                   {"inspector", s.panels.inspector},
                   {"plots", s.panels.plots}};
    j["layout"] = {{"leftWidth", s.layout.leftWidth},
                   {"rightWidth", s.layout.rightWidth},
                   {"dockShare", s.layout.dockShare}};
    return j.dump(2) + "\n";
}

bool saveUiSettings(const std::string& path, const UiSettings& settings) {
    if (path.empty()) return false;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    // Written to a temporary name and renamed: a crash never leaves half a file.
    const std::string temp = path + ".tmp";
    {
        std::ofstream out(temp, std::ios::trunc);
        out << uiSettingsText(settings);
        if (!out) return false;
    }
    std::filesystem::rename(temp, path, ec);
    return !ec;
}

}  // namespace jl::app
