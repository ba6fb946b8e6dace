#include "telemetry/telemetry_export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace jl::app {

namespace {

std::string reason(const std::string& path, const char* what) {
    return "cannot write " + path + " (" + what + "): " + std::strerror(errno);
}

}  // namespace

bool writeFileAtomically(const std::string& path, const std::string& text, std::string& error) {
    if (path.empty()) {
        error = "no file name given";
        return false;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        error = path + ": is a directory";
        return false;
    }
    std::string tmp = path + ".tmp-XXXXXX";  // same folder, so the rename cannot cross file systems
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) {
        error = reason(path, "creating a temporary file");
        return false;
    }
    auto fail = [&](const char* what) {
        error = reason(path, what);
        ::close(fd);
        ::unlink(tmp.c_str());
        return false;
    };
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail("writing");
        done += static_cast<size_t>(n);
    }
    if (::fchmod(fd, 0644) != 0) return fail("setting permissions");
    if (::fsync(fd) != 0) return fail("flushing");
    if (::close(fd) != 0) {
        error = reason(path, "closing");
        ::unlink(tmp.c_str());
        return false;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        error = reason(path, "renaming the temporary file");
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

bool exportTelemetryCsv(const Telemetry& telemetry, const Scene& scene, const std::string& path,
                        std::string& error) {
    return writeFileAtomically(path, telemetry.csv(scene), error);
}

}  // namespace jl::app
