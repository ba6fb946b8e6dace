// The scenario round trip the fuzzer drives (tests/fuzz/scenario_fuzz.cpp) and the regression
// test replays (tests/engine/fuzz_corpus_test.cpp): one function, so a crash file found by the
// fuzzer is checked by the ordinary test suite in exactly the same way.
#pragma once

#include <string>
#include <string_view>

namespace jl::fuzz {

/// Runs `input` through load → World step ×10 → save (with the run state) → load → save.
///
/// Returns "" when the input is refused cleanly (one-line message, output scene untouched) or
/// when it round-trips: the loaded scene is valid, every body stays finite, the saved file loads
/// back, the two saves are byte-identical, and a World built from the reloaded file is in the same
/// state as the one that was saved and takes the next step identically. Otherwise returns what
/// went wrong (the fuzzer aborts on it).
std::string scenarioRoundTrip(std::string_view input);

}  // namespace jl::fuzz
