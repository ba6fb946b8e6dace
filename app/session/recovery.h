// JointLab app — autosave to a recovery file, and finding recovery files after a crash.
//
// Every 2 minutes (wall clock) of a session with unsaved changes or a running simulation, the app
// writes the scene with its current run state to a recovery file of its own: never the user's
// file. Recovery files live in $XDG_STATE_HOME/jointlab/recovery (else
// ~/.local/state/jointlab/recovery), one per document and process:
//
//   door_limits-1f3a9c0e5b27d4a8-4711.json    autosave of .../door_limits.json by process 4711
//   untitled-4711.json                        autosave of an untitled scene
//
// A recovery file is an ordinary scenario file (it opens anywhere and continues the run bit for
// bit) with an "app" section, which scenario loaders accept and ignore, saying what it is:
//
//   "app": {"recovery": {"document": "/home/ana/door_limits.json", "autosavedAt": 1795336800,
//                        "pid": 4711, "documentHasState": false}}
//
// A save, a clean exit, or leaving the document (New, Open) deletes it; a crash leaves it behind,
// and the next start offers it (findRecoveryFiles skips files of processes still running).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "jointlab/scene.h"

namespace jl::app {

inline constexpr double kDefaultAutosaveSeconds = 120.0;

/// $XDG_STATE_HOME/jointlab/recovery, else $HOME/.local/state/jointlab/recovery; "" when neither is set.
std::string defaultRecoveryDir();

/// What a recovery file says about itself, plus what the prompt shows.
struct RecoveryInfo {
    std::string path;               ///< the recovery file
    std::string document;           ///< the user's file it autosaves ("" = an untitled scene)
    int64_t autosavedAt = 0;        ///< when, in seconds since 1970 (UTC)
    long pid = 0;                   ///< the process that wrote it
    bool documentHasState = false;  ///< the document itself starts from a saved run state
    // Read from the scenario, for the prompt:
    int64_t step = 0;   ///< the run's step when autosaved
    double time = 0.0;  ///< the run's time [s]
    size_t bodies = 0, joints = 0;
};

/// The recovery file for `document` ("" = untitled) written by process `pid` in `dir`. Never the
/// same file as `document` (nor its .bak), even when the document lives in `dir`.
std::string recoveryPathFor(const std::string& dir, const std::string& document, long pid);

/// The scenario text of `scene` with the "app" recovery section of `info` added.
std::string recoveryFileText(const Scene& scene, const RecoveryInfo& info);

/// Writes a recovery file atomically (jl::saveTextAtomically), creating `dir` if needed.
bool writeRecoveryFile(const std::string& path, const Scene& scene, const RecoveryInfo& info,
                       std::string& error);

/// Loads a recovery file: the scene (with its run state) and its recovery section. A file that
/// is not a valid scenario, or has no recovery section, is refused with the loader's message.
bool readRecoveryFile(const std::string& path, Scene& scene, RecoveryInfo& info, std::string& error);

class Simulation;

/// Recover: opens the recovery file `path` in `sim`, running from the autosaved state, as the
/// document it autosaved (sim.sourcePath() = info.document, so Save writes the user's file). The
/// document starts from a saved state only if its own file did (info.documentHasState); otherwise
/// Reset goes to t = 0. On failure `error` says why and `sim` is unchanged.
bool openRecoveryFile(Simulation& sim, const std::string& path, RecoveryInfo& info, std::string& error);

/// True when process `pid` is running (kill(pid, 0)).
bool processIsRunning(long pid);

/// The recovery files in `dir` left by processes that are no longer running, newest first. Files
/// that cannot be read as recovery files are skipped (left alone).
std::vector<RecoveryInfo> findRecoveryFiles(const std::string& dir,
                                            const std::function<bool(long)>& isRunning = processIsRunning);

/// Deletes a recovery file and the .bak / .tmp files its saves left next to it.
void removeRecoveryFile(const std::string& path);

/// When to autosave: every `interval` seconds of wall clock, and only if something changed since
/// the last autosave — the scene was edited and is unsaved, or the simulation advanced. Times are
/// passed in (seconds on any monotonic clock), so tests need no waiting.
class AutosaveTimer {
public:
    explicit AutosaveTimer(double intervalSeconds = kDefaultAutosaveSeconds) : interval_(intervalSeconds) {}

    /// What the autosave would save: has it changed since the last autosave?
    struct Work {
        bool unsaved = false;   ///< the editor has unsaved changes
        uint64_t revision = 0;  ///< the editor's revision (changes with every edit, undo, redo)
        int64_t stepsRun = 0;   ///< steps since the document was opened or reset
        int64_t step = 0;       ///< the world's step count
    };

    double interval() const { return interval_; }
    /// 0 or less: never autosave.
    void setInterval(double seconds) { interval_ = seconds; }
    /// Starts the interval again at `now` (a new document, a save) and forgets what was autosaved.
    void restart(double now);
    /// True when an autosave is due at `now` for `work`.
    bool due(double now, const Work& work) const;
    /// Call after writing the recovery file at `now`.
    void saved(double now, const Work& work);

private:
    double interval_;
    double start_ = 0.0;
    bool savedOnce_ = false;
    uint64_t savedRevision_ = 0;
    int64_t savedStep_ = 0;
};

}  // namespace jl::app
