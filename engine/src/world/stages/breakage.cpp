// Stage 7 of the step: breakage (physx-joints-guide.md "Force Reporting"). The force of each
// joint that can break, now: its output-force rows' impulses over dt at body 1's joint frame; a
// joint whose force or torque passes its threshold breaks and raises an event. Every other
// joint's force is worked out when first asked for (World::ensureJointForces). Reads the rows'
// impulses; writes the joints' broken flags and break events.
#include "world/world_impl.h"

namespace jl {

void World::Impl::applyBreakage(StepContext& step) {
    Impl& m = *this;
    World& w = step.world;
    for (const int bj : m.breakableJoints) {  // ascending, as the break events were always ordered
        const size_t j = static_cast<size_t>(bj);
        JointState& js = w.joints_[j];
        const JointDesc& d = w.scene_.joints[j];
        if (js.broken) continue;
        m.jointForce(j, m.jointRowRange[j].first, m.jointRowRange[j].count, js.force, js.torque);
        if (glm::length(js.force) > d.breakForce || glm::length(js.torque) > d.breakTorque) {
            js.broken = true;
            m.brokenChanged = true;
            w.breakEvents_.push_back({static_cast<int>(j), w.stepCount_, w.time_, js.force, js.torque});
        }
    }
}

void World::Impl::jointForce(size_t j, int firstRow, int count, Vec3& force, Vec3& torque) const {
    if (count == 0) {
        force = torque = Vec3(0.0);
        return;
    }
    // Body 1's centre of mass at the end of the step: its solver body's pose, or (static body,
    // world) the pose it had all step.
    const int s1 = jointSolver1[j];
    const Vec3 x1 = s1 != 0 ? data.info[static_cast<size_t>(s1)].pose.p : jointX1[j];
    const Vec3 anchor1 = x1 + jointBodies[j].r1;
    Vec3 linImpulse(0.0), angImpulse(0.0);
    for (int k = firstRow; k < firstRow + count; ++k) {
        const Row& row = rows[static_cast<size_t>(k)];
        if (!(row.flags & kRowOutputForce)) continue;
        const Real l = impulse(static_cast<size_t>(k));
        // Impulse on body 1 is −λ·(linear1, angular1) about its centre of mass.
        linImpulse -= l * row.linear1;
        angImpulse -= l * row.angular1;
    }
    // Move the torque from body 1's centre of mass to its joint frame origin.
    const Vec3 torqueAtAnchor = angImpulse - glm::cross(anchor1 - x1, linImpulse);
    force = linImpulse / resultsDt;
    torque = torqueAtAnchor / resultsDt;
}

}  // namespace jl
