#include "session/file_flow.h"

#include <utility>

#include "session/recent_files.h"
#include "session/simulation.h"

namespace jl::app {

namespace {

/// Runs the waiting action (and forgets it).
void continuePending(FileState& files, FileEffects& effects) {
    const PendingAction action = std::exchange(files.pending, PendingAction::None);
    if (action == PendingAction::None) return;
    if (action == PendingAction::Quit) files.quitConfirmed = true;
    effects.carryOut(action, files.pendingPath);
}

/// Runs `action` now, or first asks what to do with unsaved changes.
void startOrAsk(FileState& files, FileEffects& effects, PendingAction action, std::string path) {
    files.pending = action;
    files.pendingPath = std::move(path);
    if (effects.unsaved() && !(action == PendingAction::Quit && files.quitConfirmed)) {
        files.promptRequested = true;
        return;
    }
    continuePending(files, effects);
}

void askWhere(FileState& files, SaveKind kind) {
    files.saveKind = kind;
    files.saveAsDialogRequested = true;
}

}  // namespace

void applyFileRequests(const FileRequests& r, FileState& files, FileEffects& effects) {
    if (r.newScene) startOrAsk(files, effects, PendingAction::New, "");
    if (!r.openPath.empty()) startOrAsk(files, effects, PendingAction::Open, r.openPath);
    if (r.reload && !effects.sourcePath().empty())
        startOrAsk(files, effects, PendingAction::Open, effects.sourcePath());
    if (r.loadBuiltIn) startOrAsk(files, effects, PendingAction::Showcase, "");
    if (r.quit) startOrAsk(files, effects, PendingAction::Quit, "");

    if (r.save) {
        if (effects.sourcePath().empty())
            askWhere(files, SaveKind::Scene);
        else
            effects.saveScene(effects.sourcePath());
    }
    if (r.saveAsDialog) askWhere(files, SaveKind::Scene);
    if (r.saveSnapshotDialog) askWhere(files, SaveKind::Snapshot);
    if (r.saveRunDialog) askWhere(files, SaveKind::Run);
    if (r.saveHistoryDialog) askWhere(files, SaveKind::History);
    if (!r.saveAsPath.empty()) {
        switch (r.saveAsKind) {
            case SaveKind::Scene:
                // A New / Open / Quit that waited for this Save As goes on once the scene is saved.
                if (effects.saveScene(r.saveAsPath) && files.pending != PendingAction::None)
                    continuePending(files, effects);
                break;
            case SaveKind::Snapshot:
                effects.saveSnapshot(r.saveAsPath);
                break;
            case SaveKind::Run:
                effects.saveRun(r.saveAsPath);
                break;
            case SaveKind::History:
                effects.saveWithHistory(r.saveAsPath);
                break;
        }
    }

    if (r.promptSave) {
        if (effects.sourcePath().empty())
            askWhere(files, SaveKind::Scene);  // the pending action continues once saved
        else if (effects.saveScene(effects.sourcePath()))
            continuePending(files, effects);
        else
            files.pending = PendingAction::None;  // not saved: the edits stay, and so does the scene
    }
    if (r.promptDiscard) continuePending(files, effects);
    if (r.promptCancel) files.pending = PendingAction::None;
}

bool openDocument(Simulation& sim, FileState& files, const std::string& path, std::string& error) {
    // Simulation::loadFile leaves the current scene untouched when the file is refused.
    if (!sim.loadFile(path, error)) {
        files.errorPopup = error;
        return false;
    }
    rememberRecentFile(files, path);
    return true;
}

void rememberRecentFile(FileState& files, const std::string& path) {
    if (files.recentListPath.empty()) return;  // screenshot mode keeps no history
    addRecentFile(files.recent, path);
    saveRecentFiles(files.recentListPath, files.recent);
}

}  // namespace jl::app
