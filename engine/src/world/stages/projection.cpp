// Stage 6b of the step: joint projection (physx-joints-guide.md "Projection";
// docs/solvers.md "Projection"). After the write-back, every joint with projection on
// (JointDesc::projection) whose hard locks are off by more than a tolerance has its bodies moved
// back onto it. Reads and writes the World's body poses; never touches a velocity.
//
// The rule:
//   * A joint projects when its linear error (the distance between the joint origins, or for a
//     prismatic joint that distance across frame A's X axis) passes linearTolerance OR its angular
//     error (the angle between the frames, or for a revolute joint between their X axes) passes
//     angularTolerance. It then puts back both, fully: afterwards both errors are zero up to
//     rounding.
//   * The angle first, turning each body about its centre of mass about the error's axis; then the
//     origins, translating each body. Each body takes a share of the correction in proportion to
//     its inverse mass (for the turn: its inverse inertia about the axis) times the joint's mass
//     scale, so a static or kinematic body, the world, or a side whose scale is 0 does not move,
//     and a joint between a 1 kg and a 100 kg body moves the light one 100 times as far.
//   * Joints project one after the other in scene order, once a step. A body shared by two
//     projected joints can be pulled off the first by the second (PhysX avoids this by projecting
//     a tree from its root; here the scene order is the order).
#include <cmath>

#include "world/world_impl.h"

namespace jl {

namespace {

struct Side {
    BodyState* state = nullptr;  // null: the world or a static/kinematic body (does not move)
    Transform pose;              // the world's pose is the identity
    Real invMass = 0.0;          // times the joint's mass scale
    Vec3 invInertia{0.0};        // principal, times the joint's inertia scale
};

/// Inverse inertia of `s` about the world direction `axis` (unit).
Real inverseInertiaAbout(const Side& s, const Vec3& axis) {
    const Vec3 a = glm::conjugate(s.pose.q) * axis;
    return a.x * a.x * s.invInertia.x + a.y * a.y * s.invInertia.y + a.z * a.z * s.invInertia.z;
}

/// Turns `s` by `angle` about the world `axis` (unit) about its centre of mass.
void turn(Side& s, const Vec3& axis, Real angle) {
    const Real h = 0.5 * angle;
    const Vec3 v = axis * std::sin(h);
    s.pose.q = glm::normalize(Quat(std::cos(h), v.x, v.y, v.z) * s.pose.q);
}

}  // namespace

void World::Impl::projectJoints(StepContext& step) {
    Impl& m = *this;
    if (m.projectedJoints.empty()) return;
    World& w = step.world;
    std::fill(m.jointProjections.begin(), m.jointProjections.end(), uint8_t{0});
    for (const ProjectedJoint& pj : m.projectedJoints) {
        const size_t j = static_cast<size_t>(pj.joint);
        if (w.joints_[j].broken) continue;
        const JointFrames& f = m.jointFrames[j];
        Side side[2];
        for (int k = 0; k < 2; ++k) {
            const int b = k == 0 ? m.jointBody0[j] : m.jointBody1[j];
            if (b < 0) continue;
            BodyState& st = w.bodies_[static_cast<size_t>(b)];
            side[k].pose = st.pose;
            const BodyStepConsts& c = m.bodyConsts[static_cast<size_t>(b)];
            if (!c.dynamic) continue;
            side[k].state = &st;
            side[k].invMass = c.invMass * (k == 0 ? f.invMassScale0 : f.invMassScale1);
            side[k].invInertia = c.sqrtInvInertiaLocal * c.sqrtInvInertiaLocal *
                                 (k == 0 ? f.invInertiaScale0 : f.invInertiaScale1);
        }

        // The angular error: its size and the world axis that turns frame A onto frame B.
        auto angularError = [&](Vec3& axis) -> Real {
            const Quat q0 = side[0].pose.q * f.frame0.q, q1 = side[1].pose.q * f.frame1.q;
            if (pj.locks.angular == AngularLock::Full) {
                const Quat r = positiveW(q1 * glm::conjugate(q0));  // q1 = r q0
                const Vec3 v(r.x, r.y, r.z);
                const Real s = glm::length(v);
                axis = s > 0.0 ? v / s : Vec3(0.0);
                return 2.0 * std::atan2(s, r.w);
            }
            if (pj.locks.angular == AngularLock::XAxis) {
                const Vec3 a0 = basisX(q0), a1 = basisX(q1);
                const Vec3 v = glm::cross(a0, a1);
                const Real s = glm::length(v);
                axis = s > 0.0 ? v / s : Vec3(0.0);
                return std::atan2(s, glm::dot(a0, a1));
            }
            axis = Vec3(0.0);
            return 0.0;
        };
        // The linear error: origin B minus origin A (across A's X axis for a prismatic joint).
        auto linearError = [&]() -> Vec3 {
            if (pj.locks.linear == LinearLock::None) return Vec3(0.0);
            Vec3 e = side[1].pose.apply(f.frame1.p) - side[0].pose.apply(f.frame0.p);
            if (pj.locks.linear == LinearLock::AcrossXAxis) {
                const Vec3 x = basisX(side[0].pose.q * f.frame0.q);
                e -= x * glm::dot(e, x);
            }
            return e;
        };

        Vec3 axis;
        const Real angle = angularError(axis);
        const Vec3 e = linearError();
        if (!(angle > pj.angularTolerance) && !(glm::length(e) > pj.linearTolerance)) continue;

        bool moved = false;
        if (angle > 0.0) {
            const Real w0 = side[0].state ? inverseInertiaAbout(side[0], axis) : 0.0;
            const Real w1 = side[1].state ? inverseInertiaAbout(side[1], axis) : 0.0;
            if (w0 + w1 > 0.0) {
                // Frame A turns towards B by its share, B towards A by the rest: they meet.
                if (w0 > 0.0) turn(side[0], axis, angle * (w0 / (w0 + w1)));
                if (w1 > 0.0) turn(side[1], axis, -angle * (w1 / (w0 + w1)));
                moved = true;
            }
        }
        const Vec3 d = linearError();  // after the turn, which moved the origins
        const Real w0 = side[0].state ? side[0].invMass : 0.0, w1 = side[1].state ? side[1].invMass : 0.0;
        if (w0 + w1 > 0.0 && glm::length2(d) > 0.0) {
            side[0].pose.p += d * (w0 / (w0 + w1));
            side[1].pose.p -= d * (w1 / (w0 + w1));
            moved = true;
        }
        if (!moved) continue;  // both sides immovable: nothing to do (the joint's rows say so too)
        for (Side& s : side)
            if (s.state) s.state->pose = s.pose;
        m.jointProjections[j] = 1;
    }
}

}  // namespace jl
