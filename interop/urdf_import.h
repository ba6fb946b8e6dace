// URDF import: urdfdom (the ROS parser) reads the file, and links and joints are mapped onto a
// JointLab Scene (import_builder.h) with their <mimic> couplings, which MuJoCo 2.2.2's own URDF
// reader drops. Mesh files are read by MuJoCo's mesh loader and become convex hulls.
#pragma once

#include <string>

#include "jointlab/scene.h"

namespace jl::interop {

/// Imports the URDF file at `path` (meshes relative to it; package:// looked up beside it). On
/// failure `error` names the file and says what failed (with the line for XML syntax errors) and
/// `out` is untouched; on success `warning` lists what was left out or changed.
bool importUrdfFile(const std::string& path, Scene& out, std::string& warning, std::string& error);

/// The same for URDF text; `name` is used in messages, `directory` to find mesh files.
bool importUrdfText(const std::string& xml, const std::string& name, const std::string& directory, Scene& out,
                    std::string& warning, std::string& error);

}  // namespace jl::interop
