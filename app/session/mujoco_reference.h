// JointLab app — Simulation > Reference: MuJoCo (docs/reference.md): MuJoCo runs the live scene
// beside JointLab in joint coordinates (interop/reference_run.h), from the live run's state, one
// mj_step per live step. Its bodies draw as a translucent ghost in their own colour (the same
// drawing as the branch ghost and the compare's B, render/scene_draw.h); the plots dock's
// Reference tab plots each joint's coordinate in both and the largest body-position difference.
//
// It follows the live run through Simulation::onSync: after a step it steps too; after a jump
// (the timeline, a reset, an edit, a new file) it starts again from the live state, and rebuilds
// its model when the scene's export changed (an edit; not a jump on the timeline). A scene whose
// joints are not a tree is refused with the reason (the joint that closes the loop), shown in the
// tab; the next edit tries again. Without MuJoCo in the build (JOINTLAB_BUILD_INTEROP=OFF) it is
// never available.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "jointlab/world.h"
#include "telemetry/plot_history.h"

namespace jl::app {

class MujocoReference {
public:
    MujocoReference();
    ~MujocoReference();
    MujocoReference(const MujocoReference&) = delete;
    MujocoReference& operator=(const MujocoReference&) = delete;

    /// This build has MuJoCo.
    static bool available();

    /// Turns the reference on (from `world`'s state now) or off. On: refusal() says why it is not
    /// running when the scene cannot be run in MuJoCo.
    void setEnabled(bool on, const World* world, uint64_t sceneRevision);
    bool enabled() const { return enabled_; }
    /// MuJoCo is running beside the live run (enabled, and the scene could be built there).
    bool running() const;
    /// Why it is not running although enabled ("" when running or off).
    const std::string& refusal() const { return refusal_; }

    /// After the live World stepped (`jumped` false) or jumped (true). Simulation::onSync.
    void sync(const World& world, bool jumped, uint64_t sceneRevision);

    /// MuJoCo's pose of every scene body (velocities zero), for drawing; empty when not running.
    std::span<const BodyState> bodies() const { return bodies_; }

    /// The joints compared (revolute angle, prismatic offset, spherical rotation angle) by name.
    const std::vector<std::string>& jointNames() const { return jointNames_; }
    /// The record, one entry per live step since the reference (re)started: step, largest body
    /// distance [m], and per compared joint its coordinate in JointLab and in MuJoCo.
    size_t sampleCount() const { return steps_.size(); }
    int64_t sampleStep(size_t i) const { return steps_[i]; }
    Real sampleDivergence(size_t i) const { return divergence_[i]; }
    Real sampleJointlab(size_t i, size_t joint) const {
        return coords_[i * 2 * jointNames_.size() + 2 * joint];
    }
    Real sampleMujoco(size_t i, size_t joint) const {
        return coords_[i * 2 * jointNames_.size() + 2 * joint + 1];
    }

    /// The record for the Plots tab's mujoco and divergence plots (valid until the next sync); when
    /// nothing is recorded its status says why: off, refused (the reason), or no step yet.
    ReferenceRecordView recordView() const;

    /// The settings set to match JointLab's, and what still differs, one line each.
    const std::vector<std::string>& matched() const;
    const std::vector<std::string>& differences() const;
    /// MuJoCo hit a non-finite acceleration (it reset itself) since it started.
    bool diverged() const;
    /// MuJoCo ran out of room for contacts or constraint rows in some step and ran it without them.
    bool overflowed() const;

    bool logDivergence = true;  ///< the Reference tab's divergence plot on a log scale
    /// The most samples kept (the oldest half is dropped beyond it), about 5 minutes at 60 Hz.
    static constexpr size_t kMaxSamples = 18000;

private:
    void start(const World& world, uint64_t sceneRevision);
    void record(const World& world);
    void updateBodies();

    struct Impl;
    std::unique_ptr<Impl> impl_;
    bool enabled_ = false;
    std::string refusal_;
    uint64_t revision_ = 0;  ///< the scene revision the model was built from
    std::vector<BodyState> bodies_;
    std::vector<std::string> jointNames_;
    std::vector<int64_t> steps_;
    std::vector<Real> divergence_;
    std::vector<Real> coords_;
};

}  // namespace jl::app
