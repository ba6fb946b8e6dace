// Drives, limits and the D6 joint against closed forms and invariants (issue 5).
#include <gtest/gtest.h>

#include "test_util.h"

namespace jl {
namespace {

// One body on a prismatic joint from the world (joint X = world X), no gravity, with a force
// drive: k = 200 N/m, c = 5 N·s/m towards x_T = 0.5 m from x0 = −0.3 m.
Scene drivenSlider(SolverType solver, Real mass, bool acceleration, Real k, Real c, Real forceLimit = kInf) {
    Scene s = test::emptyScene();
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = solver;
    s.settings.posIters = solver == SolverType::PGS ? 1 : 4;
    s.bodies.push_back(test::box("slider", Vec3(-0.3, 1, 0), Vec3(0.1, 0.1, 0.1), mass));
    PrismaticJoint pj;
    pj.drive.enabled = true;
    pj.drive.stiffness = k;
    pj.drive.damping = c;
    pj.drive.acceleration = acceleration;
    pj.drive.forceLimit = forceLimit;
    pj.driveTarget = 0.5;
    JointDesc j = test::joint<PrismaticJoint>(s, "rail", "", "slider", Vec3(0, 1, 0), Quat(1, 0, 0, 0), pj);
    j.frame1 = Transform{};  // frame B at the body's centre: the slide coordinate starts at −0.3 m
    s.joints.push_back(j);
    return s;
}

// Implicit Euler (drives doc eq. 9–12): m(v' − v) = h(k(x_T − x') + c(v_T − v')), x' = x + h v'.
TEST(Drives, ForceDriveFollowsTheImplicitEulerRecurrence) {
    const Real m = 2.0, k = 200.0, c = 5.0, xT = 0.5;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(drivenSlider(solver, m, false, k, c));
        const int sub = solver == SolverType::PGS ? 1 : 4;  // TGS = 4 implicit substeps of dt/4
        const Real h = w.settings().dt / sub;
        Real x = -0.3, v = 0.0, maxErr = 0;
        for (int i = 0; i < 120; ++i) {
            w.step();
            for (int s = 0; s < sub; ++s) {
                v = (m * v + h * k * (xT - x)) / (m + h * h * k + h * c);
                x += h * v;
            }
            maxErr = std::max(
                {maxErr, std::abs(w.bodies()[0].pose.p.x - x), std::abs(w.bodies()[0].linearVelocity.x - v)});
        }
        std::printf("%s: max |x − x_rec|, |v − v_rec| over 120 steps %.3e (x = %.5f m)\n",
                    kSolverTypeNames[int(solver)], maxErr, x);
        EXPECT_LT(maxErr, 1e-5);
    }
}

TEST(Drives, AccelerationDriveIsMassIndependent) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World light(drivenSlider(solver, 1.0, true, 50.0, 4.0));
        World heavy(drivenSlider(solver, 100.0, true, 50.0, 4.0));
        Real maxDiff = 0;
        for (int i = 0; i < 120; ++i) {
            light.step();
            heavy.step();
            maxDiff = std::max(maxDiff, std::abs(light.bodies()[0].pose.p.x - heavy.bodies()[0].pose.p.x));
        }
        std::printf("%s: 1 kg vs 100 kg acceleration drive, max position difference %.3e m (x = %.4f)\n",
                    kSolverTypeNames[int(solver)], maxDiff, light.bodies()[0].pose.p.x);
        EXPECT_LT(maxDiff, 1e-5);
        EXPECT_GT(light.bodies()[0].pose.p.x, 0.3);  // it moved towards the target
    }
}

TEST(Drives, ForceLimitCapsTheImpulsePerStep) {
    const Real F = 3.0;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(drivenSlider(solver, 1.0, false, 1e5, 100.0, F));
        Real maxImpulse = 0;
        for (int i = 0; i < 60; ++i) {
            w.step();
            for (size_t r = 0; r < w.jointRows(0).size(); ++r)
                if (std::string(w.jointRows(0)[r].label) == "slide drive")
                    maxImpulse = std::max(maxImpulse, std::abs(w.jointRowResults(0)[r].impulse));
        }
        const Real dt = w.settings().dt;
        std::printf("%s: largest drive impulse %.6f N·s, F·dt = %.6f N·s\n", kSolverTypeNames[int(solver)],
                    maxImpulse, F * dt);
        EXPECT_LE(maxImpulse, F * dt * (1 + 1e-12));
        EXPECT_GT(maxImpulse, 0.99 * F * dt);  // the limit was reached
    }
}

TEST(Drives, VeryStiffDriveStaysBoundedAndSettles) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(drivenSlider(solver, 1.0, false, 1e7, 0.0));
        Real maxAbs = 0;
        for (int i = 0; i < 240; ++i) {
            w.step();
            maxAbs = std::max(maxAbs, std::abs(w.bodies()[0].pose.p.x));
        }
        const Real x = w.bodies()[0].pose.p.x, v = w.bodies()[0].linearVelocity.x;
        std::printf("%s: k = 1e7, max |x| %.4f m, after 4 s x = %.6f m, v = %.2e m/s\n",
                    kSolverTypeNames[int(solver)], maxAbs, x, v);
        EXPECT_LT(maxAbs, 1.0);
        EXPECT_NEAR(x, 0.5, 1e-3);
        EXPECT_LT(std::abs(v), 1e-3);
    }
}

// A 1 m rod on a hinge (world Z) released horizontally (90° from hanging). Its limit is at 45°
// on the other side of the hanging position: range [−45°, 95°]; it swings down and is stopped.
Scene limitedPendulum(SolverType solver, Real restitution) {
    Scene s = test::emptyScene();
    s.settings.solver = solver;
    s.bodies.push_back(test::box("rod", Vec3(0.5, 2, 0), Vec3(0.5, 0.05, 0.05), 1.0));
    // Joint X along world Z; frame A's Y axis points down (the hanging direction), frame B's Y along
    // the rod (world +X at the start): the hinge angle starts at 90°, hanging is 0.
    const Quat frameA = test::axisAngle(Vec3(0, 1, 0), -kPi / 2) * test::axisAngle(Vec3(1, 0, 0), kPi);
    RevoluteJoint rj;
    rj.limit.enabled = true;
    rj.limit.lower = -kPi / 4;
    rj.limit.upper = kPi / 2 + 5 * kPi / 180;
    rj.limit.contactDistance = 0.05;
    rj.limit.restitution = restitution;
    rj.limit.bounceThreshold = 0.2;
    JointDesc j = test::joint<RevoluteJoint>(s, "hinge", "", "rod", Vec3(0, 2, 0), frameA, rj);
    // Body frame: rotate so that frame B's Y axis is along the rod (world +X).
    j.frame1.q = glm::conjugate(s.bodies[0].orientation) * (frameA * test::axisAngle(Vec3(1, 0, 0), kPi / 2));
    s.joints.push_back(j);
    return s;
}

Real hingeAngle(const World& w) {
    const Transform a = test::frame0(w, 0), b = test::frame1(w, 0);
    const Vec3 by = basisY(b.q);
    return std::atan2(glm::dot(by, basisZ(a.q)), glm::dot(by, basisY(a.q)));
}

TEST(Limits, RevoluteLimitHoldsAPendulumReleasedAt90Degrees) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(limitedPendulum(solver, 0.0));
        const Real start = hingeAngle(w);
        Real maxAngle = 0;  // furthest past the hanging position on the limited side
        for (int i = 0; i < 300; ++i) {
            w.step();
            maxAngle = std::max(maxAngle, -hingeAngle(w));
        }
        std::printf(
            "%s: start %.1f°, furthest swing %.3f° (limit 45°, allowed 45° + 0.05 + 0.01 rad = %.3f°)\n",
            kSolverTypeNames[int(solver)], start * 180 / kPi, maxAngle * 180 / kPi,
            (kPi / 4 + 0.06) * 180 / kPi);
        EXPECT_NEAR(start, kPi / 2, 1e-9);
        EXPECT_GT(maxAngle, kPi / 4 - 0.06);  // it did reach the limit
        EXPECT_LT(maxAngle, kPi / 4 + 0.05 + 0.01);
    }
}

// The literal wording: limit at ±45° and release at 90°. The start then lies 45° outside
// the upper bound, which is not a physical initial state: a violated hard limit is resolved by its
// Baumgarte bias, as PhysX does, and the speed that gives the rod (≈ α·0.785 rad/dt, 47 rad/s for
// PGS with α = 1) depends on dt and α, not on the physics. So the closest meaningful checks are:
// the limit brings the rod back inside its range (within contact distance + 0.01 rad of ±45°)
// within the first 0.5 s, and from then on the rod never passes either bound by more than that.
// The in-range variant above (range [−45°, 95°]) remains the check of the swing into the limit.
TEST(Limits, RevoluteLimitAt45DegreesWithTheRodReleasedOutsideAt90Degrees) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = limitedPendulum(solver, 0.0);
        std::get<RevoluteJoint>(s.joints[0].params).limit.upper = kPi / 4;
        World w(s);
        const Real start = hingeAngle(w), allowed = kPi / 4 + 0.05 + 0.01;
        int stepsToEnter = -1;
        Real worstAfter = 0, worstBefore = 0, minAngle = 0;
        for (int i = 1; i <= 600; ++i) {
            w.step();
            const Real a = hingeAngle(w);
            if (stepsToEnter < 0 && std::abs(a) <= allowed) stepsToEnter = i;
            if (i > 30)
                worstAfter = std::max(worstAfter, std::abs(a));
            else
                worstBefore = std::max(worstBefore, std::abs(a));
            minAngle = std::min(minAngle, a);
        }
        std::printf(
            "%s: start %.1f°, inside ±(45° + 0.06 rad) after %d step(s); largest |angle| in the first 0.5 s "
            "%.3f°, after 0.5 s %.3f° (allowed %.3f°); lowest angle reached %.3f°\n",
            kSolverTypeNames[int(solver)], start * 180 / kPi, stepsToEnter, worstBefore * 180 / kPi,
            worstAfter * 180 / kPi, allowed * 180 / kPi, minAngle * 180 / kPi);
        EXPECT_NEAR(start, kPi / 2, 1e-9);
        EXPECT_GT(stepsToEnter, 0);
        EXPECT_LE(stepsToEnter, 30);
        EXPECT_LT(worstAfter, allowed);
    }
}

TEST(Limits, RestitutionOneBouncesBackAtTheApproachSpeed) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(limitedPendulum(solver, 1.0));
        w.settings().gravity = Vec3(0.0);  // swing at constant speed into the limit
        BodyState st = w.bodies()[0];
        st.angularVelocity = Vec3(0, 0, -3.0);  // towards the hanging position and beyond
        st.linearVelocity = glm::cross(st.angularVelocity, st.pose.p - Vec3(0, 2, 0));
        w.setBodyState(0, st);
        // Start inside the range: first pass through 0 without gravity, then hit the lower limit.
        Real approach = 0, rebound = 0, prevRate = 0;
        for (int i = 0; i < 200 && rebound == 0; ++i) {
            w.step();
            const Real rate = w.bodies()[0].angularVelocity.z;
            if (approach == 0 && hingeAngle(w) < -kPi / 4 + 0.2) approach = std::abs(prevRate);
            if (approach > 0 && rate * prevRate < 0) rebound = std::abs(rate);
            prevRate = rate;
        }
        std::printf("%s: approach %.4f rad/s, rebound %.4f rad/s (%.1f%%)\n", kSolverTypeNames[int(solver)],
                    approach, rebound, 100 * rebound / approach);
        EXPECT_NEAR(approach, 3.0, 0.15);  // it reached the limit at about its launch speed
        EXPECT_GE(rebound, 0.95 * approach);
    }
}

Scene motorWheel(SolverType solver, Real forceLimit) {
    Scene s = test::emptyScene();
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = solver;
    BodyDesc wheel = test::box("wheel", Vec3(0, 1, 0), Vec3(0.1, 0.4, 0.4), 2.0);
    s.bodies.push_back(wheel);
    RevoluteJoint rj;
    rj.motor.enabled = true;
    rj.motor.targetVelocity = 5.0;
    rj.motor.forceLimit = forceLimit;
    s.joints.push_back(
        test::joint<RevoluteJoint>(s, "axle", "", "wheel", Vec3(0, 1, 0), Quat(1, 0, 0, 0), rj));
    return s;
}

TEST(Motor, ReachesItsTargetSpeedAndAcceleratesAtTheTorqueLimit) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World strong(motorWheel(solver, 1000.0));
        for (int i = 0; i < 60; ++i) strong.step();
        const Real w = strong.bodies()[0].angularVelocity.x;
        // Torque-limited: I_x = m(hy² + hz²)/3 = 2·0.32/3; α = τ/I.
        const Real tau = 0.1, I = 2.0 * (0.16 + 0.16) / 3.0;
        World weak(motorWheel(solver, tau));
        for (int i = 0; i < 60; ++i) weak.step();
        const Real alpha = weak.bodies()[0].angularVelocity.x / weak.time();
        std::printf(
            "%s: strong motor ω after 1 s %.6f rad/s (target 5); weak motor α %.5f rad/s², τ/I = %.5f\n",
            kSolverTypeNames[int(solver)], w, alpha, tau / I);
        EXPECT_NEAR(w, 5.0, 1e-3);
        EXPECT_NEAR(alpha, tau / I, 1e-3 * tau / I);
    }
}

// Angles across ±π: a position drive towards 5 rad (beyond π) gets there, and an upper limit
// at 4 rad stops a motor that would turn further, with no jump as the angle passes π.
TEST(Limits, TwistIsTrackedThroughFullTurns) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        for (bool limit : {false, true}) {
            Scene s = motorWheel(solver, 1000.0);
            RevoluteJoint& rj = std::get<RevoluteJoint>(s.joints[0].params);
            rj.motor.enabled = limit;  // the motor pushes into the limit
            rj.motor.targetVelocity = 3.0;
            rj.drive.enabled = !limit;
            rj.drive.stiffness = 20.0;
            rj.drive.damping = 6.0;
            rj.driveTarget = 5.0;
            rj.limit = {limit, -1.0, 4.0, 0.05};
            World w(s);
            Real turned = 0, maxTurned = 0, prevWrapped = 0;
            for (int i = 0; i < 600; ++i) {
                w.step();
                // The wheel turns about world X: unwrap its orientation's angle step by step.
                const Quat q = w.bodies()[0].pose.q;
                const Real wrapped = 2.0 * std::atan2(q.x, q.w);
                Real d = wrapped - prevWrapped;
                d -= 2.0 * kPi * std::round(d / (2.0 * kPi));
                turned += d;
                prevWrapped = wrapped;
                maxTurned = std::max(maxTurned, turned);
            }
            std::printf("%s, %s: turned %.4f rad (max %.4f)\n", kSolverTypeNames[int(solver)],
                        limit ? "motor into a 4 rad limit" : "drive to 5 rad", turned, maxTurned);
            if (limit) {
                EXPECT_NEAR(turned, 4.0, 0.06);
                EXPECT_LT(maxTurned, 4.0 + 0.05 + 0.01);
            } else {
                EXPECT_NEAR(turned, 5.0, 1e-3);
            }
        }
    }
}

// A D6 with only twist free is a revolute joint; with all rotations free, a spherical joint.
TEST(D6, TwistOnlyMatchesRevoluteAndFreeAnglesMatchSpherical) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        for (bool hinge : {true, false}) {
            auto scene = [&](bool useD6) {
                Scene s = test::emptyScene();
                s.settings.solver = solver;
                BodyDesc b = test::box("arm", Vec3(0.5, 2, 0.1), Vec3(0.5, 0.1, 0.05), 1.0);
                b.angularVelocity = Vec3(0.3, 0.5, 1.0);
                s.bodies.push_back(b);
                const Quat axes = test::axisAngle(Vec3(0.2, 1, 0.3), 1.0);
                if (useD6) {
                    D6Joint d6;
                    d6.motion[kD6Twist] = D6Motion::Free;
                    if (!hinge) d6.motion[kD6Swing1] = d6.motion[kD6Swing2] = D6Motion::Free;
                    s.joints.push_back(test::joint<D6Joint>(s, "j", "", "arm", Vec3(0, 2, 0), axes, d6));
                } else if (hinge) {
                    s.joints.push_back(test::joint<RevoluteJoint>(s, "j", "", "arm", Vec3(0, 2, 0), axes));
                } else {
                    s.joints.push_back(test::joint<SphericalJoint>(s, "j", "", "arm", Vec3(0, 2, 0), axes));
                }
                return s;
            };
            World a(scene(true)), b(scene(false));
            Real maxDiff = 0;
            for (int i = 0; i < 120; ++i) {
                a.step();
                b.step();
                maxDiff = std::max(maxDiff, glm::length(a.bodies()[0].pose.p - b.bodies()[0].pose.p));
            }
            std::printf("%s: D6 vs %s over 2 s: max position difference %.3e m\n",
                        kSolverTypeNames[int(solver)], hinge ? "revolute" : "spherical", maxDiff);
            EXPECT_LT(maxDiff, 1e-4);
        }
    }
}

// Spherical cone (30° about Y, 60° about Z): body 1's X axis, swung hard in all directions,
// stays inside the ellipse (within the contact distance).
TEST(Limits, SphericalConeKeepsTheAxisInsideTheEllipse) {
    const Real a = kPi / 6, b = kPi / 3;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Real worst = 0;
        for (int dir = 0; dir < 8; ++dir) {
            Scene s = test::emptyScene();
            s.settings.solver = solver;
            s.settings.gravity = Vec3(0.0);
            BodyDesc arm = test::box("arm", Vec3(0.5, 2, 0), Vec3(0.5, 0.1, 0.1), 1.0);
            const Real phi = dir * kPi / 4;
            arm.angularVelocity = 4.0 * Vec3(0, std::cos(phi), std::sin(phi));
            arm.linearVelocity = glm::cross(arm.angularVelocity, Vec3(0.5, 0, 0));
            s.bodies.push_back(arm);
            SphericalJoint sj;
            sj.cone.enabled = true;
            sj.cone.yAngle = a;
            sj.cone.zAngle = b;
            sj.cone.contactDistance = 0.05;
            s.joints.push_back(
                test::joint<SphericalJoint>(s, "shoulder", "", "arm", Vec3(0, 2, 0), Quat(1, 0, 0, 0), sj));
            World w(s);
            for (int i = 0; i < 120; ++i) {
                w.step();
                // Swing of B's X axis in frame A as rotation angles about Y and Z.
                const Vec3 bx = glm::conjugate(test::frame0(w, 0).q) * basisX(test::frame1(w, 0).q);
                const Real swing = std::acos(std::clamp(bx.x, -1.0, 1.0));
                const Real s2 = std::sqrt(bx.y * bx.y + bx.z * bx.z);
                if (s2 < 1e-9) continue;
                // Swing axis (0, −bx.z, bx.y)/s2: rotation about Y by sy moves X to −Z.
                const Real ay = -bx.z / s2, az = bx.y / s2;
                const Real allowed = 1.0 / std::sqrt((ay / a) * (ay / a) + (az / b) * (az / b));
                worst = std::max(worst, swing - allowed);
            }
        }
        std::printf("%s: largest excursion beyond the (30°, 60°) cone %.4f rad (contact distance 0.05)\n",
                    kSolverTypeNames[int(solver)], worst);
        EXPECT_LT(worst, 0.05);
    }
}

}  // namespace
}  // namespace jl
