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

#include "../tests/engine/test_scenes.h"
#include "../tests/engine/test_util.h"
#include "jointlab/world.h"

using namespace jl;

namespace {

Real largestJointError(const World& w) {
    Real e = 0.0;
    for (int j = 0; j < static_cast<int>(w.scene().joints.size()); ++j)
        e = std::max(e, glm::length(test::anchor0(w, j) - test::anchor1(w, j)));
    return e;
}

/// The energy of a run (test::runEnergy) and its largest joint error [m].
struct Run {
    test::EnergyRun energy;
    Real jointError = 0.0;
};

Run run(const Scene& s, Real seconds) {
    Run out;
    out.energy = test::runEnergy(
        s, seconds, [&](const World& w) { out.jointError = std::max(out.jointError, largestJointError(w)); });
    return out;
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
    const test::LeverSwing swing =
        test::swingLever(scene, static_cast<int>(std::lround(10.0 / scene.settings.dt)));
    error = swing.jointError;
    const Real period = test::leverPeriod(length, radius);
    off = swing.passes.size() >= 2 ? (swing.period() - period) / period : NAN;
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
        // appended, not "literal" + std::string: g++ 12 warns of a false -Wrestrict overlap there
        std::string list = ",", item = ",";
        list.append(scenes).append(",");
        item.append(s).append(",");
        return list.find(item) != std::string::npos;
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
                    tag.c_str(), 100.0 * r.energy.change / range, 100.0 * r.energy.maxGain / range,
                    1000.0 * r.jointError, r.energy.finite ? "" : " DIVERGED");
    }
    for (int n : {100, 1000}) {
        if (!wants(n == 100 ? "chain100" : "chain1000")) continue;
        const Real drop = test::chainDrop(n);
        const Run r = run(with(test::exampleChain(n)), 10.0);
        std::printf("%s | chain%d 10 s: largest gain %.2f%%, after %+.0f%%, joint error %.3g m%s\n",
                    tag.c_str(), n, 100.0 * r.energy.maxGain / drop, 100.0 * r.energy.change / drop,
                    r.jointError, r.energy.finite ? "" : " DIVERGED");
    }
    if (wants("lever")) {
        Real error, off;
        leverRun(with(test::lever(2.0, 0.05)), 2.0, 0.05, error, off);
        std::printf("%s | lever 2 m, 5 cm: joint error %.3g mm, period %+.3f%%\n", tag.c_str(),
                    1000.0 * error, 100.0 * off);
    }
    if (wants("levers")) {
        Real worstError = 0.0, worstOff = 0.0, atL = 0, atR = 0, offL = 0, offR = 0;
        for (Real length : {0.1, 0.3, 1.0, 2.0, 3.0})
            for (Real radius : {0.02, 0.05, 0.1, 0.25, 0.5}) {
                Real error, off;
                leverRun(with(test::lever(length, radius)), length, radius, error, off);
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
                    tag.c_str(), 100.0 * r.energy.maxGain / drop, 100.0 * r.energy.change / drop,
                    1000.0 * r.jointError, r.energy.finite ? "" : " DIVERGED");
    }
    return 0;
}
