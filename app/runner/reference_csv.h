// JointLab runner — `jointlab run --reference mujoco --reference-csv OUT.csv`: MuJoCo beside the
// run (interop/reference_run.h), one CSV line per step. Without the interop library in the build
// (JOINTLAB_BUILD_INTEROP=OFF), start() refuses with a message saying so.
#pragma once

#include <memory>
#include <string>

#include "jointlab/world.h"

namespace jl::runner {

class ReferenceCsv {
public:
    ReferenceCsv();
    ~ReferenceCsv();
    /// Starts MuJoCo from `world`'s state and writes the CSV header; false with `error` when the
    /// scene cannot be run there (its joints close a loop, ...) or this build has no MuJoCo.
    bool start(const World& world, std::string& error);
    bool running() const;
    /// After world.step(): one mj_step, and the step's line.
    void step(const World& world);
    /// The CSV so far; the caller writes and clears it.
    std::string& text() { return text_; }
    /// One line for the run's summary (largest divergence, MuJoCo's own divergence), "" if not running.
    std::string summary() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::string text_;
};

/// `name` as one CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string csvField(const std::string& name);

}  // namespace jl::runner
