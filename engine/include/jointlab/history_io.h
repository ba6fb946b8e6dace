// JointLab engine — history files: a run's History (keyframes, forces, marks, branches) saved
// beside its scenario, NAME.json → NAME.history.json, and read back to the same bits.
//
// A history belongs to one scenario and one engine: the file records the hash of the scenario's
// text (serializeScenario) and kEngineResultsVersion, and a file that does not match the scenario
// it is opened with (another scenario, an edited one, another engine's results, a truncated or
// damaged keyframe) is refused with one line saying which; the scenario still opens without it.
// Format: docs/scenario-format.md, "History files".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "jointlab/history.h"
#include "jointlab/scene.h"

namespace jl {

inline constexpr const char* kHistoryFormatName = "jointlab-history";
/// 3: keyframes packed as packSnapshot does now (2: quaternion w XORed with the body before's
/// rather than predicted from x, y, z; 1: runs of zero words only; both refused).
inline constexpr int kHistoryFormatVersion = 3;

/// Where the history of scenario `path` goes: NAME.json → NAME.history.json (else PATH.history.json).
std::string historyPathFor(const std::string& scenarioPath);

/// FNV-1a of serializeScenario(scene): what a history file is checked against.
uint64_t scenarioHash(const Scene& scene);

/// JSON text of a history that started from `scene` (the scenario saved beside it).
std::string serializeHistory(const History& history, const Scene& scene);

/// Parses a history for `scene`. On failure sets `error` (one line, "field: problem") and leaves
/// `out` unchanged.
bool parseHistory(std::string_view text, const Scene& scene, History& out, std::string& error);
bool loadHistory(const std::string& path, const Scene& scene, History& out, std::string& error);
/// Writes it atomically (saveTextAtomically).
bool saveHistory(const std::string& path, const History& history, const Scene& scene, std::string& error);

}  // namespace jl
