// MJCF and URDF import (interop/mjcf_import, urdf_import, model_import): the project's own models
// (tests/data/interop) mapped field by field, malformed files refused with the parser's message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "interop/import_chain.h"
#include "interop/mjcf_import.h"
#include "interop/model_import.h"
#include "interop/urdf_import.h"
#include "jointlab/scenario_io.h"
#include "jointlab/world.h"

namespace jl::interop {
namespace {

const std::string kData = std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/";

const BodyDesc& body(const Scene& s, const std::string& name) {
    const int i = s.findBody(name);
    EXPECT_GE(i, 0) << "no body " << name;
    return s.bodies[static_cast<size_t>(std::max(i, 0))];
}

const JointDesc& joint(const Scene& s, const std::string& name) {
    for (const JointDesc& j : s.joints)
        if (j.name == name) return j;
    ADD_FAILURE() << "no joint " << name;
    return s.joints.front();
}

/// The world pose of a joint's frame on side 0 or 1.
Transform jointWorld(const Scene& s, const JointDesc& j, int side) {
    const std::string& b = side == 0 ? j.body0 : j.body1;
    const Transform f = side == 0 ? j.frame0 : j.frame1;
    if (b.empty()) return f;
    const BodyDesc& d = body(s, b);
    return Transform{d.position, d.orientation} * f;
}

void expectNear(const Vec3& a, const Vec3& b, Real tol, const std::string& what) {
    EXPECT_LT(glm::length(a - b), tol) << what << ": (" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                       << b.x << ", " << b.y << ", " << b.z << ")";
}

/// Both frames of `j` sit at `anchor` with X along `axis` (Y-up world), as they must at the start.
void expectJointFrame(const Scene& s, const std::string& name, const Vec3& anchor, const Vec3& axis) {
    const JointDesc& j = joint(s, name);
    for (int side = 0; side < 2; ++side) {
        const Transform w = jointWorld(s, j, side);
        expectNear(w.p, anchor, 1e-9, name + " anchor, side " + std::to_string(side));
        expectNear(w.q * Vec3(1, 0, 0), axis, 1e-9, name + " axis, side " + std::to_string(side));
    }
}

/// Runs `steps` steps; every body pose stays finite.
void expectRunsFinite(const Scene& s, int steps) {
    World w(s);
    for (int k = 0; k < steps; ++k) w.step();
    for (const BodyState& b : w.bodies()) {
        EXPECT_TRUE(isFinite(b.pose.p) && isFinite(b.pose.q) && isFinite(b.linearVelocity))
            << "after " << steps;
    }
    EXPECT_EQ(w.divergence(), nullptr);
}

/// The differential pinion of slides `follower` = multiplier·`leader` + offset on the forearm
/// (import_chain.h): its body at the middle of the two slides' anchors, (0.32, 0.5, 0) Y-up, with the
/// heavier finger's 0.05 kg; its hinge on the forearm about w = −Y (Y-up; the axis the opposed Z-up
/// +Y slides are crossed with, model Z); its moments a tenth of the fingers' inertia on θ about w and
/// the fingers' largest moment `largest` about the other axes; the racks' ratios the leader's radius
/// of gyration sqrt(izz/m) about w (and multiplier times it), measured relative to the pinion.
void expectPinion(const Scene& s, const std::string& name, const std::string& follower,
                  const std::string& leader, Real multiplier, Real offset, Real izz, Real largest) {
    const BodyDesc& p = body(s, "forearm/" + name);
    EXPECT_EQ(p.motion, MotionType::Dynamic);
    EXPECT_NEAR(p.mass, 0.05, 1e-12);
    expectNear(p.position, Vec3(0.32, 0.5, 0.0), 1e-9, "pinion at the slides' middle");
    expectNear(p.orientation * Vec3(1, 0, 0), Vec3(0, -1, 0), 1e-9, "pinion's principal X is w");
    const Real rb = std::sqrt(izz / 0.05);
    const Real onTheta = 0.05 * rb * rb + 0.05 * (multiplier * rb) * (multiplier * rb);
    expectNear(p.inertia, Vec3(kPinionInertiaFraction * onTheta, largest, largest), 1e-15, "pinion moments");
    EXPECT_EQ(p.collisionMask, 0);  // it touches nothing
    expectJointFrame(s, name + "/pinion", Vec3(0.32, 0.5, 0.0), Vec3(0, -1, 0));
    EXPECT_EQ(joint(s, name + "/pinion").body0, "forearm");
    EXPECT_FALSE(std::get<RevoluteJoint>(joint(s, name + "/pinion").params).limit.enabled);
    struct Rack {
        std::string joint, finger;
        Real ratio, offset;
        Real z;  // the slide's anchor, Y-up z (model −y)
    };
    for (const Rack& r : {Rack{name, follower, multiplier * rb, offset, 0.03},
                          Rack{name + "/grip_left", leader, rb, 0.0, -0.03}}) {
        const JointDesc& j = joint(s, r.joint);
        EXPECT_EQ(j.body0, "forearm/" + name);
        EXPECT_EQ(j.body1, r.finger);
        const auto& rp = std::get<RackPinionJoint>(j.params);
        EXPECT_TRUE(rp.relative);
        EXPECT_NEAR(rp.ratio, r.ratio, 1e-12) << r.joint;
        EXPECT_NEAR(rp.offset, r.offset, 1e-12) << r.joint;
        const Transform f0 = jointWorld(s, j, 0), f1 = jointWorld(s, j, 1);
        expectNear(f0.p, Vec3(0.32, 0.5, 0.0), 1e-9, r.joint + " frame on the pinion");
        expectNear(f0.q * Vec3(1, 0, 0), Vec3(0, -1, 0), 1e-9, r.joint + " pinion axis");
        expectNear(f1.p, Vec3(0.32, 0.5, r.z), 1e-9, r.joint + " frame at the slide's anchor");
        expectNear(f1.q * Vec3(1, 0, 0), Vec3(0, 0, -1), 1e-9, r.joint + " along the slide");
    }
}

Vec3 sorted(Vec3 v) {
    Real a[3] = {v.x, v.y, v.z};
    std::sort(a, a + 3);
    return Vec3(a[0], a[1], a[2]);
}

// [SECTION] MJCF

TEST(MjcfImport, ArmMapsFieldByField) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfFile(kData + "arm.xml", s, warning, error)) << error;
    EXPECT_EQ(validateScene(s), "");
    EXPECT_DOUBLE_EQ(s.settings.dt, 0.002);
    expectNear(s.settings.gravity, Vec3(0, -9.81, 0), 1e-12, "gravity is -Y");
    EXPECT_TRUE(s.settings.groundPlane);  // the level plane at height 0 is JointLab's ground
    ASSERT_EQ(s.bodies.size(), 6u);       // with the fingers' pinion

    // The base has no joint and hangs from the world: static, at its geom (Z-up 0.05 -> Y-up y).
    const BodyDesc& base = body(s, "base");
    EXPECT_EQ(base.motion, MotionType::Static);
    expectNear(base.position, Vec3(0, 0.05, 0), 1e-12, "base");

    // The upper arm: MuJoCo's capsule inertia (cylinder + two hemispheres, the same solid as
    // JointLab's capsule) about its centre, its axis (Z-up Z) along Y-up Y.
    const BodyDesc& upper = body(s, "upper_arm");
    EXPECT_EQ(upper.motion, MotionType::Dynamic);
    EXPECT_NEAR(upper.mass, 2.0, 1e-12);
    expectNear(upper.position, Vec3(0, 0.3, 0), 1e-12, "upper arm centre of mass");
    BodyDesc capsule;
    capsule.shape = ShapeType::Capsule;
    capsule.radius = 0.04;
    capsule.halfHeight = 0.2;
    capsule.mass = 2.0;
    const Vec3 expected = computeMassProperties(capsule).inertia;  // (axial, perp, perp)
    expectNear(sorted(upper.inertia), sorted(expected), 1e-9, "capsule principal moments");
    const int axial = upper.inertia.x < upper.inertia.y ? (upper.inertia.x < upper.inertia.z ? 0 : 2)
                                                        : (upper.inertia.y < upper.inertia.z ? 1 : 2);
    Vec3 e(0.0);
    e[axial] = 1.0;
    EXPECT_NEAR(std::abs(glm::dot(upper.orientation * e, Vec3(0, 1, 0))), 1.0, 1e-9) << "capsule axis is up";
    EXPECT_EQ(computeMassProperties(upper).inertia, upper.inertia);  // the explicit moments are used

    // The forearm's <inertial>: at (0.15, 0, 0.5) Z-up, moments 0.002, 0.012, 0.013 turned 45° about
    // Z, so its tensor's XY block (Z-up) is [[0.007, -0.005], [-0.005, 0.007]]. The elbow's armature
    // a = 0.01 rides on it as a thin disc on the elbow's axis (model Y): a about Y, a/2 about X and Z.
    // The block becomes [[0.012, -0.005], [-0.005, 0.017]] (moments 0.0145 ± sqrt(0.0025² + 0.005²))
    // and I_zz 0.018; about the elbow axis the forearm has 0.007 + a, what MuJoCo's joint has.
    const BodyDesc& fore = body(s, "forearm");
    EXPECT_NEAR(fore.mass, 1.5, 1e-12);
    expectNear(fore.position, Vec3(0.15, 0.5, 0.0), 1e-9, "forearm inertial position");
    const Real spread = std::sqrt(0.0025 * 0.0025 + 0.005 * 0.005);
    expectNear(sorted(fore.inertia), Vec3(0.0145 - spread, 0.018, 0.0145 + spread), 1e-12,
               "forearm principal moments with the elbow's armature");
    const auto momentAbout = [](const BodyDesc& b, const Vec3& w) {
        const Vec3 l = glm::conjugate(b.orientation) * w;
        return b.inertia.x * l.x * l.x + b.inertia.y * l.y * l.y + b.inertia.z * l.z * l.z;
    };
    EXPECT_NEAR(momentAbout(fore, Vec3(0, 0, -1)), 0.007 + 0.01, 1e-12) << "about the elbow (model Y)";
    EXPECT_NEAR(momentAbout(fore, Vec3(0, 1, 0)), 0.013 + 0.005, 1e-12) << "about model Z";
    // Its box is expressed relative to that frame: the box's centre is the inertial point.
    ASSERT_EQ(fore.shape, ShapeType::Compound);
    ASSERT_EQ(fore.children.size(), 1u);
    expectNear(fore.children[0].position, Vec3(0.0), 1e-9, "box centre");
    expectNear(fore.orientation * fore.children[0].orientation * Vec3(1, 0, 0), Vec3(1, 0, 0), 1e-9,
               "box X stays world X");
    expectNear(fore.children[0].halfExtents, Vec3(0.15, 0.03, 0.03), 1e-12, "box half sizes");

    // Joints: hinge -> revolute (range -> limit, damping + servo -> drive), slide -> prismatic.
    expectJointFrame(s, "shoulder", Vec3(0, 0.1, 0), Vec3(0, 1, 0));
    const JointDesc& shoulder = joint(s, "shoulder");
    EXPECT_EQ(shoulder.body0, "base");
    EXPECT_EQ(shoulder.body1, "upper_arm");
    const auto& r = std::get<RevoluteJoint>(shoulder.params);
    EXPECT_TRUE(r.limit.enabled);
    EXPECT_NEAR(r.limit.lower, -kPi / 2, 1e-12);
    EXPECT_NEAR(r.limit.upper, kPi / 2, 1e-12);
    EXPECT_TRUE(r.drive.enabled);
    EXPECT_NEAR(r.drive.stiffness, 20.0, 1e-12);
    EXPECT_NEAR(r.drive.damping, 2.5, 1e-12);  // joint damping 0.5 + the servo's kv 2
    EXPECT_NEAR(r.driveTarget, 0.0, 1e-12);

    expectJointFrame(s, "elbow", Vec3(0, 0.5, 0), Vec3(0, 0, -1));  // Z-up +Y is Y-up -Z
    const auto& elbow = std::get<RevoluteJoint>(joint(s, "elbow").params);
    EXPECT_NEAR(elbow.limit.lower, -10 * kPi / 180, 1e-12);
    EXPECT_NEAR(elbow.limit.upper, 120 * kPi / 180, 1e-12);
    EXPECT_FALSE(elbow.drive.enabled);

    expectJointFrame(s, "grip_left", Vec3(0.32, 0.5, -0.03), Vec3(0, 0, -1));
    const auto& grip = std::get<PrismaticJoint>(joint(s, "grip_left").params);
    EXPECT_TRUE(grip.limit.enabled);
    EXPECT_NEAR(grip.limit.lower, -0.02, 1e-12);
    EXPECT_NEAR(grip.limit.upper, 0.02, 1e-12);

    // The joint equality grip_right = -1 x grip_left, two slides on the moving forearm: a pinion
    // hinged to the forearm and a relative rack to each finger. The fingers' box (half sizes 0.02,
    // 0.005, 0.02, 0.05 kg) has I_zz = m/3·(0.02² + 0.005²) about the model's Z, the pinion's axis.
    const Real izz = 0.05 / 3.0 * (0.02 * 0.02 + 0.005 * 0.005);
    const Real iyy = 0.05 / 3.0 * (0.02 * 0.02 + 0.02 * 0.02);
    expectPinion(s, "mirror", "finger_right", "finger_left", -1.0, 0.0, izz, iyy);

    // The elbow's armature is carried (above), so the warning does not mention it; the floor became
    // the ground, not a note.
    EXPECT_EQ(warning.find("armature"), std::string::npos) << warning;
    EXPECT_EQ(warning.find("elbow"), std::string::npos) << warning;
    EXPECT_EQ(warning.find("floor"), std::string::npos) << warning;
    expectRunsFinite(s, 600);
}

// The mapping is coherent in the dynamics, not only field by field: a compound pendulum imported
// from MJCF (a 5 cm, 1 kg sphere 0.5 m below a hinge, released at 0.1 rad) swings with its closed-form
// period T = 2π·sqrt(I_pivot / (m·g·L))·(1 + θ0²/16 + 11·θ0⁴/3072), I_pivot = 0.4·m·r² + m·L²
// (the sphere's own inertia arrives as the body's explicit moments, gravity as −Y). At dt = 1 ms
// the step's own period error is O(dt²) (1e-6 measured); 0.05% catches the sphere's own inertia
// left out (0.4% of I_pivot, 0.2% of the period) or a pivot 1 mm off (0.1% of the period).
//
// With `armature` a on the hinge (MuJoCo's rotor inertia, M_qq += a), I_pivot + a: the bob carries
// it as a disc on the hinge's axis (a about it, a/2 across, interop/import_builder.cpp). On a ball
// joint (`type` ball) a about every axis; released in a plane, it swings in that plane.
void expectClosedFormPeriod(Real armature, const char* type = "hinge") {
    const Real L = 0.5, r = 0.05, m = 1.0, g = 9.81, theta0 = 0.1;
    std::ostringstream xml;
    xml.precision(17);
    xml << "<mujoco><option timestep='0.001' gravity='0 0 -9.81'/><worldbody><body pos='0 0 1'>"
           "<joint type='"
        << type << "' axis='0 1 0' armature='" << armature << "'/><geom type='sphere' size='" << r
        << "' mass='" << m << "' pos='" << L * std::sin(theta0) << " 0 " << -L * std::cos(theta0)
        << "'/></body></worldbody></mujoco>";
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(xml.str(), "pendulum.xml", s, warning, error)) << error;
    EXPECT_EQ(warning.find("armature"), std::string::npos) << warning;
    ASSERT_EQ(s.bodies.size(), 1u);
    const Real i0 = 0.4 * m * r * r;
    const bool ball = std::string(type) == "ball";
    const Real across = ball ? armature : 0.5 * armature;
    expectNear(sorted(s.bodies[0].inertia), Vec3(i0 + across, i0 + across, i0 + armature), 1e-15,
               "sphere moments with the armature");
    World w(s);
    std::vector<Real> crossings;  // times where the bob passes under the pivot (x = 0)
    Real previous = w.bodies()[0].pose.p.x;
    for (int k = 1; k <= 4000; ++k) {
        w.step();
        const Real x = w.bodies()[0].pose.p.x;
        if ((previous > 0) != (x > 0)) crossings.push_back((k - x / (x - previous)) * 1e-3);
        previous = x;
    }
    ASSERT_GE(crossings.size(), 4u);
    const Real period =
        2.0 * (crossings.back() - crossings.front()) / static_cast<Real>(crossings.size() - 1);
    const Real t0 = 2.0 * kPi * std::sqrt((i0 + m * L * L + armature) / (m * g * L));
    const Real expected = t0 * (1.0 + theta0 * theta0 / 16.0 + 11.0 * std::pow(theta0, 4) / 3072.0);
    std::printf("imported pendulum (%s, armature %g): period %.6f s, closed form %.6f s (%.4f%%)\n", type,
                armature, period, expected, 100.0 * (period / expected - 1.0));
    EXPECT_NEAR(period, expected, 5e-4 * expected);
}

TEST(MjcfImport, PendulumSwingsWithItsClosedFormPeriod) {
    expectClosedFormPeriod(0.0);
}

// The armature a = 0.05 kg·m² is a fifth of the pendulum's I_pivot (0.251): 9.5% on the period,
// which the 0.05% tolerance would see dropped (before 2026-11-28 the import dropped it with a note).
TEST(MjcfImport, PendulumWithArmatureSwingsWithItsClosedFormPeriod) {
    expectClosedFormPeriod(0.05);
    expectClosedFormPeriod(0.05, "ball");
}

// The imported scene survives a save and a load unchanged (the explicit inertia is in the file).
TEST(MjcfImport, ImportedSceneRoundTripsThroughTheFile) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfFile(kData + "arm.xml", s, warning, error)) << error;
    Scene back;
    ASSERT_TRUE(parseScenario(serializeScenario(s), back, error)) << error;
    ASSERT_EQ(back.bodies.size(), s.bodies.size());
    for (size_t i = 0; i < s.bodies.size(); ++i) EXPECT_EQ(back.bodies[i].inertia, s.bodies[i].inertia);
    EXPECT_EQ(serializeScenario(back), serializeScenario(s));
}

// A model whose only floor lies below height 0 (as arm26's at -0.5 m): raised by 0.5 m so that its
// floor is JointLab's ground, every position with it (a translation: the mechanics are the same),
// noted. The crate resting on that floor then rests on the ground: after 1 s it is where it started
// (measured 1e-17 m: it starts touching; allowed 1 mm, the contact's give, where without a ground
// it would have fallen 4.9 m). Two floors at other heights, or contacts off: no raise, the floors
// noted as before.
TEST(MjcfImport, AFloorBelowZeroBecomesTheGroundByRaisingTheModel) {
    const auto model = [](const std::string& floors, const std::string& flag) {
        return "<mujoco><option timestep='0.001'>" + flag + "</option><worldbody>" + floors +
               "<body name='crate' pos='0.5 0 -0.4'><freejoint/><geom type='box' size='0.1 0.1 0.1' "
               "mass='1'/></body><body name='bob' pos='0 0 -0.3'><joint name='swing' type='hinge' "
               "pos='0 0 0.3' axis='0 1 0'/><geom type='sphere' size='0.05' mass='1'/></body>"
               "</worldbody></mujoco>";
    };
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(model("<geom name='floor' type='plane' pos='0 0 -0.5' size='0 0 1'/>", ""),
                               "floor.xml", s, warning, error))
        << error;
    EXPECT_TRUE(s.settings.groundPlane);
    EXPECT_NE(
        warning.find("the model was raised by 0.5 m so that its floor is JointLab's ground (y = 0) (floor)"),
        std::string::npos)
        << warning;
    EXPECT_EQ(warning.find("planes other than"), std::string::npos) << warning;
    EXPECT_NEAR(glm::length(body(s, "crate").position - Vec3(0.5, 0.1, 0.0)), 0.0, 1e-12);
    EXPECT_NEAR(glm::length(body(s, "bob").position - Vec3(0.0, 0.2, 0.0)), 0.0, 1e-12);
    EXPECT_NEAR(glm::length(jointWorld(s, joint(s, "swing"), 0).p - Vec3(0.0, 0.5, 0.0)), 0.0, 1e-12);
    World w(s);
    for (int k = 0; k < 1000; ++k) w.step();
    const Real drop = 0.1 - w.bodies()[static_cast<size_t>(s.findBody("crate"))].pose.p.y;
    std::printf("crate on the raised floor after 1 s: %.3g m below its start\n", drop);
    EXPECT_LT(std::abs(drop), 1e-3);

    for (const auto& [floors, flag] :
         {std::pair<std::string, std::string>{"<geom name='low' type='plane' pos='0 0 -0.5' size='0 0 1'/>"
                                              "<geom name='lower' type='plane' pos='0 0 -0.7' size='0 0 1'/>",
                                              ""},
          {"<geom name='low' type='plane' pos='0 0 -0.5' size='0 0 1'/>", "<flag contact='disable'/>"}}) {
        ASSERT_TRUE(importMjcfText(model(floors, flag), "floors.xml", s, warning, error)) << error;
        EXPECT_FALSE(s.settings.groundPlane);
        EXPECT_EQ(warning.find("raised"), std::string::npos) << warning;
        EXPECT_NE(
            warning.find("planes other than a level ground at height 0 (JointLab's ground is y = 0) (low"),
            std::string::npos)
            << warning;
        EXPECT_NEAR(glm::length(body(s, "crate").position - Vec3(0.5, -0.4, 0.0)), 0.0, 1e-12);
    }
}

// The loop of a slider-crank: the connect equality becomes a ball joint at the rod's far end,
// which is also the slider's centre; run, the loop stays closed and the slider on its rail.
TEST(MjcfImport, SliderCrankLoopClosesAndStaysClosed) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfFile(kData + "slider_crank.xml", s, warning, error)) << error;
    EXPECT_DOUBLE_EQ(s.settings.dt, 0.001);
    EXPECT_FALSE(s.settings.groundPlane);  // the model has no floor
    ASSERT_EQ(s.bodies.size(), 3u);
    ASSERT_EQ(s.joints.size(), 4u);
    expectJointFrame(s, "crank_hinge", Vec3(0, 1, 0), Vec3(0, 0, -1));
    expectJointFrame(s, "crank_pin", Vec3(0.1, 1, 0), Vec3(0, 0, -1));
    expectJointFrame(s, "rail", Vec3(0.4, 1, 0), Vec3(1, 0, 0));
    const JointDesc& pin = joint(s, "wrist_pin");
    EXPECT_TRUE(std::holds_alternative<SphericalJoint>(pin.params));
    EXPECT_EQ(pin.body0, "slider");
    EXPECT_EQ(pin.body1, "rod");
    expectNear(jointWorld(s, pin, 0).p, Vec3(0.4, 1, 0), 1e-9, "pin on the slider");
    expectNear(jointWorld(s, pin, 1).p, Vec3(0.4, 1, 0), 1e-9, "pin on the rod");
    EXPECT_EQ(warning, "");  // everything in it maps

    World w(s);
    const int slider = s.findBody("slider"), rod = s.findBody("rod");
    Real gap = 0.0, offRail = 0.0, travel = 0.0;
    for (int k = 0; k < 2000; ++k) {
        w.step();
        const Transform rp = w.bodies()[static_cast<size_t>(rod)].pose;
        const Transform sp = w.bodies()[static_cast<size_t>(slider)].pose;
        gap = std::max(gap, glm::length(rp.apply(pin.frame1.p) - sp.apply(pin.frame0.p)));
        offRail = std::max(offRail, std::hypot(sp.p.y - 1.0, sp.p.z));
        travel = std::max(travel, std::abs(sp.p.x - 0.4));
    }
    EXPECT_LT(gap, 2e-3) << "the loop opened";
    EXPECT_LT(offRail, 2e-3) << "the slider left its rail";
    EXPECT_GT(travel, 0.05) << "the crank fell and moved the slider";
}

// A malformed MJCF file: MuJoCo's own message, with the line; the scene is untouched.
TEST(MjcfImport, MalformedFileGivesMujocosMessageAndChangesNothing) {
    Scene s;
    s.description = "untouched";
    std::string warning, error;
    EXPECT_FALSE(
        importMjcfText("<mujoco>\n<worldbody>\n<body>\n<joint type='hinge' range='1'/>\n</body>\n"
                       "</worldbody>\n</mujoco>",
                       "broken.xml", s, warning, error));
    EXPECT_NE(error.find("line"), std::string::npos) << error;
    EXPECT_EQ(s.description, "untouched");
    EXPECT_TRUE(s.bodies.empty());
    EXPECT_FALSE(importModel(kData + "no_such_file.xml", s, warning, error));
    EXPECT_NE(error.find("no_such_file.xml"), std::string::npos) << error;
    EXPECT_EQ(s.description, "untouched");
}

// What MuJoCo has and JointLab has not is listed, each with its name: tendons, sites, sensors,
// ellipsoids; a body with two hinges becomes a chain of two revolute joints through a light body
// named after the body and its first hinge (docs/import.md "Several joints in one body").
TEST(MjcfImport, UnmappedPartsAreListedInOneWarning) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(
        "<mujoco><worldbody><body name='a' pos='0 0 1'><joint name='hx' type='hinge' axis='1 0 0'/>"
        "<joint name='hy' type='hinge' axis='0 1 0'/><geom type='ellipsoid' name='egg' size='0.1 0.2 0.3'/>"
        "<geom type='box' size='0.1 0.1 0.1'/><site name='tip'/></body></worldbody>"
        "<tendon><fixed name='t'><joint joint='hx' coef='1'/></fixed></tendon>"
        "<sensor><jointpos joint='hx'/></sensor></mujoco>",
        "parts.xml", s, warning, error))
        << error;
    for (const char* word : {"1 tendons", "1 sites", "1 sensors", "ellipsoids", "egg"})
        EXPECT_NE(warning.find(word), std::string::npos) << word << " in: " << warning;
    ASSERT_EQ(s.joints.size(), 2u);
    ASSERT_EQ(s.bodies.size(), 2u);
    EXPECT_EQ(s.joints[0].name, "hx");
    EXPECT_EQ(s.joints[0].body0, "");
    EXPECT_EQ(s.joints[0].body1, "a/hx");
    EXPECT_EQ(s.joints[1].name, "hy");
    EXPECT_EQ(s.joints[1].body0, "a/hx");
    EXPECT_EQ(s.joints[1].body1, "a");
    EXPECT_TRUE(std::holds_alternative<RevoluteJoint>(s.joints[0].params));
    EXPECT_TRUE(std::holds_alternative<RevoluteJoint>(s.joints[1].params));
}

// A model 1000 times the arm's bodies (250 chains of 20, 5000 bodies; MuJoCo's XML reader nests
// at most a few hundred elements) imports: names and lookups stay logarithmic. Unnamed bodies
// get generated names, unique.
TEST(MjcfImport, LargeUnnamedModelImports) {
    std::ostringstream xml;
    xml << "<mujoco><worldbody>";
    const int chains = 250, links = 20, n = chains * links;
    for (int c = 0; c < chains; ++c) {
        xml << "<body pos='0 " << c * 0.2 << " 2'>";
        for (int k = 0; k < links; ++k)
            xml << "<body pos='0.1 0 0'><joint type='hinge' axis='0 1 0'/><geom type='sphere' size='0.02' "
                   "mass='0.1'/>";
        for (int k = 0; k <= links; ++k) xml << "</body>";
    }
    xml << "</worldbody></mujoco>";
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(xml.str(), "chain.xml", s, warning, error)) << error;
    EXPECT_EQ(s.bodies.size(), static_cast<size_t>(n));
    EXPECT_EQ(s.joints.size(), static_cast<size_t>(n));
    EXPECT_EQ(s.bodies[6].name, "body8");  // source body 8 (body 1 of each chain is a massless frame)
    EXPECT_EQ(validateScene(s), "");
}

// [SECTION] URDF

TEST(UrdfImport, ArmMapsFieldByFieldWithItsMimic) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importUrdfFile(kData + "arm.urdf", s, warning, error)) << error;
    EXPECT_EQ(validateScene(s), "");
    expectNear(s.settings.gravity, Vec3(0, -9.81, 0), 1e-12, "gravity is -Y");
    // The empty "world" link is the world; base is welded to it, so static. The sixth body is the
    // fingers' pinion.
    ASSERT_EQ(s.bodies.size(), 6u);
    EXPECT_EQ(body(s, "base").motion, MotionType::Static);
    const BodyDesc& upper = body(s, "upper_arm");
    EXPECT_NEAR(upper.mass, 2.0, 1e-12);
    expectNear(upper.position, Vec3(0, 0.3, 0), 1e-12, "upper arm inertial origin");
    expectNear(sorted(upper.inertia), Vec3(0.0016, 0.03, 0.03), 1e-12, "upper arm moments");

    // The forearm's tensor has ixy = 0.003: its principal moments are the eigenvalues
    // 0.007 ± sqrt(0.005² + 0.003²) of the XY block and izz.
    const BodyDesc& fore = body(s, "forearm");
    const Real d = std::sqrt(0.005 * 0.005 + 0.003 * 0.003);
    expectNear(sorted(fore.inertia), Vec3(0.007 - d, 0.007 + d, 0.013), 1e-12, "forearm principal moments");
    expectNear(fore.position, Vec3(0.15, 0.5, 0.0), 1e-12, "forearm inertial origin");
    // The smallest moment's axis is the eigenvector (0.003, λ - 0.002) of the XY block (Z-up).
    const int small = fore.inertia.x < fore.inertia.y ? (fore.inertia.x < fore.inertia.z ? 0 : 2)
                                                      : (fore.inertia.y < fore.inertia.z ? 1 : 2);
    Vec3 e(0.0);
    e[small] = 1.0;
    const Vec3 zUp = glm::normalize(Vec3(0.003, 0.007 - d - 0.002, 0.0));
    EXPECT_NEAR(std::abs(glm::dot(fore.orientation * e, Vec3(zUp.x, zUp.z, -zUp.y))), 1.0, 1e-9);
    // Its collision box is where the file puts it: the box centre is the inertial origin.
    ASSERT_EQ(fore.shape, ShapeType::Compound);
    expectNear(fore.children[0].position, Vec3(0.0), 1e-9, "box centre");

    expectJointFrame(s, "shoulder", Vec3(0, 0.1, 0), Vec3(0, 1, 0));
    const auto& r = std::get<RevoluteJoint>(joint(s, "shoulder").params);
    EXPECT_NEAR(r.limit.lower, -1.5707963, 1e-12);
    EXPECT_NEAR(r.limit.upper, 1.5707963, 1e-12);
    EXPECT_NEAR(r.drive.damping, 0.5, 1e-12);  // <dynamics damping> as a pure damper
    EXPECT_NEAR(r.drive.stiffness, 0.0, 0.0);
    expectJointFrame(s, "elbow", Vec3(0, 0.5, 0), Vec3(0, 0, -1));
    expectJointFrame(s, "grip_right", Vec3(0.32, 0.5, 0.03), Vec3(0, 0, -1));

    // <mimic joint="grip_left" multiplier="-1">: grip_right = −grip_left relative to the forearm,
    // a pinion and two relative racks; the fingers' izz = 1.1e-5 about the pinion's axis.
    expectPinion(s, "grip_right_mimic", "finger_right", "finger_left", -1.0, 0.0, 1.1e-5, 1.3e-5);
    EXPECT_NE(warning.find("effort"), std::string::npos) << warning;
    expectRunsFinite(s, 600);
}

// The same arm from both formats: the same bodies, masses, positions and joint frames.
TEST(UrdfImport, AgreesWithTheMjcfArm) {
    Scene a, b;
    std::string warning, error;
    ASSERT_TRUE(importModel(kData + "arm.xml", a, warning, error)) << error;
    ASSERT_TRUE(importModel(kData + "arm.urdf", b, warning, error)) << error;
    for (const char* name : {"upper_arm", "forearm", "finger_left", "finger_right"}) {
        EXPECT_NEAR(body(a, name).mass, body(b, name).mass, 1e-12) << name;
        expectNear(body(a, name).position, body(b, name).position, 1e-9, name);
    }
    for (const char* name : {"shoulder", "elbow", "grip_left", "grip_right"})
        for (int side = 0; side < 2; ++side) {
            const Transform ta = jointWorld(a, joint(a, name), side),
                            tb = jointWorld(b, joint(b, name), side);
            expectNear(ta.p, tb.p, 1e-7, name);
            expectNear(ta.q * Vec3(1, 0, 0), tb.q * Vec3(1, 0, 0), 1e-7, name);
        }
}

TEST(UrdfImport, MalformedFilesGiveTheParsersMessage) {
    Scene s;
    s.description = "untouched";
    std::string warning, error;
    // Not XML: TinyXML's message with the line.
    EXPECT_FALSE(
        importUrdfText("<robot name='r'>\n<link name='a'>\n</robot>", "bad.urdf", "", s, warning, error));
    EXPECT_NE(error.find("bad.urdf"), std::string::npos) << error;
    EXPECT_NE(error.find("line 3"), std::string::npos) << error;
    // XML, but not a robot urdfdom accepts: its own message.
    EXPECT_FALSE(
        importUrdfText("<robot name='r'><link name='a'/><joint name='j' type='revolute'><parent "
                       "link='a'/><child link='missing'/><limit lower='0' upper='1' effort='1' "
                       "velocity='1'/></joint></robot>",
                       "loose.urdf", "", s, warning, error));
    EXPECT_NE(error.find("loose.urdf"), std::string::npos) << error;
    EXPECT_NE(error.find("missing"), std::string::npos) << error;
    EXPECT_EQ(s.description, "untouched");
    EXPECT_TRUE(s.bodies.empty());
}

// A mesh file becomes the convex hull of its vertices, read by MuJoCo's mesh loader; a missing
// one is named in the warning.
TEST(UrdfImport, MeshesBecomeHulls) {
    const std::string mesh = std::string(JOINTLAB_MUJOCO_MODELS) + "/mug/mug.obj";
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(
        importUrdfText("<robot name='r'><link name='base'/><joint name='j' type='continuous'><parent "
                       "link='base'/><child link='cup'/><axis xyz='0 0 1'/></joint><link name='cup'>"
                       "<inertial><mass value='0.3'/><inertia ixx='1e-3' iyy='1e-3' izz='1e-3' ixy='0' "
                       "ixz='0' iyz='0'/></inertial><collision><geometry><mesh filename='" +
                           mesh +
                           "'/></geometry></collision><visual><geometry><mesh "
                           "filename='gone.stl'/></geometry></visual></link></robot>",
                       "mug.urdf", "", s, warning, error))
        << error;
    const BodyDesc& cup = body(s, "cup");
    EXPECT_EQ(cup.shape, ShapeType::Hull);
    EXPECT_GE(cup.hullPoints.size(), 4u);
    EXPECT_LE(cup.hullPoints.size(), static_cast<size_t>(kMaxHullPoints));
    EXPECT_EQ(warning.find("gone.stl"), std::string::npos) << "visual is not read when there is collision";
}

TEST(ModelImport, ChoosesTheFormatByExtensionAndContent) {
    EXPECT_EQ(modelFormat(kData + "arm.urdf"), ModelFormat::Urdf);
    EXPECT_EQ(modelFormat(kData + "arm.xml"), ModelFormat::Mjcf);
    EXPECT_TRUE(isImportablePath("a/B.URDF"));
    EXPECT_FALSE(isImportablePath("a/b.json"));
    Scene s;
    std::string warning, error;
    EXPECT_FALSE(importModel(kData + "../../../README.md", s, warning, error));
    EXPECT_NE(error.find("not a model"), std::string::npos) << error;
}

}  // namespace
}  // namespace jl::interop
