// JointLab engine — scenario files (JSON): load with validation, save atomically.
//
// Format: see docs/scenario-format.md. Every error names the path of the offending value and the
// problem, e.g. `joints[3].body1: no body named "lever"` or `bodies[0].mass: must be > 0, got -2`.
// A failed load leaves the output scene untouched; a failed save leaves the existing file (and its
// .bak) intact. Files of older format versions are migrated on load; newer ones are refused.
#pragma once

#include <string>
#include <string_view>

#include "jointlab/scene.h"

namespace jl {

inline constexpr const char* kScenarioFormatName = "jointlab-scenario";
/// The version this JointLab writes. Older versions load (migrated in memory); newer are refused.
/// 2: the optional "state" section (Scene::state).
inline constexpr int kScenarioFormatVersion = 2;

/// Checks a scene built in memory (editor, tests): ranges, NaN/Inf, unit quaternions, unique
/// names, body references, cross-field rules. Returns "" when valid, else "path: problem".
std::string validateScene(const Scene& scene);

/// Parses and validates scenario JSON text. On success fills `out` and returns true; on failure
/// sets `error` to one line naming the field and the problem and leaves `out` unchanged.
bool parseScenario(std::string_view text, Scene& out, std::string& error);

/// Reads and parses a file (errors are prefixed with the file path).
bool loadScenario(const std::string& path, Scene& out, std::string& error);

/// Serializes a scene to JSON text. Deterministic: save → load → save is byte-identical, and
/// numbers are written with full precision so load → save → load gives the same scene.
std::string serializeScenario(const Scene& scene);

/// Writes the scene atomically: temp file in the same directory, flush, rename over `path`. The
/// previous content of `path`, if any, is kept as `<path>.bak`. A failed save changes neither
/// `path` nor `<path>.bak`.
bool saveScenario(const std::string& path, const Scene& scene, std::string& error);

/// The atomic write behind saveScenario, for any text JointLab saves (input logs, the app's
/// recovery files): temp file, fsync, the previous content kept as `<path>.bak`, rename, and a
/// failure leaves `path` and `<path>.bak` as they were. Errors read "cannot save PATH (step): why".
bool saveTextAtomically(const std::string& path, const std::string& text, std::string& error);

}  // namespace jl
