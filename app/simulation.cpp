#include "simulation.h"

#include <chrono>
#include <cmath>
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
    drag.reset();
    telemetry_.clear();
    return true;
}

bool Simulation::applyEdit(Scene edited, const Renames& bodyRenames, const Renames& jointRenames,
                           std::string& error) {
    if (std::string problem = validateScene(edited); !problem.empty()) {
        error = problem;
        return false;
    }
    if (!world_) {
        std::unique_ptr<World> world = buildWorld(edited, error);
        if (!world) return false;
        world_ = std::move(world);
        scene_ = std::move(edited);
        return true;
    }
    // World::applyScene matches by name: carry the state of renamed bodies and joints over.
    std::vector<std::pair<std::string, BodyState>> movedBodies;
    for (const auto& [from, to] : bodyRenames)
        if (int i = world_->scene().findBody(from); i >= 0) movedBodies.emplace_back(to, world_->bodies()[i]);
    std::vector<std::pair<std::string, bool>> movedJoints;
    for (const auto& [from, to] : jointRenames)
        if (int j = world_->scene().findJoint(from); j >= 0) movedJoints.emplace_back(to, world_->jointState(j).broken);
    try {
        world_->applyScene(edited, scene_);
    } catch (const std::exception& e) {
        error = std::string("cannot apply the edit: ") + e.what();
        return false;
    }
    for (const auto& [name, state] : movedBodies)
        if (int i = world_->scene().findBody(name); i >= 0) world_->setBodyState(i, state);
    for (const auto& [name, broken] : movedJoints)
        if (int j = world_->scene().findJoint(name); j >= 0) world_->setJointBroken(j, broken);
    scene_ = std::move(edited);
    if (drag && scene_.findBody(drag->bodyName) < 0) drag.reset();
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
    drag.reset();
    telemetry_.clear();
    return true;
}

int Simulation::advance(double frameSeconds) {
    if (!world_) return 0;
    syncTelemetry();
    int steps = clock.stepsForFrame(frameSeconds, world_->settings().dt);
    for (int i = 0; i < steps; ++i) {
        if (drag) applyDragSpring(*world_, *drag);
        // Only the step is timed, and the clock reading cannot change what the step computes.
        const auto start = std::chrono::steady_clock::now();
        world_->step();
        const std::chrono::duration<double, std::milli> stepTime = std::chrono::steady_clock::now() - start;
        telemetry_.record(*world_, stepTime.count());
    }
    return steps;
}

void Simulation::syncTelemetry() {
    const Scene& scene = world_->scene();
    const size_t capacity =
        static_cast<size_t>(std::max(1.0, std::round(telemetrySeconds_ / scene.settings.dt)));
    bool same = capacity == telemetry_.capacity() && telemetryJoints_.size() == scene.joints.size();
    for (size_t j = 0; same && j < scene.joints.size(); ++j) same = telemetryJoints_[j] == scene.joints[j].name;
    if (same) return;
    if (capacity != telemetry_.capacity())
        telemetry_.setCapacity(capacity);
    else
        telemetry_.clear();
    telemetryJoints_.clear();
    for (const JointDesc& j : scene.joints) telemetryJoints_.push_back(j.name);
}

}  // namespace jl::app
