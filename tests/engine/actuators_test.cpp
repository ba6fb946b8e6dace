// Drives, motors and limits (issue 5, items 1–2 and 4): what the drive reports and breaks, the
// revolute motor's flags, soft limits and the prismatic limit pair, against closed forms.
#include <gtest/gtest.h>

#include <string_view>

#include "test_util.h"

namespace jl {
namespace {

const Real kG = 9.81;

/// One DOF under a constant load F and an implicit spring-damper towards `target` (drives doc
/// eq. 9–12), stepped as the solvers step it: `sub` substeps of h = dt/sub (PGS: 1; TGS: posIters,
/// drives doc eq. 40–44), in each of which the load's impulse F·h enters the velocity first (TGS
/// adds gravity and applied forces per substep, solver/integrate.h), then implicit Euler:
///   m(v' − v) = h(k(x_T − x') − c·v'),  x' = x + h·v'.
/// `oneSided`: a soft limit's row, present only when the step starts with x below the bound.
/// For both solvers its fixed point is x = x_T + F/k with v = 0 exactly. (While TGS took the
/// load as one kick per step, the end-of-step sample sat off F/k, by 2.8% for the drive below.)
void springStep(Real& x, Real& v, Real m, Real k, Real c, Real F, Real target, Real dt, int sub,
                bool oneSided) {
    const bool active = !oneSided || x < target;
    const Real h = dt / sub;
    for (int i = 0; i < sub; ++i) {
        v += h * F / m;
        if (active) v = (m * v + h * k * (target - x)) / (m + h * h * k + h * c);
        x += h * v;
    }
}

// [SECTION] drive force is not reported and does not break

// A 2 kg slider on a horizontal prismatic joint (joint X = world X) from the world, gravity on. A
// constant pull of 30 N along +X is held by a stiff force drive (k = 3000 N/m → 1 cm deflection);
// the locked rows (Y, Z and rotation) carry the weight m·g = 19.62 N. The joint's reported force
// must be the locked rows' load only: (0, m·g, 0) — its X component is exactly 0, because no
// locked row has an X component (1e-9 N is rounding of the zero) — while the drive row's impulse is
// the full 30 N·dt and the slider sits where the drive's implicit recurrence puts it (F/k).
// With breakForce = 25 N (between m·g and the drive's 30 N) the joint must not break; the control
// run, where the slider starts against a hard upper limit that holds the same pull instead,
// reports (−30, m·g, 0) N, |F| = 35.8 N, and breaks in step 1, so the threshold is live.
Scene pulledSlider(SolverType solver, bool drive) {
    Scene s = test::emptyScene();
    s.settings.solver = solver;
    s.bodies.push_back(test::box("slider", Vec3(0, 1, 0), Vec3(0.1, 0.1, 0.1), 2.0));
    PrismaticJoint pj;
    pj.drive.enabled = drive;
    pj.drive.stiffness = 3000.0;
    pj.drive.damping = 150.0;
    pj.limit = {!drive, -1.0, 0.0, 0.05};  // control: the slider starts against the upper bound
    s.joints.push_back(
        test::joint<PrismaticJoint>(s, "rail", "", "slider", Vec3(0, 1, 0), Quat(1, 0, 0, 0), pj));
    s.joints.back().breakForce = 25.0;
    return s;
}

TEST(DriveForce, IsNotReportedAndDoesNotBreakTheJoint) {
    const Real pull = 30.0, m = 2.0;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(pulledSlider(solver, true));
        const int sub = solver == SolverType::PGS ? 1 : w.settings().posIters;
        Real maxFx = 0, maxForce = 0, x = 0, v = 0;
        for (int i = 0; i < 600; ++i) {
            w.applyForce(0, Vec3(pull, 0, 0), w.bodies()[0].pose.p);
            w.step();
            springStep(x, v, m, 3000.0, 150.0, pull, 0.0, w.settings().dt, sub, false);
            maxFx = std::max(maxFx, std::abs(w.jointState(0).force.x));
            maxForce = std::max(maxForce, glm::length(w.jointState(0).force));
        }
        Real driveImpulse = 0;
        for (size_t r = 0; r < w.jointRows(0).size(); ++r)
            if (std::string_view(w.jointRows(0)[r].label) == "slide drive")
                driveImpulse = w.jointRowResults(0)[r].impulse;
        const Vec3 f = w.jointState(0).force;
        const Real dt = w.settings().dt;
        std::printf(
            "%s: x = %.7f m (pull/k = %.7f, recurrence %.7f), drive carries %.4f N; reported force (%.2e, "
            "%.5f, "
            "%.2e) N (m·g = %.5f), max |F_x| %.2e N, max |F| %.4f N, broken %d\n",
            kSolverTypeNames[int(solver)], w.bodies()[0].pose.p.x, pull / 3000.0, x,
            std::abs(driveImpulse) / dt, f.x, f.y, f.z, m * kG, maxFx, maxForce, int(w.jointState(0).broken));
        EXPECT_NEAR(std::abs(driveImpulse) / dt, pull, 0.01 * pull);   // the drive carries the pull
        EXPECT_NEAR(w.bodies()[0].pose.p.x, x, 1e-6 * pull / 3000.0);  // as the drive recurrence says
        EXPECT_NEAR(x, pull / 3000.0, 1e-9);                           // = F/k at rest
        EXPECT_LT(maxFx, 1e-9);
        EXPECT_NEAR(f.y, m * kG, 0.01 * m * kG);
        EXPECT_LT(maxForce, 25.0);
        EXPECT_FALSE(w.jointState(0).broken);
        EXPECT_TRUE(w.breakEvents().empty());

        World control(pulledSlider(solver, false));
        for (int i = 0; i < 120 && !control.jointState(0).broken; ++i) {
            control.applyForce(0, Vec3(pull, 0, 0), control.bodies()[0].pose.p);
            control.step();
        }
        ASSERT_EQ(control.breakEvents().size(), 1u);
        const Vec3 cf = control.breakEvents()[0].force;
        std::printf(
            "  control (hard limit holds the pull): broke at step %lld with force (%.4f, %.4f, %.4f) N\n",
            (long long)control.breakEvents()[0].step, cf.x, cf.y, cf.z);
        EXPECT_EQ(control.breakEvents()[0].step, 1);
        EXPECT_NEAR(cf.x, -pull, 0.01 * pull);  // the limit row's load is reported: (−30, m·g, 0) N
        EXPECT_NEAR(cf.y, m * kG, 0.01 * m * kG);
        EXPECT_GT(glm::length(cf), 25.0);
    }
}

// [SECTION] revolute motor: freespin, gear ratio, limitIsImpulse

// A 2 kg wheel (box 0.2 × 0.8 × 0.8 m) on an axle along world X from the world, gravity off.
// I_x = m(hy² + hz²)/3 = 0.21333 kg·m².
const Real kWheelI = 2.0 * (0.16 + 0.16) / 3.0;

Scene wheel(SolverType solver, const RevoluteJoint::Motor& motor, Real omega0) {
    Scene s = test::emptyScene();
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = solver;
    BodyDesc b = test::box("wheel", Vec3(0, 1, 0), Vec3(0.1, 0.4, 0.4), 2.0);
    b.angularVelocity = Vec3(omega0, 0, 0);
    s.bodies.push_back(b);
    RevoluteJoint rj;
    rj.motor = motor;
    rj.motor.enabled = true;
    s.joints.push_back(
        test::joint<RevoluteJoint>(s, "axle", "", "wheel", Vec3(0, 1, 0), Quat(1, 0, 0, 0), rj));
    return s;
}

// Without freespin, a strong motor (target 5 rad/s) brakes a wheel spinning at 10 rad/s to 5
// within 1e-3 in 1 s. With freespin it never brakes: nothing else acts about the axle, so the
// wheel keeps 10 rad/s to rounding (1e-9), and it still drives a wheel at rest up to 5 rad/s.
// The same holds mirrored for a negative target.
TEST(Motor, FreespinDrivesButNeverBrakes) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        for (Real sign : {1.0, -1.0}) {
            RevoluteJoint::Motor m;
            m.targetVelocity = 5.0 * sign;
            m.forceLimit = 1000.0;
            auto run = [&](bool freespin, Real omega0) {
                RevoluteJoint::Motor mm = m;
                mm.freespin = freespin;
                World w(wheel(solver, mm, omega0));
                for (int i = 0; i < 60; ++i) w.step();
                return w.bodies()[0].angularVelocity.x;
            };
            const Real braked = run(false, 10.0 * sign), coasting = run(true, 10.0 * sign),
                       driven = run(true, 0.0);
            std::printf(
                "%s, target %+.0f rad/s: from %+.0f rad/s without freespin %.6f, with freespin %.9f; "
                "from rest with freespin %.6f\n",
                kSolverTypeNames[int(solver)], 5.0 * sign, 10.0 * sign, braked, coasting, driven);
            EXPECT_NEAR(braked, 5.0 * sign, 1e-3);
            EXPECT_NEAR(coasting, 10.0 * sign, 1e-9);
            EXPECT_NEAR(driven, 5.0 * sign, 1e-3);
        }
    }
}

// Gear ratio G (revolute.h): the motor row holds ax·(ω1 − G·ω0) = v_T, i.e. body 0's rate is
// scaled by G. (1) Body 0 a kinematic axle carrier spinning at ω0 = 2 rad/s: body 1 settles at
// v_T + G·ω0 (1e-3 rad/s, as the plain motor test). (2) Both bodies dynamic and coaxial, free in
// space, with a torque-limited motor: the row's impulse λ acts on body 1 as λ and on body 0 as
// −G·λ (the gear scales the torque on body 0), and nothing else acts about the axle, so
// I0·Δω0 = −G·I1·Δω1 to rounding, and I1·Δω1 = τ·t (the limit is reached every step).
TEST(Motor, GearRatioScalesBody0sRateAndTorque) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        for (Real G : {1.0, 3.0, -0.5}) {
            Scene s = test::emptyScene();
            s.settings.gravity = Vec3(0.0);
            s.settings.solver = solver;
            BodyDesc axle = test::box("axle", Vec3(0, 1, 0), Vec3(0.3, 0.1, 0.1), 1.0);
            axle.motion = MotionType::Kinematic;
            axle.angularVelocity = Vec3(2.0, 0, 0);
            s.bodies.push_back(axle);
            s.bodies.push_back(test::box("wheel", Vec3(0, 1, 0), Vec3(0.1, 0.4, 0.4), 2.0));
            RevoluteJoint rj;
            rj.motor = {true, 1.0, 1000.0, false, false, G};
            s.joints.push_back(
                test::joint<RevoluteJoint>(s, "gear", "axle", "wheel", Vec3(0, 1, 0), Quat(1, 0, 0, 0), rj));
            World w(s);
            for (int i = 0; i < 60; ++i) w.step();
            const Real w1 = w.bodies()[1].angularVelocity.x;

            // (2) dynamic body 0, torque limit τ = 0.05 N·m (never reaches the target in 1 s).
            s.bodies[0].motion = MotionType::Dynamic;
            s.bodies[0].angularVelocity = Vec3(0.0);
            std::get<RevoluteJoint>(s.joints[0].params).motor.forceLimit = 0.05;
            std::get<RevoluteJoint>(s.joints[0].params).motor.targetVelocity =
                1e3;  // never reached: the limit binds every step
            World d(s);
            for (int i = 0; i < 60; ++i) d.step();
            const Real I0 = d.localInertia(0).x, I1 = d.localInertia(1).x;
            const Real L0 = I0 * d.bodies()[0].angularVelocity.x, L1 = I1 * d.bodies()[1].angularVelocity.x;
            std::printf(
                "%s, G = %+.1f: kinematic ω0 = 2: ω1 = %.6f (v_T + G·ω0 = %.6f); dynamic pair: I0Δω0 = %.9f, "
                "−G·I1Δω1 = %.9f, I1Δω1 = %.9f (τ·t = %.9f)\n",
                kSolverTypeNames[int(solver)], G, w1, 1.0 + G * 2.0, L0, -G * L1, L1, 0.05 * d.time());
            EXPECT_NEAR(w1, 1.0 + G * 2.0, 1e-3);
            EXPECT_NEAR(L0, -G * L1, 1e-9);
            EXPECT_NEAR(L1, 0.05 * d.time(), 1e-9);
        }
    }
}

// limitIsImpulse: the motor's forceLimit L is an impulse per step, so a torque-limited wheel gains
// L/I per step instead of L·dt/I: after 60 steps ω = 60·L/I vs 60·L·dt/I (1e-9 relative: the
// bound is hit every step and nothing else acts about the axle). The prismatic drive's limit
// flag likewise caps each step's drive impulse at F itself, not F·dt.
TEST(Motor, LimitIsImpulseAppliesTheLimitPerStepNotTimesDt) {
    const Real L = 0.01;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        for (bool impulse : {false, true}) {
            RevoluteJoint::Motor m{true, 50.0, L, impulse, false, 1.0};
            World w(wheel(solver, m, 0.0));
            for (int i = 0; i < 60; ++i) w.step();
            const Real perStep = impulse ? L : L * w.settings().dt;
            const Real expected = 60 * perStep / kWheelI;
            std::printf("%s, limit as %s: ω after 60 steps %.9f rad/s, expected %.9f\n",
                        kSolverTypeNames[int(solver)], impulse ? "impulse" : "force",
                        w.bodies()[0].angularVelocity.x, expected);
            EXPECT_NEAR(w.bodies()[0].angularVelocity.x, expected, 1e-9 * expected);
        }
        // Prismatic force drive, very stiff, towards a far target: each step's drive impulse is
        // clamped at F = 0.2 N·s (and reaches it), far above F·dt.
        Scene s = test::emptyScene();
        s.settings.gravity = Vec3(0.0);
        s.settings.solver = solver;
        s.bodies.push_back(test::box("slider", Vec3(0, 1, 0), Vec3(0.1, 0.1, 0.1), 1.0));
        PrismaticJoint pj;
        pj.drive = {true, 1e5, 100.0, 0.2, false, true};
        pj.driveTarget = 5.0;
        s.joints.push_back(
            test::joint<PrismaticJoint>(s, "rail", "", "slider", Vec3(0, 1, 0), Quat(1, 0, 0, 0), pj));
        World w(s);
        Real maxImpulse = 0, firstV = 0;
        for (int i = 0; i < 30; ++i) {
            w.step();
            if (i == 0) firstV = w.bodies()[0].linearVelocity.x;
            for (size_t r = 0; r < w.jointRows(0).size(); ++r)
                if (std::string_view(w.jointRows(0)[r].label) == "slide drive")
                    maxImpulse = std::max(maxImpulse, std::abs(w.jointRowResults(0)[r].impulse));
        }
        std::printf(
            "%s: prismatic drive with an impulse limit 0.2 N·s: largest step impulse %.9f, first-step Δv "
            "%.9f m/s\n",
            kSolverTypeNames[int(solver)], maxImpulse, firstV);
        EXPECT_LE(maxImpulse, 0.2 * (1 + 1e-12));
        EXPECT_GT(maxImpulse, 0.2 * (1 - 1e-9));
        EXPECT_NEAR(firstV, 0.2, 1e-9);  // Δv = impulse / m
    }
}

// [SECTION] soft limits

// A soft limit behaves as a one-sided spring past its bound: under a steady load its static
// deflection is load/stiffness. With PGS the implicit spring's fixed point is exactly k·δ = load
// (at rest the row's impulse is dt·k·δ per step, which must cancel the load's impulse dt·load),
// so what is left is settling (critically damped here, 5 s ≫ the 0.1 s time constant). TGS,
// whose load enters every substep, has the same fixed point (see springStep).
//
// Prismatic: a 2 kg slider on a vertical rail (joint X = world Y), lower bound at 0, k = 2000 N/m:
// δ = m·g/k = 9.81 mm below the bound. Every other row is decoupled from the rail (joint origin at
// the centre of mass), so the engine must follow the one-DOF recurrence to rounding (1e-9 m).
TEST(SoftLimit, PrismaticStaticDeflectionIsLoadOverStiffness) {
    const Real m = 2.0, k = 2000.0;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = test::emptyScene();
        s.settings.solver = solver;
        s.bodies.push_back(test::box("slider", Vec3(0, 1, 0), Vec3(0.1, 0.1, 0.1), m));
        PrismaticJoint pj;
        pj.limit = {true, 0.0, 1.0, 0.05, 0.0, 0.5, k, 2.0 * std::sqrt(k * m)};
        s.joints.push_back(test::joint<PrismaticJoint>(s, "rail", "", "slider", Vec3(0, 1, 0),
                                                       test::axisAngle(Vec3(0, 0, 1), kPi / 2), pj));
        World w(s);
        const int sub = solver == SolverType::PGS ? 1 : w.settings().posIters;
        Real lowest = 0, x = 0, v = 0, worst = 0;
        for (int i = 0; i < 300; ++i) {
            w.step();
            springStep(x, v, m, k, pj.limit.damping, -m * kG, 0.0, w.settings().dt, sub, true);
            lowest = std::min(lowest, w.bodies()[0].pose.p.y - 1.0);
            worst = std::max(worst, std::abs(w.bodies()[0].pose.p.y - 1.0 - x));
        }
        const Real delta = w.bodies()[0].pose.p.y - 1.0;
        std::printf(
            "%s: deflection %.7f m, −m·g/k = %.7f m, recurrence %.7f m (worst gap over 5 s %.2e m), lowest "
            "%.7f, "
            "v = %.2e m/s\n",
            kSolverTypeNames[int(solver)], delta, -m * kG / k, x, worst, lowest,
            w.bodies()[0].linearVelocity.y);
        EXPECT_LT(worst, 1e-9);  // the soft limit is exactly the one-sided implicit spring
        EXPECT_NEAR(delta, -m * kG / k, 1e-6 * m * kG / k);
        EXPECT_LT(std::abs(w.bodies()[0].linearVelocity.y), 1e-9);
    }
}

// Revolute: a 2 kg, 1 m rod hinged at one end about world Z, horizontal, with the lower bound of a
// soft limit at 0 (k = 500 N·m/rad). Gravity's torque about the hinge at angle −δ is m·g·d·cos δ
// (d = 0.5 m), so δ solves k·δ = m·g·d·cos δ (≈ 0.0196 rad).
TEST(SoftLimit, RevoluteStaticDeflectionIsTorqueOverStiffness) {
    const Real m = 2.0, k = 500.0, d = 0.5;
    const Real I = m * (0.25 + 0.0025) / 3.0 + m * d * d;  // about the hinge
    Real delta = 0;
    for (int i = 0; i < 50; ++i) delta = m * kG * d * std::cos(delta) / k;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = test::emptyScene();
        s.settings.solver = solver;
        s.bodies.push_back(test::box("rod", Vec3(d, 2, 0), Vec3(0.5, 0.05, 0.05), m));
        RevoluteJoint rj;
        rj.limit = {true, 0.0, 1.0, 0.05, 0.0, 0.5, k, 2.0 * std::sqrt(k * I)};
        // Joint X = world Z (rotation about Y by −90°); the angle grows counter-clockwise about +Z.
        s.joints.push_back(test::joint<RevoluteJoint>(s, "hinge", "", "rod", Vec3(0, 2, 0),
                                                      test::axisAngle(Vec3(0, 1, 0), -kPi / 2), rj));
        World w(s);
        const int sub = solver == SolverType::PGS ? 1 : w.settings().posIters;
        Real x = 0, v = 0;
        for (int i = 0; i < 300; ++i) {
            w.step();
            springStep(x, v, I, k, rj.limit.damping, -m * kG * d * std::cos(x), 0.0, w.settings().dt, sub,
                       true);
        }
        const Quat q = w.bodies()[0].pose.q;
        const Real angle = 2.0 * std::atan2(q.z, q.w);
        std::printf(
            "%s: angle %.7f rad, −δ with k·δ = m·g·d·cos δ: %.7f rad, one-DOF recurrence %.7f rad, ω = %.2e "
            "rad/s\n",
            kSolverTypeNames[int(solver)], angle, -delta, x, w.bodies()[0].angularVelocity.z);
        EXPECT_NEAR(angle, -delta, 1e-4 * delta);
        EXPECT_LT(std::abs(w.bodies()[0].angularVelocity.z), 1e-6);
        // The hinge's rows couple the rod's rotation with its centre of mass, so the one-DOF
        // recurrence (I about the hinge, the load's torque from the start of the step) is a model
        // here, not the engine's exact arithmetic: 1% of δ.
        EXPECT_NEAR(angle, x, 0.01 * delta);
    }
}

// [SECTION] prismatic limit pair

// A slider launched at 2 m/s along its rail (gravity off) into a hard limit pair [−0.5, 0.5] m
// with contact distance 0.05 m. Restitution 0: it stops at the upper bound — never past it by
// more than 1e-6 m (the limit row keeps its bias, so the bound is approached, not crossed: the
// measured overshoot is below 1e-9 m, far inside the contact distance + 0.01 m one could allow;
// 1e-6 leaves room for rounding in the pose update) — and comes to rest (speed < 1e-6 m/s). Restitution e:
// the bounce row sets the rail speed to −e·v, the only row along the rail, so the rebound is e·2 m/s to 1e-6.
Scene launchedSlider(SolverType solver, Real restitution) {
    Scene s = test::emptyScene();
    s.settings.gravity = Vec3(0.0);
    s.settings.solver = solver;
    BodyDesc b = test::box("slider", Vec3(0, 1, 0), Vec3(0.1, 0.1, 0.1), 1.5);
    b.linearVelocity = Vec3(2.0, 0, 0);
    s.bodies.push_back(b);
    PrismaticJoint pj;
    pj.limit = {true, -0.5, 0.5, 0.05, restitution, 0.2};
    s.joints.push_back(
        test::joint<PrismaticJoint>(s, "rail", "", "slider", Vec3(0, 1, 0), Quat(1, 0, 0, 0), pj));
    return s;
}

TEST(PrismaticLimit, StopsAtTheLimitOrBouncesWithRestitution) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(launchedSlider(solver, 0.0));
        Real maxX = 0;
        for (int i = 0; i < 120; ++i) {
            w.step();
            maxX = std::max(maxX, w.bodies()[0].pose.p.x);
        }
        std::printf("%s, e = 0: furthest %.9f m (limit 0.5), final x %.9f m, v %.2e m/s\n",
                    kSolverTypeNames[int(solver)], maxX, w.bodies()[0].pose.p.x,
                    w.bodies()[0].linearVelocity.x);
        EXPECT_LT(maxX, 0.5 + 1e-6);
        EXPECT_GT(maxX, 0.5 - 0.05);  // it did get to the limit
        EXPECT_LT(std::abs(w.bodies()[0].linearVelocity.x), 1e-6);

        for (Real e : {0.5, 1.0}) {
            World b(launchedSlider(solver, e));
            Real rebound = 0, maxXb = 0, minXb = 0;
            for (int i = 0; i < 120; ++i) {
                b.step();
                maxXb = std::max(maxXb, b.bodies()[0].pose.p.x);
                minXb = std::min(minXb, b.bodies()[0].pose.p.x);
                if (rebound == 0 && b.bodies()[0].linearVelocity.x < 0)
                    rebound = -b.bodies()[0].linearVelocity.x;
            }
            std::printf("%s, e = %.1f: rebound %.9f m/s (e·v = %.3f), range reached [%.6f, %.6f] m\n",
                        kSolverTypeNames[int(solver)], e, rebound, e * 2.0, minXb, maxXb);
            EXPECT_NEAR(rebound, e * 2.0, 1e-6);
            EXPECT_LT(maxXb, 0.5 + 1e-6);
            EXPECT_GT(minXb, -0.5 - 1e-6);
        }
    }
}

}  // namespace
}  // namespace jl
