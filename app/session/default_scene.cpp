#include "session/default_scene.h"

#include <cmath>
#include <filesystem>
#include <system_error>
#include <vector>

namespace jl::app {

// [SECTION] Finding showcase.json

std::string findShowcaseScenario() {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
#ifdef JOINTLAB_ASSET_DIR
    candidates.push_back(fs::path(JOINTLAB_ASSET_DIR) / "scenarios" / "showcase.json");
#endif
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        candidates.push_back(exe.parent_path() / "assets" / "scenarios" / "showcase.json");
        candidates.push_back(exe.parent_path().parent_path() / "assets" / "scenarios" / "showcase.json");
        candidates.push_back(exe.parent_path().parent_path().parent_path() / "assets" / "scenarios" /
                             "showcase.json");
    }
    for (const fs::path& p : candidates)
        if (fs::is_regular_file(p, ec)) return p.string();
    return "";
}

// [SECTION] The built-in showcase

namespace {

const Quat kIdentity{1.0, 0.0, 0.0, 0.0};
/// Rotation taking local X onto world Y: joint axes (X) that should point up.
const Quat kXToY{std::cos(kPi / 4), 0.0, 0.0, std::sin(kPi / 4)};
/// Rotation taking local X onto world Z.
const Quat kXToZ{std::cos(-kPi / 4), 0.0, std::sin(-kPi / 4), 0.0};

BodyDesc box(const char* name, Vec3 position, Vec3 halfExtents, MotionType motion = MotionType::Dynamic) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Box;
    b.position = position;
    b.halfExtents = halfExtents;
    b.motion = motion;
    return b;
}

JointDesc joint(const char* name, const char* body0, const char* body1, Transform frame0, Transform frame1,
                JointParams params) {
    JointDesc j;
    j.name = name;
    j.body0 = body0;
    j.body1 = body1;
    j.frame0 = frame0;
    j.frame1 = frame1;
    j.params = params;
    return j;
}

void addPendulum(Scene& s) {
    // A 2 kg bob 1.3 m below a pivot on a hinge about world Z, released 50° from the vertical.
    const Vec3 pivot(-3.0, 2.6, 0.0);
    const Real length = 1.3, angle = 50.0 * kPi / 180.0;
    s.bodies.push_back(
        box("pendulum mount", pivot + Vec3(0, 0.08, 0), {0.12, 0.08, 0.12}, MotionType::Static));
    BodyDesc bob;
    bob.name = "pendulum bob";
    bob.shape = ShapeType::Sphere;
    bob.radius = 0.2;
    bob.mass = 2.0;
    bob.position = pivot + length * Vec3(-std::sin(angle), -std::cos(angle), 0.0);
    s.bodies.push_back(bob);
    s.joints.push_back(joint("pendulum hinge", "pendulum mount", "pendulum bob", {Vec3(0, -0.08, 0), kXToZ},
                             {pivot - bob.position, kXToZ}, RevoluteJoint{}));
}

void addDoor(Scene& s) {
    // A door on a vertical hinge, pushed open at 1 rad/s; damping slows it down.
    const Vec3 hinge(-1.3, 1.0, 0.0);
    BodyDesc post = box("door post", {-1.36, 1.1, 0.0}, {0.06, 1.1, 0.06}, MotionType::Static);
    BodyDesc door = box("door", hinge + Vec3(0.5, 0, 0), {0.5, 0.9, 0.04});
    door.mass = 8.0;
    door.angularVelocity = Vec3(0.0, 1.0, 0.0);
    door.linearVelocity = glm::cross(door.angularVelocity, door.position - hinge);
    door.angularDamping = 0.5;
    s.bodies.push_back(post);
    s.bodies.push_back(door);
    s.joints.push_back(joint("door hinge", "door post", "door", {hinge - post.position, kXToY},
                             {hinge - door.position, kXToY}, RevoluteJoint{}));
}

void addSpringSlider(Scene& s) {
    // A block on a vertical rail (prismatic) hanging from a spring (soft distance joint).
    BodyDesc rail = box("slider rail", {1.2, 1.2, 0.0}, {0.04, 1.2, 0.04}, MotionType::Static);
    BodyDesc block = box("slider block", {1.2, 1.6, 0.0}, {0.18, 0.12, 0.18});
    s.bodies.push_back(rail);
    s.bodies.push_back(block);
    s.joints.push_back(joint("slider", "slider rail", "slider block", {block.position - rail.position, kXToY},
                             {Vec3(0.0), kXToY}, PrismaticJoint{}));
    DistanceJoint spring;
    spring.minEnabled = spring.maxEnabled = true;
    spring.minDistance = spring.maxDistance = 0.5;
    spring.springEnabled = true;
    spring.stiffness = 60.0;
    spring.damping = 0.5;
    s.joints.push_back(joint("slider spring", "slider rail", "slider block", {Vec3(0.0, 1.2, 0.0), kIdentity},
                             {Vec3(0.0, 0.12, 0.0), kIdentity}, spring));
}

void addChain(Scene& s) {
    // Four capsule links on ball joints, hung from a world anchor and released horizontally.
    const Vec3 anchor(2.6, 2.6, 0.0);
    const Real radius = 0.06, halfHeight = 0.18, halfSpan = radius + halfHeight;
    const char* names[] = {"chain link 1", "chain link 2", "chain link 3", "chain link 4"};
    for (int i = 0; i < 4; ++i) {
        BodyDesc link;
        link.name = names[i];
        link.shape = ShapeType::Capsule;
        link.radius = radius;
        link.halfHeight = halfHeight;
        link.mass = 0.5;
        link.position = anchor + Vec3(halfSpan * (2 * i + 1), 0.0, 0.0);
        s.bodies.push_back(link);
        if (i == 0) {
            s.joints.push_back(joint("chain anchor", "", names[0], {anchor, kIdentity},
                                     {Vec3(-halfSpan, 0, 0), kIdentity}, SphericalJoint{}));
        } else {
            std::string name = std::string("chain ball ") + std::to_string(i);
            s.joints.push_back(joint(name.c_str(), names[i - 1], names[i], {Vec3(halfSpan, 0, 0), kIdentity},
                                     {Vec3(-halfSpan, 0, 0), kIdentity}, SphericalJoint{}));
        }
    }
}

}  // namespace

Scene makeBuiltInShowcase() {
    Scene s;
    s.description =
        "Built-in showcase: a pendulum on a hinge, a swinging door, a block on a vertical slider held by "
        "a spring, and a chain of capsules on ball joints.";
    addPendulum(s);
    addDoor(s);
    addSpringSlider(s);
    addChain(s);
    s.camera.target = Vec3(0.6, 1.3, 0.0);
    s.camera.distance = 9.0;
    s.camera.yaw = 0.3;
    s.camera.pitch = 0.28;
    return s;
}

Scene makeEmptyScene() {
    Scene s;
    s.description = "";
    return s;
}

}  // namespace jl::app
