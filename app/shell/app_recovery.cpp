// The App's autosave and crash recovery (recovery.h): the timer in the frame loop, the recovery
// file following the document, and the prompt's answers.
#include <GLFW/glfw3.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <utility>

#include "shell/app.h"

namespace jl::app {

AutosaveTimer::Work App::currentWork() const {
    AutosaveTimer::Work w;
    w.unsaved = state_.editor.dirty();
    w.revision = state_.editor.revision();
    w.stepsRun = state_.sim.stepsSinceStart();
    if (const World* world = state_.sim.world()) w.step = world->stepCount();
    return w;
}

void App::findCrashRecoveries() {
    FileState& files = state_.files;
    files.recoveries = findRecoveryFiles(recoveryDir_);
    files.recoveryCount = files.recoveries.size();
    files.nowSeconds = static_cast<double>(std::time(nullptr));
    if (!screenshotMode() || recoveryDir_.empty()) return;
    // Machine-readable, for the crash-recovery test (the picture shows the prompt).
    std::printf("jointlab: %zu autosave(s) to recover in %s\n", files.recoveryCount, recoveryDir_.c_str());
    for (const RecoveryInfo& r : files.recoveries)
        std::printf("jointlab: autosave %s of %s at step %lld\n", r.path.c_str(),
                    r.document.empty() ? "an untitled scene" : r.document.c_str(),
                    static_cast<long long>(r.step));
}

void App::documentChanged() {
    removeRecoveryFile(recoveryPath_);
    recoveryPath_ = recoveryDir_.empty() ? std::string()
                                         : recoveryPathFor(recoveryDir_, state_.sim.sourcePath(),
                                                           static_cast<long>(::getpid()));
    autosave_.restart(window_ ? glfwGetTime() : 0.0);
}

bool App::writeAutosave(double now) {
    const AutosaveTimer::Work work = currentWork();
    RecoveryInfo info;
    info.document = state_.sim.sourcePath();
    info.autosavedAt = static_cast<int64_t>(std::time(nullptr));
    info.pid = static_cast<long>(::getpid());
    info.documentHasState = state_.sim.startState().has_value();
    std::string error;
    if (!writeRecoveryFile(recoveryPath_, withCamera(state_.sim.snapshotScene()), info, error)) {
        setMessage("autosave failed: " + error, true);
        autosave_.restart(now);  // try again an interval later, not every frame
        return false;
    }
    autosave_.saved(now, work);
    return true;
}

void App::autosaveIfDue(double now) {
    if (recoveryPath_.empty() || !autosave_.due(now, currentWork())) return;
    if (writeAutosave(now) && !state_.status.isError())
        setMessage("autosaved (recovery file " + recoveryPath_ + ")", false);
}

void App::applyRecoveryRequests(const UiRequests& r) {
    FileState& files = state_.files;
    if (files.recoveries.empty()) return;
    if (r.keepRecoveries) {
        setMessage(std::to_string(files.recoveries.size()) + " autosave(s) kept in " + recoveryDir_ +
                       "; they are offered again at the next start",
                   false);
        files.recoveries.clear();
        return;
    }
    if (r.discardRecovery) {
        removeRecoveryFile(files.recoveries.front().path);
        setMessage("discarded the autosave " + files.recoveries.front().path, false);
        files.recoveries.erase(files.recoveries.begin());
        return;
    }
    if (!r.recover) return;
    const RecoveryInfo offered = files.recoveries.front();
    files.recoveries.clear();  // one document at a time; the others stay on disk for the next start
    RecoveryInfo info;
    std::string error;
    // The run continues from the autosave; the document starts from a saved state only if its file did.
    if (!openRecoveryFile(state_.sim, offered.path, info, error)) {
        setMessage(error, true);
        files.errorPopup = "cannot recover the autosave: " + error;
        return;
    }
    onSceneLoaded("recovered the autosave of " +
                  (info.document.empty() ? std::string("an untitled scene") : info.document) +
                  ": save to keep it");
    state_.editor.markUnsaved();  // it differs from the file on disk until saved
    // Protect the recovered work under this session's own autosave before the old file goes.
    if (recoveryPath_.empty() || writeAutosave(glfwGetTime())) removeRecoveryFile(offered.path);
}

}  // namespace jl::app
