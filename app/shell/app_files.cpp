// The App's side of the file flow (session/file_flow.h decides): New, Open, Save, Save As, Save snapshot
// and Save run carried out on the App's Simulation and window.
#include <GLFW/glfw3.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "jointlab/file_identity.h"
#include "jointlab/history_io.h"
#include "jointlab/input_log_io.h"
#include "jointlab/scenario_io.h"
#include "session/default_scene.h"
#include "session/file_flow.h"
#include "shell/app.h"
#ifdef JOINTLAB_HAVE_INTEROP
#include "panels/import_dialog.h"
#endif

namespace jl::app {

namespace {

/// The output guard of `jointlab import`, in the app: the model a scene was imported from is an
/// input, never an output. "" when `path` is another file.
std::string importClash(const AppState& state, const std::string& path, const char* what) {
    if (state.importedModelPath.empty() || !sameFile(path, state.importedModelPath)) return "";
    return std::string(what) + " would write over " + path +
           ", the model the scene was imported from; nothing was written (choose another name)";
}

}  // namespace

void App::carryOut(PendingAction action, const std::string& path) {
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
            openFile(path);
            break;
        case PendingAction::Showcase:
            if (state_.sim.setScene(makeBuiltInShowcase(), "", error))
                onSceneLoaded("built-in showcase");
            else
                setMessage(error, true);
            break;
        case PendingAction::Quit:
            if (window_) glfwSetWindowShouldClose(window_, GLFW_TRUE);
            break;
    }
}

void App::openFile(const std::string& path) {
    std::string error;
#ifdef JOINTLAB_HAVE_INTEROP
    if (isImportPath(path)) {  // a MuJoCo or URDF model: imported as an untitled scene
        Scene scene;
        std::string warning;
        if (!importModelFile(path, scene, warning, error) ||
            !state_.sim.setScene(std::move(scene), "", error)) {
            setMessage(error, true);  // and the scene stays as it was
            state_.files.errorPopup = error;
            return;
        }
        rememberRecentFile(state_.files, path);
        onSceneLoaded("imported " + path +
                      (warning.empty() ? "" : "; some parts were left out (see the notice)"));
        state_.importWarning = warning.empty() ? "" : "Imported " + path + ". " + warning;
        state_.importedModelPath = path;
        return;
    }
#endif
    if (!openDocument(state_.sim, state_.files, path, error)) {
        setMessage(error, true);  // and the scene stays as it was
        return;
    }
    onSceneLoaded("opened " + path);
}

Scene App::withCamera(Scene scene) const {
    scene.camera = state_.camera.toState();  // the view goes with the scenario
    return scene;
}

bool App::saveScene(const std::string& path) {
    // The scene as set up, with the state it starts from if it was opened from a mid-run save.
    std::string error;
    if (std::string error = importClash(state_, path, "Save"); !error.empty()) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return false;
    }
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
    rememberRecentFile(state_.files, path);
    setMessage("saved " + path, false);
    return true;
}

bool App::refuseOverwritingDocument(const std::string& path, const char* what) {
    if (std::string error = importClash(state_, path, what); !error.empty()) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return true;
    }
    const std::string& source = state_.sim.sourcePath();
    if (!sameFile(path, source)) return false;  // as files: links and other spellings included
    const std::string error = std::string(what) + " is a copy and never replaces the scene's own file " +
                              source + "; choose another name (File > Save writes the scene itself)";
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
    // The log is a second output: it must not be the document (a document called NAME.input.json)
    // nor, through a link, the scenario written next to it.
    if (std::string clash = checkOutputsAgainstInputs({{"the scene's own file", state_.sim.sourcePath()}},
                                                      {{"Save run", path}, {"its input log", logPath}});
        !clash.empty()) {
        setMessage(clash, true);
        state_.files.errorPopup = clash;
        return false;
    }
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

bool App::saveWithHistory(const std::string& path) {
    if (refuseOverwritingDocument(path, "Save run with its history")) return false;
    const std::string historyPath = historyPathFor(path);
    if (std::string clash =
            checkOutputsAgainstInputs({{"the scene's own file", state_.sim.sourcePath()}},
                                      {{"Save run with its history", path}, {"its history", historyPath}});
        !clash.empty()) {
        setMessage(clash, true);
        state_.files.errorPopup = clash;
        return false;
    }
    // The history is checked against the text of the scenario it started from: write exactly that.
    const Scene start = withCamera(state_.sim.historyScene());
    std::string error;
    if (!saveScenario(path, start, error) || !saveHistory(historyPath, state_.sim.history(), start, error)) {
        setMessage(error, true);
        state_.files.errorPopup = error;
        return false;
    }
    setMessage("saved the run with its history: " + path + " and " + historyPath + " (steps " +
                   std::to_string(state_.sim.history().firstStep()) + " to " +
                   std::to_string(state_.sim.history().lastStep()) + ")",
               false);
    return true;
}

}  // namespace jl::app
