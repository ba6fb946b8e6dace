// The one entry for importing a mechanism from another tool: MJCF or URDF, chosen by the file's
// extension, or by its root element when the extension does not say.
#pragma once

#include <string>

#include "jointlab/scene.h"

namespace jl::interop {

/// The file formats importModel reads.
enum class ModelFormat { Unknown, Mjcf, Urdf };

/// The format of the file at `path`: ".urdf" is URDF; ".xml" and ".mjcf" are MJCF unless the root
/// element is <robot>; otherwise the root element (<mujoco> or <robot>) decides.
ModelFormat modelFormat(const std::string& path);

/// True when `path` names a file importModel would read (by its extension: .xml, .mjcf, .urdf).
bool isImportablePath(const std::string& path);

/// Imports the MJCF or URDF file at `path`. On success `out` holds the scene (it passes
/// validateScene; no source path) and `warning` what was left out or changed, one text ("" if
/// nothing); on failure `error` says why and `out` is untouched.
bool importModel(const std::string& path, Scene& out, std::string& warning, std::string& error);

}  // namespace jl::interop
