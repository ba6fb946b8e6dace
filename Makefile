# JointLab: the two commands of the README.
#
#   make run    install missing Debian packages, build, and open the app on its default scene
#   make test   install missing Debian packages, build, and run the whole test suite
#
# The build lives in build/ (BUILD_DIR=... to change it); it uses every core (JOBS=... to change).

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
BUILD_TYPE ?= Release

.PHONY: run test setup build

run: build
	./$(BUILD_DIR)/app/jointlab

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

setup:
	./scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD_DIR) -j $(JOBS)
