// The MuJoCo reference run (docs/reference.md): MuJoCo simulating the same mechanism in joint
// coordinates beside a JointLab World, one mj_step per World::step, from the World's state.
//
// Built from the scene's MJCF export (interop/mjcf_export.h), so it exists only for scenes whose
// joints form a tree and all map; MuJoCo's qpos/qvel are set from the World's bodies (joint angles
// and offsets, free bodies' poses), so it can start mid-run. Each side's joint coordinates are
// measured the same way (jointCoordinate on each side's body poses), and the divergence is the
// largest distance between a body's centre of mass in the two.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interop/mjcf_export.h"
#include "interop/mujoco_model.h"
#include "jointlab/world.h"

namespace jl::interop {

class ReferenceRun {
public:
    /// A MuJoCo run of `world`'s scene from its current state, or null with `error` saying why
    /// (the joint that closes a loop, a joint or body MuJoCo cannot hold, MuJoCo's own message).
    static std::unique_ptr<ReferenceRun> start(const World& world, std::string& error);

    /// Puts MuJoCo at `world`'s current state (a reset, a jump in time, an edit of the state).
    void syncFrom(const World& world);
    /// One mj_step (the World's dt).
    void step();
    int64_t stepCount() const { return steps_; }
    /// MuJoCo met a non-finite acceleration (it then resets its state to qpos0 and warns).
    bool diverged() const;
    /// MuJoCo ran out of room for its contacts or constraint rows in some step (more contacts than
    /// the export's budget): it then simulated that step without them, so the runs differ there.
    bool overflowed() const;

    /// Body `b`'s pose in MuJoCo (Y-up, centre of mass): moving bodies from MuJoCo, the others as
    /// the scene places them.
    Transform bodyPose(int b) const;
    /// The scene's body count (bodyPose takes 0 to bodyCount() − 1).
    int bodyCount() const { return static_cast<int>(mjBody_.size()); }
    /// The largest distance between a dynamic body's centre of mass in `world` and in MuJoCo [m].
    Real maxPositionDivergence(const World& world) const;

    /// The joints compared (those with a coordinate: revolute, prismatic, spherical), scene indices.
    const std::vector<int>& comparedJoints() const { return compared_; }
    /// Their coordinates (jointCoordinate) in `world` and in MuJoCo, in comparedJoints() order.
    std::vector<Real> jointlabCoordinates(const World& world) const;
    std::vector<Real> mujocoCoordinates() const;

    /// The settings set to match JointLab's on the MuJoCo side, one line each, and what still
    /// differs (JointLab features MuJoCo does not have, its own contact model...).
    const std::vector<std::string>& matched() const { return matched_; }
    const std::vector<std::string>& differences() const { return differences_; }

    const mjModel_* model() const { return model_.get(); }
    const mjData_* data() const { return data_.get(); }

private:
    ReferenceRun() = default;
    Scene scene_;  // the descriptions (static bodies, joint frames)
    MjcfTree tree_;
    ModelPtr model_;
    DataPtr data_;
    std::vector<int> mjBody_;   // per scene body: MuJoCo body id (0 for the world's geometry)
    std::vector<int> mjJoint_;  // per scene body: MuJoCo joint id attaching it, or −1
    std::vector<int> compared_;
    std::vector<int> body0_, body1_;  // per scene joint: scene body indices (−1 world)
    std::vector<std::string> matched_, differences_;
    int64_t steps_ = 0;
};

}  // namespace jl::interop
