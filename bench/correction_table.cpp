// jointlab_correction_table: the rows of docs/solvers.md §10 "The table" (solver × correction ×
// iterations × dt) for one setting, on the scenes of issue 25: the double pendulum over 60 s, the
// 100- and 1000-link chains of the chain examples' links over 10 s, one body on a world hinge
// (the 2 m lever to a 5 cm ball, and the worst over levers 0.1–3 m × tips 2–50 cm) over 10 s, and a
// heavy load on a light body (mass ratio 1:100) over 10 s. The scenes are those of
// tests/engine/energy_defaults_test.cpp. Prints one markdown row per scene group.
//
//   jointlab_correction_table SOLVER CORRECTION POS+VEL RATE [scenes [ALPHA]]
//   e.g. jointlab_correction_table tgs soft 8+1 60 pendulum,chain100,chain1000,lever,levers,load
//        jointlab_correction_table pgs rattle 8+1 60 levers 0.7   (α by hand; else auto)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../tests/engine/test_util.h"
#include "jointlab/world.h"

using namespace jl;

namespace {

struct Run {
    Real maxGain = 0.0;  ///< largest rise of kinetic + potential energy above the start [J]
    Real change = 0.0;   ///< energy at the end minus at the start [J]
    Real jointError = 0.0;
    bool finite = true;
};

Real largestJointError(const World& w) {
    Real e = 0.0;
    for (int j = 0; j < static_cast<int>(w.scene().joints.size()); ++j)
        e = std::max(e, glm::length(test::anchor0(w, j) - test::anchor1(w, j)));
    return e;
}

Run run(const Scene& s, Real seconds) {
    World w(s);
    const Real e0 = w.kineticEnergy() + w.potentialEnergy();
    Run out;
    const int steps = static_cast<int>(std::lround(seconds / s.settings.dt));
    for (int i = 0; i < steps; ++i) {
        w.step();
        const Real e = w.kineticEnergy() + w.potentialEnergy();
        out.finite = out.finite && std::isfinite(e) && !w.divergence();
        out.maxGain = std::max(out.maxGain, e - e0);
        out.jointError = std::max(out.jointError, largestJointError(w));
    }
    out.change = w.kineticEnergy() + w.potentialEnergy() - e0;
    return out;
}

Scene lever(Real length, Real radius) {
    Scene s = test::emptyScene(false);
    s.bodies.push_back(test::sphere("tip", Vec3(length, 10.0, 0.0), 1.0, radius));
    const Quat axes = test::axisAngle(Vec3(0, 0, 1), 0.5236) * test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    s.joints.push_back(test::joint<RevoluteJoint>(s, "pivot", "", "tip", Vec3(0.0, 10.0, 0.0), axes));
    return s;
}

/// A 0.1 kg rod (1 m) on a world hinge carrying a 10 kg ball (radius 0.1 m) on a hinge at its
/// end, released horizontal: a heavy load on a light body, mass ratio 1:100.
Scene heavyLoad() {
    Scene s = test::emptyScene(false);
    const Quat hinge = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    s.bodies.push_back(test::box("rod", Vec3(0.5, 10, 0), Vec3(0.5, 0.02, 0.02), 0.1));
    s.bodies.push_back(test::sphere("load", Vec3(1.0, 10, 0), 10.0, 0.1));
    s.joints.push_back(test::joint<RevoluteJoint>(s, "pivot", "", "rod", Vec3(0, 10, 0), hinge));
    s.joints.push_back(test::joint<RevoluteJoint>(s, "load hinge", "rod", "load", Vec3(1.0, 10, 0), hinge));
    return s;
}

/// The lever's measured period against the elliptic-integral closed form, and its joint error.
void leverRun(const Scene& scene, Real length, Real radius, Real& error, Real& off) {
    World w(scene);
    error = 0.0;
    std::vector<Real> passes;
    Real lastX = w.bodies()[0].pose.p.x;
    const Real dt = w.scene().settings.dt;
    const int steps = static_cast<int>(std::lround(10.0 / dt));
    for (int i = 0; i < steps; ++i) {
        w.step();
        error = std::max(error, glm::length(test::anchor0(w, 0) - test::anchor1(w, 0)));
        const Real x = w.bodies()[0].pose.p.x;
        if (lastX > 0.0 && x <= 0.0) passes.push_back(w.time() - dt * x / (x - lastX));
        lastX = x;
    }
    const Real inertia = 0.4 * radius * radius + length * length;
    const Real period = 4.0 * std::sqrt(inertia / (9.81 * length)) * test::ellipticK(std::sin(kPi / 4));
    off = passes.size() >= 2
              ? ((passes.back() - passes.front()) / static_cast<Real>(passes.size() - 1) - period) / period
              : NAN;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s pgs|tgs CORRECTION POS+VEL RATE [scenes [ALPHA]]\n", argv[0]);
        return 64;
    }
    WorldSettings settings;
    settings.solver = std::strcmp(argv[1], "pgs") == 0 ? SolverType::PGS : SolverType::TGS;
    int c = -1;
    for (int i = 0; i < static_cast<int>(sizeof kCorrectionNames / sizeof kCorrectionNames[0]); ++i)
        if (std::strcmp(argv[2], kCorrectionNames[i]) == 0) c = i;
    if (c < 0 || std::sscanf(argv[3], "%d+%d", &settings.posIters, &settings.velIters) != 2) {
        std::fprintf(stderr, "bad correction or iterations\n");
        return 64;
    }
    settings.correction = static_cast<Correction>(c);
    settings.dt = 1.0 / std::atof(argv[4]);
    if (argc > 6) {
        settings.autoBaumgarte = false;
        settings.baumgarte = std::atof(argv[6]);
        if (!(settings.baumgarte >= 0.0 && settings.baumgarte <= 1.0)) {
            std::fprintf(stderr, "ALPHA must be in [0, 1]\n");
            return 64;
        }
    }
    const std::string scenes = argc > 5 ? argv[5] : "pendulum,chain100,chain1000,lever,levers,load";
    auto wants = [&](const char* s) {
        return ("," + scenes + ",").find("," + std::string(s) + ",") != std::string::npos;
    };
    auto with = [&](Scene s) {
        const bool ground = s.settings.groundPlane;
        s.settings = settings;
        s.settings.groundPlane = ground;
        return s;
    };
    const std::string tag = std::string(argv[1]) + " " + argv[2] + " " + argv[3] + " 1/" + argv[4] +
                            (argc > 6 ? std::string(" alpha ") + argv[6] : std::string());
    if (wants("pendulum")) {
        const Real range = 2.0 * 9.81;
        const Run r = run(with(test::doublePendulum()), 60.0);
        std::printf("%s | double pendulum 60 s: %+.1f%% (largest rise %.2f%%), joint error %.3g mm%s\n",
                    tag.c_str(), 100.0 * r.change / range, 100.0 * r.maxGain / range, 1000.0 * r.jointError,
                    r.finite ? "" : " DIVERGED");
    }
    for (int n : {100, 1000}) {
        if (!wants(n == 100 ? "chain100" : "chain1000")) continue;
        const Real drop = 0.2 * 9.81 * (0.1 * n + 0.1 * n * (n - 1));
        const Run r = run(with(test::exampleChain(n)), 10.0);
        std::printf("%s | chain%d 10 s: largest gain %.2f%%, after %+.0f%%, joint error %.3g m%s\n",
                    tag.c_str(), n, 100.0 * r.maxGain / drop, 100.0 * r.change / drop, r.jointError,
                    r.finite ? "" : " DIVERGED");
    }
    if (wants("lever")) {
        Real error, off;
        leverRun(with(lever(2.0, 0.05)), 2.0, 0.05, error, off);
        std::printf("%s | lever 2 m, 5 cm: joint error %.3g mm, period %+.3f%%\n", tag.c_str(),
                    1000.0 * error, 100.0 * off);
    }
    if (wants("levers")) {
        Real worstError = 0.0, worstOff = 0.0, atL = 0, atR = 0, offL = 0, offR = 0;
        for (Real length : {0.1, 0.3, 1.0, 2.0, 3.0})
            for (Real radius : {0.02, 0.05, 0.1, 0.25, 0.5}) {
                Real error, off;
                leverRun(with(lever(length, radius)), length, radius, error, off);
                if (error > worstError) worstError = error, atL = length, atR = radius;
                if (!(std::abs(off) <= std::abs(worstOff))) worstOff = off, offL = length, offR = radius;
            }
        std::printf(
            "%s | levers 0.1-3 m x 2-50 cm: worst joint error %.3g mm (%.1f m, %.0f cm), worst period "
            "%+.3f%% (%.1f m, %.0f cm)\n",
            tag.c_str(), 1000.0 * worstError, atL, 100.0 * atR, 100.0 * worstOff, offL, 100.0 * offR);
    }
    if (wants("load")) {
        // drop: the rod's centre 0.5 m and the load 1 m lower when hanging
        const Real drop = 9.81 * (0.1 * 0.5 + 10.0 * 1.0);
        const Run r = run(with(heavyLoad()), 10.0);
        std::printf("%s | load 1:100 10 s: largest gain %.2f%%, after %+.1f%%, joint error %.3g mm%s\n",
                    tag.c_str(), 100.0 * r.maxGain / drop, 100.0 * r.change / drop, 1000.0 * r.jointError,
                    r.finite ? "" : " DIVERGED");
    }
    return 0;
}
