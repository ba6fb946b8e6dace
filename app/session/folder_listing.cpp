#include "session/folder_listing.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace jl::app {

namespace fs = std::filesystem;

namespace {

bool lessNoCase(const std::string& a, const std::string& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) < std::tolower(static_cast<unsigned char>(y));
    });
}

std::string absoluteNormal(const fs::path& p) {
    std::error_code ec;
    fs::path a = fs::absolute(p, ec);
    if (ec) a = p;
    std::string s = a.lexically_normal().string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

}  // namespace

FolderListing listFolder(const std::string& folder, const std::string& extension) {
    FolderListing out;
    out.folder = absoluteNormal(folder.empty() ? fs::path(".") : fs::path(folder));
    std::error_code ec;
    fs::directory_iterator it(out.folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        out.error = "cannot read " + out.folder + ": " + ec.message();
        return out;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code typeError;
        if (it->is_directory(typeError))
            out.entries.push_back({name, true});
        else if (it->path().extension() == extension)
            out.entries.push_back({name, false});
    }
    std::sort(out.entries.begin(), out.entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
        if (a.folder != b.folder) return a.folder;
        return lessNoCase(a.name, b.name);
    });
    return out;
}

std::string startFolder(const std::string& path) {
    const fs::path parent = fs::path(path).parent_path();
    return absoluteNormal(parent.empty() ? fs::path(".") : parent);
}

std::string parentFolder(const std::string& folder) {
    const fs::path p(absoluteNormal(folder));
    return p.has_parent_path() && p != p.root_path() ? absoluteNormal(p.parent_path()) : p.string();
}

std::string joinPath(const std::string& folder, const std::string& name) {
    return (fs::path(folder) / name).string();
}

std::string fileNameOf(const std::string& path) {
    return fs::path(path).filename().string();
}

const FolderListing& FolderBrowserState::show(const std::string& folder, const std::string& extension) {
    if (!listed || listing.folder != absoluteNormal(folder)) {
        listing = listFolder(folder, extension);
        listed = true;
    }
    return listing;
}

}  // namespace jl::app
