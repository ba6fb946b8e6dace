// jointlab_bench_load: loads one scenario file with loadScenario (read, parse, validate: the
// Scene, no World) and exits, so that bench/load_sizes.py can measure the loader's own time and
// peak memory with /usr/bin/time apart from `jointlab run --steps 0`, which also builds the World
// (its body arrays, solver arrays and collision objects). Exit 0 when the file loads, 64 when it
// is refused (the message on stderr), as the runner does.
#include <cstdio>
#include <string>

#include "jointlab/scenario_io.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: jointlab_bench_load SCENARIO.json\n");
        return 64;
    }
    jl::Scene scene;
    std::string error;
    if (!jl::loadScenario(argv[1], scene, error)) {
        std::fprintf(stderr, "jointlab_bench_load: %s\n", error.c_str());
        return 64;
    }
    std::printf("jointlab_bench_load: %zu bodies, %zu joints\n", scene.bodies.size(), scene.joints.size());
    return 0;
}
