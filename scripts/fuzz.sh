#!/usr/bin/env bash
# Builds and runs the scenario fuzzer: libFuzzer + ASan + UBSan with clang-14, over
#   load → World step ×10 → save (with the run state) → load → save, the two saves byte-identical
# (tests/fuzz/scenario_roundtrip.cpp). See docs/reliability.md.
#
#   scripts/fuzz.sh                      build, then fuzz until stopped (Ctrl-C)
#   scripts/fuzz.sh -runs=1000000        build, then stop after 1 000 000 executions
#   scripts/fuzz.sh -jobs=2 -workers=2   two fuzzing processes (logs in fuzz-N.log)
#   FUZZ_BUILD_ONLY=1 scripts/fuzz.sh    only build
#   scripts/fuzz.sh CRASH_FILE           replay one input (e.g. a crash-* artifact) and exit
#
# Seeds: assets/scenarios/ and tests/data/fuzz_corpus/ (read only). New interesting inputs go to
# $BUILD_DIR/corpus; crash, timeout and out-of-memory inputs to tests/data/fuzz_corpus/ as
# crash-*, timeout-*, oom-*: once fixed, keep them there (rename them to say what they were) and
# FuzzCorpus.SavedInputsRoundTrip replays them in every `make test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build-fuzz}
CXX_COMPILER=${FUZZ_CXX:-clang++-14}
C_COMPILER=${FUZZ_CC:-clang-14}

if ! command -v "$CXX_COMPILER" >/dev/null; then
  echo "fuzz.sh: $CXX_COMPILER not found; run scripts/setup.sh (it installs clang-14 and libclang-rt-14-dev)" >&2
  exit 1
fi

cmake -S . -B "$BUILD_DIR" -DJOINTLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="$CXX_COMPILER" -DCMAKE_C_COMPILER="$C_COMPILER" >/dev/null
cmake --build "$BUILD_DIR" -j "${JOBS:-$(nproc)}" --target jointlab_fuzz_scenario
[[ -n ${FUZZ_BUILD_ONLY:-} ]] && exit 0

fuzzer="$BUILD_DIR/tests/fuzz/jointlab_fuzz_scenario"
# A single file argument: replay it.
if [[ $# -eq 1 && -f $1 ]]; then
  exec "$fuzzer" "$1"
fi

mkdir -p "$BUILD_DIR/corpus"
# UBSan must abort (and print a stack) so libFuzzer records the input as a crash.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
exec "$fuzzer" \
  -dict=tests/fuzz/scenario.dict \
  -artifact_prefix=tests/data/fuzz_corpus/ \
  -timeout=30 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
  "$@" \
  "$BUILD_DIR/corpus" assets/scenarios tests/data/fuzz_corpus
