// The intermediate bodies of a multi-joint body (interop/import_chain.h).
#include "interop/import_chain.h"

#include <algorithm>
#include <cmath>

namespace jl::interop {

std::vector<ImportedBody> chainBodies(const ImportedModel& model, size_t body, const std::vector<int>& joints,
                                      Real parentMass, Real parentMoment) {
    const ImportedBody& child = model.bodies[body];
    const Real mass = kChainMassFraction * std::max(child.mass, parentMass);
    const Real largest = std::max({child.inertia.x, child.inertia.y, child.inertia.z});
    const Real moment = kChainInertiaFraction * std::max(largest, parentMoment);
    std::vector<ImportedBody> out;
    for (size_t k = 0; k + 1 < joints.size(); ++k) {
        const ImportedJoint& next = model.joints[static_cast<size_t>(joints[k + 1])];
        ImportedBody b;
        b.parent = child.parent;
        b.mass = mass;
        b.inertia = Vec3(moment);
        // At the next joint's point: the mass rides with it, whatever the joints after it do.
        b.frame = Transform{next.anchor, Quat(1, 0, 0, 0)};
        b.inertial = b.frame;
        b.collides = false;
        out.push_back(std::move(b));
    }
    return out;
}

namespace {

/// A body's moment of inertia about the world axis w (its principal moments on its orientation).
Real momentAbout(const BodyDesc& b, const Vec3& w) {
    const Vec3 local = glm::conjugate(b.orientation) * w;
    return b.inertia.x * local.x * local.x + b.inertia.y * local.y * local.y +
           b.inertia.z * local.z * local.z;
}

}  // namespace

DifferentialPinion differentialPinion(const BodyDesc& follower, const Vec3& followerAxis,
                                      const Vec3& followerAnchor, const BodyDesc& leader,
                                      const Vec3& leaderAxis, const Vec3& leaderAnchor, Real ratio) {
    DifferentialPinion p;
    const Vec3 ua = glm::normalize(followerAxis), ub = glm::normalize(leaderAxis);
    Vec3 w = glm::cross(ub, ua);
    if (glm::length(w) < 1e-6) {
        // Parallel slides (opposed fingers): any axis at right angles; the world axis least along
        // the slides, crossed with them (deterministic).
        const Vec3 a = glm::abs(ub);
        const Vec3 e =
            a.x <= a.y && a.x <= a.z ? Vec3(1, 0, 0) : (a.y <= a.z ? Vec3(0, 1, 0) : Vec3(0, 0, 1));
        w = glm::cross(ub, e);
    }
    p.axis = glm::normalize(w);
    p.point = 0.5 * (followerAnchor + leaderAnchor);
    const Real rhoA = std::sqrt(momentAbout(follower, p.axis) / follower.mass);
    const Real rhoB = std::sqrt(momentAbout(leader, p.axis) / leader.mass);
    p.leaderRatio = ratio != 0.0 ? std::min(rhoB, rhoA / std::abs(ratio)) : rhoB;
    p.followerRatio = ratio * p.leaderRatio;
    const Real onTheta =
        leader.mass * p.leaderRatio * p.leaderRatio + follower.mass * p.followerRatio * p.followerRatio;
    const Real largest = std::max({follower.inertia.x, follower.inertia.y, follower.inertia.z,
                                   leader.inertia.x, leader.inertia.y, leader.inertia.z});
    p.mass = std::max(follower.mass, leader.mass);
    p.moments = Vec3(std::max(kPinionInertiaFraction * onTheta, kMinInertia), largest, largest);
    return p;
}

}  // namespace jl::interop
