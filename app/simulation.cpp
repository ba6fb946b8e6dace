#include "simulation.h"

#include <exception>

#include "jointlab/scenario_io.h"

namespace jl::app {

namespace {

/// Builds a World, turning a validation problem or an exception into a message.
std::unique_ptr<World> buildWorld(const Scene& scene, std::string& error) {
    std::string problem = validateScene(scene);
    if (!problem.empty()) {
        error = problem;
        return nullptr;
    }
    try {
        return std::make_unique<World>(scene);
    } catch (const std::exception& e) {
        error = std::string("cannot build the world: ") + e.what();
        return nullptr;
    }
}

}  // namespace

bool Simulation::setScene(Scene scene, std::string sourcePath, std::string& error) {
    std::unique_ptr<World> world = buildWorld(scene, error);
    if (!world) return false;
    scene_ = std::move(scene);
    world_ = std::move(world);
    sourcePath_ = std::move(sourcePath);
    clock.resetTime();
    return true;
}

bool Simulation::loadFile(const std::string& path, std::string& error) {
    Scene loaded;
    if (!loadScenario(path, loaded, error)) return false;
    return setScene(std::move(loaded), path, error);
}

bool Simulation::reset(std::string& error) {
    std::unique_ptr<World> world = buildWorld(scene_, error);
    if (!world) return false;
    world_ = std::move(world);
    clock.resetTime();
    return true;
}

int Simulation::advance(double frameSeconds) {
    if (!world_) return 0;
    int steps = clock.stepsForFrame(frameSeconds, world_->settings().dt);
    for (int i = 0; i < steps; ++i) world_->step();
    return steps;
}

}  // namespace jl::app
