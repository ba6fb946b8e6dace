// JointLab — `jointlab export SCENE.json -o MODEL.xml`: the tree part of a scenario as MJCF
// (interop/mjcf_export.h), written whole or not at all, never over its input.
#pragma once

namespace jl::runner {

/// argv[1] is "export". Exit codes as the runner's: 0 written (what was left out is listed on
/// stderr), 2 the scenario cannot be read or the output written, 64 bad arguments or nothing to
/// export.
int runExportCommand(int argc, char** argv);

}  // namespace jl::runner
