#include "session/bench_scenes.h"

#include <cstdio>

#include "jointlab/scenario_io.h"
#include "session/default_scene.h"

namespace jl::app {

namespace {

std::string numbered(const char* prefix, int index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%d", prefix, index);
    return buf;
}

BodyDesc link(std::string name, const Vec3& position) {
    BodyDesc b;
    b.name = std::move(name);
    b.halfExtents = Vec3(0.08, 0.2, 0.08);
    b.mass = 1.0;
    b.position = position;
    return b;
}

JointDesc hinge(std::string name, const std::string& body0, const std::string& body1, const Vec3& frame0,
                const char* type) {
    JointDesc j;
    j.name = std::move(name);
    j.body0 = body0;
    j.body1 = body1;
    j.params = makeJointParams(findJointType(type));
    j.frame0.p = frame0;
    j.frame1.p = Vec3(0.0, 0.2, 0.0);
    return j;
}

}  // namespace

Scene makeChainsScene(int chains) {
    Scene s;
    s.description =
        "Frame benchmark: " + std::to_string(chains) + " chains of 10 links hanging from the world.";
    constexpr int kLinks = 10;
    constexpr int kPerRow = 10;
    for (int c = 0; c < chains; ++c) {
        const Vec3 top(1.2 * (c % kPerRow) - 6.0, 9.0, 1.2 * (c / kPerRow) - 6.0);
        for (int k = 0; k < kLinks; ++k) {
            const int i = c * kLinks + k;
            // Each link leans a little, so that the chains swing.
            s.bodies.push_back(link(numbered("link", i), top + Vec3(0.12 * k, -0.4 * k - 0.2, 0.0)));
            const std::string parent = k == 0 ? std::string() : numbered("link", i - 1);
            const Vec3 frame0 = k == 0 ? top : Vec3(0.0, -0.2, 0.0);
            s.joints.push_back(hinge(numbered("joint", i), parent, s.bodies.back().name, frame0,
                                     k % 2 ? "spherical" : "revolute"));
        }
    }
    s.camera.target = Vec3(0.0, 5.0, 0.0);
    s.camera.distance = 24.0;
    return s;
}

Scene makePlottedJointsScene(int joints) {
    const char* types[] = {"revolute", "spherical", "prismatic", "distance", "fixed"};
    Scene s;
    s.description = "Frame benchmark: " + std::to_string(joints) +
                    " joints in chains of five, every row of every joint plotted.";
    s.settings.groundPlane = false;
    std::string all;
    for (int j = 0; j < joints; ++j) {
        const int chain = j / 5, k = j % 5;
        const Vec3 top(2.0 * (chain % 10) - 9.0, 12.0, 2.0 * (chain / 10) - 3.0);
        s.bodies.push_back(link(numbered("b", j), top - Vec3(0.1 * k, 0.5 * k + 0.25, 0.0)));
        const std::string parent = k == 0 ? std::string() : numbered("b", j - 1);
        const Vec3 frame0 = k == 0 ? top : Vec3(0.0, -0.25, 0.0);
        JointDesc d = hinge(numbered("j", j), parent, s.bodies.back().name, frame0, types[j % 5]);
        d.frame1.p = Vec3(0.0, 0.25, 0.0);
        s.joints.push_back(std::move(d));
        all += (j ? "," : "") + s.joints.back().name;
    }
    PlotDesc rows;
    rows.kind = PlotKind::Impulse;
    rows.joints = all;
    rows.title = "Impulse of every row of " + std::to_string(joints) + " joints";
    PlotDesc energy;
    energy.kind = PlotKind::Energy;
    PlotDesc convergence;
    convergence.kind = PlotKind::Convergence;
    s.plots = {rows, energy, convergence};
    s.camera.target = Vec3(0.0, 10.0, 0.0);
    s.camera.distance = 30.0;
    return s;
}

bool makeBenchScene(const std::string& name, Scene& out, std::string& error) {
    if (name == "bodies1000") {
        out = makeChainsScene(100);
        return true;
    }
    if (name == "plots200") {
        out = makePlottedJointsScene(200);
        return true;
    }
    if (name == "default") {
        const std::string showcase = findShowcaseScenario();
        if (showcase.empty() || !loadScenario(showcase, out, error)) out = makeBuiltInShowcase();
        return true;
    }
    error = "--bench-scene: expected default, bodies1000 or plots200, got '" + name + "'";
    return false;
}

}  // namespace jl::app
