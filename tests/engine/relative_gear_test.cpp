// The relative gear (gear.h, relative = true): two hinges about non-parallel axes on one moving
// carrier, coupled q_a = m·q_b + offset with each q the finger's turn on the carrier (a URDF <mimic>
// on a robot hand, issue 31).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>

#include "carrier_motion.h"
#include "gear_hand.h"
#include "test_util.h"

namespace jl {
namespace {

const SolverType kSolvers[] = {SolverType::PGS, SolverType::TGS};

TEST(RelativeGear, RowMeasuresOnTheCarrier) {
    GearJoint g;
    g.relative = true;
    g.ratio = -0.7;  // q0 − 0.7·q1 + offset = 0
    g.offset = 0.05;
    // Start: carrier at the origin; hinge a about Z at pa, hinge b at 60° from it at pb; the
    // fingers' centres off their axes.
    const Vec3 a(0, 0, 1), b = glm::normalize(Vec3(std::sin(kPi / 3), 0.0, std::cos(kPi / 3)));
    const Vec3 pa(0.08, -0.05, 0.0), pb(-0.08, -0.05, 0.01);
    const Vec3 ca = pa + Vec3(0.01, -0.06, 0.0), cb = pb + Vec3(0.0, -0.06, -0.02);
    JointDesc j;
    j.name = "mimic";
    j.body0 = "a";
    j.body1 = "b";
    j.params = g;
    j.frame0 = Transform{pa - ca, test::xOnto(a)};
    j.frame1 = Transform{pb - cb, test::xOnto(b)};
    const auto poses = [&](const Transform& H, Real qa, Real qb, Transform& A, Transform& B) {
        A = H * Transform{pa, test::axisAngle(a, qa)} * Transform{ca - pa, kIdentityQuat};
        B = H * Transform{pb, test::axisAngle(b, qb)} * Transform{cb - pb, kIdentityQuat};
    };
    const JointMemory memory = test::startMemory(poses);
    // Now: the carrier moved and turned about a tilted axis and turns on; the fingers turned.
    const Vec3 tilt = glm::normalize(Vec3(0.3, 1.0, -0.5));
    const test::Carrier carrier{
        {Vec3(0.5, -0.3, 1.2), test::axisAngle(tilt, 1.1)}, Vec3(0.4, -0.2, 0.7), Vec3(1.5, -2.0, 0.8)};
    const Real qa = 0.7, qb = -1.2, qaDot = 3.0, qbDot = -2.5;
    const Transform& H = carrier.H;
    const auto rowAt = [&](Real t, JointMemory mem) {
        const Transform Ht = carrier.at(t);
        Transform A, B;
        poses(Ht, qa + qaDot * t, qb + qbDot * t, A, B);
        // Finger velocities: the carrier's rigid motion plus each hinge's rate about its axis.
        return test::rowErrorAndJv(g, j, A, B, mem, test::hingedOn(carrier, Ht, pa, a, qaDot, A.p),
                                   test::hingedOn(carrier, Ht, pb, b, qbDot, B.p));
    };
    const auto [c, jv] = rowAt(0.0, memory);
    EXPECT_NEAR(c, qa + g.ratio * qb + g.offset, 1e-12);  // the carrier's motion drops out
    const Real e = 1e-6;
    const Real rate = (rowAt(e, memory).first - rowAt(-e, memory).first) / (2 * e);
    EXPECT_NEAR(rate, qaDot + g.ratio * qbDot, 1e-7);
    EXPECT_NEAR(jv, rate, 1e-7);
    // Past half a turn the angles are tracked: q_a = 0.7 + 2.4 rad reached in steps of 0.3 rad.
    JointMemory tracked = memory;
    Real last = 0.0;
    for (int k = 0; k <= 8; ++k) {
        Transform A, B;
        poses(H, qa + 0.3 * k, qb, A, B);
        std::array<Row, kMaxRowsPerJoint> rows;
        test::prepRows(g, j, A, B, tracked, rows);
        last = rows[0].geometricError;
    }
    EXPECT_NEAR(last, qa + 2.4 + g.ratio * qb + g.offset, 1e-12);
    std::printf(
        "relative gear on a moving carrier: C = %.12f (q0 + G·q1 + offset = %.12f), dC/dt = %.9f, "
        "J·v = %.9f; after 3.1 rad C = %.12f\n",
        c, qa + g.ratio * qb + g.offset, rate, jv, last);
}

// Axes 0.005 rad apart through one point: read through positions (sin² = 2.5e-5 is below
// kRelativeGearParallelSin2), and frame B's origin lies on axis A, so no row (parallel_gear_test.cpp
// has the distinct axes).
TEST(RelativeGear, CoaxialAxesWriteNoRowAndLinearModeIsRefused) {
    GearJoint g;
    g.relative = true;
    const Transform body{Vec3(0.0), kIdentityQuat};
    std::array<Row, kMaxRowsPerJoint> rows;
    RowWriter out{rows.data(), kMaxRowsPerJoint};
    const Transform f0{Vec3(0.0), kIdentityQuat}, f1{Vec3(0.1, 0, 0), test::axisAngle(Vec3(0, 1, 0), 0.005)};
    prep(g, PrepContext::make(body, f0, body, f1, 1.0 / 60.0), out);
    EXPECT_EQ(out.count, 0);
    g.mode = GearMode::Linear;
    EXPECT_EQ(validateJointParams(JointParams{g}),
              "relative: only an angular gear can be relative (mode is linear)");
    g.mode = GearMode::Angular;
    EXPECT_EQ(validateJointParams(JointParams{g}), "");
}

/// A hand hinged to the world about a tilted axis (test::gearHand); its fingers hinged about axes
/// 60° apart (Z and (sin 60°, 0, cos 60°)), each sticking out along X from its hinge.
Scene hand(SolverType solver, bool relative, bool spin, Real m) {
    const Vec3 a(0, 0, 1), b = glm::normalize(Vec3(std::sin(kPi / 3), 0.0, std::cos(kPi / 3)));
    return test::gearHand(solver, relative, spin, m, {Vec3(0.1, -0.05, 0.05), a, Vec3(0.05, 0.0, 0.0)},
                          {Vec3(0.1, -0.05, -0.05), b, Vec3(0.05, 0.0, 0.0)});
}

// On a hand swinging or spinning about a tilted axis, the fingers (whirling up to 11–20 rad on it in
// 2 s) keep q_a = m·q_b: measured 4.3e-4 rad (PGS) and 3.4e-5 rad (TGS), checked to 1e-3 rad; a gear
// measuring the turns against the world (relative off) is off by 0.48–2.7 rad. The error is the time
// step's: at dt = 1/60 s the same runs give 0.07–0.12 rad (PGS) and 0.008–0.012 rad (TGS), at
// 1/240 s 4e-3–7e-3 and 5e-4–1e-3 rad (docs/import.md).
TEST(RelativeGear, MimicHoldsOnASwingingAndSpinningHand) {
    const Real m = 0.6;
    for (SolverType solver : kSolvers) {
        for (bool spin : {false, true}) {
            const test::HandRun rel = test::runHand(hand(solver, true, spin, m), m);
            const test::HandRun world = test::runHand(hand(solver, false, spin, m), m);
            std::printf(
                "%s, hand %s (turned up to %.2f rad): |q_a - m q_b| <= %.2e rad relative (q_b up to "
                "%.2f rad), %.2e rad measured in the world\n",
                kSolverTypeNames[static_cast<int>(solver)], spin ? "spinning" : "swinging", rel.handTurn,
                rel.law, rel.travel, world.law);
            EXPECT_GT(rel.handTurn, 1.0);  // the hand turns far
            EXPECT_GT(rel.travel, 0.3);    // and the fingers turn on it: the coupling carries load
            EXPECT_LT(rel.law, 2e-3);      // the law holds
            EXPECT_GT(world.law, 0.1);     // which a world-measured gear does not do
        }
    }
}

// The relative gear's row is solved alike by the fast and the reference kernels.
TEST(RelativeGear, KernelsAgree) {
    for (SolverType solver : kSolvers) {
        Scene s = hand(solver, true, true, 0.6);
        const Real worst = test::kernelsApart(s, 10);
        std::printf("%s: kernels within %.1e m\n", kSolverTypeNames[static_cast<int>(solver)], worst);
        EXPECT_LE(worst, 1e-9);
    }
}

}  // namespace
}  // namespace jl
