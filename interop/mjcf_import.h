// MJCF import: MuJoCo's compiler reads the file (defaults, includes, inertias from geoms, frames
// resolved), and the compiled model is mapped onto a JointLab Scene (import_builder.h).
#pragma once

#include <string>

#include "jointlab/scene.h"

struct mjModel_;

namespace jl::interop {

/// Imports the MJCF file at `path`. On success fills `out` and sets `warning` to what was left out
/// or changed ("" when everything mapped); on failure `error` holds MuJoCo's message (file and
/// line) or what JointLab cannot take, and `out` is untouched.
bool importMjcfFile(const std::string& path, Scene& out, std::string& warning, std::string& error);

/// The same for MJCF held in memory (tests), as if it were a file named `name`.
bool importMjcfText(const std::string& xml, const std::string& name, Scene& out, std::string& warning,
                    std::string& error);

/// Maps an already compiled model (its reference pose qpos0).
bool importMjcfModel(const mjModel_* model, const std::string& source, Scene& out, std::string& warning,
                     std::string& error);

}  // namespace jl::interop
