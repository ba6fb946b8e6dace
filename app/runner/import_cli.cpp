// `jointlab import` (import_cli.h).
#include "runner/import_cli.h"

#include <cstdio>
#include <string>
#include <string_view>

#include "interop/model_import.h"
#include "jointlab/file_identity.h"
#include "jointlab/scenario_io.h"
#include "runner/runner_args.h"

namespace jl::runner {

namespace {

std::string importUsage() {
    return "usage: jointlab import MODEL.xml|MODEL.urdf -o SCENE.json\n"
           "Turns a MuJoCo model (MJCF, compiled by MuJoCo) or a URDF robot (read by urdfdom) into a\n"
           "JointLab scenario: bodies at their centres of mass with their inertia, joints, couplings\n"
           "(joint equalities, <mimic>) and shapes, Z-up turned to Y-up. What does not map is listed on\n"
           "stderr as one warning. The output is written whole or not at all and never replaces the model.\n";
}

int usageError(const std::string& message) {
    std::fprintf(stderr, "jointlab import: %s\n", message.c_str());
    return kExitUsage;
}

}  // namespace

int runImportCommand(int argc, char** argv) {
    std::string model, output;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(importUsage().c_str(), stdout);
            return kExitOk;
        }
        if (arg == "-o" || arg == "--output") {
            if (i + 1 >= argc)
                return usageError(std::string(arg) + ": missing value (the scenario to write)");
            if (!output.empty()) return usageError(std::string(arg) + ": given twice");
            output = argv[++i];
            continue;
        }
        if (arg.size() > 1 && arg[0] == '-') return usageError("unknown option \"" + std::string(arg) + "\"");
        if (!model.empty()) return usageError("unexpected argument \"" + std::string(arg) + "\" (one model)");
        model = arg;
    }
    if (model.empty()) return usageError("missing the model (MODEL.xml or MODEL.urdf)\n" + importUsage());
    if (output.empty()) return usageError("missing -o SCENE.json (where to write the scenario)");
    if (std::string clash = checkOutputsAgainstInputs({{"the model", model}}, {{"-o", output}});
        !clash.empty())
        return usageError(clash);
    Scene scene;
    std::string warning, error;
    if (!interop::importModel(model, scene, warning, error))
        return usageError(error + "; nothing was written");
    if (!warning.empty()) std::fprintf(stderr, "jointlab import: warning: %s\n", warning.c_str());
    if (!saveScenario(output, scene, error)) {
        std::fprintf(stderr, "jointlab import: %s\n", error.c_str());
        return kExitFile;
    }
    std::printf("jointlab import: %s -> %s: %zu bodies, %zu joints\n", model.c_str(), output.c_str(),
                scene.bodies.size(), scene.joints.size());
    return kExitOk;
}

}  // namespace jl::runner
