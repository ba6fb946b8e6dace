// File > Import: a MuJoCo (MJCF .xml) or URDF (.urdf) model opened as a new, untitled scene
// (interop/model_import.h). Built only with the interop library (JOINTLAB_HAVE_INTEROP).
#pragma once

#include <string>

#include "jointlab/scene.h"

namespace jl::app {

struct AppState;
struct UiRequests;

/// The Import dialog (a path field; Import asks to open the file, which the file flow imports)
/// and the notice listing what an import left out. Call every frame.
void drawImportDialog(AppState& state, UiRequests& requests);

/// True when opening `path` means importing it (.xml, .mjcf, .urdf).
bool isImportPath(const std::string& path);

/// Imports `path`; `warning` lists what was left out ("" if nothing). False with `error` set when
/// the model cannot be imported (the parser's message).
bool importModelFile(const std::string& path, Scene& out, std::string& warning, std::string& error);

}  // namespace jl::app
