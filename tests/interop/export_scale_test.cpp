// The MJCF export and the MuJoCo reference with 100 times the bodies and couplings of the examples:
// no crash on a chain far deeper than MuJoCo reads, one warning line per kind of difference however
// many joints share it, and a constraint buffer in the exported model large enough for every row.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <string>

#include "interop/mjcf_export.h"
#include "interop/reference_run.h"

namespace jl::interop {
namespace {

const Quat kXToZ = glm::angleAxis(-kPi / 2, Vec3(0, 1, 0));  // hinge axes along the world's Z

BodyDesc ball(const std::string& name, const Vec3& at) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Sphere;
    b.radius = 0.02;
    b.position = at;
    return b;
}

/// A chain of `n` balls 0.1 m apart on hinges about Z, hanging off the world.
Scene hingeChain(int n) {
    Scene s;
    s.settings.groundPlane = false;
    for (int i = 0; i < n; ++i) {
        s.bodies.push_back(ball("b" + std::to_string(i), Vec3(0.05 + 0.1 * i, 2, 0)));
        JointDesc j;
        j.name = "j" + std::to_string(i);
        j.body0 = i == 0 ? "" : "b" + std::to_string(i - 1);
        j.body1 = s.bodies.back().name;
        j.frame0 = {i == 0 ? Vec3(0, 2, 0) : Vec3(0.05, 0, 0), kXToZ};
        j.frame1 = {Vec3(-0.05, 0, 0), kXToZ};
        j.params = RevoluteJoint{};
        s.joints.push_back(j);
    }
    return s;
}

/// `pairs` pairs of levers on world hinges about Z, each pair coupled by a gear (q0 − q1 = 0):
/// every gear exports as a MuJoCo joint equality, one constraint row each.
Scene gearedPairs(int pairs) {
    Scene s;
    s.settings.groundPlane = false;
    s.settings.bodyCollisions = false;
    for (int p = 0; p < pairs; ++p)
        for (int k = 0; k < 2; ++k) {
            const std::string name = "lever" + std::to_string(p) + (k ? "b" : "a");
            const Vec3 hinge(0.5 * p, 1.0, 0.3 * k);
            s.bodies.push_back(ball(name, hinge + Vec3(0.2, 0, 0)));
            JointDesc j;
            j.name = "hinge" + std::to_string(p) + (k ? "b" : "a");
            j.body1 = name;
            j.frame0 = {hinge, kXToZ};
            j.frame1 = {Vec3(-0.2, 0, 0), kXToZ};
            j.params = RevoluteJoint{};
            s.joints.push_back(j);
        }
    for (int p = 0; p < pairs; ++p) {
        JointDesc g;
        g.name = "gear" + std::to_string(p);
        g.body0 = "lever" + std::to_string(p) + "a";
        g.body1 = "lever" + std::to_string(p) + "b";
        g.frame0 = {Vec3(-0.2, 0, 0), kXToZ};
        g.frame1 = {Vec3(-0.2, 0, 0), kXToZ};
        GearJoint gear;
        gear.ratio = -1.0;  // q0 − q1 = 0: the two levers turn together
        g.params = gear;
        s.joints.push_back(g);
    }
    return s;
}

size_t lines(const std::string& text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// 20 000 links (MuJoCo reads 96): refused with the depth, and the export does not recurse through
// the whole chain on the way (it used to, and ran out of stack).
TEST(ExportScale, AChainFarDeeperThanMujocoReadsIsRefusedWithoutACrash) {
    const MjcfExport e = exportScene(hingeChain(20000));
    EXPECT_EQ(e.depth, 20000);
    EXPECT_NE(e.tooDeep.find("20000 bodies deep"), std::string::npos) << e.tooDeep;
    std::string error;
    EXPECT_EQ(exportMjcf(hingeChain(20000), error), "");
    EXPECT_NE(error.find("20000 bodies deep"), std::string::npos) << error;
}

// 2500 gears that MuJoCo solves alike: one line of warning says so and names a few of them, as
// the import's warning does; it does not repeat itself 2500 times.
TEST(ExportScale, OneWarningLineForEachKindOfDifference) {
    std::string error, warning;
    const std::string xml = exportMjcf(gearedPairs(2500), error, &warning);
    ASSERT_FALSE(xml.empty()) << error;
    EXPECT_LE(lines(warning), 4u) << warning.substr(0, 2000);
    EXPECT_NE(warning.find("gear0"), std::string::npos) << warning.substr(0, 2000);
    EXPECT_NE(warning.find("2494 more"), std::string::npos) << warning.substr(0, 2000);
}

// 600 joint equalities are 600 constraint rows, more than MuJoCo's default buffer (njmax 500):
// the exported model sizes its buffer, so the reference drops none of them (MuJoCo would warn
// "constraint buffer is full" and simulate the rest unconstrained), and each pair keeps its law.
TEST(ExportScale, TheReferenceHoldsEveryRowOfALargeScene) {
    Scene s = gearedPairs(600);
    s.settings.gravity = Vec3(0.0);  // only the spin turns the levers
    for (BodyDesc& b : s.bodies)
        if (b.name.back() == 'a') b.angularVelocity = Vec3(0, 0, 1.0);  // one lever of each pair spun
    World world(s);
    std::string error;
    const auto ref = ReferenceRun::start(world, error);
    ASSERT_NE(ref, nullptr) << error;
    for (int i = 0; i < 20; ++i) ref->step();
    EXPECT_EQ(ref->data()->warning[mjWARN_CNSTRFULL].number, 0);
    EXPECT_FALSE(ref->diverged());
    // Each pair turns together in MuJoCo (its soft equality lags by a little: solref 0.02 s).
    const std::vector<Real> q = ref->mujocoCoordinates();
    const std::vector<int>& joints = ref->comparedJoints();
    ASSERT_EQ(joints.size(), 1200u);
    Real worst = 0.0, turned = 0.0;
    for (size_t k = 0; k + 1 < q.size(); k += 2) {
        worst = std::max(worst, std::abs(q[k] - q[k + 1]));
        turned = std::max(turned, std::abs(q[k]));
    }
    // 20 steps at 1 rad/s shared by the pair: each turns by about 1/6 rad. Without its equality,
    // a pair would be apart by twice that.
    EXPECT_GT(turned, 0.1);
    EXPECT_LT(worst, 0.1 * turned);
}

}  // namespace
}  // namespace jl::interop
