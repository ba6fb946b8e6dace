// Scenes and measures that several tests (and bench/correction_table.cpp) share: the ball off its
// anchor of the position-correction tests, issue 25's lever and chains, the energy of a run, the
// state hash the corrections' mapping tests compare, and the passive examples. Settings are the
// caller's: a builder sets only what makes the scene.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "jointlab/scene.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl::test {

/// A 1 kg ball (radius 0.1 m) on a ball joint to the world at (0, 1, 0) whose anchor is the
/// ball's centre, placed `offset` from it, at rest: its three rows are linear with no lever arm,
/// so each has K = 1/m and they are independent.
inline Scene ballOffItsAnchor(const Vec3& offset) {
    Scene s = emptyScene(false);
    s.bodies.push_back(sphere("ball", Vec3(0.0, 1.0, 0.0) + offset, 1.0, 0.1));
    JointDesc j = joint<SphericalJoint>(s, "pivot", "", "ball", Vec3(0.0, 1.0, 0.0));
    j.frame1 = Transform{};  // the ball's centre
    s.joints.push_back(j);
    return s;
}

/// Issue 25's lever: a sphere of `radius` (1 kg) on a massless lever of `length` from a world
/// hinge (axis Z) or ball joint at (0, 10, 0), released horizontal along +X; the joint frame
/// turned 30° about Z so that no row lies along the lever.
inline Scene lever(Real length, Real radius, bool hinge = true) {
    Scene s = emptyScene(false);
    s.bodies.push_back(sphere("tip", Vec3(length, 10.0, 0.0), 1.0, radius));
    const Quat axes = axisAngle(Vec3(0, 0, 1), 0.5236) * axisAngle(Vec3(0, 1, 0), -kPi / 2);
    if (hinge)
        s.joints.push_back(joint<RevoluteJoint>(s, "pivot", "", "tip", Vec3(0.0, 10.0, 0.0), axes));
    else
        s.joints.push_back(joint<SphericalJoint>(s, "pivot", "", "tip", Vec3(0.0, 10.0, 0.0), axes));
    return s;
}

/// The lever's large-amplitude period from 90°: T = 4·√(I/(m·g·L))·K(sin 45°), I about the
/// pivot, m = 1 [s].
inline Real leverPeriod(Real length, Real radius) {
    const Real inertia = 0.4 * radius * radius + length * length;
    return 4.0 * std::sqrt(inertia / (9.81 * length)) * ellipticK(std::sin(kPi / 4));
}

/// A lever scene run for `steps` steps.
struct LeverSwing {
    Real jointError = 0.0;     ///< largest distance between the joint's two anchors [m]
    std::vector<Real> passes;  ///< times the tip crossed x = 0 towards −X (interpolated) [s]
    /// The mean period between the first and the last pass (with at least two) [s].
    Real period() const { return (passes.back() - passes.front()) / static_cast<Real>(passes.size() - 1); }
};

inline LeverSwing swingLever(const Scene& s, int steps) {
    World w(s);
    LeverSwing out;
    Real lastX = w.bodies()[0].pose.p.x;
    const Real dt = w.scene().settings.dt;
    for (int i = 0; i < steps; ++i) {
        w.step();
        out.jointError = std::max(out.jointError, glm::length(anchor0(w, 0) - anchor1(w, 0)));
        const Real x = w.bodies()[0].pose.p.x;
        if (lastX > 0.0 && x <= 0.0) out.passes.push_back(w.time() - dt * x / (x - lastX));
        lastX = x;
    }
    return out;
}

/// The state hash of a 12-link example chain (exampleChain) after 120 steps under `solver` and
/// position correction `correction`: a choice the solver maps to another (jointlab/correction.h)
/// gives that one's bits.
inline uint64_t chainHashUnder(SolverType solver, Correction correction) {
    Scene s = exampleChain(12);
    s.settings.solver = solver;
    s.settings.correction = correction;
    World w(s);
    for (int i = 0; i < 120; ++i) w.step();
    return w.stateHash();
}

/// The energy a chain of `n` of the example links (exampleChain) has to spend: its potential
/// energy drop from horizontal to hanging straight down, Σ m·g·(0.1 + 0.2·i) [J].
inline Real chainDrop(int n) {
    return 0.2 * 9.81 * (0.1 * n + 0.1 * n * (n - 1));
}

/// The energy of a run, kinetic + potential measured after every step.
struct EnergyRun {
    Real kinetic0 = 0.0;  ///< kinetic energy at the start [J]
    Real maxGain = 0.0;   ///< largest rise of kinetic + potential energy above the start [J]
    Real maxDrop = 0.0;   ///< largest fall of the potential energy below its start [J]
    Real change = 0.0;    ///< energy at the end minus at the start [J]
    bool finite = true;   ///< the energy stayed finite and the world never diverged
};

/// `s` run for `seconds`; `afterStep(world)` is called after every step (for what else a caller
/// measures).
template <class F>
EnergyRun runEnergy(const Scene& s, Real seconds, F afterStep) {
    World w(s);
    const Real potential0 = w.potentialEnergy();
    EnergyRun out;
    out.kinetic0 = w.kineticEnergy();
    const Real e0 = out.kinetic0 + potential0;
    const int steps = static_cast<int>(std::lround(seconds / s.settings.dt));
    for (int i = 0; i < steps; ++i) {
        w.step();
        const Real e = w.kineticEnergy() + w.potentialEnergy();
        out.finite = out.finite && std::isfinite(e) && !w.divergence();
        out.maxGain = std::max(out.maxGain, e - e0);
        out.maxDrop = std::max(out.maxDrop, potential0 - w.potentialEnergy());
        afterStep(w);
    }
    out.change = w.kineticEnergy() + w.potentialEnergy() - e0;
    return out;
}

inline EnergyRun runEnergy(const Scene& s, Real seconds) {
    return runEnergy(s, seconds, [](const World&) {});
}

#ifdef JOINTLAB_SOURCE_DIR  // the tests' (not the bench's)
/// The examples (assets/scenarios/*.json, in directory order) that neither put energy in on
/// purpose (a motor, a drive to a moving target) nor start with energy the count leaves out
/// (drive_step's spring starts stretched; spring energy is not counted).
inline std::vector<std::filesystem::path> passiveExamples() {
    namespace fs = std::filesystem;
    const std::string driven[] = {"driven_arm.json",   "gear_train.json",       "motor_wheel.json",
                                  "rack_pinion.json",  "d6_moving_target.json", "drive_step.json",
                                  "gears_contact.json"};
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios")) {
        const std::string file = entry.path().filename().string();
        if (entry.path().extension() != ".json" || std::count(std::begin(driven), std::end(driven), file) > 0)
            continue;
        out.push_back(entry.path());
    }
    return out;
}
#endif

}  // namespace jl::test
