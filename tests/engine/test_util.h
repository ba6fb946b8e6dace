// Helpers for building small scenes in tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "jointlab/scene.h"
#include "jointlab/world.h"

namespace jl::test {

/// base + i, e.g. indexed("link", 3) = "link3" (appends, avoiding a g++ 12 -Wrestrict false
/// positive on "literal" + std::string).
inline std::string indexed(const char* base, int i) {
    std::string s = base;
    s += std::to_string(i);
    return s;
}

inline Quat axisAngle(const Vec3& axis, Real angle) {
    return glm::angleAxis(angle, glm::normalize(axis));
}

inline BodyDesc sphere(const std::string& name, const Vec3& pos, Real mass, Real radius = 0.05) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Sphere;
    b.radius = radius;
    b.mass = mass;
    b.position = pos;
    return b;
}

inline BodyDesc box(const std::string& name, const Vec3& pos, const Vec3& halfExtents, Real mass) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Box;
    b.halfExtents = halfExtents;
    b.mass = mass;
    b.position = pos;
    return b;
}

/// A joint between body0 (empty = world) and body1 with world-space anchor and axes given by
/// `axes` (the joint X axis is axes * (1,0,0)); local frames are derived from the scene's
/// initial body poses.
template <class P>
JointDesc joint(const Scene& s, const std::string& name, const std::string& body0, const std::string& body1,
                const Vec3& anchor, const Quat& axes = Quat(1, 0, 0, 0), P params = P{}) {
    JointDesc j;
    j.name = name;
    j.body0 = body0;
    j.body1 = body1;
    j.params = params;
    auto local = [&](const std::string& bn) {
        Transform world{anchor, axes};
        if (bn.empty()) return world;
        const BodyDesc& b = s.bodies[static_cast<size_t>(s.findBody(bn))];
        return Transform{b.position, b.orientation}.inverse() * world;
    };
    j.frame0 = local(body0);
    j.frame1 = local(body1);
    return j;
}

inline Scene emptyScene(bool ground = false) {
    Scene s;
    s.settings.groundPlane = ground;
    return s;
}

/// World position of joint j's frame origin on body 0 / body 1.
inline Vec3 anchor0(const World& w, int j) {
    const JointDesc& d = w.scene().joints[static_cast<size_t>(j)];
    const int b = d.body0.empty() ? -1 : w.scene().findBody(d.body0);
    const Transform pose = b < 0 ? Transform{} : w.bodies()[static_cast<size_t>(b)].pose;
    return (pose * d.frame0).p;
}
inline Vec3 anchor1(const World& w, int j) {
    const JointDesc& d = w.scene().joints[static_cast<size_t>(j)];
    const int b = d.body1.empty() ? -1 : w.scene().findBody(d.body1);
    const Transform pose = b < 0 ? Transform{} : w.bodies()[static_cast<size_t>(b)].pose;
    return (pose * d.frame1).p;
}
inline Transform frame0(const World& w, int j) {
    const JointDesc& d = w.scene().joints[static_cast<size_t>(j)];
    const int b = d.body0.empty() ? -1 : w.scene().findBody(d.body0);
    const Transform pose = b < 0 ? Transform{} : w.bodies()[static_cast<size_t>(b)].pose;
    return pose * d.frame0;
}
inline Transform frame1(const World& w, int j) {
    const JointDesc& d = w.scene().joints[static_cast<size_t>(j)];
    const int b = d.body1.empty() ? -1 : w.scene().findBody(d.body1);
    const Transform pose = b < 0 ? Transform{} : w.bodies()[static_cast<size_t>(b)].pose;
    return pose * d.frame1;
}

/// A chain of `n` of the chain examples' links (assets/scenarios/chain20.json: 0.2 kg capsules
/// 0.2 m apart on hinges about Z), released horizontal along +X from a world hinge at (0, 20, 0).
inline Scene exampleChain(int n) {
    Scene s = emptyScene(false);
    const Quat hinge = axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string prev;
    for (int i = 0; i < n; ++i) {
        const std::string name = indexed("link", i);
        BodyDesc b = sphere(name, Vec3(0.1 + 0.2 * i, 20.0, 0.0), 0.2);
        b.shape = ShapeType::Capsule;
        b.radius = 0.03;
        b.halfHeight = 0.07;
        s.bodies.push_back(b);
        s.joints.push_back(joint<RevoluteJoint>(s, indexed("hinge", i), prev, name, Vec3(0.2 * i, 20.0, 0.0),
                                                hinge, RevoluteJoint{}));
        prev = name;
    }
    return s;
}

/// Issue 25's double pendulum: two 1 m boxes of 1 kg hinged end to end about Z, the first to the
/// world at (0, 2, 0), released horizontal.
inline Scene doublePendulum() {
    Scene s = emptyScene(false);
    const Quat hinge = axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string previous;
    for (int i = 0; i < 2; ++i) {
        const std::string body = indexed("link", i);
        s.bodies.push_back(box(body, Vec3(0.5 + i, 2, 0), Vec3(0.5, 0.05, 0.05), 1.0));
        s.joints.push_back(
            joint<RevoluteJoint>(s, indexed("hinge", i), previous, body, Vec3(i, 2, 0), hinge));
        previous = body;
    }
    return s;
}

/// The complete elliptic integral of the first kind K(k) = π / (2·AGM(1, √(1 − k²))).
inline Real ellipticK(Real k) {
    Real a = 1.0, b = std::sqrt(1.0 - k * k);
    for (int i = 0; i < 40 && std::abs(a - b) > 1e-16 * a; ++i) {
        const Real m = 0.5 * (a + b);
        b = std::sqrt(a * b);
        a = m;
    }
    return kPi / (2.0 * a);
}

/// Measures the period of an oscillation from successive upward zero crossings of f(world)
/// (linear interpolation between steps); returns the mean period over `periods` cycles.
template <class F>
Real measurePeriod(World& w, F f, int periods, int maxSteps = 100000) {
    Real prev = f(w), firstCross = -1, lastCross = -1;
    int crossings = 0;
    for (int i = 0; i < maxSteps && crossings <= periods; ++i) {
        const Real t0 = w.time();
        w.step();
        const Real cur = f(w);
        if (prev < 0 && cur >= 0) {
            const Real t = t0 + (w.time() - t0) * (-prev / (cur - prev));
            if (crossings == 0) firstCross = t;
            lastCross = t;
            ++crossings;
        }
        prev = cur;
    }
    return crossings > 1 ? (lastCross - firstCross) / (crossings - 1) : -1;
}

/// `s` run with the fast and the reference kernel side by side for `steps` steps: the largest
/// distance between a body's positions in the two worlds after any step (with `velocities`, also
/// between its linear and its angular velocities).
inline Real kernelsApart(Scene s, int steps, bool velocities = false) {
    s.settings.kernel = KernelType::Fast;
    World fast(s);
    s.settings.kernel = KernelType::Reference;
    World reference(s);
    Real worst = 0.0;
    for (int i = 0; i < steps; ++i) {
        fast.step();
        reference.step();
        for (size_t b = 0; b < fast.bodies().size(); ++b) {
            const BodyState &x = fast.bodies()[b], &y = reference.bodies()[b];
            worst = std::max(worst, glm::length(x.pose.p - y.pose.p));
            if (velocities)
                worst = std::max({worst, glm::length(x.linearVelocity - y.linearVelocity),
                                  glm::length(x.angularVelocity - y.angularVelocity)});
        }
    }
    return worst;
}

}  // namespace jl::test
