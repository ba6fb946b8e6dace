// The benchmark scenes (see scene_spec.h and docs/benchmark.md).
#include "scene_spec.h"

#include <stdexcept>

#include "jointlab/body.h"

namespace bench {

namespace {

const Vec3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

/// Rotations taking the joint X axis onto a world direction.
Quat xToZ() {
    return glm::angleAxis(-jl::kPi / 2, kY);
}  // X → +Z
Quat xToMinusY() {
    return glm::angleAxis(-jl::kPi / 2, kZ);
}  // X → −Y
Quat xToMinusX() {
    return glm::angleAxis(jl::kPi, kY);
}  // X → −X
Quat xToX() {
    return Quat(1, 0, 0, 0);
}

BodySpec box(const Vec3& pos, const Vec3& half, Real mass) {
    BodySpec b;
    b.shape = Shape::Box;
    b.halfExtents = half;
    b.mass = mass;
    b.position = pos;
    return b;
}

BodySpec sphere(const Vec3& pos, Real radius, Real mass) {
    BodySpec b;
    b.shape = Shape::Sphere;
    b.radius = radius;
    b.mass = mass;
    b.position = pos;
    return b;
}

JointSpec joint(JointKind kind, int b0, int b1, const Vec3& anchor, const Quat& axes) {
    JointSpec j;
    j.kind = kind;
    j.body0 = b0;
    j.body1 = b1;
    j.anchor = anchor;
    j.axes = axes;
    return j;
}

/// (a) A chain of n boxes 1 × 0.25 × 0.25 m, 1 kg, lying along +X from a hinge at the origin,
/// hinges about Z: it starts horizontal and swings down under gravity. `heavy`: the last link
/// weighs 100 kg.
SceneSpec chain(int n, bool heavy) {
    SceneSpec s;
    s.name = "chain" + std::to_string(n) + (heavy ? "_heavy" : "");
    s.description =
        std::to_string(n) + "-link revolute chain, horizontal start" + (heavy ? ", last link 100 kg" : "");
    for (int i = 0; i < n; ++i)
        s.bodies.push_back(
            box(Vec3(i + 0.5, 0, 0), Vec3(0.5, 0.125, 0.125), heavy && i == n - 1 ? 100.0 : 1.0));
    for (int i = 0; i < n; ++i)
        s.joints.push_back(joint(JointKind::Revolute, i - 1, i, Vec3(i, 0, 0), xToZ()));
    s.timingSteps = n >= 1000 ? 100 : (n >= 100 ? 200 : 300);
    return s;
}

/// Issue 25's double pendulum: two 1 m boxes (0.1 m square, 1 kg) hinged end to end about Z and
/// to the world at the first one's end, released horizontal (JointLab's
/// tests/engine/energy_defaults_test.cpp builds the same).
SceneSpec doublePendulum() {
    SceneSpec s;
    s.name = "double_pendulum";
    s.description = "two 1 m boxes hinged end to end and to the world, horizontal start";
    for (int i = 0; i < 2; ++i) s.bodies.push_back(box(Vec3(i + 0.5, 0, 0), Vec3(0.5, 0.05, 0.05), 1.0));
    for (int i = 0; i < 2; ++i)
        s.joints.push_back(joint(JointKind::Revolute, i - 1, i, Vec3(i, 0, 0), xToZ()));
    return s;
}

/// Issue 25's long lever: a 5 cm ball (1 kg) on a massless 2 m lever from a world hinge about Z,
/// released horizontal (β = m·L²/I = 4000).
SceneSpec lever() {
    SceneSpec s;
    s.name = "lever";
    s.description = "a 5 cm ball on a massless 2 m lever from a world hinge, horizontal start";
    s.bodies.push_back(sphere(Vec3(2, 0, 0), 0.05, 1.0));
    s.joints.push_back(joint(JointKind::Revolute, -1, 0, Vec3(0, 0, 0), xToZ()));
    return s;
}

/// (b) The 3D joint_grid: n × n spheres (r = 0.4 m, 1 kg) 1 m apart in the vertical XY plane,
/// each joined by a spherical joint (anchor at the midpoint) to its right and lower neighbour;
/// every 10th sphere of the top row is pinned to the world at its centre (Box2D's joint_grid
/// benchmark, in 3D with ball joints).
SceneSpec grid(int n) {
    SceneSpec s;
    s.name = "grid" + std::to_string(n);
    s.description = std::to_string(n) + "x" + std::to_string(n) +
                    " spheres, spherical joints to right and lower neighbours, every 10th top sphere pinned";
    auto id = [n](int row, int col) { return row * n + col; };
    for (int row = 0; row < n; ++row)
        for (int col = 0; col < n; ++col) s.bodies.push_back(sphere(Vec3(col, -row, 0), 0.4, 1.0));
    for (int col = 0; col < n; col += 10)
        s.joints.push_back(joint(JointKind::Spherical, -1, id(0, col), Vec3(col, 0, 0), xToX()));
    for (int row = 0; row < n; ++row)
        for (int col = 0; col < n; ++col) {
            if (col + 1 < n)
                s.joints.push_back(joint(JointKind::Spherical, id(row, col), id(row, col + 1),
                                         Vec3(col + 0.5, -row, 0), xToX()));
            if (row + 1 < n)
                s.joints.push_back(joint(JointKind::Spherical, id(row, col), id(row + 1, col),
                                         Vec3(col, -row - 0.5, 0), xToX()));
        }
    s.timingSteps = 15;
    return s;
}

/// (c) count ragdoll-like chains of 11 bodies (head, chest, pelvis, upper and lower arms and
/// legs), arms out, each hung from the world by the top of its head: cone-limited spherical
/// neck, shoulders and hips; limited revolute spine, elbows and knees. Each ragdoll starts
/// turning rigidly about its pin (seeded, different per ragdoll) so limits and cones engage.
SceneSpec ragdolls(int count) {
    SceneSpec s;
    s.name = "ragdolls";
    s.description = std::to_string(count) +
                    " hanging ragdolls of 11 bodies: cone-limited spherical and limited revolute joints";
    uint32_t seed = 12345u;
    auto rnd = [&seed]() {  // deterministic LCG in [-1, 1]
        seed = seed * 1664525u + 1013904223u;
        return static_cast<Real>(seed >> 8) / static_cast<Real>(1u << 24) * 2.0 - 1.0;
    };
    const int side = 10;
    for (int r = 0; r < count; ++r) {
        const Vec3 o(3.0 * (r % side), 0.0, 3.0 * (r / side));  // head centre
        const int base = static_cast<int>(s.bodies.size());
        auto add = [&](BodySpec b) {
            b.position += o;
            s.bodies.push_back(b);
            return static_cast<int>(s.bodies.size()) - 1;
        };
        const int head = add(sphere(Vec3(0, 0, 0), 0.1, 5.0));
        const int chest = add(box(Vec3(0, -0.25, 0), Vec3(0.15, 0.15, 0.1), 15.0));
        const int pelvis = add(box(Vec3(0, -0.5, 0), Vec3(0.15, 0.1, 0.1), 10.0));
        int upperArm[2], foreArm[2], thigh[2], shin[2];
        for (int side2 = 0; side2 < 2; ++side2) {
            const Real sx = side2 == 0 ? -1.0 : 1.0;
            upperArm[side2] = add(box(Vec3(sx * 0.30, -0.15, 0), Vec3(0.15, 0.05, 0.05), 2.0));
            foreArm[side2] = add(box(Vec3(sx * 0.60, -0.15, 0), Vec3(0.15, 0.04, 0.04), 1.5));
            thigh[side2] = add(box(Vec3(sx * 0.08, -0.8, 0), Vec3(0.07, 0.2, 0.07), 7.0));
            shin[side2] = add(box(Vec3(sx * 0.08, -1.2, 0), Vec3(0.05, 0.2, 0.05), 4.0));
        }
        auto J = [&](JointKind k, int b0, int b1, const Vec3& a, const Quat& q) {
            s.joints.push_back(joint(k, b0, b1, a + o, q));
            return &s.joints.back();
        };
        J(JointKind::Spherical, -1, head, Vec3(0, 0.1, 0), xToMinusY());  // pin, free rotation
        JointSpec* neck = J(JointKind::Spherical, head, chest, Vec3(0, -0.1, 0), xToMinusY());
        neck->cone = true;
        neck->coneAngle = 0.6;
        JointSpec* spine = J(JointKind::Revolute, chest, pelvis, Vec3(0, -0.4, 0), xToX());
        spine->limit = true;
        spine->limitAngle = 0.5;
        for (int side2 = 0; side2 < 2; ++side2) {
            const Real sx = side2 == 0 ? -1.0 : 1.0;
            JointSpec* shoulder = J(JointKind::Spherical, chest, upperArm[side2], Vec3(sx * 0.15, -0.15, 0),
                                    side2 == 0 ? xToMinusX() : xToX());
            shoulder->cone = true;
            shoulder->coneAngle = 1.0;
            JointSpec* elbow =
                J(JointKind::Revolute, upperArm[side2], foreArm[side2], Vec3(sx * 0.45, -0.15, 0), xToZ());
            elbow->limit = true;
            elbow->limitAngle = 0.8;
            JointSpec* hip =
                J(JointKind::Spherical, pelvis, thigh[side2], Vec3(sx * 0.08, -0.6, 0), xToMinusY());
            hip->cone = true;
            hip->coneAngle = 0.8;
            JointSpec* knee =
                J(JointKind::Revolute, thigh[side2], shin[side2], Vec3(sx * 0.08, -1.0, 0), xToX());
            knee->limit = true;
            knee->limitAngle = 0.8;
        }
        // Rigid rotation about the pin: v = ω × (x − pin), no initial joint velocity error.
        const Vec3 w(2.0 * rnd(), 2.0 * rnd(), 2.0 * rnd());
        const Vec3 pin = o + Vec3(0, 0.1, 0);
        for (int b = base; b < static_cast<int>(s.bodies.size()); ++b) {
            s.bodies[static_cast<size_t>(b)].angularVelocity = w;
            s.bodies[static_cast<size_t>(b)].linearVelocity =
                glm::cross(w, s.bodies[static_cast<size_t>(b)].position - pin);
        }
    }
    s.timingSteps = 100;
    return s;
}

/// (d) A train of n spheres (r = 0.1 m, 1 kg) 1 m apart along +X, each joined to the one before
/// it (the first to the world at the origin) by a prismatic joint along X whose spring drive
/// (k = 1000 N/m, no damping) pulls the spacing towards 1.2 m: the train starts with every spring
/// compressed by 0.2 m and oscillates. No gravity (a train on a straight track in space), so the
/// springs and the four locked axes of each joint are all there is.
///
/// `hanging`: the same train hanging along −Y under gravity, drives set to hold the static
/// equilibrium. Every engine's iterative solver loses that 100 m rigid column sideways at ≤ 10
/// iterations (round-off grows without bound), so it is not in the default run; see docs/benchmark.md.
SceneSpec train(int n, bool hanging) {
    SceneSpec s;
    s.name = hanging ? "train_hanging" : "train";
    s.description =
        std::to_string(n) +
        (hanging ? " bodies hanging on prismatic spring drives (k = 1000 N/m) at equilibrium"
                 : " bodies on prismatic spring drives (k = 1000 N/m), springs 0.2 m short, no gravity");
    const Real k = 1000.0;
    if (!hanging) s.gravity = Vec3(0.0);
    const Vec3 dir = hanging ? Vec3(0, -1, 0) : Vec3(1, 0, 0);
    for (int i = 0; i < n; ++i) s.bodies.push_back(sphere((i + 1.0) * dir, 0.1, 1.0));
    for (int i = 0; i < n; ++i) {
        // Both frames start at body i−1's centre (frame 1 sits 1 m behind body i's), so the slide
        // d = ax·(p1 − p0) is 0 at the 1 m spacing.
        JointSpec j =
            joint(JointKind::Prismatic, i - 1, i, static_cast<Real>(i) * dir, hanging ? xToMinusY() : xToX());
        j.drive = true;
        j.stiffness = k;
        j.damping = 0.0;
        // hanging: d = target − (load below)/k holds the bodies where they start.
        j.target = hanging ? -static_cast<Real>(n - i) * 9.81 / k : 0.2;
        s.joints.push_back(j);
    }
    s.timingSteps = 200;
    return s;
}

}  // namespace

void SceneSpec::finish() {
    for (BodySpec& b : bodies) {
        jl::BodyDesc d;
        d.shape = b.shape == Shape::Box ? jl::ShapeType::Box : jl::ShapeType::Sphere;
        d.halfExtents = b.halfExtents;
        d.radius = b.radius;
        d.mass = b.mass;
        b.inertia = jl::computeMassProperties(d).inertia;
    }
    for (JointSpec& j : joints) {
        const Transform world{j.anchor, j.axes};
        auto local = [&](int body) {
            if (body < 0) return world;
            const BodySpec& b = bodies[static_cast<size_t>(body)];
            return Transform{b.position, b.orientation}.inverse() * world;
        };
        j.frame0 = local(j.body0);
        j.frame1 = local(j.body1);
    }
}

std::vector<std::string> sceneNames() {
    return {"chain10",         "chain10_heavy", "chain100", "chain100_heavy", "chain1000",
            "chain1000_heavy", "grid100",       "ragdolls", "train"};
}

std::vector<std::string> extraSceneNames() {
    return {"train_hanging", "double_pendulum", "lever"};
}

SceneSpec makeScene(const std::string& name) {
    SceneSpec s;
    if (name == "chain10")
        s = chain(10, false);
    else if (name == "chain10_heavy")
        s = chain(10, true);
    else if (name == "chain100")
        s = chain(100, false);
    else if (name == "chain100_heavy")
        s = chain(100, true);
    else if (name == "chain1000")
        s = chain(1000, false);
    else if (name == "chain1000_heavy")
        s = chain(1000, true);
    else if (name == "grid100")
        s = grid(100);
    else if (name == "ragdolls")
        s = ragdolls(100);
    else if (name == "train")
        s = train(100, false);
    else if (name == "train_hanging")
        s = train(100, true);
    else if (name == "double_pendulum")
        s = doublePendulum();
    else if (name == "lever")
        s = lever();
    else
        throw std::invalid_argument("unknown scene '" + name + "'");
    s.finish();
    return s;
}

}  // namespace bench
