// JointLab — `jointlab export` (runner/export_cli.h).
#include "runner/export_cli.h"

#include <cstdio>
#include <string>
#include <string_view>

#include "jointlab/file_identity.h"
#include "jointlab/scenario_io.h"
#include "runner/output_file.h"
#include "runner/runner_args.h"

#ifdef JOINTLAB_HAVE_INTEROP
#include "interop/mjcf_export.h"
#endif

namespace jl::runner {

namespace {

const char* kUsage =
    "usage: jointlab export SCENARIO.json -o MODEL.xml\n"
    "\n"
    "Writes the scenario as a MuJoCo model (MJCF): its joints walked from the world into MuJoCo's\n"
    "tree (revolute -> hinge, prismatic -> slide, spherical -> ball, fixed -> welded body, a dynamic\n"
    "body without a joint -> free joint, gears and racks that are a law between two tree joints ->\n"
    "joint equalities, pulleys -> limited spatial tendons), Y-up turned\n"
    "Z-up, masses and inertias as JointLab's. Joints that close a loop or have no MuJoCo counterpart\n"
    "are left out and listed on stderr (docs/reference.md).\n"
    "\n"
    "  -o, --output MODEL.xml  where the model goes (never the scenario itself)\n"
    "  -h, --help              this text\n";

int usage(const std::string& message) {
    std::fprintf(stderr, "jointlab export: %s\n", message.c_str());
    return kExitUsage;
}

}  // namespace

int runExportCommand(int argc, char** argv) {
    std::string input, output;
    for (int i = 2; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return kExitOk;
        }
        if (a == "-o" || a == "--output") {
            if (i + 1 >= argc) return usage(std::string(a) + ": expected a file name (MODEL.xml)");
            output = argv[++i];
            if (output.empty()) return usage(std::string(a) + ": empty file name");
        } else if (a.rfind("--output=", 0) == 0) {
            output = std::string(a.substr(9));
            if (output.empty()) return usage("--output: empty file name");
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option \"" + std::string(a) + "\" (see jointlab export --help)");
        } else if (input.empty()) {
            input = std::string(a);
        } else {
            return usage("one scenario at a time: \"" + input + "\" and \"" + std::string(a) + "\"");
        }
    }
    if (input.empty())
        return usage("missing SCENARIO.json (usage: jointlab export SCENARIO.json -o MODEL.xml)");
    if (output.empty()) return usage("missing -o MODEL.xml (where the model goes)");
    if (std::string clash = checkOutputsAgainstInputs({{"the scenario", input}}, {{"-o", output}});
        !clash.empty())
        return usage(clash);
#ifdef JOINTLAB_HAVE_INTEROP
    Scene scene;
    std::string error;
    if (!loadScenario(input, scene, error)) {
        std::fprintf(stderr, "jointlab export: %s; nothing was written\n", error.c_str());
        return kExitFile;
    }
    const interop::MjcfExport e = interop::exportScene(scene);
    if (!e.error.empty()) return usage(e.error + "; nothing was written");
    // MuJoCo would refuse the model with its XML reader's error: say why before writing it.
    if (!e.tooDeep.empty()) return usage(e.tooDeep + "; nothing was written");
    OutputFile file;
    if (!file.open(output, error)) {
        std::fprintf(stderr, "jointlab export: %s\n", error.c_str());
        return kExitFile;
    }
    file.write(e.xml);
    if (!file.commit(error)) {
        std::fprintf(stderr, "jointlab export: %s\n", error.c_str());
        return kExitFile;
    }
    int bodies = 0;
    for (const int b : e.tree.order) bodies += b >= 0;
    std::printf("jointlab export: %s: %d moving %s, %zu %s left out\n", output.c_str(), bodies,
                bodies == 1 ? "body" : "bodies", e.omitted.size(),
                e.omitted.size() == 1 ? "joint" : "joints");
    for (const std::string& s : interop::groupedLines(e.omitted))
        std::fprintf(stderr, "jointlab export: left out: %s\n", s.c_str());
    for (const std::string& s : interop::groupedLines(e.notes))
        std::fprintf(stderr, "jointlab export: differs: %s\n", s.c_str());
    if (!e.tooLarge.empty()) std::fprintf(stderr, "jointlab export: differs: %s\n", e.tooLarge.c_str());
    return kExitOk;
#else
    return usage("this build has no MuJoCo export (configured with JOINTLAB_BUILD_INTEROP=OFF)");
#endif
}

}  // namespace jl::runner
