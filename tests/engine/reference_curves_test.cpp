// Reference curves (jointlab/closed_forms.h, jointlab/reference.h): each closed form against an
// independent check (tabulated values, identities, a fine Runge–Kutta integration, the
// recurrence iterated step by step, the engine's own drive), and every example's declared curve
// against its simulation over a few periods, within the tolerance the example states.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>

#include "jointlab/closed_forms.h"
#include "jointlab/reference.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace jl {
namespace {

constexpr Real kPi = 3.14159265358979323846;

// [SECTION] The elliptic functions

TEST(ClosedForms, EllipticKMatchesTabulatedValues) {
    // A&S Table 17.1 / DLMF 19.6: K(0) = π/2, K(sin 30°), K(sin 45°) (the lemniscate constant
    // ϖ/√2), K(sin 60°), K(sin 80°).
    EXPECT_NEAR(closed::ellipticK(0.0), kPi / 2.0, 1e-15);
    EXPECT_NEAR(closed::ellipticK(0.5), 1.685750354812596, 1e-14);
    EXPECT_NEAR(closed::ellipticK(std::sqrt(0.5)), 1.854074677301372, 1e-14);
    EXPECT_NEAR(closed::ellipticK(std::sin(kPi / 3.0)), 2.156515647499643, 1e-14);
    EXPECT_NEAR(closed::ellipticK(std::sin(80.0 * kPi / 180.0)), 3.153385251887839, 1e-13);
}

TEST(ClosedForms, PendulumPeriodTendsToTheSmallAngleOneAndMatchesTheTable) {
    const Real L = 1.2, g = 9.81, small = 2.0 * kPi * std::sqrt(L / g);
    EXPECT_NEAR(closed::pendulumPeriod(1e-4, L, g) / small, 1.0, 1e-9);  // 1 + θ0²/16
    EXPECT_NEAR(closed::pendulumPeriod(1e-2, L, g) / small, 1.0 + 1e-4 / 16.0, 1e-9);
    // T / T0 = 2K(sin(θ0/2))/π for 30°, 90°, 120°, 170° (tabulated pendulum periods).
    EXPECT_NEAR(closed::pendulumPeriod(kPi / 6.0, L, g) / small, 1.017408797595956, 1e-13);
    EXPECT_NEAR(closed::pendulumPeriod(kPi / 2.0, L, g) / small, 1.180340599016096, 1e-13);
    EXPECT_NEAR(closed::pendulumPeriod(2.0 * kPi / 3.0, L, g) / small, 1.372880500618350, 1e-13);
    EXPECT_NEAR(closed::pendulumPeriod(170.0 * kPi / 180.0, L, g) / small, 2.439362719673884, 1e-12);
}

TEST(ClosedForms, JacobiSnCnDnAtKnownPoints) {
    for (Real k : {0.1, 0.5, std::sqrt(0.5), 0.9, 0.999}) {
        const Real K = closed::ellipticK(k), kp = std::sqrt(1.0 - k * k);
        const closed::Jacobi atK = closed::jacobi(K, k);
        EXPECT_NEAR(atK.sn, 1.0, 1e-12) << k;  // sn(K) = 1, cn(K) = 0, dn(K) = k'
        EXPECT_NEAR(atK.cn, 0.0, 1e-7) << k;
        EXPECT_NEAR(atK.dn, kp, 1e-12) << k;
        const closed::Jacobi half = closed::jacobi(K / 2.0, k);  // DLMF 22.5.2
        EXPECT_NEAR(half.sn, 1.0 / std::sqrt(1.0 + kp), 1e-13) << k;
        EXPECT_NEAR(half.cn, std::sqrt(kp / (1.0 + kp)), 1e-13) << k;
        EXPECT_NEAR(half.dn, std::sqrt(kp), 1e-13) << k;
        for (Real u : {-2.3, -0.4, 0.7, 3.9}) {  // sn² + cn² = 1, k²sn² + dn² = 1, sn odd
            const closed::Jacobi j = closed::jacobi(u, k);
            EXPECT_NEAR(j.sn * j.sn + j.cn * j.cn, 1.0, 1e-14);
            EXPECT_NEAR(k * k * j.sn * j.sn + j.dn * j.dn, 1.0, 1e-14);
            EXPECT_NEAR(closed::jacobi(-u, k).sn, -j.sn, 1e-15);
        }
    }
    for (Real u : {0.3, 1.1, 2.0}) {
        EXPECT_NEAR(closed::jacobi(u, 0.0).sn, std::sin(u), 1e-16);  // the circular limit
        EXPECT_NEAR(closed::jacobi(u, 1e-8).sn, std::sin(u), 1e-15);
        EXPECT_NEAR(closed::jacobi(u, 1.0 - 1e-12).sn, std::tanh(u), 1e-10);  // the hyperbolic limit
    }
}

/// One classical Runge–Kutta step of y'' = a(y, y') for the state (y, y').
void rk4(Real& y, Real& v, Real h, const std::function<Real(Real, Real)>& a) {
    const Real k1y = v, k1v = a(y, v);
    const Real k2y = v + 0.5 * h * k1v, k2v = a(y + 0.5 * h * k1y, v + 0.5 * h * k1v);
    const Real k3y = v + 0.5 * h * k2v, k3v = a(y + 0.5 * h * k2y, v + 0.5 * h * k2v);
    const Real k4y = v + h * k3v, k4v = a(y + h * k3y, v + h * k3v);
    y += h / 6.0 * (k1y + 2.0 * k2y + 2.0 * k3y + k4y);
    v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
}

TEST(ClosedForms, PendulumAngleFollowsTheEquationOfMotion) {
    const Real L = 1.004, g = 9.81;
    for (Real theta0 : {0.2, 2.0 * kPi / 3.0, -2.8}) {
        Real y = theta0, v = 0.0;
        const Real h = 1e-4, T = closed::pendulumPeriod(theta0, L, g);
        Real worst = 0.0;
        for (int n = 1; n * h <= 3.0 * T; ++n) {
            rk4(y, v, h, [&](Real th, Real) { return -g / L * std::sin(th); });
            worst = std::max(worst, std::abs(y - closed::pendulumAngle(theta0, L, g, n * h)));
        }
        EXPECT_LT(worst, 1e-9) << theta0;
        // A quarter period after release the pendulum hangs straight down.
        EXPECT_NEAR(closed::pendulumAngle(theta0, L, g, T / 4.0), 0.0, 1e-12) << theta0;
        EXPECT_NEAR(closed::pendulumAngle(theta0, L, g, T / 2.0), -theta0, 1e-12) << theta0;
    }
}

TEST(ClosedForms, SecondOrderStepFollowsItsEquationInEachDampingRegime) {
    const Real m = 2.0, k = 200.0, F = -3.0, x0 = 0.1, target = 0.5;
    const Real critical = 2.0 * std::sqrt(k * m);
    for (Real c : {0.0, 0.3 * critical, critical, 2.5 * critical}) {
        Real y = x0, v = 0.0, worst = 0.0;
        const Real h = 1e-4;
        for (int n = 1; n * h <= 2.0; ++n) {
            rk4(y, v, h, [&](Real x, Real xd) { return (F - c * xd - k * (x - target)) / m; });
            worst = std::max(worst, std::abs(y - closed::secondOrderStep(m, k, c, F, x0, target, n * h)));
        }
        EXPECT_LT(worst, 1e-10) << "c = " << c;
        EXPECT_NEAR(closed::secondOrderStep(m, k, c, F, x0, target, 0.0), x0, 1e-15);
    }
}

TEST(ClosedForms, ImplicitEulerPowerEqualsTheRecurrenceIterated) {
    const Real m = 2.0, k = 200.0, c = 8.0, F = 1.5, x0 = -0.2, target = 0.5, h = 1.0 / 60.0;
    Real x = x0, v = 0.0;
    for (int64_t n = 1; n <= 2000; ++n) {
        v = (m * v - h * k * (x - target) + h * F) / (m + h * (h * k + c));
        x += h * v;
        if (n % 97 == 0 || n < 5) {
            EXPECT_NEAR(closed::implicitEulerStep(m, k, c, F, x0, target, h, n), x, 1e-13) << n;
        }
    }
    EXPECT_NEAR(closed::implicitEulerStep(m, k, c, F, x0, target, h, 0), x0, 1e-16);
    // It damps where the continuous system does not: with c = 0, the amplitude after one
    // period is (1 + ω²h²)^(-n/2) of the start's.
    const Real w = std::sqrt(k / m);
    const int64_t perPeriod = 377;  // 2π / (ω h) = 376.99
    const Real after = closed::implicitEulerStep(m, k, 0.0, 0.0, 1.0, 0.0, h, perPeriod);
    EXPECT_NEAR(after, std::pow(1.0 + w * w * h * h, -0.5 * perPeriod), 0.02);
}

TEST(ClosedForms, AtwoodFallsAtAThirdOfGWithMassesOneAndTwo) {
    EXPECT_NEAR(closed::atwoodHeight(2.0, 1.0, 9.81, 1.0, 0.5), 1.0 - 0.5 * 9.81 / 3.0 * 0.25, 1e-15);
    EXPECT_NEAR(closed::atwoodHeight(1.0, 2.0, 9.81, 1.0, 0.5), 1.0 + 0.5 * 9.81 / 3.0 * 0.25, 1e-15);
}

// [SECTION] The recurrence against the engine's drive

/// A 2 kg block on a horizontal prismatic joint (axis world X) with a spring drive to 0.5 m.
Scene driveScene(SolverType solver, KernelType kernel) {
    Scene s;
    s.settings.solver = solver;
    s.settings.kernel = kernel;
    s.bodies.push_back(test::box("block", Vec3(0.0, 1.0, 0.0), Vec3(0.2, 0.1, 0.1), 2.0));
    PrismaticJoint p;
    p.drive.enabled = true;
    p.drive.stiffness = 200.0;
    p.drive.damping = 8.0;
    p.driveTarget = 0.5;
    s.joints.push_back(
        test::joint<PrismaticJoint>(s, "slide", "", "block", Vec3(0.0, 1.0, 0.0), Quat(1, 0, 0, 0), p));
    ReferenceDesc r;
    r.name = "implicit";
    r.curve = ReferenceCurve::DriveStepImplicit;
    r.quantity = ReferenceQuantity::JointPosition;
    r.joint = "slide";
    r.mass = 2.0;
    r.stiffness = 200.0;
    r.damping = 8.0;
    r.target = 0.5;
    s.references.push_back(r);
    return s;
}

TEST(ReferenceCurves, ImplicitEulerRecurrenceIsTheEnginesDrive) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS})
        for (KernelType kernel : {KernelType::Reference, KernelType::Fast}) {
            Scene s = driveScene(solver, kernel);
            ASSERT_EQ(validateScene(s), "");
            World world(s);
            std::vector<ReferenceSample> v;
            Real worst = 0.0, travelled = 0.0;
            for (int n = 0; n < 180; ++n) {
                world.step();
                sampleReferences(world, v);
                worst = std::max(worst, std::abs(v[0].simulated - v[0].reference));
                travelled = std::max(travelled, v[0].simulated);
            }
            EXPECT_GT(travelled, 0.5) << "the drive overshoots its target (ζ = 0.2)";
            EXPECT_LT(worst, 1e-12) << (solver == SolverType::PGS ? "PGS" : "TGS")
                                    << (kernel == KernelType::Fast ? " fast" : " reference");
        }
}

TEST(ReferenceCurves, TheContinuousStepResponseIsAwayFromTheSolversByItsNumericalDamping) {
    // PGS advances the spring in steps of dt = 1/60 s (ω_n·dt = 0.17): it lags the continuous
    // response; TGS with 8 substeps is 8 times closer in step and follows it more closely.
    Real worst[2] = {0.0, 0.0};
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = driveScene(solver, KernelType::Fast);
        s.references[0].curve = ReferenceCurve::DriveStep;
        if (solver == SolverType::TGS) s.settings.posIters = 8;
        World world(s);
        std::vector<ReferenceSample> v;
        for (int n = 0; n < 180; ++n) {
            world.step();
            sampleReferences(world, v);
            worst[static_cast<int>(solver)] =
                std::max(worst[static_cast<int>(solver)], std::abs(v[0].simulated - v[0].reference));
        }
    }
    EXPECT_GT(worst[0], 0.02);
    EXPECT_LT(worst[1], worst[0] / 4.0);
}

TEST(ReferenceCurves, MeasuresTheQuantitiesOfARevoluteJointAndABody) {
    Scene s;
    s.settings.gravity = Vec3(0.0);
    s.bodies.push_back(test::box("wheel", Vec3(0.0, 1.0, 0.0), Vec3(0.1, 0.3, 0.3), 1.0));
    s.bodies[0].orientation = test::axisAngle(Vec3(1, 0, 0), 0.4);
    s.bodies[0].angularVelocity = Vec3(2.0, 0.0, 0.0);
    s.joints.push_back(test::joint<RevoluteJoint>(s, "axle", "", "wheel", Vec3(0.0, 1.0, 0.0)));
    s.joints[0].frame1.q = Quat(1, 0, 0, 0);  // frame 1 is the body's frame: twist 0.4 at the start
    World world(s);
    EXPECT_NEAR(measureQuantity(world, ReferenceQuantity::JointAngle, "axle", ""), 0.4, 1e-15);
    EXPECT_NEAR(measureQuantity(world, ReferenceQuantity::JointSpeed, "axle", ""), 2.0, 1e-15);
    EXPECT_NEAR(measureQuantity(world, ReferenceQuantity::BodyHeight, "", "wheel"), 1.0, 1e-15);
    EXPECT_NEAR(measureQuantity(world, ReferenceQuantity::JointPosition, "axle", ""), 0.0, 1e-15);
    EXPECT_TRUE(std::isnan(measureQuantity(world, ReferenceQuantity::JointAngle, "no such", "")));
    for (int n = 0; n < 30; ++n) world.step();
    // 2 rad/s for 0.5 s. The orientation's per-step integration (ω·dt = 1/30 rad a step) falls
    // short by about (ω·dt)³/12 per step: 3e-6 rad, 9e-5 over the 30 steps.
    EXPECT_NEAR(measureQuantity(world, ReferenceQuantity::JointAngle, "axle", ""), 0.4 + 2.0 * 0.5, 2e-4);
    EXPECT_NEAR(measureQuantity(world, ReferenceQuantity::JointSpeed, "axle", ""), 2.0, 1e-9);
}

// [SECTION] Files

TEST(ReferenceCurves, ASceneWithReferencesRoundTripsAndBadOnesNameTheField) {
    Scene s = driveScene(SolverType::PGS, KernelType::Fast);
    s.references[0].until = 4.0;
    PlotDesc p;
    p.kind = PlotKind::Reference;
    p.reference = "implicit";
    p.difference = true;
    s.plots.push_back(p);
    const std::string text = serializeScenario(s);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(text, back, error)) << error;
    EXPECT_EQ(serializeScenario(back), text);
    ASSERT_EQ(back.references.size(), 1u);
    EXPECT_EQ(back.references[0].until, 4.0);
    EXPECT_EQ(back.plots[0].reference, "implicit");

    auto refused = [&](const std::function<void(ReferenceDesc&)>& edit) {
        Scene bad = s;
        edit(bad.references[0]);
        Scene out;
        std::string e;
        EXPECT_FALSE(parseScenario(serializeScenario(bad), out, e));
        return e;
    };
    EXPECT_EQ(refused([](ReferenceDesc& r) { r.stiffness = 0.0; }),
              "references[0].stiffness: must be > 0, got 0");
    EXPECT_EQ(refused([](ReferenceDesc& r) { r.joint = ""; }),
              "references[0].joint: must name the joint whose jointPosition is measured");
    EXPECT_EQ(refused([](ReferenceDesc& r) { r.curve = ReferenceCurve::Pendulum; }),
              "references[0].quantity: a pendulum curve is an angle; use \"jointAngle\"");
    EXPECT_EQ(refused([](ReferenceDesc& r) { r.name = ""; }), "references[0].name: must not be empty");
    EXPECT_EQ(refused([](ReferenceDesc& r) { r.curve = ReferenceCurve::GearRatio; }),
              "references[0].input: a gearRatio curve needs the input joint");
    Scene twice = s;
    twice.references.push_back(s.references[0]);
    EXPECT_EQ(validateScene(twice),
              "references[1].name: duplicate reference name \"implicit\" (also references[0])");
    std::string e;
    Scene out;
    EXPECT_FALSE(parseScenario(
        R"({"format": "jointlab-scenario", "version": 2, "references": [{"name": "a", "curve": "elliptic"}]})",
        out, e));
    EXPECT_NE(e.find("references[0].curve: unknown value \"elliptic\""), std::string::npos) << e;
}

/// Every example that declares a reference with a tolerance: the simulation stays within it over
/// kCheckSeconds (a few periods of each), up to the reference's `until`.
TEST(ReferenceCurves, EveryDeclaredCurveStaysWithinItsToleranceOfTheSimulation) {
    constexpr Real kCheckSeconds = 6.0;
    int checked = 0;
    for (const char* dir : {"assets/scenarios", "assets/scenarios/lessons"}) {
        for (const auto& e : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / dir)) {
            if (e.path().extension() != ".json") continue;
            Scene s;
            std::string error;
            ASSERT_TRUE(loadScenario(e.path().string(), s, error)) << error;
            if (s.references.empty()) continue;
            World world(s);
            std::vector<ReferenceSample> v;
            std::vector<Real> worst(s.references.size(), 0.0);
            while (world.time() < kCheckSeconds) {
                world.step();
                sampleReferences(world, v);
                for (size_t i = 0; i < v.size(); ++i) {
                    ASSERT_FALSE(std::isnan(v[i].simulated))
                        << e.path().filename() << " " << s.references[i].name;
                    if (std::isfinite(v[i].reference))
                        worst[i] = std::max(worst[i], std::abs(v[i].simulated - v[i].reference));
                }
            }
            for (size_t i = 0; i < worst.size(); ++i) {
                const ReferenceDesc& r = s.references[i];
                std::printf("%-28s %-22s worst |simulated - closed form| %.3g (tolerance %g)\n",
                            e.path().filename().c_str(), r.name.c_str(), worst[i], r.tolerance);
                EXPECT_LE(worst[i], r.tolerance) << e.path().filename() << " " << r.name;
                ++checked;
            }
        }
    }
    EXPECT_GE(checked, 6) << "the pendulum, drive, mass-spring, Atwood and gear examples declare curves";
}

}  // namespace
}  // namespace jl
