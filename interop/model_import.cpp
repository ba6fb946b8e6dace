#include "interop/model_import.h"

#include <algorithm>
#include <cctype>
#include <fstream>

#include "interop/mjcf_import.h"
#include "interop/urdf_import.h"

namespace jl::interop {

namespace {

std::string lowerExtension(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    const size_t slash = path.find_last_of("/\\");
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string e = path.substr(dot);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
    return e;
}

/// The first element's name in the first 64 KiB of the file ("" when none).
std::string rootElement(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text(65536, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    size_t i = 0;
    while ((i = text.find('<', i)) != std::string::npos) {
        if (i + 1 < text.size() && (text[i + 1] == '?' || text[i + 1] == '!')) {
            // declarations and comments
            const size_t end = text.compare(i, 4, "<!--") == 0 ? text.find("-->", i) : text.find('>', i);
            if (end == std::string::npos) return "";
            i = end;
            continue;
        }
        size_t e = i + 1;
        while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
        return text.substr(i + 1, e - i - 1);
    }
    return "";
}

}  // namespace

bool isImportablePath(const std::string& path) {
    const std::string e = lowerExtension(path);
    return e == ".xml" || e == ".mjcf" || e == ".urdf";
}

ModelFormat modelFormat(const std::string& path) {
    const std::string e = lowerExtension(path);
    if (e == ".urdf") return ModelFormat::Urdf;
    const std::string root = rootElement(path);
    if (root == "robot") return ModelFormat::Urdf;
    if (root == "mujoco" || e == ".xml" || e == ".mjcf") return ModelFormat::Mjcf;
    return ModelFormat::Unknown;
}

bool importModel(const std::string& path, Scene& out, std::string& warning, std::string& error) {
    warning.clear();
    switch (modelFormat(path)) {
        case ModelFormat::Mjcf:
            return importMjcfFile(path, out, warning, error);
        case ModelFormat::Urdf:
            return importUrdfFile(path, out, warning, error);
        default:
            error =
                path + ": not a model JointLab imports (MJCF .xml with <mujoco> or URDF .urdf with <robot>)";
            return false;
    }
}

}  // namespace jl::interop
