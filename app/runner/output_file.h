// JointLab runner — an output file written whole or not at all: a unique temporary next to the
// target (O_EXCL, so no existing file is truncated), renamed into place on commit. Through a
// symlink, the file it points to is replaced and the link kept (as a save does). Shared by
// `jointlab run` and `jointlab sweep`.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "jointlab/file_identity.h"

namespace jl::runner {

class OutputFile {
public:
    ~OutputFile() { abandon(); }

    bool open(const std::string& userPath, std::string& error) {
        // Through a symlink, the file it points to is replaced and the link kept (as a save does).
        path_ = writeTargetOf(userPath, error);
        if (path_.empty()) return false;
        // A unique temporary created with O_EXCL: no existing file (say an input called
        // "<output>.tmp") is ever truncated.
        tmp_ = path_ + ".XXXXXX.tmp";
        const int fd = ::mkstemps(tmp_.data(), 4);
        if (fd >= 0) {
            const mode_t mask = ::umask(0);
            ::umask(mask);
            ::fchmod(fd, 0666 & ~mask);  // what fopen would have given the file
            file_ = ::fdopen(fd, "wb");
            if (!file_) ::close(fd);
        }
        if (!file_) {
            error = userPath + ": cannot write (" + path_ + ".XXXXXX.tmp): " + std::strerror(errno);
            if (fd >= 0) std::remove(tmp_.c_str());
        }
        return file_ != nullptr;
    }
    bool isOpen() const { return file_ != nullptr; }
    void write(const std::string& s) {
        if (file_) std::fwrite(s.data(), 1, s.size(), file_);
    }
    /// Flushes, closes and renames into place.
    bool commit(std::string& error) {
        if (!file_) return true;
        const bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
        const int flushErrno = errno;
        const bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!ok || !closed) {
            error = path_ + ": write failed: " + std::strerror(ok ? errno : flushErrno);
            std::remove(tmp_.c_str());
            return false;
        }
        if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
            error = path_ + ": cannot replace: " + std::strerror(errno);
            std::remove(tmp_.c_str());
            return false;
        }
        return true;
    }
    void abandon() {
        if (!file_) return;
        std::fclose(file_);
        file_ = nullptr;
        std::remove(tmp_.c_str());
    }

private:
    std::string path_, tmp_;
    std::FILE* file_ = nullptr;
};

}  // namespace jl::runner
