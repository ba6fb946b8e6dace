// Scenes for the body-contact tests (tests/engine/contacts_test.cpp).
#pragma once

#include <glm/gtx/quaternion.hpp>

#include "jointlab/joints/spherical.h"
#include "test_util.h"

namespace jl::test {

/// n boxes of 0.5 m and 1 kg stacked on the ground, each resting on the one below.
inline Scene boxStack(int n, SolverType solver = SolverType::TGS) {
    Scene s = emptyScene(true);
    s.settings.solver = solver;
    for (int i = 0; i < n; ++i)
        s.bodies.push_back(box(indexed("box", i), Vec3(0.0, 0.25 + 0.5 * i, 0.0), Vec3(0.25), 1.0));
    return s;
}

/// A capsule along local X turned so that it lies along `dir` from `from`, of length `len`.
inline BodyDesc limb(const std::string& name, const Vec3& from, const Vec3& dir, Real len, Real radius,
                     Real mass) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Capsule;
    b.radius = radius;
    b.halfHeight = 0.5 * len - radius;
    b.mass = mass;
    b.position = from + 0.5 * len * glm::normalize(dir);
    b.orientation = glm::rotation(Vec3(1, 0, 0), glm::normalize(dir));
    return b;
}

/// A ragdoll of 10 capsules and a sphere head joined by spherical joints, at height `y`, its
/// arms folded forward across its chest so that they must meet the torso and each other.
inline Scene ragdoll(Real y) {
    Scene s = emptyScene(true);
    s.settings.solver = SolverType::TGS;
    const Vec3 base(0.0, y, 0.0);
    s.bodies.push_back(limb("pelvis", base + Vec3(-0.12, 0, 0), Vec3(1, 0, 0), 0.24, 0.08, 8.0));
    s.bodies.push_back(limb("torso", base + Vec3(0, 0.06, 0), Vec3(0, 1, 0), 0.5, 0.12, 20.0));
    BodyDesc head = sphere("head", base + Vec3(0, 0.68, 0), 4.0, 0.11);
    s.bodies.push_back(head);
    const Real side[2] = {-1.0, 1.0};
    const char* armU[2] = {"upperArmL", "upperArmR"};
    const char* armL[2] = {"forearmL", "forearmR"};
    const char* legU[2] = {"thighL", "thighR"};
    const char* legL[2] = {"shinL", "shinR"};
    for (int k = 0; k < 2; ++k) {
        const Vec3 shoulder = base + Vec3(0.2 * side[k], 0.5, 0);
        s.bodies.push_back(limb(armU[k], shoulder, Vec3(0, -0.2, 1), 0.3, 0.05, 2.0));
        const Vec3 elbow = shoulder + 0.3 * glm::normalize(Vec3(0, -0.2, 1));
        s.bodies.push_back(limb(armL[k], elbow, Vec3(-side[k], 0, 0.15), 0.18, 0.045, 1.5));
        const Vec3 hip = base + Vec3(0.1 * side[k], -0.1, 0);
        s.bodies.push_back(limb(legU[k], hip, Vec3(0, -1, 0.05), 0.42, 0.07, 6.0));
        const Vec3 knee = hip + 0.42 * glm::normalize(Vec3(0, -1, 0.05));
        s.bodies.push_back(limb(legL[k], knee, Vec3(0, -1, 0), 0.42, 0.06, 4.0));
    }
    auto ball = [&](const std::string& name, const std::string& a, const std::string& b, const Vec3& at) {
        s.joints.push_back(joint<SphericalJoint>(s, name, a, b, at));
    };
    ball("spine", "pelvis", "torso", base + Vec3(0, 0.06, 0));
    ball("neck", "torso", "head", base + Vec3(0, 0.56, 0));
    for (int k = 0; k < 2; ++k) {
        const Vec3 shoulder = base + Vec3(0.2 * side[k], 0.5, 0);
        ball(indexed("shoulder", k), "torso", armU[k], shoulder);
        ball(indexed("elbow", k), armU[k], armL[k], shoulder + 0.3 * glm::normalize(Vec3(0, -0.2, 1)));
        const Vec3 hip = base + Vec3(0.1 * side[k], -0.1, 0);
        ball(indexed("hip", k), "pelvis", legU[k], hip);
        ball(indexed("knee", k), legU[k], legL[k], hip + 0.42 * glm::normalize(Vec3(0, -1, 0.05)));
    }
    return s;
}

}  // namespace jl::test
