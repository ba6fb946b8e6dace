// The App's file requests: New, Open, Save, Save As, recent files, and the unsaved-changes prompt
// that stands between an edited scene and New, Open or Quit.
#include <GLFW/glfw3.h>

#include <utility>

#include "app.h"
#include "default_scene.h"
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

    if (r.save) {
        if (state_.sim.sourcePath().empty())
            files.saveAsDialogRequested = true;
        else
            saveTo(state_.sim.sourcePath());
    }
    if (r.saveAsDialog) files.saveAsDialogRequested = true;
    if (!r.saveAsPath.empty() && saveTo(r.saveAsPath) && files.pending != PendingAction::None)
        continuePending();

    if (r.promptSave) {
        if (state_.sim.sourcePath().empty())
            files.saveAsDialogRequested = true;  // the pending action continues once saved
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

bool App::saveTo(const std::string& path) {
    Scene scene = state_.sim.scene();
    scene.camera = state_.camera.toState();  // the view goes with the scenario
    std::string error;
    if (!saveScenario(path, scene, error)) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return false;
    }
    state_.sim.setSourcePath(path);
    state_.editor.markSaved();
    rememberRecent(path);
    setMessage("saved " + path, false);
    return true;
}

void App::rememberRecent(const std::string& path) {
    FileState& files = state_.files;
    if (files.recentListPath.empty()) return;  // screenshot mode keeps no history
    addRecentFile(files.recent, path);
    saveRecentFiles(files.recentListPath, files.recent);
}

}  // namespace jl::app
