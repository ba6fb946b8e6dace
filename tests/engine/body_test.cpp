// Rigid bodies (issue 3, item 1): mass properties, damping and kinematic bodies, against closed
// forms and the engine's exact discrete laws.
#include <gtest/gtest.h>

#include "jointlab/scenario_io.h"
#include "test_util.h"

namespace jl {
namespace {

BodyDesc shaped(ShapeType shape, MassMode mode) {
    BodyDesc b = test::box("body", Vec3(0.0), Vec3(0.1, 0.2, 0.3), 3.0);  // (name set as test_util does)
    b.shape = shape;
    b.massMode = mode;
    b.halfExtents = Vec3(0.1, 0.2, 0.3);
    b.radius = 0.15;
    b.halfHeight = 0.4;
    b.density = 750.0;
    b.mass = 3.0;
    return b;
}

// Relative comparison of mass properties: the closed forms below are evaluated with different
// operation orders than body.cpp, so they agree to rounding only (a few ulp); 1e-12 relative
// leaves three orders of magnitude of headroom over double rounding and still catches any wrong
// coefficient (the smallest plausible slip, e.g. 3/8 vs 1/2 for a cap centroid, is > 1e-2).
constexpr Real kRel = 1e-12;

void expectRel(Real got, Real want, const char* what) {
    EXPECT_NEAR(got, want, kRel * std::abs(want)) << what;
}

TEST(Body, BoxAndSphereMassAndInertiaFromDensity) {
    // Box: full sides a, b, c = 0.2, 0.4, 0.6 m; m = ρ·abc; I_x = m(b² + c²)/12, etc.
    const BodyDesc bx = shaped(ShapeType::Box, MassMode::Density);
    const MassProperties box = computeMassProperties(bx);
    const Real a = 0.2, b = 0.4, c = 0.6, mBox = 750.0 * a * b * c;
    std::printf("box: m = %.9f kg (ρabc = %.9f), I = (%.9f, %.9f, %.9f)\n", box.mass, mBox, box.inertia.x,
                box.inertia.y, box.inertia.z);
    expectRel(box.mass, mBox, "box mass");
    expectRel(box.inertia.x, mBox * (b * b + c * c) / 12.0, "box Ix");
    expectRel(box.inertia.y, mBox * (a * a + c * c) / 12.0, "box Iy");
    expectRel(box.inertia.z, mBox * (a * a + b * b) / 12.0, "box Iz");

    // Sphere: m = ρ·4πr³/3, I = 2mr²/5 about every axis.
    const MassProperties sph = computeMassProperties(shaped(ShapeType::Sphere, MassMode::Density));
    const Real r = 0.15, mSph = 750.0 * 4.0 / 3.0 * kPi * r * r * r;
    std::printf("sphere: m = %.9f kg (ρ·4πr³/3 = %.9f), I = %.9f (2mr²/5 = %.9f)\n", sph.mass, mSph,
                sph.inertia.x, 0.4 * mSph * r * r);
    expectRel(sph.mass, mSph, "sphere mass");
    for (int k = 0; k < 3; ++k) expectRel(sph.inertia[k], 0.4 * mSph * r * r, "sphere I");
}

// Capsule of radius r and core half length h along local X, worked by hand:
//   cylinder (length 2h):   m_c = ρπr²·2h,  I_axial = m_c r²/2,  I_perp = m_c (r²/4 + (2h)²/12)
//   one hemisphere:         m_s = ρ·2πr³/3, I_axial = 2 m_s r²/5
//     about its flat face (perpendicular axis): 2 m_s r²/5; centroid 3r/8 from the face, so
//     about its own centroid: (2/5 − 9/64) m_s r² = 83/320 m_s r²; the centroid sits h + 3r/8
//     from the capsule's centre: I_perp = m_s (83/320 r² + (h + 3r/8)²).
// (Expanding gives body.cpp's m_caps (0.4 r² + 0.75 h r + h²); the test keeps the textbook steps.)
// Independently, a 1D integral over discs: a slice at x of radius ρ(x) contributes
// dI_axial = ½ρ(x)² dm and dI_perp = (¼ρ(x)² + x²) dm with dm = ρ_d π ρ(x)² dx.
TEST(Body, CapsuleInertiaIsCylinderPlusTwoShiftedHemispheres) {
    const BodyDesc d = shaped(ShapeType::Capsule, MassMode::Density);
    const MassProperties cap = computeMassProperties(d);
    const Real rho = d.density, r = d.radius, h = d.halfHeight;
    const Real mc = rho * kPi * r * r * 2.0 * h, ms = rho * 2.0 / 3.0 * kPi * r * r * r;
    const Real axial = 0.5 * mc * r * r + 2.0 * (0.4 * ms * r * r);
    const Real perp = mc * (r * r / 4.0 + (2.0 * h) * (2.0 * h) / 12.0) +
                      2.0 * ms * (83.0 / 320.0 * r * r + (h + 3.0 * r / 8.0) * (h + 3.0 * r / 8.0));

    // Simpson over [0, h] (cylinder, ρ(x)² = r²) and [h, h + r] (cap, ρ(x)² = r² − (x − h)²),
    // doubled for x < 0. The integrands are polynomials of degree ≤ 4, so Simpson's error is
    // h⁵f⁗/180 per panel: with 2000 panels it is ~1e-15 relative, far below the 1e-9 asserted.
    auto simpson = [](auto f, Real a, Real b, int n) {
        const Real dx = (b - a) / n;
        Real sum = f(a) + f(b);
        for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(a + i * dx);
        return sum * dx / 3.0;
    };
    auto rho2 = [&](Real x) { return x <= h ? r * r : r * r - (x - h) * (x - h); };
    auto dm = [&](Real x) { return rho * kPi * rho2(x); };
    Real mNum = 0, axNum = 0, pNum = 0;
    for (auto [a, b] : {std::pair{0.0, h}, std::pair{h, h + r}}) {
        mNum += 2.0 * simpson(dm, a, b, 2000);
        axNum += 2.0 * simpson([&](Real x) { return 0.5 * rho2(x) * dm(x); }, a, b, 2000);
        pNum += 2.0 * simpson([&](Real x) { return (0.25 * rho2(x) + x * x) * dm(x); }, a, b, 2000);
    }
    std::printf(
        "capsule: m = %.9f (hand %.9f, slices %.9f); I_axial = %.9f (hand %.9f, slices %.9f); "
        "I_perp = %.9f (hand %.9f, slices %.9f)\n",
        cap.mass, mc + 2 * ms, mNum, cap.inertia.x, axial, axNum, cap.inertia.y, perp, pNum);
    expectRel(cap.mass, mc + 2.0 * ms, "capsule mass");
    expectRel(cap.inertia.x, axial, "capsule axial (X)");
    expectRel(cap.inertia.y, perp, "capsule perpendicular (Y)");
    expectRel(cap.inertia.z, perp, "capsule perpendicular (Z)");
    EXPECT_NEAR(mNum, cap.mass, 1e-9 * cap.mass);
    EXPECT_NEAR(axNum, cap.inertia.x, 1e-9 * cap.inertia.x);
    EXPECT_NEAR(pNum, cap.inertia.y, 1e-9 * cap.inertia.y);
}

// Mass given directly: the same shape, so the inertia is the density inertia × (m / m_density)
// (inertia is linear in mass at fixed geometry). The World uses exactly these properties.
TEST(Body, GivenMassScalesTheInertia) {
    for (ShapeType shape : {ShapeType::Box, ShapeType::Sphere, ShapeType::Capsule}) {
        const MassProperties dens = computeMassProperties(shaped(shape, MassMode::Density));
        const BodyDesc given = shaped(shape, MassMode::Mass);
        const MassProperties mp = computeMassProperties(given);
        const Real s = given.mass / dens.mass;
        std::printf(
            "%s: m = %.3f kg given vs %.6f kg from density, I ratio (%.12f, %.12f, %.12f), m ratio %.12f\n",
            kShapeTypeNames[int(shape)], mp.mass, dens.mass, mp.inertia.x / dens.inertia.x,
            mp.inertia.y / dens.inertia.y, mp.inertia.z / dens.inertia.z, s);
        EXPECT_EQ(mp.mass, given.mass);
        for (int k = 0; k < 3; ++k) expectRel(mp.inertia[k], s * dens.inertia[k], "I scales with m");

        Scene sc = test::emptyScene();
        sc.bodies.push_back(given);
        World w(sc);
        expectRel(w.inverseMass(0), 1.0 / given.mass, "world inverse mass");
        for (int k = 0; k < 3; ++k) expectRel(w.localInertia(0)[k], mp.inertia[k], "world inertia");
    }
}

// The inertia is what the dynamics use: a pure couple τ about local Z on a free capsule (gravity
// off) changes ω by dt·τ/I_z in one step, and the centre of mass does not move.
TEST(Body, TorqueGivesAngularAccelerationTauOverI) {
    Scene sc = test::emptyScene();
    sc.settings.gravity = Vec3(0.0);
    BodyDesc b = shaped(ShapeType::Capsule, MassMode::Mass);
    b.position = Vec3(0, 1, 0);
    sc.bodies.push_back(b);
    World w(sc);
    const Real Iz = computeMassProperties(b).inertia.z, F = 2.0, arm = 0.3;  // τ = 2·F·arm about +Z
    w.applyForce(0, Vec3(0, F, 0), b.position + Vec3(arm, 0, 0));
    w.applyForce(0, Vec3(0, -F, 0), b.position - Vec3(arm, 0, 0));
    w.step();
    const Real expected = w.settings().dt * 2.0 * F * arm / Iz;
    std::printf("couple: ω_z after one step %.12f rad/s, dt·τ/I_z = %.12f\n", w.bodies()[0].angularVelocity.z,
                expected);
    EXPECT_NEAR(w.bodies()[0].angularVelocity.z, expected, 1e-12 * expected);
    EXPECT_EQ(w.bodies()[0].linearVelocity, Vec3(0.0));
}

// Explicit principal moments (BodyDesc::inertia, set by imports): used instead of the shape's,
// applied by the dynamics (the same one-step couple test: Δω_z = dt·τ/I_z), kept by the file, and
// refused when no rigid body could have them (triangle inequality) or with density mass.
TEST(Body, ExplicitInertiaReplacesTheShapesAndIsChecked) {
    Scene sc = test::emptyScene();
    sc.settings.gravity = Vec3(0.0);
    BodyDesc b = shaped(ShapeType::Capsule, MassMode::Mass);
    b.position = Vec3(0, 1, 0);
    b.inertia = Vec3(0.02, 0.03, 0.04);
    sc.bodies.push_back(b);
    EXPECT_EQ(computeMassProperties(b).inertia, b.inertia);
    EXPECT_EQ(validateScene(sc), "");
    World w(sc);
    const Real F = 2.0, arm = 0.3;
    w.applyForce(0, Vec3(0, F, 0), b.position + Vec3(arm, 0, 0));
    w.applyForce(0, Vec3(0, -F, 0), b.position - Vec3(arm, 0, 0));
    w.step();
    const Real expected = w.settings().dt * 2.0 * F * arm / 0.04;
    EXPECT_NEAR(w.bodies()[0].angularVelocity.z, expected, 1e-12 * expected);

    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(sc), back, error)) << error;
    EXPECT_EQ(back.bodies[0].inertia, b.inertia);
    // Without explicit moments the file has no "inertia" key (old files stay as they were).
    Scene plain = sc;
    plain.bodies[0].inertia = Vec3(0.0);
    EXPECT_EQ(serializeScenario(plain).find("\"inertia\""), std::string::npos);

    sc.bodies[0].inertia = Vec3(0.01, 0.01, 0.05);  // 0.05 > 0.01 + 0.01
    EXPECT_NE(validateScene(sc).find("bodies[0].inertia[2]"), std::string::npos) << validateScene(sc);
    sc.bodies[0].inertia = Vec3(0.02, 0.03, 0.04);
    // With density, mass and inertia both come from the shape; the moments are not used or saved.
    sc.bodies[0].massMode = MassMode::Density;
    EXPECT_EQ(validateScene(sc), "");
    BodyDesc fromShape = sc.bodies[0];
    fromShape.inertia = Vec3(0.0);
    EXPECT_EQ(computeMassProperties(sc.bodies[0]).inertia, computeMassProperties(fromShape).inertia);
    EXPECT_EQ(serializeScenario(sc).find("\"inertia\""), std::string::npos);
    sc.bodies[0].massMode = MassMode::Mass;
    sc.bodies[0].inertia.x = -1.0;
    EXPECT_NE(validateScene(sc).find("inertia[0]"), std::string::npos) << validateScene(sc);
}

// Damping (world/step.cpp): each step v ← v/(1 + c·dt) and ω ← ω/(1 + c_ω·dt). With gravity off
// and no joints this recurrence is the whole motion, so it must hold to rounding (1e-12 relative
// per step), and the position is the geometric sum x_n = x_0 + dt·v_0·q(1 − qⁿ)/(1 − q).
// Against the continuous law v_0·e^(−ct): with x = c·dt, ln(1 + x) ∈ [x − x²/2, x], so
// (1 + x)^(−n) / e^(−nx) ∈ [1, e^(n x²/2)] = [1, e^(c²·t·dt/2)] — the discrete law decays slightly
// slower than the exponential, by at most that factor (0.42% for c = 0.5/s, t = 2 s, dt = 1/60 s).
TEST(Body, DampingFollowsTheDiscreteLawAndApproachesTheExponential) {
    const Real cl = 0.5, ca = 0.8;
    Scene sc = test::emptyScene();
    sc.settings.gravity = Vec3(0.0);
    BodyDesc b = test::box("box", Vec3(0, 1, 0), Vec3(0.2, 0.1, 0.3), 2.0);
    b.linearVelocity = Vec3(2.0, -1.0, 0.5);
    b.angularVelocity = Vec3(0.0, 3.0, 0.0);  // about a principal axis: stays about it
    b.linearDamping = cl;
    b.angularDamping = ca;
    sc.bodies.push_back(b);
    World w(sc);
    const Real dt = w.settings().dt;
    const int n = 120;
    Vec3 v = b.linearVelocity, om = b.angularVelocity;
    Real worstStep = 0;
    for (int i = 0; i < n; ++i) {
        w.step();
        v *= 1.0 / (1.0 + cl * dt);
        om *= 1.0 / (1.0 + ca * dt);
        worstStep = std::max({worstStep, glm::length(w.bodies()[0].linearVelocity - v) / glm::length(v),
                              glm::length(w.bodies()[0].angularVelocity - om) / glm::length(om)});
    }
    const Real t = n * dt, q = 1.0 / (1.0 + cl * dt);
    const Vec3 x = b.position + dt * b.linearVelocity * (q * (1.0 - std::pow(q, n)) / (1.0 - q));
    const Real ratioLin = w.bodies()[0].linearVelocity.x / (b.linearVelocity.x * std::exp(-cl * t));
    const Real ratioAng = w.bodies()[0].angularVelocity.y / (b.angularVelocity.y * std::exp(-ca * t));
    const Real boundLin = std::exp(cl * cl * t * dt / 2), boundAng = std::exp(ca * ca * t * dt / 2);
    std::printf(
        "damping: worst relative deviation from v/(1+c·dt) per step %.2e; position error vs geometric sum "
        "%.2e m\n"
        "  v(2 s)/(v0·e^-ct) = %.6f (bound [1, %.6f]); ω(2 s)/(ω0·e^-ct) = %.6f (bound [1, %.6f])\n",
        worstStep, glm::length(w.bodies()[0].pose.p - x), ratioLin, boundLin, ratioAng, boundAng);
    EXPECT_LT(worstStep, 1e-12);
    EXPECT_LT(glm::length(w.bodies()[0].pose.p - x), 1e-12);
    EXPECT_GE(ratioLin, 1.0);
    EXPECT_LE(ratioLin, boundLin);
    EXPECT_GE(ratioAng, 1.0);
    EXPECT_LE(ratioAng, boundAng);
}

// A kinematic carrier at constant velocity (gravity on) with a point-mass pendulum hanging 1 m
// below it on a rigid rod (distance joint).
//   - The carrier ignores gravity and the joint: after N steps its position is p0 + N·dt·v (the
//     update is one addition per step: 1e-12 m), its velocities are bit-identical, and its
//     orientation has turned by the integrator's exact discrete angle 2N·atan(|ω|dt/2) (each
//     step q ← normalize((1 + ½dt·ω̂)q), a rotation by 2·atan(|ω|dt/2) about ω; TGS does this per
//     substep of dt/posIters), which differs from |ω|·t by N|ω|³dt³/12 ≈ 4e-5 rad here.
//   - Galilean invariance: in the carrier's frame the bob starts at rest while its pivot moves
//     at v, i.e. a pendulum launched at −v; it swings to θ_max = acos(1 − v²/(2gL)) (18.4° for
//     v = 1 m/s). The semi-implicit integrator with a hard joint loses a little energy per
//     swing (measured: 0.14% short after 5 s), so 0.5% of θ_max is asserted.
//   - The rod holds (its length within 1e-3 m of L) while reporting about m·g: it carries load.
TEST(Body, KinematicCarrierDragsAPendulumAndIgnoresTheJoint) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        const Real L = 1.0, g = 9.81, vx = 1.0;
        Scene sc = test::emptyScene();
        sc.settings.solver = solver;
        BodyDesc carrier = test::box("carrier", Vec3(0, 3, 0), Vec3(0.2, 0.1, 0.2), 5.0);
        carrier.motion = MotionType::Kinematic;
        carrier.linearVelocity = Vec3(vx, 0, 0);
        carrier.angularVelocity = Vec3(0, 0.7, 0);  // spins about the rope: the spherical joint does not care
        sc.bodies.push_back(carrier);
        sc.bodies.push_back(test::sphere("bob", Vec3(0, 3 - L, 0), 1.0, 0.05));
        // A massless rod of length L between the carrier's centre and the bob's centre: a distance
        // joint with min = max = L (one row through the bob's centre, so the bob is a point mass).
        DistanceJoint rod;
        rod.minEnabled = rod.maxEnabled = true;
        rod.minDistance = rod.maxDistance = L;
        JointDesc j =
            test::joint<DistanceJoint>(sc, "rod", "carrier", "bob", Vec3(0, 3, 0), kIdentityQuat, rod);
        j.frame1 = Transform{};
        sc.joints.push_back(j);
        World w(sc);
        const Real dt = w.settings().dt;
        const int n = 300;
        Real maxAngle = 0, maxSep = 0, meanForce = 0;
        for (int i = 0; i < n; ++i) {
            w.step();
            const Vec3 rel = w.bodies()[1].pose.p - w.bodies()[0].pose.p;
            maxAngle = std::max(maxAngle, std::atan2(std::abs(rel.x), -rel.y));
            maxSep = std::max(maxSep, std::abs(glm::length(test::anchor0(w, 0) - test::anchor1(w, 0)) - L));
            meanForce += glm::length(w.jointState(0).force) / n;
            EXPECT_EQ(w.bodies()[0].linearVelocity, carrier.linearVelocity);
            EXPECT_EQ(w.bodies()[0].angularVelocity, carrier.angularVelocity);
        }
        const Vec3 pExpected = carrier.position + Real(n) * dt * carrier.linearVelocity;
        const Quat q = w.bodies()[0].pose.q;
        const Real turned = 2.0 * std::atan2(q.y, q.w);                         // about +Y
        const int sub = solver == SolverType::PGS ? 1 : w.settings().posIters;  // TGS integrates each substep
        const Real discrete = 2.0 * n * sub * std::atan(0.7 * dt / sub / 2.0);
        const Real thetaMax = std::acos(1.0 - vx * vx / (2 * g * L));
        std::printf(
            "%s: carrier position error %.2e m, turned %.9f rad (discrete law %.9f, ω·t %.9f); "
            "swing %.3f° (θ_max %.3f°), rod length error %.2e m, mean |F| %.3f N (m·g %.3f)\n",
            kSolverTypeNames[int(solver)], glm::length(w.bodies()[0].pose.p - pExpected), turned, discrete,
            0.7 * n * dt, maxAngle * 180 / kPi, thetaMax * 180 / kPi, maxSep, meanForce, g);
        EXPECT_LT(glm::length(w.bodies()[0].pose.p - pExpected), 1e-12);
        EXPECT_NEAR(turned, discrete, 1e-9);
        EXPECT_NEAR(turned, 0.7 * n * dt, 1e-4);
        EXPECT_NEAR(maxAngle, thetaMax, 0.005 * thetaMax);
        EXPECT_LT(maxSep, 1e-3);
        EXPECT_GT(meanForce, 0.9 * g);  // the joint carried the bob's weight (and more, swinging)
    }
}

}  // namespace
}  // namespace jl
