// libFuzzer target: any bytes through load → step 10 → save → load → save (scenario_roundtrip.h).
// Build and run: scripts/fuzz.sh (docs/reliability.md). Crashes are saved to
// tests/data/fuzz_corpus/, which the normal test suite replays (FuzzCorpus.*).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "scenario_roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string problem =
        jl::fuzz::scenarioRoundTrip(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        std::fprintf(stderr, "scenario round trip failed: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
