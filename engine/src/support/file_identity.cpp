// File identity and the output guard; see jointlab/file_identity.h.
#include "jointlab/file_identity.h"

#include <sys/stat.h>

#include <filesystem>

namespace jl {

namespace fs = std::filesystem;

namespace {

/// The name a path resolves to: absolute, a symlink at the end followed (also a dangling one,
/// whose target would be created by a write), then weakly_canonical.
fs::path resolvedName(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec) return fs::path(path).lexically_normal();
    for (int hops = 0; hops < 40; ++hops) {  // 40: the kernel's own limit on symlink hops
        const fs::file_status s = fs::symlink_status(p, ec);
        if (ec || !fs::is_symlink(s)) break;
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    fs::path r = fs::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : r;
}

bool equalIgnoringAsciiCase(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        auto lower = [](unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; };
        if (lower(static_cast<unsigned char>(a[i])) != lower(static_cast<unsigned char>(b[i]))) return false;
    }
    return true;
}

}  // namespace

FileIdentity compareFiles(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return FileIdentity::Different;
    struct stat sa {
    }, sb{};
    const bool aExists = ::stat(a.c_str(), &sa) == 0, bExists = ::stat(b.c_str(), &sb) == 0;
    if (aExists && bExists)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino ? FileIdentity::Same
                                                                : FileIdentity::Different;
    const fs::path ra = resolvedName(a), rb = resolvedName(b);
    if (ra == rb) return FileIdentity::Same;
    // One exists, the other does not: on a case-insensitive file system the second would have been
    // found by stat, so they differ. Neither exists: they may still become one file.
    if (!aExists && !bExists && ra.parent_path() == rb.parent_path() &&
        equalIgnoringAsciiCase(ra.filename().string(), rb.filename().string()))
        return FileIdentity::SameIgnoringCase;
    return FileIdentity::Different;
}

std::string writeTargetOf(const std::string& path, std::string& error) {
    fs::path p = path;
    for (int hops = 0; hops <= 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec) return p.string();
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) {
            error = path + ": cannot read the symbolic link: " + ec.message();
            return "";
        }
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    error = path + ": more than 40 symbolic links in a row (a loop?)";
    return "";
}

bool sameFile(const std::string& a, const std::string& b) {
    return compareFiles(a, b) != FileIdentity::Different;
}

std::string checkOutputsAgainstInputs(const std::vector<NamedFile>& inputs,
                                      const std::vector<NamedFile>& outputs) {
    auto why = [](FileIdentity id) {
        return id == FileIdentity::Same ? std::string(" (the same file)")
                                        : std::string(
                                              " (names that differ only in case: one file on a "
                                              "case-insensitive file system)");
    };
    for (size_t i = 0; i < outputs.size(); ++i) {
        const NamedFile& out = outputs[i];
        if (out.path.empty()) continue;
        for (const NamedFile& in : inputs)
            if (const FileIdentity id = compareFiles(out.path, in.path); id != FileIdentity::Different)
                return out.what + " " + out.path + " would overwrite " + in.what + " " + in.path + why(id) +
                       "; nothing was written";
        for (size_t j = 0; j < i; ++j)
            if (const FileIdentity id = compareFiles(out.path, outputs[j].path);
                id != FileIdentity::Different)
                return out.what + " " + out.path + " and " + outputs[j].what + " " + outputs[j].path +
                       " name one output file" + why(id) + "; nothing was written";
    }
    return "";
}

}  // namespace jl
