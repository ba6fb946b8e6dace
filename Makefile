# JointLab: the commands of the README.
#
#   make run    install missing Debian packages, build, and open the app on its default scene
#   make test   install missing Debian packages, build, and run the whole test suite
#   make bench  install missing Debian packages (Bullet and ODE included), build jointlab_bench
#               (Release) and run the full benchmark (~5 min): tables on stdout and in
#               docs/bench_results.md, every number in docs/bench_results.csv, the chain1000
#               accuracy sweep in docs/bench_chain1000_accuracy.csv; then the app's frame
#               benchmark (jointlab --bench-frames, under xvfb-run): CPU per frame phase by phase
#               for the default scene, 1000 bodies and 200 plotted joints, in docs/bench_app_frames.md;
#               sweep throughput (runs/s on 1 and 2 cores, 100 runs) in docs/bench_sweeps.md; and
#               the video export rate (frames/s at 1280x720, MP4, GIF, PNG) in docs/bench_video.md
#
# Reliability (docs/reliability.md):
#   make sanitize   build with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ and run
#                   the whole test suite there
#   make fuzz       build the libFuzzer target with clang-14 in build-fuzz/ and run the scenario
#                   fuzzer for FUZZ_RUNS executions (default 1 000 000)
#   make valgrind   run every example scenario through `jointlab run` under valgrind
#   make tsan       build the engine tests with ThreadSanitizer in build-tsan/ and run the tests of
#                   the solver threads and of determinism there
#
# Formatting (.clang-format, clang-format-14):
#   make format        apply it to every C++ file
#   make format-check  fail if a file does not follow it (.ci/run runs it)
#
# The build lives in build/ (BUILD_DIR=... to change it); it uses every core (JOBS=... to change).

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
BUILD_TYPE ?= Release

ASAN_BUILD_DIR ?= build-asan
TSAN_BUILD_DIR ?= build-tsan
FUZZ_RUNS ?= 1000000

.PHONY: run test bench setup build sanitize tsan fuzz valgrind format format-check

run: build
	./$(BUILD_DIR)/app/jointlab

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

setup:
	./scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD_DIR) -j $(JOBS)

bench: setup
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD_DIR) --target jointlab_bench -j $(JOBS)
	./$(BUILD_DIR)/bench/jointlab_bench --md docs/bench_results.md --csv docs/bench_results.csv \
		--sweep docs/bench_chain1000_accuracy.csv
	cmake --build $(BUILD_DIR) --target jointlab_bench_history -j $(JOBS)
	./$(BUILD_DIR)/bench/jointlab_bench_history --md docs/bench_history.md
	cmake --build $(BUILD_DIR) --target jointlab_bench_contacts -j $(JOBS)
	./$(BUILD_DIR)/bench/jointlab_bench_contacts --md docs/bench_contacts.md
	cmake --build $(BUILD_DIR) --target jointlab -j $(JOBS)
	./scripts/bench_app_frames.sh ./$(BUILD_DIR)/app/jointlab 300 docs/bench_app_frames.md
	./scripts/bench_sweeps.sh ./$(BUILD_DIR)/app/jointlab docs/bench_sweeps.md
	./scripts/bench_video.sh ./$(BUILD_DIR)/app/jointlab docs/bench_video.md

sanitize: setup
	cmake -S . -B $(ASAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJOINTLAB_SANITIZE=ON
	cmake --build $(ASAN_BUILD_DIR) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir $(ASAN_BUILD_DIR) --output-on-failure -j $(JOBS)

tsan: setup
	cmake -S . -B $(TSAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJOINTLAB_TSAN=ON
	cmake --build $(TSAN_BUILD_DIR) --target jointlab_engine_tests -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		ctest --test-dir $(TSAN_BUILD_DIR) --output-on-failure -j $(JOBS) -R 'WorkerPool|Partition|Threads|Determinism'

fuzz: setup
	./scripts/fuzz.sh -runs=$(FUZZ_RUNS)

valgrind: build
	./scripts/valgrind_examples.sh $(BUILD_DIR)/app/jointlab 200

format: setup
	./scripts/check_format.sh --fix

format-check: setup
	./scripts/check_format.sh
