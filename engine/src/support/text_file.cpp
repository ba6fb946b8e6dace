// Reading text files with a size cap, and the atomic save with a .bak that every file JointLab
// writes goes through (scenarios, input logs, the app's recovery files).
#include "support/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "jointlab/file_identity.h"
#include "jointlab/scenario_io.h"

namespace jl {

namespace {

std::string systemError(const std::string& what) {
    return what + ": " + std::strerror(errno);
}

bool writeAll(int fd, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

/// Copies file `from` to a new file `to` (fsynced), for file systems without hard links.
std::string copyFile(const std::string& from, const std::string& to, mode_t mode) {
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) return systemError("reading " + from);
    const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
    if (out < 0) {
        const std::string e = systemError("creating " + to);
        ::close(in);
        return e;
    }
    std::string e;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            e = systemError("reading " + from);
            break;
        }
        if (n == 0) break;
        if (!writeAll(out, std::string(buf, static_cast<size_t>(n)))) {
            e = systemError("writing " + to);
            break;
        }
    }
    if (e.empty() && ::fsync(out) != 0) e = systemError("flushing " + to);
    ::close(in);
    if (::close(out) != 0 && e.empty()) e = systemError("closing " + to);
    if (!e.empty()) ::unlink(to.c_str());
    return e;
}

/// Prepares the backup of `path`: <path>.bak.tmp holding its current content, as a hard link to
/// the file (content and permissions, no copy) or, where links are not supported, a copy. The
/// caller renames it over <path>.bak once the new version is in place. Returns "" or what failed.
std::string prepareBackup(const std::string& path, const std::string& bakTmp) {
    ::unlink(bakTmp.c_str());  // a leftover of an interrupted save
    if (::link(path.c_str(), bakTmp.c_str()) == 0) return "";
    if (errno != EPERM && errno != EXDEV && errno != EOPNOTSUPP && errno != EMLINK && errno != ENOSYS)
        return systemError("linking " + bakTmp);
    struct stat st {};
    const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    return copyFile(path, bakTmp, mode);
}

std::string directoryOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

namespace files {

bool readTextFile(const std::string& path, const char* what, std::string& text, std::string& error) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        error = systemError(path);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = path + ": is a directory, not a " + what + " file";
        return false;
    }
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxFileBytes) {  // before reading any
        error = path + ": file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB; not a " + what;
        return false;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        error = systemError(path);
        return false;
    }
    std::string content;
    char buf[1 << 16];
    size_t n;
    bool tooLarge = false;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        if (content.size() + n > kMaxFileBytes) {
            tooLarge = true;
            break;
        }
        content.append(buf, n);
    }
    const bool readError = std::ferror(f) != 0;
    std::fclose(f);
    if (tooLarge) {
        error = path + ": file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB; not a " + what;
        return false;
    }
    if (readError) {
        error = systemError(path + ": read error");
        return false;
    }
    text = std::move(content);
    return true;
}

}  // namespace files

bool saveTextAtomically(const std::string& userPath, const std::string& text, std::string& error) {
    // Saving through a symlink keeps the link and replaces the file it points to (as editors do):
    // everything below, the temporary, the backup and the rename, happens next to that file.
    std::string linkError;
    const std::string path = writeTargetOf(userPath, linkError);
    if (path.empty()) {
        error = "cannot save " + userPath + " (" + linkError + ")";
        return false;
    }
    const std::string shown = path == userPath ? userPath : userPath + " (a link to " + path + ")";
    struct stat st {};
    mode_t mode = 0644;
    const bool existed = ::stat(path.c_str(), &st) == 0;
    if (existed) {
        if (S_ISDIR(st.st_mode)) {
            error = shown + ": is a directory";
            return false;
        }
        mode = st.st_mode & 07777;  // keep the existing file's permissions
    }
    // A temporary of our own: a unique name created with O_EXCL, so no file that happens to be
    // called like it (a user's "scene.json.tmp") is ever truncated.
    std::string tmp = path + ".XXXXXX.tmp";
    const int fd = ::mkstemps(tmp.data(), 4);
    if (fd < 0) {
        error = systemError("cannot save " + shown + " (creating " + path + ".XXXXXX.tmp)");
        return false;
    }
    ::fchmod(fd, mode);
    auto abandon = [&](const std::string& what) {
        error = systemError("cannot save " + shown + " (" + what + ")");
        ::close(fd);
        ::unlink(tmp.c_str());
        return false;
    };
    if (!writeAll(fd, text)) return abandon("writing " + tmp);
    if (::fsync(fd) != 0) return abandon("flushing " + tmp);
    if (::close(fd) != 0) {
        error = systemError("cannot save " + shown + " (closing " + tmp + ")");
        ::unlink(tmp.c_str());
        return false;
    }
    // The previous version becomes <path>.bak: prepared under a temporary name first, so a failure
    // up to the rename below leaves both the file and the old .bak as they were; `path` is never
    // missing. (Interrupted between the two renames, <path>.bak.tmp holds the previous version.)
    const std::string bak = path + ".bak", bakTmp = path + ".bak.tmp";
    if (existed) {
        if (std::string e = prepareBackup(path, bakTmp); !e.empty()) {
            error = "cannot save " + shown + " (keeping the previous version: " + e + ")";
            ::unlink(tmp.c_str());
            return false;
        }
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        error = systemError("cannot save " + shown + " (renaming " + tmp + ")");
        ::unlink(tmp.c_str());
        if (existed) ::unlink(bakTmp.c_str());
        return false;
    }
    if (existed && ::rename(bakTmp.c_str(), bak.c_str()) != 0) {
        // The backup cannot take its place (<path>.bak is a directory, or cannot be replaced): a
        // save that silently dropped the previous version would be a lie. Put the previous version
        // back (bakTmp is it: a hard link or a copy) and refuse.
        const std::string why = std::strerror(errno);
        if (::rename(bakTmp.c_str(), path.c_str()) == 0) {
            error = "cannot save " + shown + " (the previous version cannot be kept as " + bak + ": " + why +
                    "); the file is unchanged";
        } else {
            ::unlink(bakTmp.c_str());
            error = "saved " + shown + ", but the previous version could not be kept as " + bak + ": " + why;
        }
        return false;
    }
    // Make the rename itself durable; a failure here no longer endangers either version.
    if (const int dir = ::open(directoryOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

}  // namespace jl
