// PGS: the formulation doc's remarks, momocity, mass scales (issue 3, items 3 and 11).
#include <gtest/gtest.h>

#include <glm/gtx/norm.hpp>

#include "solver/integrate.h"
#include "test_util.h"

namespace jl {
namespace {

// "The Baumgarte multiplier has value 1. This means that the geometric error of a 1d constraint
// will be completely resolved in a single position iteration if there are no other constraints."
TEST(PGS, SingleRowResolvesItsErrorInOnePositionIteration) {
    Scene s = test::emptyScene();
    s.settings.gravity = Vec3(0.0);
    s.settings.posIters = 1;
    s.settings.velIters = 0;
    s.settings.autoBaumgarte = false;  // PhysX's α = 1 (the PhysX preset's; "auto" is 0.3)
    s.settings.baumgarte = 1.0;
    s.bodies.push_back(
        test::sphere("ball", Vec3(0.8, 2.8, 0.4), 3.0, 0.1));  // |(0.8, 0.8, 0.4)| = 1.2 m from the anchor
    DistanceJoint dj;
    dj.maxDistance = 1.0;
    JointDesc j = test::joint<DistanceJoint>(s, "rope", "", "ball", Vec3(0, 2, 0), Quat(1, 0, 0, 0), dj);
    j.frame1 = Transform{};  // the row acts through the ball's centre: a single linear row
    s.joints.push_back(j);
    World w(s);
    w.step();
    ASSERT_EQ(w.jointRows(0).size(), 1u);
    EXPECT_NEAR(w.jointRowResults(0)[0].geometricError, -0.2, 1e-12);
    EXPECT_NEAR(glm::length(w.bodies()[0].pose.p - Vec3(0, 2, 0)), 1.0, 1e-12);
}

// With a user α < 1 the same row is driven at b = α·C/dt: the position iteration gives the ball
// the velocity J·v = −α·C/dt along the rope (the only row, so later iterations change nothing),
// the pose integrates it over dt, and since the row is linear through the ball's centre and the
// motion is radial, the new error is exactly C' = C + dt·(−α·C/dt) = (1 − α)·C. Without keep-bias
// (C < 0) the velocity iteration then removes that bias velocity (J·v = 0, the accumulated impulse
// returns to 0 ≥ minImpulse), so every step starts at rest and C_n = (1 − α)ⁿ·C_0. Only rounding
// separates the engine from this law: 1e-12 m.
TEST(PGS, UserBaumgarteLeavesOneMinusAlphaOfTheErrorPerStep) {
    for (Real alpha : {0.3, 0.7}) {
        for (int posIters : {1, 4}) {
            Scene s = test::emptyScene();
            s.settings.gravity = Vec3(0.0);
            s.settings.posIters = posIters;
            s.settings.velIters = 1;
            s.settings.autoBaumgarte = false;
            s.settings.baumgarte = alpha;
            s.bodies.push_back(test::sphere("ball", Vec3(0.8, 2.8, 0.4), 3.0, 0.1));  // 1.2 m from the anchor
            DistanceJoint dj;
            dj.maxDistance = 1.0;
            JointDesc j =
                test::joint<DistanceJoint>(s, "rope", "", "ball", Vec3(0, 2, 0), Quat(1, 0, 0, 0), dj);
            j.frame1 = Transform{};
            s.joints.push_back(j);
            World w(s);
            Real C = -0.2, worst = 0;
            for (int n = 1; n <= 5; ++n) {
                w.step();
                ASSERT_EQ(w.jointRows(0).size(), 1u);
                EXPECT_NEAR(w.jointRowResults(0)[0].geometricError, C, 1e-12);  // C at the start of step n
                C *= 1.0 - alpha;
                const Real Cnow = 1.0 - glm::length(w.bodies()[0].pose.p - Vec3(0, 2, 0));
                worst = std::max(worst, std::abs(Cnow - C));
                if (n == 1)
                    std::printf(
                        "alpha %.1f, %d pos iters: after 1 step C = %.15f (expected (1 − α)·C0 = %.15f), "
                        "speed %.2e m/s\n",
                        alpha, posIters, Cnow, C, glm::length(w.bodies()[0].linearVelocity));
                EXPECT_LT(glm::length(w.bodies()[0].linearVelocity), 1e-12);
            }
            std::printf("  worst |C_n − (1 − α)^n·C_0| over 5 steps %.2e m\n", worst);
            EXPECT_LT(worst, 1e-12);
        }
    }
}

// Plain PGS with world-space inverse inertia tensors (eq. 17–25, no momocity) must give the same
// velocities as the engine's momocity implementation (eq. 51–62).
TEST(PGS, MomocityGivesTheSameVelocitiesAsThePlainFormulation) {
    Scene s = test::emptyScene();
    s.settings.posIters = 4;
    s.settings.velIters = 2;
    s.settings.pointSolve = PointSolve::Rows;  // the recipe below visits one row at a time
    s.settings.autoBaumgarte = false;          // the recipe's bias is 1.0·C/dt
    s.settings.baumgarte = 1.0;
    BodyDesc a = test::box("a", Vec3(0.6, 2.0, 0.1), Vec3(0.5, 0.12, 0.2), 2.0);
    a.orientation = glm::normalize(Quat(0.9, 0.2, -0.3, 0.25));
    a.angularVelocity = Vec3(0.5, -1.0, 2.0);
    a.linearVelocity = Vec3(0.3, 0.1, -0.2);
    BodyDesc b = test::box("b", Vec3(1.5, 1.7, 0.3), Vec3(0.3, 0.2, 0.1), 0.7);
    b.orientation = glm::normalize(Quat(0.7, -0.4, 0.1, 0.5));
    b.angularVelocity = Vec3(-1.5, 0.4, 0.3);
    s.bodies = {a, b};
    s.joints.push_back(test::joint<RevoluteJoint>(s, "h", "", "a", Vec3(0.1, 2.05, 0.12),
                                                  test::axisAngle(Vec3(0.2, 0.1, 1), 0.4)));
    s.joints.push_back(test::joint<SphericalJoint>(s, "s", "a", "b", Vec3(1.1, 1.8, 0.2)));
    s.joints.back().frame1.p += Vec3(0.02, -0.01, 0.03);  // initial separation, so the bias matters
    s.joints.push_back(test::joint<PrismaticJoint>(s, "p", "a", "b", Vec3(1.0, 1.9, 0.1)));
    World w(s);

    // --- reference: the doc's recipe with Δv and Δω in plain form ---
    const Real dt = s.settings.dt;
    struct Ref {
        Real invMass;
        Mat3 invI;
        Vec3 v, w, dv{0.0}, dw{0.0};
        Transform pose;
    };
    std::vector<Ref> bodies;
    for (int i = 0; i < 2; ++i) {
        const BodyDesc& d = s.bodies[static_cast<size_t>(i)];
        const MassProperties mp = computeMassProperties(d);
        const Mat3 R = glm::mat3_cast(d.orientation);
        Mat3 D(0.0);
        for (int k = 0; k < 3; ++k) D[k][k] = 1.0 / mp.inertia[k];
        // ω_pre: ω after the gyroscopic term, as the step's first stage gives it (solver/integrate.h)
        const Vec3 wPre = solver::gyroscopicStep(d.angularVelocity, d.orientation, mp.inertia, dt);
        bodies.push_back({1.0 / mp.mass, R * D * glm::transpose(R),
                          d.linearVelocity + dt * s.settings.gravity, wPre, Vec3(0.0), Vec3(0.0),
                          Transform{d.position, d.orientation}});
    }
    struct RefRow {
        Row row;
        int b0, b1;
        Real r, bias;
        Real accum = 0;
    };
    std::vector<RefRow> rows;
    for (const JointDesc& j : s.joints) {
        const int b0 = j.body0.empty() ? -1 : s.findBody(j.body0), b1 = s.findBody(j.body1);
        const Transform p0 = b0 < 0 ? Transform{} : bodies[static_cast<size_t>(b0)].pose;
        const Transform p1 = bodies[static_cast<size_t>(b1)].pose;
        const PrepContext c = PrepContext::make(p0, j.frame0, p1, j.frame1, dt);
        Row buf[kMaxRowsPerJoint];
        RowWriter out{buf, kMaxRowsPerJoint};
        std::visit([&](const auto& p) { prep(p, c, out); }, j.params);
        for (int k = 0; k < out.count; ++k) {
            const Row& row = buf[k];
            Real r = 0;
            if (b0 >= 0)
                r += bodies[b0].invMass * glm::length2(row.linear0) +
                     glm::dot(row.angular0, bodies[b0].invI * row.angular0);
            r += bodies[b1].invMass * glm::length2(row.linear1) +
                 glm::dot(row.angular1, bodies[b1].invI * row.angular1);
            rows.push_back({row, b0, b1, r, 1.0 * row.geometricError / dt});
        }
    }
    auto sweep = [&](bool biased) {
        for (RefRow& rr : rows) {
            const Row& row = rr.row;
            Real jv = -glm::dot(row.linear1, bodies[rr.b1].v + bodies[rr.b1].dv) -
                      glm::dot(row.angular1, bodies[rr.b1].w + bodies[rr.b1].dw);
            if (rr.b0 >= 0)
                jv += glm::dot(row.linear0, bodies[rr.b0].v + bodies[rr.b0].dv) +
                      glm::dot(row.angular0, bodies[rr.b0].w + bodies[rr.b0].dw);
            const Real dl = -((biased ? rr.bias : 0.0) - row.velocityTarget + jv) / rr.r;  // eq. 23
            rr.accum += dl;
            if (rr.b0 >= 0) {
                bodies[rr.b0].dv += dl * bodies[rr.b0].invMass * row.linear0;
                bodies[rr.b0].dw += dl * (bodies[rr.b0].invI * row.angular0);  // eq. 51
            }
            bodies[rr.b1].dv -= dl * bodies[rr.b1].invMass * row.linear1;
            bodies[rr.b1].dw -= dl * (bodies[rr.b1].invI * row.angular1);  // eq. 52
        }
    };
    for (int i = 0; i < s.settings.posIters; ++i) sweep(true);
    for (int i = 0; i < s.settings.velIters; ++i) sweep(false);

    w.step();
    Real maxDiff = 0;
    for (int i = 0; i < 2; ++i) {
        maxDiff = std::max(maxDiff, glm::length(w.bodies()[i].linearVelocity - (bodies[i].v + bodies[i].dv)));
        maxDiff =
            std::max(maxDiff, glm::length(w.bodies()[i].angularVelocity - (bodies[i].w + bodies[i].dw)));
    }
    for (size_t k = 0; k < rows.size(); ++k)
        maxDiff = std::max(maxDiff, std::abs(w.rowResults()[k].impulse - rows[k].accum));
    std::printf("momocity vs plain: max velocity/impulse difference %.3e over %zu rows\n", maxDiff,
                rows.size());
    EXPECT_GT(rows.size(), 10u);
    EXPECT_LT(maxDiff, 1e-5);
}

Scene twoBodyScene(Real ims0, Real iis0, Real ims1, Real iis1) {
    Scene s = test::emptyScene();
    s.settings.gravity = Vec3(0.0);
    BodyDesc a = test::box("a", Vec3(0, 1, 0), Vec3(0.3, 0.2, 0.1), 2.0);
    a.linearVelocity = Vec3(1.0, 0.5, 0.0);
    a.angularVelocity = Vec3(0.0, 0.0, 1.0);
    BodyDesc b = test::box("b", Vec3(0.9, 1.2, 0), Vec3(0.2, 0.2, 0.2), 1.0);
    b.angularVelocity = Vec3(2.0, 0.0, 0.0);
    s.bodies = {a, b};
    s.joints.push_back(test::joint<RevoluteJoint>(s, "j", "a", "b", Vec3(0.5, 1.0, 0)));
    s.joints.back().frame1.p += Vec3(0.05, 0.0, -0.03);
    JointDesc& j = s.joints.back();
    j.invMassScale0 = ims0;
    j.invInertiaScale0 = iis0;
    j.invMassScale1 = ims1;
    j.invInertiaScale1 = iis1;
    return s;
}

TEST(MassScales, ZeroScalesOnBody0LeaveItUntouched) {
    World w(twoBodyScene(0, 0, 1, 1));
    for (int i = 0; i < 60; ++i) {
        const BodyState before = w.bodies()[0];
        w.step();
        EXPECT_EQ(w.bodies()[0].linearVelocity, before.linearVelocity);
        EXPECT_EQ(w.bodies()[0].angularVelocity, before.angularVelocity);
    }
    // ... while body 1 is dragged along: the joint still holds.
    EXPECT_LT(glm::length(test::anchor0(w, 0) - test::anchor1(w, 0)), 1e-3);
}

TEST(MassScales, ScalingBothBodiesEquallyChangesNothing) {
    World w1(twoBodyScene(1, 1, 1, 1));
    World w3(twoBodyScene(3, 3, 3, 3));
    Real maxDiff = 0;
    for (int i = 0; i < 120; ++i) {
        w1.step();
        w3.step();
        for (int b = 0; b < 2; ++b) {
            maxDiff = std::max(maxDiff, glm::length(w1.bodies()[b].pose.p - w3.bodies()[b].pose.p));
            maxDiff =
                std::max(maxDiff, glm::length(w1.bodies()[b].linearVelocity - w3.bodies()[b].linearVelocity));
        }
    }
    std::printf("scales 1 vs 3: max difference %.3e\n", maxDiff);
    EXPECT_LT(maxDiff, 1e-9);
}

}  // namespace
}  // namespace jl
