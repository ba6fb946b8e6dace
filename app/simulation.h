// JointLab app — the scene being shown and the World running it.
//
// Holds the Scene (descriptions, what files store) and a World built from it. Reset rebuilds the
// World from the Scene. Loading a file that fails leaves everything as it was.
#pragma once

#include <memory>
#include <string>

#include "jointlab/scene.h"
#include "jointlab/world.h"
#include "sim_clock.h"

namespace jl::app {

class Simulation {
public:
    /// Replaces the scene and builds a fresh World. `sourcePath` is shown in the UI ("" = built in).
    bool setScene(Scene scene, std::string sourcePath, std::string& error);
    /// Loads a scenario file; on failure sets `error` and keeps the current scene.
    bool loadFile(const std::string& path, std::string& error);
    /// Rebuilds the World from the Scene: time 0, initial poses and velocities.
    bool reset(std::string& error);

    /// Advances by the clock's verdict for a frame of `frameSeconds`; returns the steps taken.
    int advance(double frameSeconds);

    const Scene& scene() const { return scene_; }
    const World* world() const { return world_.get(); }
    World* world() { return world_.get(); }
    const std::string& sourcePath() const { return sourcePath_; }

    SimClock clock;

private:
    Scene scene_;
    std::unique_ptr<World> world_;
    std::string sourcePath_;
};

}  // namespace jl::app
