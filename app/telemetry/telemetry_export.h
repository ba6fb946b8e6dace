// JointLab app — saving the recorded telemetry: the window as CSV, written atomically.
#pragma once

#include <string>

#include "jointlab/telemetry.h"

namespace jl::app {

/// Writes `text` to `path` so that `path` is either the old file or the complete new one, never a
/// partial write: a temporary file next to it is written, flushed and renamed over it. On failure
/// returns false, sets `error` (naming the path and the reason) and leaves no temporary file.
bool writeFileAtomically(const std::string& path, const std::string& text, std::string& error);

/// The recorded window as CSV (Telemetry::csv: the same columns as `jointlab run --csv`), written
/// atomically. `scene` is the one the telemetry was recorded with (names and joint types).
bool exportTelemetryCsv(const Telemetry& telemetry, const Scene& scene, const std::string& path,
                        std::string& error);

}  // namespace jl::app
