# JointLab: the commands of the README.
#
#   make run    install missing Debian packages, build, and open the app on its default scene
#   make test   install missing Debian packages, build, and run the whole test suite
#   make bench  install missing Debian packages (Bullet and ODE included), build jointlab_bench
#               (Release) and run the full benchmark (~5 min): tables on stdout and in
#               docs/bench_results.md, every number in docs/bench_results.csv, the chain1000
#               accuracy sweep in docs/bench_chain1000_accuracy.csv
#
# The build lives in build/ (BUILD_DIR=... to change it); it uses every core (JOBS=... to change).

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
BUILD_TYPE ?= Release

.PHONY: run test bench setup build

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
