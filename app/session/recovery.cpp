#include "session/recovery.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "jointlab/scenario_io.h"
#include "session/simulation.h"

namespace jl::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRecoveryKey = "recovery";

/// FNV-1a of the bytes of `s`.
uint64_t fnv1a(const std::string& s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

/// `path` made absolute and normalised, for comparing files ("" stays "").
std::string canonical(const std::string& path) {
    if (path.empty()) return path;
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::path(path).lexically_normal().string() : p.string();
}

/// The document's file name without extension, reduced to [A-Za-z0-9_-], at most 40 characters.
std::string readableStem(const std::string& document) {
    std::string out;
    for (char c : fs::path(document).stem().string()) {
        if (out.size() >= 40) break;
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    }
    return out.empty() ? std::string("scene") : out;
}

}  // namespace

std::string defaultRecoveryDir() {
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/jointlab/recovery";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.local/state/jointlab/recovery";
    return "";
}

std::string recoveryPathFor(const std::string& dir, const std::string& document, long pid) {
    const std::string doc = canonical(document);
    std::string name;
    if (doc.empty()) {
        name = "untitled-" + std::to_string(pid);
    } else {
        char hash[24];
        std::snprintf(hash, sizeof hash, "%016" PRIx64, fnv1a(doc));
        name = readableStem(doc) + "-" + hash + "-" + std::to_string(pid);
    }
    std::string path = (fs::path(dir) / (name + ".json")).string();
    // A document that happens to carry exactly this name (or be its backup) is never overwritten.
    while (!doc.empty() && (canonical(path) == doc || canonical(path + ".bak") == doc))
        path = path.substr(0, path.size() - 5) + "-recovery.json";
    return path;
}

std::string recoveryFileText(const Scene& scene, const RecoveryInfo& info) {
    std::string text = serializeScenario(scene);  // canonical: ends with "\n}\n"
    nlohmann::ordered_json recovery = nlohmann::ordered_json::object();
    recovery["document"] = info.document;
    recovery["autosavedAt"] = info.autosavedAt;
    recovery["pid"] = info.pid;
    recovery["documentHasState"] = info.documentHasState;
    nlohmann::ordered_json app = nlohmann::ordered_json::object();
    app[kRecoveryKey] = std::move(recovery);
    const std::string section =
        ",\n  \"app\": " + app.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
        "\n}\n";
    const size_t end = text.rfind("\n}");
    if (end == std::string::npos) return text;  // cannot happen: the scenario is an object
    text.replace(end, std::string::npos, section);
    return text;
}

bool writeRecoveryFile(const std::string& path, const Scene& scene, const RecoveryInfo& info,
                       std::string& error) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) {
        error = "cannot create " + fs::path(path).parent_path().string() + ": " + ec.message();
        return false;
    }
    std::string text;
    try {
        text = recoveryFileText(scene, info);
    } catch (const std::exception& e) {
        error = std::string("cannot write the autosave: ") + e.what();
        return false;
    }
    return saveTextAtomically(path, text, error);
}

bool readRecoveryFile(const std::string& path, Scene& scene, RecoveryInfo& info, std::string& error) {
    Scene loaded;
    if (!loadScenario(path, loaded, error)) return false;  // validated: depth, size, every field
    RecoveryInfo r;
    try {
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const nlohmann::json root = nlohmann::json::parse(text.str());
        const auto app = root.find("app");
        if (app == root.end() || !app->is_object() || !app->contains(kRecoveryKey) ||
            !(*app)[kRecoveryKey].is_object()) {
            error = path + ": app.recovery: missing; not a JointLab recovery file";
            return false;
        }
        const nlohmann::json& rec = (*app)[kRecoveryKey];
        r.document = rec.value("document", std::string());
        r.autosavedAt = rec.value("autosavedAt", int64_t{0});
        r.pid = rec.value("pid", 0L);
        r.documentHasState = rec.value("documentHasState", false);
    } catch (const std::exception& e) {
        error = path + ": app.recovery: " + e.what();
        return false;
    }
    r.path = path;
    if (loaded.state) {
        r.step = loaded.state->stepCount;
        r.time = loaded.state->time;
    }
    r.bodies = loaded.bodies.size();
    r.joints = loaded.joints.size();
    scene = std::move(loaded);
    info = std::move(r);
    return true;
}

bool openRecoveryFile(Simulation& sim, const std::string& path, RecoveryInfo& info, std::string& error) {
    Scene scene;
    RecoveryInfo read;
    if (!readRecoveryFile(path, scene, read, error) || !sim.setScene(std::move(scene), read.document, error))
        return false;
    if (!read.documentHasState) sim.dropStartState();
    info = std::move(read);
    return true;
}

bool processIsRunning(long pid) {
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
    // The pid may have been reused since a crash: only a running JointLab counts.
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
    return ec || exe.filename().string().rfind("jointlab", 0) == 0;
}

std::vector<RecoveryInfo> findRecoveryFiles(const std::string& dir,
                                            const std::function<bool(long)>& isRunning) {
    std::vector<RecoveryInfo> found;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return found;
    std::vector<std::string> paths;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            paths.push_back(it->path().string());
    std::sort(paths.begin(), paths.end());  // a fixed order for equal times
    for (const std::string& path : paths) {
        Scene scene;
        RecoveryInfo info;
        std::string error;
        if (!readRecoveryFile(path, scene, info, error)) continue;
        if (isRunning(info.pid)) continue;  // another JointLab's live autosave, not a crash's
        found.push_back(std::move(info));
    }
    std::stable_sort(found.begin(), found.end(), [](const RecoveryInfo& a, const RecoveryInfo& b) {
        return a.autosavedAt > b.autosavedAt;
    });
    return found;
}

void removeRecoveryFile(const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    for (const char* suffix : {"", ".bak", ".bak.tmp"}) fs::remove(path + suffix, ec);
    // An interrupted save's temporary: PATH.XXXXXX.tmp (saveTextAtomically's mkstemp pattern).
    std::error_code removeError;
    const fs::path file(path);
    const std::string prefix = file.filename().string() + ".";
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() == prefix.size() + 6 + 4 && name.compare(0, prefix.size(), prefix) == 0 &&
            name.compare(name.size() - 4, 4, ".tmp") == 0)
            fs::remove(it->path(), removeError);
    }
}

void AutosaveTimer::restart(double now) {
    start_ = now;
    savedOnce_ = false;
}

bool AutosaveTimer::due(double now, const Work& work) const {
    if (!(interval_ > 0.0) || now - start_ < interval_) return false;
    if (!work.unsaved && work.stepsRun == 0) return false;  // nothing a crash would lose
    return !savedOnce_ || work.revision != savedRevision_ || work.step != savedStep_;
}

void AutosaveTimer::saved(double now, const Work& work) {
    start_ = now;
    savedOnce_ = true;
    savedRevision_ = work.revision;
    savedStep_ = work.step;
}

}  // namespace jl::app
