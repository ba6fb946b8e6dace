// Helpers shared by the scenario I/O tests (scenario_io_test.cpp, scenario_file_test.cpp).
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "jointlab/scenario_io.h"
#include "test_files.h"

namespace fs = std::filesystem;

namespace jl {
namespace scenario_test {

// [SECTION] Helpers

/// Every field of a scene as "path=bits" lines, so two scenes compare bit for bit and a failure
/// names the field. Uses the same field lists as the I/O code, independently of it.
struct Flattener {
    std::string prefix;
    std::string out;
    void put(const char* name, const std::string& value) { out += prefix + name + "=" + value + "\n"; }
    static std::string bits(Real x) { return std::to_string(std::bit_cast<uint64_t>(x)); }
    void operator()(const char* n, Real& x, const Field&) { put(n, bits(x)); }
    void operator()(const char* n, Vec3& v, const Field&) {
        put(n, bits(v.x) + "," + bits(v.y) + "," + bits(v.z));
    }
    void operator()(const char* n, Quat& q, const Field&) {
        put(n, bits(q.w) + "," + bits(q.x) + "," + bits(q.y) + "," + bits(q.z));
    }
    void operator()(const char* n, int& i, const Field&) { put(n, std::to_string(i)); }
    void operator()(const char* n, bool& b, const Field&) { put(n, b ? "true" : "false"); }
    void operator()(const char* n, std::string& s, const Field&) { put(n, "\"" + s + "\""); }
    template <class E>
    void operator()(const char* n, EnumField<E> e, const Field&) {
        put(n, std::to_string(static_cast<int>(e.value)));
    }
};

inline std::string flatten(Scene s) {
    Flattener f;
    f.out = "description=" + s.description + "\n";
    f.prefix = "settings.";
    s.settings.visit(f);
    f.prefix = "camera.";
    s.camera.visit(f);
    for (size_t i = 0; i < s.bodies.size(); ++i) {
        f.prefix = std::string("bodies[").append(std::to_string(i)).append("].");
        s.bodies[i].visit(f);
    }
    for (size_t i = 0; i < s.joints.size(); ++i) {
        f.prefix = std::string("joints[").append(std::to_string(i)).append("].");
        f.out += f.prefix + "type=" + s.joints[i].typeInfo().name + "\n";
        s.joints[i].visitCommon(f);
        f.prefix += "params.";
        std::visit([&](auto& p) { p.visit(f); }, s.joints[i].params);
    }
    for (size_t i = 0; i < s.plots.size(); ++i) {
        f.prefix = std::string("plots[").append(std::to_string(i)).append("].");
        s.plots[i].visit(f);
    }
    return f.out;
}

inline BodyDesc body(const std::string& name, Vec3 position) {
    BodyDesc b;
    b.name = name;
    b.position = position;
    return b;
}

inline JointDesc joint(const std::string& name, const char* type, const std::string& b0,
                       const std::string& b1) {
    JointDesc j;
    j.name = name;
    j.params = makeJointParams(findJointType(type));
    j.body0 = b0;
    j.body1 = b1;
    return j;
}

/// Moves every parameter off its default (within range), so round trips cover all of them.
struct Perturb {
    void operator()(const char*, Real& x, const Field& f) {
        if (std::isfinite(x)) x = std::min(x + 0.1234567890123, f.max);
    }
    void operator()(const char*, Vec3& v, const Field& f) {
        for (int k = 0; k < 3; ++k) v[k] = std::min(v[k] + 0.1234567890123 * (k + 1), f.max);
    }
    void operator()(const char*, bool& b, const Field&) { b = !b; }
    template <class E>
    void operator()(const char*, EnumField<E> e, const Field&) {
        e.value = static_cast<E>((static_cast<int>(e.value) + 1) % e.count);
    }
    template <class T>
    void operator()(const char*, T&, const Field&) {}  // int, string, quaternion: keep
};

/// A scene touching every field type, every joint type and awkward numbers.
inline Scene sampleScene() {
    Scene s;
    s.description = "sample: \"quotes\", backslash \\, newline\nand ünïcødé";
    s.settings.dt = 1.0 / 120.0;
    s.settings.posIters = 8;
    s.settings.solver = SolverType::TGS;
    s.settings.autoBaumgarte = false;
    s.settings.baumgarte = 0.3;
    s.settings.gravity = {0.1, -9.81, -0.0};
    s.camera.yaw = -1.0 / 3.0;
    s.bodies.push_back(body("base", {0, 2, 0}));
    s.bodies[0].motion = MotionType::Static;
    s.bodies.push_back(body("arm", {1.0 / 3.0, 1e-300, 123456789.123456789}));
    s.bodies[1].shape = ShapeType::Capsule;
    s.bodies[1].orientation = glm::normalize(Quat(0.9, 0.1, 0.2, 0.3));
    s.bodies[1].angularVelocity = {0.0, 5e-324, -2.5};
    s.bodies.push_back(body("ball ü", {0, 1, 0}));
    s.bodies[2].shape = ShapeType::Sphere;
    s.bodies[2].massMode = MassMode::Density;
    s.bodies[2].density = 7850.0;
    for (int t = 0; t < kJointTypeCount; ++t) {
        const char* type = jointTypeInfo(t).name;
        JointDesc j = joint(std::string("j_") + type, type, t % 2 ? "" : "base", "arm");
        std::visit(
            [](auto& p) {
                Perturb perturb;
                p.visit(perturb);
            },
            j.params);
        j.frame0.p = {0.1 * t, -0.5, 0.25};
        j.frame1.q = glm::normalize(Quat(1.0, 0.0, 0.3 * t, 0.0));
        j.breakTorque = 100.0 + t;
        j.invMassScale0 = 0.5;
        s.joints.push_back(j);
    }
    // The perturbed gear is linear, which cannot be relative (GearJoint::validate): a second gear
    // keeps relative off its default.
    for (JointDesc& j : s.joints)
        if (auto* g = std::get_if<GearJoint>(&j.params)) g->relative = false;
    s.joints.push_back(joint("j_gear_relative", "gear", "base", "arm"));
    std::get<GearJoint>(s.joints.back().params).relative = true;
    s.joints.push_back(joint("ball_rope", "distance", "arm", "ball ü"));
    std::get<DistanceJoint>(s.joints.back().params).minEnabled = true;
    std::get<DistanceJoint>(s.joints.back().params).maxDistance = 2.0;
    PlotDesc impulse;  // defaults, and every field moved off its default
    s.plots.push_back(impulse);
    PlotDesc convergence;
    convergence.title = "residual, \"both\" solvers";
    convergence.kind = PlotKind::Convergence;
    convergence.joints = "j_revolute,ball_rope";
    convergence.rows = "linear Y lock,twist limit (upper)";
    convergence.logScale = true;
    s.plots.push_back(convergence);
    return s;
}

inline const char* const kHeader = R"("format": "jointlab-scenario", "version": 2)";

/// A file with the standard header plus `rest` (which starts with a comma or is empty).
inline std::string file(const std::string& rest) {
    return std::string("{") + kHeader + rest + "}";
}

/// A small valid file with two bodies and a revolute joint, into which test cases splice.
inline std::string twoBodies(const std::string& bodyExtra, const std::string& jointExtra = "") {
    return file(
        R"(, "bodies": [{"name": "a")" + bodyExtra +
        R"(}, {"name": "b"}], "joints": [{"type": "revolute", "name": "h", "body0": "", "body1": "a")" +
        jointExtra + "}]");
}

using test::readFile;
using test::TempDir;

}  // namespace scenario_test
}  // namespace jl
