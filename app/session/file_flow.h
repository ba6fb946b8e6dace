// JointLab app — what New, Open, Save and Quit do, and the unsaved-changes prompt between an
// edited scene and New, Open or Quit: the decisions, without a window or ImGui.
//
// The panels raise FileRequests (part of UiRequests); applyFileRequests decides what follows and
// has it carried out through FileEffects (the App: its Simulation, its window). The unit tests
// drive the same function with effects that record what was asked of them
// (tests/app/file_flow_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "session/recovery.h"

namespace jl::app {

class Simulation;

/// What the save dialog writes: the scene (Save As), the scene with the current run state (a
/// snapshot: opening it continues the run), the recorded run (scenario + input log), or the run's
/// whole history (the scenario it started from + NAME.history.json: every step, every branch).
enum class SaveKind { Scene, Snapshot, Run, History };

/// What waits for the unsaved-changes prompt.
enum class PendingAction { None, New, Open, Showcase, Quit };

struct FileState {
    std::vector<std::string> recent;  ///< File > Open recent, most recent first
    std::string recentListPath;       ///< where `recent` is kept ("" = not kept: screenshot mode)
    std::string saveAsInput;          ///< text of the Save As dialog
    bool saveAsDialogRequested = false;
    SaveKind saveKind = SaveKind::Scene;  ///< what the open save dialog writes
    PendingAction pending = PendingAction::None;
    std::string pendingPath;       ///< PendingAction::Open: the file to open
    bool promptRequested = false;  ///< open the unsaved-changes prompt this frame
    bool quitConfirmed = false;    ///< quitting without saving was confirmed
    std::string errorPopup;        ///< non-empty: a modal shows this (a file that failed to open)
    /// Autosaves left by a crash, offered one at a time on start (newest first).
    std::vector<RecoveryInfo> recoveries;
    size_t recoveryCount = 0;  ///< how many there were when the prompt opened ("1 of 3")
    double nowSeconds = 0.0;   ///< wall clock (seconds since 1970) when the prompt is drawn
};

/// The file requests of one frame (menus, shortcuts, the file dialogs and prompts).
struct FileRequests {
    bool quit = false;
    bool reload = false;       ///< open the document's file again
    std::string openPath;      ///< non-empty: load this scenario
    bool loadBuiltIn = false;  ///< switch to the built-in showcase
    bool newScene = false;
    bool save = false;  ///< to the current file (Save As when it has none)
    bool saveAsDialog = false;
    bool saveSnapshotDialog = false;  ///< File > Save snapshot with current state...
    bool saveRunDialog = false;       ///< File > Save run with mouse input...
    bool saveHistoryDialog = false;   ///< File > Save run with its history...
    std::string saveAsPath;           ///< non-empty: save to this file (what FileState::saveKind says)
    SaveKind saveAsKind = SaveKind::Scene;
    bool promptSave = false;     ///< unsaved-changes prompt (or the save dialog): save, then continue
    bool promptDiscard = false;  ///< unsaved-changes prompt: continue without saving
    bool promptCancel = false;   ///< unsaved-changes prompt or save dialog cancelled: nothing happens
};

/// What the file flow needs done; the App does it for real.
class FileEffects {
public:
    virtual ~FileEffects() = default;
    /// The scene has edits that are not in its file.
    virtual bool unsaved() const = 0;
    /// The document's file ("" = untitled).
    virtual std::string sourcePath() const = 0;
    /// Writes the scene to `path` (Save, Save As); false (with a message shown) when it cannot.
    virtual bool saveScene(const std::string& path) = 0;
    virtual bool saveSnapshot(const std::string& path) = 0;
    virtual bool saveRun(const std::string& path) = 0;
    virtual bool saveWithHistory(const std::string& path) = 0;
    /// Carries out New, Open (`path`), Showcase or Quit, now.
    virtual void carryOut(PendingAction action, const std::string& path) = 0;
};

/// Applies one frame's file requests. New, Open, reload, Showcase and Quit run at once on a
/// clean scene; with unsaved edits they wait (FileState::pending) for the prompt
/// (FileState::promptRequested): Save writes the scene (asking where first when it is untitled)
/// and then continues, "Don't save" continues, Cancel drops the action. A failed save drops it
/// too, so nothing is lost. Quit asks once: after "Don't save" it goes without asking again.
void applyFileRequests(const FileRequests& requests, FileState& files, FileEffects& effects);

/// The window's close button: true when the app may close at once (no unsaved edits, or quitting
/// without saving was confirmed); otherwise the App asks with a Quit request.
inline bool mayQuitNow(const FileState& files, bool unsaved) {
    return !unsaved || files.quitConfirmed;
}

/// Opens `path` as the document. On failure returns false with the loader's message in `error`
/// (also put in FileState::errorPopup, which the app shows), and `sim` is left exactly as it was
/// (Simulation::loadFile). On success the file goes to the front of the recent list.
bool openDocument(Simulation& sim, FileState& files, const std::string& path, std::string& error);

/// Puts `path` at the front of the recent list and writes the list to FileState::recentListPath
/// (nothing is kept when that is empty: screenshot mode).
void rememberRecentFile(FileState& files, const std::string& path);

}  // namespace jl::app
