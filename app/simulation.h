// JointLab app — the scene being shown and the World running it.
//
// Holds the Scene (descriptions, what files store) and a World built from it. Reset rebuilds the
// World from the Scene. Loading a file that fails leaves everything as it was.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jointlab/scene.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"
#include "drag_spring.h"
#include "sim_clock.h"

namespace jl::app {

/// Names changed by an edit: (old name, new name) pairs.
using Renames = std::vector<std::pair<std::string, std::string>>;

class Simulation {
public:
    /// Replaces the scene and builds a fresh World. `sourcePath` is shown in the UI ("" = built in).
    bool setScene(Scene scene, std::string sourcePath, std::string& error);
    /// Loads a scenario file; on failure sets `error` and keeps the current scene.
    bool loadFile(const std::string& path, std::string& error);
    /// Rebuilds the World from the Scene: time 0, initial poses and velocities.
    bool reset(std::string& error);
    /// Makes an edited scene current between steps without restarting the simulation
    /// (World::applyScene): bodies and joints keep their running state, matched by name, and
    /// renamed ones keep theirs too. An invalid scene is refused: `error` names the field and the
    /// problem, and nothing changes.
    bool applyEdit(Scene edited, const Renames& bodyRenames, const Renames& jointRenames, std::string& error);
    /// The file the scene is saved to ("" = never saved).
    void setSourcePath(std::string path) { sourcePath_ = std::move(path); }

    /// Advances by the clock's verdict for a frame of `frameSeconds`; returns the steps taken.
    int advance(double frameSeconds);

    const Scene& scene() const { return scene_; }
    const World* world() const { return world_.get(); }
    World* world() { return world_.get(); }
    const std::string& sourcePath() const { return sourcePath_; }

    /// What the solver did in the recorded window, one sample per step (recorded after every
    /// step). Cleared when the World is rebuilt and when the joints change (its joint indices
    /// are the scene's).
    const Telemetry& telemetry() const { return telemetry_; }
    /// Length of the recorded window in simulated seconds (default 10 s: 600 steps at 60 Hz).
    /// A new length clears the record at the next step.
    void setTelemetrySeconds(double seconds) { telemetrySeconds_ = seconds; }
    double telemetrySeconds() const { return telemetrySeconds_; }

    SimClock clock;
    /// The mouse spring, while a body is being dragged: applied before every step.
    std::optional<DragSpring> drag;

private:
    /// Clears the telemetry when its window length or the scene's joints changed.
    void syncTelemetry();

    Scene scene_;
    std::unique_ptr<World> world_;
    std::string sourcePath_;
    Telemetry telemetry_{600};
    double telemetrySeconds_ = 10.0;
    std::vector<std::string> telemetryJoints_;  ///< joint names the telemetry's indices refer to
};

}  // namespace jl::app
