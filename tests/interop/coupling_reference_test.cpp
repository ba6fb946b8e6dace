// Couplings in MuJoCo (interop/mjcf_export_couplings.cpp, docs/reference.md "Couplings"): rack-and-pinion
// as a joint equality between the pinion's hinge and the rack's slide, a gear between two hinges
// on one moving parent, a pulley as a limited spatial tendon. Each scene runs in both engines side
// by side; where a closed form exists, both are held against it too. A gear that MuJoCo's joint
// equality cannot express is refused, naming the joint and why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "interop/reference_run.h"

namespace jl::interop {
namespace {

/// A joint frame's X along `axis` (unit): the rotation taking X to it.
Quat xAlong(const Vec3& axis) {
    const Vec3 x(1, 0, 0);
    const Vec3 c = glm::cross(x, axis);
    if (glm::length(c) < 1e-12)
        return glm::dot(x, axis) > 0 ? kIdentityQuat : glm::angleAxis(kPi, Vec3(0, 1, 0));
    return glm::angleAxis(std::acos(std::clamp(glm::dot(x, axis), -1.0, 1.0)), glm::normalize(c));
}

BodyDesc body(const char* name, Vec3 position, Real mass, Vec3 half = Vec3(0.1, 0.1, 0.1)) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Box;
    b.halfExtents = half;
    b.mass = mass;
    b.position = position;
    return b;
}

/// A joint between `b0` and `b1` ("" = the world) at the world point `anchor`, its X along `axis`.
JointDesc joint(const Scene& s, const char* name, const char* b0, const char* b1, Vec3 anchor, Vec3 axis,
                JointParams params) {
    JointDesc j;
    j.name = name;
    j.body0 = b0;
    j.body1 = b1;
    const Transform frame{anchor, xAlong(axis)};
    const auto local = [&](const char* b) {
        const int i = s.findBody(b);
        if (i < 0) return frame;
        const BodyDesc& d = s.bodies[static_cast<size_t>(i)];
        return Transform{d.position, d.orientation}.inverse() * frame;
    };
    j.frame0 = local(b0);
    j.frame1 = local(b1);
    j.params = std::move(params);
    return j;
}

Scene emptyScene() {
    Scene s;
    s.settings.dt = 1e-3;
    s.settings.solver = SolverType::TGS;
    s.settings.groundPlane = false;
    s.settings.bodyCollisions = false;
    return s;
}

struct Worst {
    Real coordinate = 0.0, position = 0.0;
    std::vector<Real> reach;  ///< per compared joint: its largest |coordinate| in MuJoCo
};

Worst runBoth(World& world, ReferenceRun& ref, int steps) {
    Worst w;
    for (int i = 0; i < steps; ++i) {
        world.step();
        ref.step();
        const std::vector<Real> a = ref.jointlabCoordinates(world), b = ref.mujocoCoordinates();
        // Revolute angles are measured in (−π, π] on both sides: compared across the wrap.
        w.reach.resize(b.size(), 0.0);
        for (size_t k = 0; k < a.size(); ++k) {
            w.coordinate = std::max(w.coordinate, std::abs(std::remainder(a[k] - b[k], 2 * kPi)));
            w.reach[k] = std::max(w.reach[k], std::abs(b[k]));
        }
        w.position = std::max(w.position, ref.maxPositionDivergence(world));
    }
    EXPECT_FALSE(ref.diverged());
    return w;
}

// A pinion (a 1 kg, 0.1 m cube on a hinge about Z) and a 2 kg rack on a vertical slider, coupled
// x = 0.1 m/rad · θ: the rack falls with a = g·m/(m + I/r²), I = m·(2·0.1²)/3 the cube's moment.
// Both senses of the pinion's gear frame (X along +Z or −Z) must come out the same bodies.
TEST(CouplingReference, RackAndPinionIsAJointEqualityAndFallsAsTheClosedForm) {
    for (const Real sense : {1.0, -1.0}) {
        SCOPED_TRACE(sense);
        Scene s = emptyScene();
        s.bodies = {body("pinion", Vec3(0, 2, 0), 1.0),
                    body("rack", Vec3(0.2, 1.5, 0), 2.0, Vec3(0.05, 0.5, 0.05))};
        s.joints.push_back(joint(s, "axle", "", "pinion", Vec3(0, 2, 0), Vec3(0, 0, 1), RevoluteJoint{}));
        s.joints.push_back(joint(s, "rail", "", "rack", Vec3(0.2, 1.5, 0), Vec3(0, -1, 0), PrismaticJoint{}));
        RackPinionJoint rp;
        rp.ratio = 0.1 * sense;  // the rack goes down (+X of its frame) as the pinion turns about +Z
        JointDesc mesh = joint(s, "mesh", "pinion", "rack", Vec3(0, 2, 0), Vec3(0, 0, sense), rp);
        mesh.frame1 = joint(s, "", "", "rack", Vec3(0.2, 1.5, 0), Vec3(0, -1, 0), rp).frame1;
        s.joints.push_back(mesh);
        const MjcfExport e = exportScene(s);
        ASSERT_TRUE(e.omitted.empty()) << e.omitted[0];
        EXPECT_EQ(e.tree.as[2], ExportedAs::Equality);
        EXPECT_NE(e.xml.find("joint1=\"axle\" joint2=\"rail\""), std::string::npos) << e.xml;

        World world(s);
        std::string error;
        const auto ref = ReferenceRun::start(world, error);
        ASSERT_TRUE(ref) << error;
        const Worst w = runBoth(world, *ref, 1000);
        const Real inertia = 1.0 * (0.1 * 0.1 + 0.1 * 0.1) / 3.0, r = 0.1;
        const Real a = 9.81 * 2.0 / (2.0 + inertia / (r * r));
        const Real fallen = 0.5 * a * 1.0 * 1.0;
        const Real jl = 1.5 - world.bodies()[1].pose.p.y, mj = 1.5 - ref->bodyPose(1).p.y;
        std::printf(
            "[ reference ] rack and pinion (sense %+.0f), 1 s at 1 ms: JointLab fell %.5f m, MuJoCo %.5f m, "
            "closed form %.5f m; max coordinate difference %.3g, max body distance %.3g m\n",
            sense, jl, mj, fallen, w.coordinate, w.position);
        // Both within 1% of the closed form and 5 mm of each other (MuJoCo's equality is soft).
        EXPECT_NEAR(jl, fallen, 0.01 * fallen);
        EXPECT_NEAR(mj, fallen, 0.01 * fallen);
        EXPECT_LT(w.position, 5e-3);
        // The pinion turned by x / ratio (36.8 rad, seen in (−π, π]).
        EXPECT_NEAR(std::remainder(ref->mujocoCoordinates()[0] - mj / 0.1, 2 * kPi), 0.0, 0.01);
    }
}

/// A carrier swinging on a world hinge about Z with two off-centre wheels hinged on it about Z,
/// coupled by a gear of ratio `ratio` (q_A + G·q_B = 0, both frames' X along +Z).
Scene carrier(Real ratio) {
    Scene s = emptyScene();
    s.bodies = {body("carrier", Vec3(0.5, 2, 0), 1.0, Vec3(0.5, 0.05, 0.05)),
                body("wheelA", Vec3(0.9, 1.9, 0), 0.5), body("wheelB", Vec3(0.1, 1.9, 0), 0.5)};
    s.joints.push_back(joint(s, "pivot", "", "carrier", Vec3(0, 2, 0), Vec3(0, 0, 1), RevoluteJoint{}));
    s.joints.push_back(
        joint(s, "axleA", "carrier", "wheelA", Vec3(0.9, 2, 0), Vec3(0, 0, 1), RevoluteJoint{}));
    s.joints.push_back(
        joint(s, "axleB", "carrier", "wheelB", Vec3(0.1, 2, 0), Vec3(0, 0, 1), RevoluteJoint{}));
    GearJoint g;
    g.ratio = ratio;
    s.joints.push_back(joint(s, "gear", "wheelA", "wheelB", Vec3(0.5, 2, 0), Vec3(0, 0, 1), g));
    return s;
}

// Two wheels hanging on one swinging carrier, geared to turn together (G = −1): JointLab's gear holds
// their world angles equal, MuJoCo's equality their angles relative to the carrier; the carrier's
// turn cancels, so the two laws are the same and the runs agree. With G = −2 it does not cancel
// (JointLab's law then involves the carrier's hinge too): refused, naming the three joints.
TEST(CouplingReference, GearOnOneMovingParentMapsWhenTheParentsTurnCancels) {
    Scene s = carrier(-1.0);
    const MjcfExport e = exportScene(s);
    ASSERT_TRUE(e.omitted.empty()) << e.omitted[0];
    EXPECT_NE(e.xml.find("joint1=\"axleA\" joint2=\"axleB\" polycoef=\"0 1 0 0 0\""), std::string::npos)
        << e.xml;
    // 3 s at 1 ms and at 0.25 ms: a mapping error would not shrink with the step, an integration
    // error (MuJoCo's explicit Euler in joint space, JointLab's in body space) does.
    Worst worst[2];
    for (int k = 0; k < 2; ++k) {
        s.settings.dt = k == 0 ? 1e-3 : 2.5e-4;
        World world(s);
        std::string error;
        const auto ref = ReferenceRun::start(world, error);
        ASSERT_TRUE(ref) << error;
        worst[k] = runBoth(world, *ref, static_cast<int>(std::lround(3.0 / s.settings.dt)));
        std::printf(
            "[ reference ] gear on a swinging carrier, 3 s at %g ms: max angle difference %.3g rad, max "
            "body distance %.3g m\n",
            1e3 * s.settings.dt, worst[k].coordinate, worst[k].position);
        // The wheels did turn relative to the carrier (the coupling was exercised).
        EXPECT_GT(worst[k].reach[1], 0.3);
    }
    EXPECT_LT(worst[0].coordinate, 0.1);
    EXPECT_LT(worst[0].position, 0.01);
    EXPECT_LT(worst[1].coordinate, worst[0].coordinate / 3);
    EXPECT_LT(worst[1].position, worst[0].position / 3);

    const MjcfExport refused = exportScene(carrier(-2.0));
    std::string error;
    ASSERT_EQ(refused.omitted.size(), 1u);
    EXPECT_NE(
        refused.omitted[0].find("joint \"gear\" (gear): not written as a joint equality: it couples 3 joint "
                                "coordinates (\"pivot\", \"axleA\", \"axleB\")"),
        std::string::npos)
        << refused.omitted[0];
    World other(carrier(-2.0));
    EXPECT_FALSE(ReferenceRun::start(other, error));
    EXPECT_NE(error.find("\"gear\""), std::string::npos) << error;
}

// A gear between the carrier and a wheel hinged on it (G = 2): the wheel's world turn is the
// carrier's plus its own, so JointLab's law q_c + 2·(q_c + q_w) = 0 is 3·Δpivot + 2·Δaxle = 0, a
// law between the two hinges: written with polycoef −2/3, and the runs agree.
TEST(CouplingReference, GearBetweenABodyAndOneHingedOnItMapsThroughBothHinges) {
    Scene s = carrier(2.0);
    s.bodies.pop_back();                   // no wheel B
    s.joints.erase(s.joints.begin() + 2);  // nor its axle
    s.joints.back().body0 = "carrier";     // the gear: carrier and wheel A
    s.joints.back().body1 = "wheelA";
    s.joints.back().frame0 = joint(s, "", "carrier", "", Vec3(0.5, 2, 0), Vec3(0, 0, 1), GearJoint{}).frame0;
    s.joints.back().frame1 = joint(s, "", "", "wheelA", Vec3(0.9, 2, 0), Vec3(0, 0, 1), GearJoint{}).frame1;
    const MjcfExport e = exportScene(s);
    ASSERT_TRUE(e.omitted.empty()) << e.omitted[0];
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_NE(e.xml.find("joint1=\"pivot\" joint2=\"axleA\" polycoef=\"0 -0.66666666666666663 0 0 0\""),
              std::string::npos)
        << e.xml;
    World world(s);
    std::string error;
    const auto ref = ReferenceRun::start(world, error);
    ASSERT_TRUE(ref) << error;
    const Worst w = runBoth(world, *ref, 2000);
    std::printf(
        "[ reference ] gear between a carrier and its wheel, 2 s at 1 ms: max angle difference %.3g rad, "
        "max body distance %.3g m\n",
        w.coordinate, w.position);
    EXPECT_GT(w.reach[0], 0.1);  // the carrier swung
    EXPECT_GT(w.reach[1], 0.1);  // and the wheel turned on it
    EXPECT_LT(w.coordinate, 0.02);
    EXPECT_LT(w.position, 0.01);
}

// An Atwood machine: 2 kg and 1 kg boxes on a rope over two fixed points (a pulley, ratio 1). Both
// engines accelerate the heavy box down at g·(m1 − m2)/(m1 + m2), for 0.5 s (at 0.78 s the light box
// would reach its pulley).
TEST(CouplingReference, PulleyIsALimitedTendonAndRunsAsAtwoodsMachine) {
    Scene s = emptyScene();
    s.bodies = {body("heavy", Vec3(-0.5, 2, 0), 2.0), body("light", Vec3(0.5, 2, 0), 1.0)};
    PulleyJoint p;
    p.anchor0 = Vec3(-0.5, 3, 0);
    p.anchor1 = Vec3(0.5, 3, 0);
    p.length = 2.0;  // taut at the start
    p.ratio = 1.0;
    s.joints.push_back(joint(s, "rope", "heavy", "light", Vec3(0), Vec3(1, 0, 0), p));
    s.joints[0].frame0 = Transform{};
    s.joints[0].frame1 = Transform{};
    const MjcfExport e = exportScene(s);
    ASSERT_TRUE(e.omitted.empty()) << e.omitted[0];
    EXPECT_NE(e.xml.find("<pulley divisor=\"1\"/>"), std::string::npos) << e.xml;
    World world(s);
    std::string error;
    const auto ref = ReferenceRun::start(world, error);
    ASSERT_TRUE(ref) << error;
    const Worst w = runBoth(world, *ref, 500);
    const Real fallen = 0.5 * 9.81 * (2.0 - 1.0) / 3.0 * 0.5 * 0.5;
    const Real jl = 2.0 - world.bodies()[0].pose.p.y, mj = 2.0 - ref->bodyPose(0).p.y;
    std::printf(
        "[ reference ] pulley (Atwood), 0.5 s at 1 ms: heavy box fell %.5f m in JointLab, %.5f m in MuJoCo, "
        "closed form %.5f m; max body distance %.3g m\n",
        jl, mj, fallen, w.position);
    EXPECT_NEAR(jl, fallen, 0.01 * fallen);
    EXPECT_NEAR(mj, fallen, 0.02 * fallen);
    EXPECT_LT(w.position, 0.02);
}

}  // namespace
}  // namespace jl::interop
