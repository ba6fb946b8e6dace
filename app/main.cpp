// JointLab — entry point.
//
//   jointlab run ...           the headless runner (runner.h); no window, no GL, no GLFW init
//   jointlab import ...        MJCF or URDF to a scenario (runner/import_cli.h)
//   jointlab export ...        a scenario as MuJoCo MJCF (runner/export_cli.h)
//   jointlab [options] [file]  the desktop app (app.h), or screenshot mode
#include <cstdio>
#include <string>
#include <string_view>

#include "runner/cli.h"
#ifdef JOINTLAB_HAVE_INTEROP
#include "runner/import_cli.h"
#endif
#include "runner/export_cli.h"
#include "runner/runner.h"
#include "runner/runner_args.h"
#include "runner/sweep.h"
#include "shell/app.h"

namespace {

/// `jointlab run ... --video OUT`: the same scenario, with the runner's setting overrides, run and
/// recorded by the app's video mode (off screen; EGL when there is no display).
int renderRunVideo(const jl::runner::RunOptions& run) {
    jl::app::AppOptions app;
    app.scenarioPath = run.scenarioPath;
    app.video = run.video;
    app.frames = static_cast<int>(run.steps);
    app.width = run.videoWidth;
    app.height = run.videoHeight;
    app.adjustScene = [run](jl::Scene& scene) { jl::runner::applyOverrides(run, scene.settings); };
    return jl::app::runApp(app);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string_view(argv[1]) == "run") {
#ifdef JOINTLAB_HAVE_RUNNER
        return runHeadless(argc, argv, renderRunVideo);
#else
        std::fprintf(stderr, "jointlab run: the headless runner is not part of this build\n");
        return 2;
#endif
    }
    if (argc >= 2 && (std::string_view(argv[1]) == "sweep" || std::string_view(argv[1]) == "sweep-merge"))
        return jl::runner::runSweepCommand(argc, argv);
    if (argc >= 2 && std::string_view(argv[1]) == "import") {
#ifdef JOINTLAB_HAVE_INTEROP
        return jl::runner::runImportCommand(argc, argv);
#else
        std::fprintf(
            stderr,
            "jointlab import: MJCF/URDF import is not part of this build (JOINTLAB_BUILD_INTEROP=OFF)\n");
        return 2;
#endif
    }
    if (argc >= 2 && std::string_view(argv[1]) == "sweep-plot") return jl::runner::runSweepPlot(argc, argv);
    if (argc >= 2 && std::string_view(argv[1]) == "export") return jl::runner::runExportCommand(argc, argv);

    jl::app::AppOptions options;
    std::string error;
    switch (jl::app::parseCommandLine(argc, argv, options, error)) {
        case jl::app::ParseOutcome::Help:
            std::fputs(jl::app::usageText().c_str(), stdout);
            return 0;
        case jl::app::ParseOutcome::Version:
            std::printf("jointlab %s\n", JOINTLAB_VERSION);
            return 0;
        case jl::app::ParseOutcome::Error:
            std::fprintf(stderr, "jointlab: %s\n", error.c_str());
            return 64;  // EX_USAGE, as jointlab run
        case jl::app::ParseOutcome::Run:
            break;
    }
    return jl::app::runApp(options);
}
