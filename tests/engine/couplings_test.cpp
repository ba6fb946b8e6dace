// Coupling joints (issue 6): gear/mimic, rack-and-pinion and pulley against closed forms.
// Mimic doc = physx-mimic-joints.md.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>

#include "carrier_motion.h"
#include "test_util.h"

namespace jl {
namespace {

const SolverType kSolvers[] = {SolverType::PGS, SolverType::TGS};
const char* name(SolverType s) {
    return kSolverTypeNames[static_cast<int>(s)];
}

/// A joint whose frames sit at the two bodies' centres with the bodies' own axes.
template <class P>
JointDesc coupling(const std::string& jointName, const std::string& body0, const std::string& body1,
                   P params) {
    JointDesc j;
    j.name = jointName;
    j.body0 = body0;
    j.body1 = body1;
    j.params = params;
    return j;
}

/// Accumulates a body's rotation about world X from its orientation, step by step (independent
/// of the engine's own angle tracking).
struct AngleAboutX {
    Real total = 0.0, prevWrapped = 0.0;
    void update(const Quat& q) {
        const Quat p = positiveW(q);
        const Real wrapped = 2.0 * std::atan2(p.x, p.w);
        Real d = wrapped - prevWrapped;
        d -= 2.0 * kPi * std::round(d / (2.0 * kPi));
        total += d;
        prevWrapped = wrapped;
    }
};

Scene rackAndPinion(SolverType solver, bool motor);

// [SECTION] gear

// Two discs on hinges to the world about world X (disc A radius 0.2 m, 1 kg; disc B radius
// 0.4 m, 4 kg), coupled by a gear q_A + G·q_B + γ = 0. Optionally A is motor-driven.
Scene gearPair(SolverType solver, Real G, Real gamma, bool motor) {
    Scene s = test::emptyScene();
    s.settings.solver = solver;
    s.bodies.push_back(test::box("discA", Vec3(0, 1, 0), Vec3(0.02, 0.2, 0.2), 1.0));
    s.bodies.push_back(test::box("discB", Vec3(0, 1, 0.7), Vec3(0.02, 0.4, 0.4), 4.0));
    RevoluteJoint drive;
    drive.motor.enabled = motor;
    drive.motor.targetVelocity = 2.0;
    drive.motor.forceLimit = 50.0;
    s.joints.push_back(
        test::joint<RevoluteJoint>(s, "axleA", "", "discA", Vec3(0, 1, 0), kIdentityQuat, drive));
    s.joints.push_back(
        test::joint<RevoluteJoint>(s, "axleB", "", "discB", Vec3(0, 1, 0.7), kIdentityQuat, RevoluteJoint{}));
    GearJoint g;
    g.ratio = G;
    g.offset = gamma;
    s.joints.push_back(coupling("gear", "discA", "discB", g));
    return s;
}

TEST(Gear, MotorDrivenPairTurnsAtTheGearRatio) {
    for (SolverType solver : kSolvers) {
        World w(gearPair(solver, -2.0, 0.0, true));
        AngleAboutX a, b;
        Real maxC = 0.0;
        for (int i = 0; i < 300; ++i) {  // 5 s
            w.step();
            a.update(w.bodies()[0].pose.q);
            b.update(w.bodies()[1].pose.q);
            maxC = std::max(maxC, std::abs(a.total - 2.0 * b.total));
        }
        const Real wA = w.bodies()[0].angularVelocity.x, wB = w.bodies()[1].angularVelocity.x;
        std::printf(
            "%s: after 5 s ω_A = %.6f, ω_B = %.6f rad/s, |ω_A − 2ω_B| = %.3e rad/s; turned %.3f and %.3f "
            "rad, "
            "max |θ_A − 2θ_B| %.3e rad\n",
            name(solver), wA, wB, std::abs(wA - 2.0 * wB), a.total, b.total, maxC);
        EXPECT_NEAR(wA, 2.0 * wB, 1e-3);
        EXPECT_NEAR(wA, 2.0, 1e-2);     // the motor reached its target through the gear
        EXPECT_GT(a.total, 2.0 * kPi);  // several full turns: no wrap at ±π
        EXPECT_LT(maxC, 1e-3);
        // The gear row reports the torque that turns disc B (no other torque acts on it about X).
        const JointState& gs = w.jointState(2);
        EXPECT_TRUE(std::isfinite(gs.torque.x));
    }
}

// γ = 0.4 rad: the pair settles to θ_A − 2θ_B = −0.4 and comes back to it after disc B is
// spun by an external torque for 0.5 s (the coupling keeps holding while both turn).
// What is left while they turn is the integrator's, not the coupling's: the normalised first-order
// quaternion update turns a body by 2·atan(ω·h/2) rather than ω·h, so two discs at ω_A = 2·ω_B
// drift apart by ≈ ((ω_A·h)³ − 2·(ω_B·h)³)/12 per step before the next step's bias removes it:
// 1.5e-5 rad at ω_B = 1.9 rad/s with h = 1/60 s (and 1.5e-2 rad at 19 rad/s).
TEST(Gear, OffsetHoldsAfterADisturbance) {
    for (SolverType solver : kSolvers) {
        const Real gamma = 0.4;
        World w(gearPair(solver, -2.0, gamma, false));
        AngleAboutX a, b;
        auto C = [&] { return a.total - 2.0 * b.total + gamma; };
        auto run = [&](int steps, Real torque) {
            for (int i = 0; i < steps; ++i) {
                // A force couple on disc B: torque about X, no net force.
                const Vec3 p = w.bodies()[1].pose.p;
                w.applyForce(1, Vec3(0, 0, torque / 0.8), p + Vec3(0, 0.4, 0));
                w.applyForce(1, Vec3(0, 0, -torque / 0.8), p - Vec3(0, 0.4, 0));
                w.step();
                a.update(w.bodies()[0].pose.q);
                b.update(w.bodies()[1].pose.q);
            }
        };
        run(60, 0.0);
        const Real settled = C();
        run(30, -2.0);
        const Real during = C();
        run(120, 0.0);
        const Real after = C();
        std::printf(
            "%s: C = θ_A − 2θ_B + γ: settled %.3e, during the torque %.3e, 2 s after %.3e rad; "
            "ω_B %.3f rad/s, turned θ_A %.3f rad\n",
            name(solver), settled, during, after, w.bodies()[1].angularVelocity.x, a.total);
        EXPECT_LT(std::abs(settled), 1e-4);
        EXPECT_LT(std::abs(during), 1e-4);
        EXPECT_LT(std::abs(after), 1e-4);
        EXPECT_GT(std::abs(a.total), 2.0 * kPi);  // the disturbance did turn the pair, through full turns
    }
}

// Angles count from the start pose: discs that start turned by 2.5 rad and −1 rad about their
// axles satisfy q_A + G·q_B = 0 as they are and stay at rest.
TEST(Gear, AnglesCountFromTheStartPose) {
    for (SolverType solver : kSolvers) {
        Scene s = gearPair(solver, -2.0, 0.0, false);
        s.bodies[0].orientation = test::axisAngle(Vec3(1, 0, 0), 2.5);
        s.bodies[1].orientation = test::axisAngle(Vec3(1, 0, 0), -1.0);
        for (JointDesc& j : s.joints)  // keep the axles' frames on the (now turned) discs along world X
            if (j.body0.empty())
                j.frame1.q = glm::conjugate(s.bodies[static_cast<size_t>(s.findBody(j.body1))].orientation);
        World w(s);
        Real maxC = 0.0, maxW = 0.0;
        for (int i = 0; i < 60; ++i) {
            w.step();
            maxC = std::max(maxC, std::abs(w.jointRowResults(2)[0].geometricError));
            maxW = std::max({maxW, glm::length(w.bodies()[0].angularVelocity),
                             glm::length(w.bodies()[1].angularVelocity)});
        }
        std::printf("%s: started turned: max |C| %.2e rad, max |ω| %.2e rad/s over 1 s\n", name(solver), maxC,
                    maxW);
        EXPECT_LT(maxC, 1e-12);
        EXPECT_LT(maxW, 1e-9);
    }
}

// Issue 28: a gear broken while disc A turned on alone and then restored with its memory reset
// (World::resetJointMemory, the app's re-seat) measures both angles from the poses at the
// restore: with offset 0 it holds at once, instead of yanking B round by the turns A made.
TEST(Gear, ResetMemoryMeasuresFromThePosesNow) {
    for (SolverType solver : kSolvers) {
        World w(gearPair(solver, -2.0, 0.0, true));
        w.setJointBroken(2, true);
        for (int i = 0; i < 60; ++i) w.step();  // A turns 2 rad on its motor, B stays
        w.restoreJoint(2);
        w.resetJointMemory(2);
        w.step();
        EXPECT_LT(std::abs(w.jointRowResults(2)[0].geometricError), 1e-9) << name(solver);
        // Without the reset, the same restore finds the 2 rad A turned as an error.
        World kept(gearPair(solver, -2.0, 0.0, true));
        kept.setJointBroken(2, true);
        for (int i = 0; i < 60; ++i) kept.step();
        kept.restoreJoint(2);
        kept.step();
        EXPECT_GT(std::abs(kept.jointRowResults(2)[0].geometricError), 1.0) << name(solver);
    }
}

// The angles' reference is part of what a World is built from, so a snapshot restored into a
// fresh World (the app's timeline after a reset) continues bit for bit, gear and rack included.
TEST(Couplings, SnapshotRestoredIntoAFreshWorldContinuesBitIdentically) {
    for (SolverType solver : kSolvers) {
        Scene s = gearPair(solver, -2.0, 0.1, true);
        Scene r = rackAndPinion(solver, true);
        for (BodyDesc b : r.bodies) {  // both mechanisms in one scene, side by side
            b.position.x += 2.0;
            s.bodies.push_back(b);
        }
        for (JointDesc j : r.joints) {
            if (j.body0.empty()) j.frame0.p.x += 2.0;
            j.name += "_rp";
            s.joints.push_back(j);
        }
        World a(s), b(s);
        for (int i = 0; i < 200; ++i) a.step();  // past π on every wheel
        b.restore(a.snapshot());
        for (int i = 0; i < 100; ++i) {
            a.step();
            b.step();
            ASSERT_EQ(a.stateHash(), b.stateHash()) << name(solver) << " step " << i;
        }
    }
}

// The joint's own erp (mimic doc eq. 5, 8): with no other row acting about the discs' axes the
// coupling error decays by (1 − erp) per position iteration: C_n = (1 − erp)^(n·k)·γ with k = 1
// for PGS and k = posIters substeps for TGS, whatever the world's Baumgarte factor is.
TEST(Gear, OwnErpSetsTheDecayOfTheError) {
    for (SolverType solver : kSolvers) {
        const Real gamma = 0.02, erp = 0.2;
        Scene s = gearPair(solver, -2.0, gamma, false);
        s.settings.gravity = Vec3(0.0);
        GearJoint& g = std::get<GearJoint>(s.joints[2].params);
        g.autoErp = false;
        g.erp = erp;
        World w(s);
        const int k = solver == SolverType::PGS ? 1 : s.settings.posIters;
        Real worst = 0.0;
        for (int n = 0; n < 10; ++n) {
            w.step();
            const Real expected = std::pow(1.0 - erp, n * k) * gamma;  // C at the start of step n + 1
            worst = std::max(worst, std::abs(w.jointRowResults(2)[0].geometricError - expected));
        }
        std::printf("%s: erp %.2f, world α %.3f: max |C_n − (1 − erp)^(n·%d)·γ| over 10 steps %.3e rad\n",
                    name(solver), erp, s.settings.effectiveBaumgarte(), k, worst);
        EXPECT_LT(worst, 1e-6);
    }
}

// r = J M⁻¹ Jᵀ of the gear row = s0·x_Aᵀ I_A⁻¹ x_A + G²·s1·x_Bᵀ I_B⁻¹ x_B (mimic doc eq. 15
// with r_AB = r_BA = 0, s = the joint's inverse inertia scales), for tilted boxes whose joint
// axes are not principal axes.
TEST(Gear, EffectiveMassIsTheClosedForm) {
    for (SolverType solver : kSolvers) {
        Scene s = test::emptyScene();
        s.settings.gravity = Vec3(0.0);
        s.settings.solver = solver;
        const Real G = 1.7;
        BodyDesc A = test::box("A", Vec3(0, 1, 0), Vec3(0.05, 0.3, 0.15), 1.3);
        A.orientation = test::axisAngle(Vec3(1, 2, 3), 0.7);
        BodyDesc B = test::box("B", Vec3(1, 1, 0), Vec3(0.4, 0.1, 0.25), 3.1);
        B.orientation = test::axisAngle(Vec3(-2, 1, 0.5), 1.9);
        s.bodies = {A, B};
        GearJoint g;
        g.ratio = G;
        JointDesc j = coupling("gear", "A", "B", g);
        j.frame0 = Transform{Vec3(0.1, 0.0, 0.0), test::axisAngle(Vec3(0, 1, 1), 0.4)};
        j.frame1 = Transform{Vec3(0.0, -0.05, 0.1), test::axisAngle(Vec3(1, 0, -1), 1.1)};
        j.invInertiaScale0 = 0.5;
        j.invInertiaScale1 = 2.0;
        s.joints.push_back(j);
        World w(s);
        w.step();
        const auto rows = w.jointRows(0);
        ASSERT_EQ(rows.size(), 1u);
        auto response = [&](int body, const Quat& frame) {
            const BodyDesc& b = s.bodies[static_cast<size_t>(body)];
            const Vec3 x = basisX(b.orientation * frame);
            const Vec3 xLocal = glm::conjugate(b.orientation) * x;  // I⁻¹ is diagonal in the body frame
            return glm::dot(xLocal, xLocal / w.localInertia(body));
        };
        const Real rAA = response(0, j.frame0.q), rBB = response(1, j.frame1.q);
        const Real closed = j.invInertiaScale0 * rAA + G * G * j.invInertiaScale1 * rBB;  // eq. 15
        const Real r = w.jointRowResults(0)[0].unitResponse;
        std::printf(
            "%s: gear row effective mass 1/r = %.12f, closed form 1/(r_AA + G²·r_BB) = %.12f kg·m², "
            "relative error %.2e\n",
            name(solver), 1.0 / r, 1.0 / closed, std::abs(r / closed - 1.0));
        EXPECT_NEAR(1.0 / r, 1.0 / closed, 1e-6 / closed);
    }
}

// Linear mode: two sliders on rails along world X; q_A − 3·q_B = 0, so when A is pushed it
// moves three times as far as B.
TEST(Gear, LinearModeCouplesTwoSliders) {
    for (SolverType solver : kSolvers) {
        Scene s = test::emptyScene();
        s.settings.solver = solver;
        s.bodies.push_back(test::box("A", Vec3(0, 1, 0), Vec3(0.1, 0.1, 0.1), 1.0));
        s.bodies.push_back(test::box("B", Vec3(0, 1, 1), Vec3(0.1, 0.1, 0.1), 2.0));
        s.joints.push_back(test::joint<PrismaticJoint>(s, "railA", "", "A", Vec3(0, 1, 0)));
        s.joints.push_back(test::joint<PrismaticJoint>(s, "railB", "", "B", Vec3(0, 1, 1)));
        GearJoint g;
        g.mode = GearMode::Linear;
        g.ratio = -3.0;
        s.joints.push_back(coupling("gear", "A", "B", g));
        World w(s);
        for (int i = 0; i < 120; ++i) {
            w.applyForce(0, Vec3(5.0, 0, 0), w.bodies()[0].pose.p);
            w.step();
        }
        const Real xA = w.bodies()[0].pose.p.x, xB = w.bodies()[1].pose.p.x;
        std::printf("%s: linear gear −3: x_A = %.6f m, 3·x_B = %.6f m\n", name(solver), xA, 3.0 * xB);
        EXPECT_GT(xA, 0.5);
        EXPECT_NEAR(xA, 3.0 * xB, 1e-4);
    }
}

// [SECTION] rack and pinion

// A pinion (radius 0.1 m) on a hinge about world X and a rack on a slider along world Z below it.
// A point at the bottom of the pinion moves along −Z when it turns about +X, so ratio = −R.
Scene rackAndPinion(SolverType solver, bool motor) {
    Scene s = test::emptyScene();
    s.settings.solver = solver;
    s.bodies.push_back(test::box("pinion", Vec3(0, 1, 0), Vec3(0.02, 0.1, 0.1), 0.5));
    s.bodies.push_back(test::box("rack", Vec3(0, 0.85, 0), Vec3(0.03, 0.05, 0.6), 2.0));
    RevoluteJoint drive;
    drive.motor.enabled = motor;
    drive.motor.targetVelocity = 1.5;
    drive.motor.forceLimit = 20.0;
    s.joints.push_back(
        test::joint<RevoluteJoint>(s, "axle", "", "pinion", Vec3(0, 1, 0), kIdentityQuat, drive));
    const Quat xToZ = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);  // joint X along world Z
    s.joints.push_back(test::joint<PrismaticJoint>(s, "rail", "", "rack", Vec3(0, 0.85, 0), xToZ));
    RackPinionJoint rp;
    rp.ratio = -0.1;
    JointDesc j = coupling("rack", "pinion", "rack", rp);
    j.frame1.q = xToZ;
    s.joints.push_back(j);
    return s;
}

TEST(RackPinion, RackMovesRatioTimesThePinionAngle) {
    for (SolverType solver : kSolvers) {
        for (bool motor : {true, false}) {
            World w(rackAndPinion(solver, motor));
            AngleAboutX theta;
            const Real z0 = w.bodies()[1].pose.p.z;
            for (int i = 0; i < 150; ++i) {  // 2.5 s: the motor turns the pinion past π
                if (!motor) w.applyForce(1, Vec3(0, 0, 0.5), w.bodies()[1].pose.p);  // push the rack instead
                w.step();
                theta.update(w.bodies()[0].pose.q);
            }
            const Real dz = w.bodies()[1].pose.p.z - z0;
            std::printf(
                "%s, %s: pinion turned %.4f rad, rack moved %.6f m, ratio·Δθ = %.6f m, error %.2e m\n",
                name(solver), motor ? "motor on the pinion" : "force on the rack", theta.total, dz,
                -0.1 * theta.total, std::abs(dz + 0.1 * theta.total));
            EXPECT_GT(std::abs(theta.total), motor ? kPi : 1.0);
            EXPECT_NEAR(dz, -0.1 * theta.total, 1e-3);
            // The coupling's force on the rack is along the rail only.
            const JointState& js = w.jointState(2);
            EXPECT_LT(std::hypot(js.force.x, js.force.y), 1e-9 * (1.0 + std::abs(js.force.z)));
        }
    }
}

// [SECTION] pulley

// Atwood machine: 1 kg and 2 kg hanging 2 m below two fixed points on one rope (ratio 1).
// a = g·(m1 − m0)/(m0 + m1) = g/3 and the tension T = 2·m0·m1·g/(m0 + m1).
Scene atwood(SolverType solver, Real m0, Real m1, Real ratio) {
    Scene s = test::emptyScene();
    s.settings.solver = solver;
    s.bodies.push_back(test::sphere("light", Vec3(-0.5, 1, 0), m0, 0.1));
    s.bodies.push_back(test::sphere("heavy", Vec3(0.5, 1, 0), m1, 0.1));
    PulleyJoint p;
    p.anchor0 = Vec3(-0.5, 3, 0);
    p.anchor1 = Vec3(0.5, 3, 0);
    p.ratio = ratio;
    p.length = 2.0 + ratio * 2.0;  // taut at the start
    s.joints.push_back(coupling("rope", "light", "heavy", p));
    return s;
}

TEST(Pulley, AtwoodMachineAcceleratesAtAThirdOfG) {
    for (SolverType solver : kSolvers) {
        World w(atwood(solver, 1.0, 2.0, 1.0));
        for (int i = 0; i < 30; ++i) w.step();  // 0.5 s
        const Real g = -w.settings().gravity.y;
        const Real a = -w.bodies()[1].linearVelocity.y / w.time();
        const Real aLight = w.bodies()[0].linearVelocity.y / w.time();
        const Real T = glm::length(w.jointState(0).force), Texpected = 2.0 * 1.0 * 2.0 * g / 3.0;
        std::printf(
            "%s: Atwood 1 kg / 2 kg: a = %.6f m/s² (light side %.6f), g/3 = %.6f, error %.3f%%; "
            "tension %.4f N (expected %.4f)\n",
            name(solver), a, aLight, g / 3.0, 100.0 * std::abs(a / (g / 3.0) - 1.0), T, Texpected);
        EXPECT_NEAR(a, g / 3.0, 0.02 * g / 3.0);
        EXPECT_NEAR(aLight, g / 3.0, 0.02 * g / 3.0);
        EXPECT_NEAR(T, Texpected, 0.02 * Texpected);
        EXPECT_NEAR(w.jointRowResults(0)[0].geometricError, 0.0, 1e-3);
    }
}

// Ratio 2 (block and tackle): body 1 is pulled with twice the rope tension, so 1 kg balances
// 2 kg; and a slack rope lets both fall freely.
TEST(Pulley, BlockAndTackleBalancesAndASlackRopeDoesNotPull) {
    for (SolverType solver : kSolvers) {
        World balanced(atwood(solver, 1.0, 2.0, 2.0));
        for (int i = 0; i < 60; ++i) balanced.step();
        Scene slack = atwood(solver, 1.0, 2.0, 1.0);
        std::get<PulleyJoint>(slack.joints[0].params).length = 5.0;  // 1 m of slack
        World loose(slack);
        for (int i = 0; i < 15; ++i) loose.step();  // 0.25 s: each falls 0.31 m, less than half the slack
        const Real g = -loose.settings().gravity.y;
        std::printf(
            "%s: ratio 2, 1 kg vs 2 kg after 1 s: v = %.2e, %.2e m/s; slack rope: a = %.6f m/s² (g = %.2f)\n",
            name(solver), balanced.bodies()[0].linearVelocity.y, balanced.bodies()[1].linearVelocity.y,
            -loose.bodies()[1].linearVelocity.y / loose.time(), g);
        EXPECT_LT(std::abs(balanced.bodies()[0].linearVelocity.y), 1e-6);
        EXPECT_LT(std::abs(balanced.bodies()[1].linearVelocity.y), 1e-6);
        EXPECT_NEAR(-loose.bodies()[1].linearVelocity.y / loose.time(), g, 1e-9);
        EXPECT_EQ(loose.jointRowResults(0)[0].impulse, 0.0);
    }
}

// [SECTION] relative rack and pinion

// relative = true (rack_pinion.h): a pinion hinged to a carrier about w and a rack sliding on the
// same carrier along u. Whatever the carrier does (here it is moved and turned about a tilted axis
// by a finite pose, and moves on with arbitrary v and ω), the row's C is the slide s minus ratio
// times the hinge angle θ, both relative to the carrier, and its J·v is dC/dt: the central
// difference of C over ±ε of the exact carrier, hinge and slide motion agrees with J·v to
// O(ε²) (ε = 1e-6 s: ~1e-10 of the rates here; the test allows 1e-7).
TEST(RackPinion, RelativeRowMeasuresOnTheCarrier) {
    RackPinionJoint rp;
    rp.relative = true;
    rp.ratio = 0.03;
    rp.offset = 0.002;
    // Start: carrier at the origin; pinion's hinge at h about w = Z; rack's slide along u = X from a.
    const Vec3 h(0.1, 0.2, 0.0), a(0.3, 0.25, 0.05), w(0, 0, 1), u(1, 0, 0);
    const Vec3 cPinion = h + Vec3(0.0, 0.0, 0.01), cRack = a + Vec3(-0.02, 0.01, 0.0);  // off-axis centres
    JointDesc j = coupling("rack", "pinion", "rack", rp);
    j.frame0 = Transform{h - cPinion, kIdentityQuat};  // pinion's frame: X = w after the turn below
    j.frame0.q = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    j.frame1 = Transform{a - cRack, kIdentityQuat};  // rack's frame: X = u
    const Quat xToW = j.frame0.q;
    // Poses of the two bodies for a carrier pose H, hinge angle θ and slide s.
    const auto poses = [&](const Transform& H, Real theta, Real s, Transform& pinion, Transform& rack) {
        pinion = H * Transform{h, test::axisAngle(w, theta)} * Transform{cPinion - h, kIdentityQuat};
        rack = H * Transform{cRack + s * u, kIdentityQuat};
    };
    const JointMemory memory = test::startMemory(poses);
    // Now: the carrier moved and turned, the pinion turned by θ, the rack slid by s.
    const Vec3 axis = glm::normalize(Vec3(0.3, 1.0, -0.5));
    const test::Carrier carrier{
        {Vec3(0.5, -0.3, 1.2), test::axisAngle(axis, 1.1)}, Vec3(0.4, -0.2, 0.7), Vec3(1.5, -2.0, 0.8)};
    const Real theta = 0.7, s = 0.04, thetaDot = 3.0, sDot = -0.25;
    const auto rowAt = [&](Real t, JointMemory mem) {
        const Transform Ht = carrier.at(t);
        Transform pinion, rack;
        poses(Ht, theta + thetaDot * t, s + sDot * t, pinion, rack);
        // Body velocities: the carrier's rigid motion, plus θ̇ about w (pinion) and ṡ along u (rack).
        return test::rowErrorAndJv(rp, j, pinion, rack, mem,
                                   test::hingedOn(carrier, Ht, h, w, thetaDot, pinion.p),
                                   test::slidingOn(carrier, Ht, u, sDot, rack.p));
    };
    EXPECT_LT(glm::length(xToW * Vec3(1, 0, 0) - w), 1e-12);
    const auto [c, jv] = rowAt(0.0, memory);
    EXPECT_NEAR(c, s - rp.ratio * theta - rp.offset, 1e-12);  // the carrier's motion drops out
    const Real e = 1e-6;
    const Real rate = (rowAt(e, memory).first - rowAt(-e, memory).first) / (2 * e);
    EXPECT_NEAR(rate, sDot - rp.ratio * thetaDot, 1e-7);
    EXPECT_NEAR(jv, rate, 1e-7);
    std::printf(
        "relative rack on a moving carrier: C = %.12f (s - ratio·θ - offset = %.12f), dC/dt = %.9f, J·v = "
        "%.9f\n",
        c, s - rp.ratio * theta - rp.offset, rate, jv);
}

}  // namespace
}  // namespace jl
