// `jointlab import MODEL.xml|MODEL.urdf -o SCENE.json`: a MuJoCo (MJCF) or URDF model turned into a
// JointLab scenario (interop/model_import.h), written atomically as a save is.
#pragma once

namespace jl::runner {

/// argv[1] is "import". Exit codes as `jointlab run` (runner_args.h): 0, 64 for bad arguments or a
/// model that cannot be imported (nothing written), 2 when the output cannot be written.
int runImportCommand(int argc, char** argv);

}  // namespace jl::runner
