// JointLab engine — input log files: a recorded run's user forces (mouse drags), saved next to
// the scenario the run started from, so `jointlab run SCENARIO --input LOG` replays it exactly.
//
// Format: docs/scenario-format.md, section "Input logs". Events name their body, so a log is
// read against the scene it belongs to; every error names the field and the problem
// (`events[3].body: no body named "lid" in the scenario`) and a refused log changes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jointlab/engine_version.h"
#include "jointlab/input_log.h"
#include "jointlab/scene.h"

namespace jl {

inline constexpr const char* kInputLogFormatName = "jointlab-input";
inline constexpr int kInputLogFormatVersion = 1;

/// A recorded stretch of a run: the forces, and the steps it covers.
struct InputRecording {
    int64_t startStep = 0;  ///< the world's stepCount() when recording began (the scenario's start)
    int64_t endStep = 0;    ///< stepCount() when it was saved; replay runs endStep − startStep steps
    /// kEngineResultsVersion of the engine that recorded it: a replay by another version may end
    /// in another state (jointlab/engine_version.h). A log without one is version 1.
    int engineVersion = kEngineResultsVersion;
    std::optional<uint64_t> finalStateHash;  ///< World::stateHash() at endStep, to check a replay
    InputLog log;
};

/// The step a World built from `scene` starts at: its saved state's step, else 0.
int64_t startStepOf(const Scene& scene);

/// JSON text of a recording; body indices are written as the scene's body names.
std::string serializeInputRecording(const InputRecording& recording, const Scene& scene);

/// Parses a log for `scene`: format and version, steps within [startStep, endStep) and in order,
/// bodies that exist and are dynamic, finite forces and points, startStep equal to the scene's
/// start. On failure sets `error` (one line, "field: problem") and leaves `out` unchanged.
bool parseInputRecording(std::string_view text, const Scene& scene, InputRecording& out, std::string& error);

/// Reads and parses a file (errors are prefixed with the file path).
bool loadInputRecording(const std::string& path, const Scene& scene, InputRecording& out, std::string& error);

/// Writes the log atomically (saveTextAtomically: temp file, rename, previous version as .bak).
bool saveInputRecording(const std::string& path, const InputRecording& recording, const Scene& scene,
                        std::string& error);

}  // namespace jl
