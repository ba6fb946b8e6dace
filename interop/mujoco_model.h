// MuJoCo models compiled from MJCF, owned. The one place that calls MuJoCo's XML compiler: the
// importer reads a user's file through it, the exporter's test and the reference run read the
// MJCF that JointLab writes (from memory, through MuJoCo's virtual file system).
#pragma once

#include <memory>
#include <string>

struct mjModel_;
struct mjData_;

namespace jl::interop {

struct ModelDeleter {
    void operator()(mjModel_* m) const;
};
struct DataDeleter {
    void operator()(mjData_* d) const;
};
using ModelPtr = std::unique_ptr<mjModel_, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData_, DataDeleter>;

/// The first compile points MuJoCo's warnings at stderr ("MuJoCo warning: ..."), instead of the
/// MUJOCO_LOG.TXT file its default handler writes into the working directory.
///
/// Compiles the MJCF file at `path` (its includes and meshes relative to it). On failure returns
/// null and sets `error` to MuJoCo's own message (it names the file and line).
ModelPtr compileMjcfFile(const std::string& path, std::string& error);

/// Compiles MJCF held in memory, as if it were a file named `name` (no includes or mesh files).
ModelPtr compileMjcfText(const std::string& xml, const std::string& name, std::string& error);

/// A fresh mjData for `model` (qpos at the model's reference pose, velocities zero).
DataPtr makeData(const mjModel_* model);

}  // namespace jl::interop
