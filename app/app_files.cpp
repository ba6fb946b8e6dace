// The App's file requests: New, Open, Save, Save As, Save snapshot, Save run, recent files, and
// the unsaved-changes prompt that stands between an edited scene and New, Open or Quit.
#include <GLFW/glfw3.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "app.h"
#include "default_scene.h"
#include "jointlab/input_log_io.h"
#include "jointlab/scenario_io.h"
#include "recent_files.h"

namespace jl::app {

void App::applyFileRequests(const UiRequests& r) {
    FileState& files = state_.files;
    if (r.newScene) startOrAsk(PendingAction::New, "");
    if (!r.openPath.empty()) startOrAsk(PendingAction::Open, r.openPath);
    if (r.reload && !state_.sim.sourcePath().empty())
        startOrAsk(PendingAction::Open, state_.sim.sourcePath());
    if (r.loadBuiltIn) startOrAsk(PendingAction::Showcase, "");
    if (r.quit) startOrAsk(PendingAction::Quit, "");

    auto askWhere = [&files](SaveKind kind) {
        files.saveKind = kind;
        files.saveAsDialogRequested = true;
    };
    if (r.save) {
        if (state_.sim.sourcePath().empty())
            askWhere(SaveKind::Scene);
        else
            saveTo(state_.sim.sourcePath());
    }
    if (r.saveAsDialog) askWhere(SaveKind::Scene);
    if (r.saveSnapshotDialog) askWhere(SaveKind::Snapshot);
    if (r.saveRunDialog) askWhere(SaveKind::Run);
    if (!r.saveAsPath.empty()) {
        switch (r.saveAsKind) {
            case SaveKind::Scene:
                if (saveTo(r.saveAsPath) && files.pending != PendingAction::None) continuePending();
                break;
            case SaveKind::Snapshot: saveSnapshot(r.saveAsPath); break;
            case SaveKind::Run: saveRun(r.saveAsPath); break;
        }
    }

    if (r.promptSave) {
        if (state_.sim.sourcePath().empty())
            askWhere(SaveKind::Scene);  // the pending action continues once saved
        else if (saveTo(state_.sim.sourcePath()))
            continuePending();
        else
            files.pending = PendingAction::None;
    }
    if (r.promptDiscard) continuePending();
    if (r.promptCancel) files.pending = PendingAction::None;
}

void App::startOrAsk(PendingAction action, std::string path) {
    FileState& files = state_.files;
    files.pending = action;
    files.pendingPath = std::move(path);
    if (state_.editor.dirty() && !(action == PendingAction::Quit && files.quitConfirmed)) {
        files.promptRequested = true;
        return;
    }
    continuePending();
}

void App::continuePending() {
    FileState& files = state_.files;
    const PendingAction action = files.pending;
    files.pending = PendingAction::None;
    std::string error;
    switch (action) {
        case PendingAction::None:
            break;
        case PendingAction::New:
            if (state_.sim.setScene(makeEmptyScene(), "", error))
                onSceneLoaded("new scene: add bodies from the toolbar or the Add menu");
            else
                setMessage(error, true);
            break;
        case PendingAction::Open:
            openFile(files.pendingPath);
            break;
        case PendingAction::Showcase:
            if (state_.sim.setScene(makeBuiltInShowcase(), "", error))
                onSceneLoaded("built-in showcase");
            else
                setMessage(error, true);
            break;
        case PendingAction::Quit:
            files.quitConfirmed = true;
            if (window_) glfwSetWindowShouldClose(window_, GLFW_TRUE);
            break;
    }
}

void App::openFile(const std::string& path) {
    std::string error;
    // Simulation::loadFile leaves the current scene untouched when the file is refused.
    if (!state_.sim.loadFile(path, error)) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return;
    }
    rememberRecent(path);
    onSceneLoaded("opened " + path);
}

Scene App::withCamera(Scene scene) const {
    scene.camera = state_.camera.toState();  // the view goes with the scenario
    return scene;
}

bool App::saveTo(const std::string& path) {
    // The scene as set up, with the state it starts from if it was opened from a mid-run save.
    std::string error;
    if (!saveScenario(path, withCamera(state_.sim.documentScene()), error)) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return false;
    }
    const bool renamed = path != state_.sim.sourcePath();
    state_.sim.setSourcePath(path);
    state_.editor.markSaved();
    if (renamed)
        documentChanged();  // the autosave is keyed by the file
    else
        removeRecoveryFile(recoveryPath_);  // the work is in the file now
    autosave_.restart(glfwGetTime());
    rememberRecent(path);
    setMessage("saved " + path, false);
    return true;
}

bool App::refuseOverwritingDocument(const std::string& path, const char* what) {
    const std::string& source = state_.sim.sourcePath();
    std::error_code ec;  // a path that does not exist yet is not the document
    if (source.empty() || !std::filesystem::equivalent(path, source, ec)) return false;
    const std::string error = std::string(what) + " is a copy and never replaces the scene's own file " + source +
                              "; choose another name (File > Save writes the scene itself)";
    setMessage(error, true);
    state_.files.errorPopup = error;
    return true;
}

bool App::saveSnapshot(const std::string& path) {
    if (refuseOverwritingDocument(path, "Save snapshot")) return false;
    const World* world = state_.sim.world();
    std::string error;
    if (!world || !saveScenario(path, withCamera(state_.sim.snapshotScene()), error)) {
        if (error.empty()) error = "nothing to save: the scene has no running world";
        setMessage(error, true);
        state_.files.errorPopup = error;
        return false;
    }
    setMessage("saved a snapshot at t = " + std::to_string(world->time()) + " s to " + path +
                   "; opening it continues from there",
               false);
    return true;
}

bool App::saveRun(const std::string& path) {
    if (refuseOverwritingDocument(path, "Save run")) return false;
    const std::string logPath = inputLogPathFor(path);
    const Scene start = withCamera(state_.sim.runScenario());
    const InputRecording run = state_.sim.recording();
    std::string error;
    if (!saveScenario(path, start, error) || !saveInputRecording(logPath, run, start, error)) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return false;
    }
    setMessage("saved the run: " + path + " and " + logPath + " (" + std::to_string(run.log.events().size()) +
                   " mouse forces over " + std::to_string(run.endStep - run.startStep) + " steps)",
               false);
    return true;
}

void App::rememberRecent(const std::string& path) {
    FileState& files = state_.files;
    if (files.recentListPath.empty()) return;  // screenshot mode keeps no history
    addRecentFile(files.recent, path);
    saveRecentFiles(files.recentListPath, files.recent);
}

}  // namespace jl::app
