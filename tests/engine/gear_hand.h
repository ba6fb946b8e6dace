// Engine tests of the relative gear (relative_gear_test.cpp, parallel_gear_test.cpp): a hand that
// swings or spins on a tilted world hinge with two fingers hinged to it and coupled q_a = m·q_b,
// a rotation onto a hinge axis, a hinge's angle read from the bodies' poses, and a run of the hand
// measuring the law.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_util.h"

namespace jl::test {

/// The rotation taking X onto the unit vector `axis` (a hinge frame's axes).
inline Quat xOnto(const Vec3& axis) {
    const Vec3 x(1, 0, 0);
    const Vec3 c = glm::cross(x, axis);
    if (glm::length(c) < 1e-12) return glm::dot(x, axis) > 0 ? kIdentityQuat : axisAngle(Vec3(0, 1, 0), kPi);
    return axisAngle(glm::normalize(c), std::acos(std::clamp(glm::dot(x, axis), -1.0, 1.0)));
}

/// A finger of gearHand: its hinge point from the hand's centre, the hinge's axis, and where the
/// finger's centre is from its hinge point.
struct HandFinger {
    Vec3 hinge, axis, out;
};

/// A hand (1 kg box) hinged to the world about a tilted axis at (0, 1, 0), its centre 0.2 m off
/// the hinge along Z; fingers a (0.1 kg) and b (0.15 kg) hinged to it, coupled q_a = m·q_b by a gear
/// (relative or not) whose frames are the finger hinges' frames on the fingers; no contacts;
/// dt = 1 ms. `spin`: the hand's hinge motor turns it at 4 rad/s (else it falls from rest and swings).
/// Joints: 0 the hand's hinge, 1 and 2 the fingers', 3 the gear.
inline Scene gearHand(SolverType solver, bool relative, bool spin, Real m, const HandFinger& a,
                      const HandFinger& b) {
    Scene s = emptyScene();
    s.settings.solver = solver;
    s.settings.bodyCollisions = false;
    s.settings.dt = 0.001;
    const Vec3 hinge(0, 1, 0), tilt = glm::normalize(Vec3(1.0, 0.3, 0.4));
    const Vec3 centre = hinge + Vec3(0, 0, 0.2);
    s.bodies.push_back(box("hand", centre, Vec3(0.1, 0.05, 0.1), 1.0));
    const Vec3 pa = centre + a.hinge, pb = centre + b.hinge;
    s.bodies.push_back(box("fa", pa + a.out, Vec3(0.05, 0.01, 0.015), 0.1));
    s.bodies.push_back(box("fb", pb + b.out, Vec3(0.05, 0.015, 0.01), 0.15));
    RevoluteJoint wrist;
    wrist.motor.enabled = spin;
    wrist.motor.targetVelocity = 4.0;
    wrist.motor.forceLimit = 200.0;
    s.joints.push_back(joint<RevoluteJoint>(s, "wrist", "", "hand", hinge, xOnto(tilt), wrist));
    s.joints.push_back(joint<RevoluteJoint>(s, "ja", "hand", "fa", pa, xOnto(a.axis)));
    s.joints.push_back(joint<RevoluteJoint>(s, "jb", "hand", "fb", pb, xOnto(b.axis)));
    GearJoint g;
    g.relative = relative;
    g.ratio = -m;  // q_a − m·q_b = 0
    JointDesc mimic;
    mimic.name = "mimic";
    mimic.body0 = "fa";
    mimic.body1 = "fb";
    mimic.params = g;
    mimic.frame0 = s.joints[1].frame1;  // on each finger, X along its hinge's axis, origin on it
    mimic.frame1 = s.joints[2].frame1;
    s.joints.push_back(mimic);
    return s;
}

/// Hinge j's angle, tracked through full turns from the start: frame 1's turn about frame 0's X,
/// read from the two bodies' poses each step (independent of the engine's own angle tracking).
struct HingeAngle {
    int joint;
    Real total = 0.0, last = 0.0;
    Real update(const World& w) {
        Quat r = glm::conjugate(frame0(w, joint).q) * frame1(w, joint).q;
        if (r.w < 0.0) r = -r;
        const Real wrapped = 2.0 * std::atan2(r.x, r.w);
        total += std::remainder(wrapped - last, 2.0 * kPi);
        last = wrapped;
        return total;
    }
};

/// What a run of gearHand shows, each the worst over the run.
struct HandRun {
    Real law = 0.0;       ///< |q_a − m·q_b|, each q its finger's turn on the hand (HingeAngle)
    Real travel = 0.0;    ///< |q_b|: how far the fingers turn on the hand
    Real handTurn = 0.0;  ///< |the hand's turn on its hinge|
    Real drift = 0.0;     ///< the finger hinges' anchors apart [m]
};

/// Runs gearHand's scene `s` (coupled q_a = m·q_b) for 2 s, measuring after each step. A body
/// position that is not finite is a failure, and ends the run.
inline HandRun runHand(const Scene& s, Real m) {
    World w(s);
    HingeAngle wrist{0}, qa{1}, qb{2};
    HandRun r;
    const int steps = static_cast<int>(std::lround(2.0 / w.scene().settings.dt));
    for (int i = 0; i < steps; ++i) {
        w.step();
        const Real a = qa.update(w), b = qb.update(w), h = wrist.update(w);
        for (const BodyState& body : w.bodies())
            if (!std::isfinite(body.pose.p.x)) {
                ADD_FAILURE() << "a body's position is not finite at step " << i;
                return r;
            }
        r.law = std::max(r.law, std::abs(a - m * b));
        for (int jt : {1, 2}) r.drift = std::max(r.drift, glm::length(anchor1(w, jt) - anchor0(w, jt)));
        r.travel = std::max(r.travel, std::abs(b));
        r.handTurn = std::max(r.handTurn, std::abs(h));
    }
    return r;
}

}  // namespace jl::test
