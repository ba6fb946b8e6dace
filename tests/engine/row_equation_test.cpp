// The equation of a row with its numbers (World::rowEquation, the app's equation panel): K equals
// J M⁻¹ Jᵀ computed here from the bodies' masses, inertias and poses and the row's Jacobian; the
// bias and the impulse update's coefficients equal the closed forms of F 11, 63–65 (hard rows)
// and D 13–22, 30–37 (springs); drive force limits become impulse bounds F·dt. PGS and TGS,
// several joint types, mass scales.
#include "jointlab/row_equation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

using test::axisAngle;

/// Two tilted boxes on a spherical joint (mass scales 0.5 / 2 on body 0's side), a hinge from the
/// world with a force drive and a force limit, a slider between the two boxes with an
/// acceleration drive.
Scene scene(SolverType solver) {
    Scene s = test::emptyScene(false);
    s.settings.solver = solver;
    s.settings.posIters = 4;
    s.settings.autoBaumgarte = false;
    s.settings.baumgarte = 0.35;
    s.settings.gyroscopic = false;
    s.settings.pointSolve = PointSolve::Rows;
    BodyDesc a = test::box("a", Vec3(0.0, 2.0, 0.0), Vec3(0.3, 0.1, 0.2), 3.0);
    a.orientation = axisAngle(Vec3(1, 2, 0.5), 0.7);
    a.linearVelocity = Vec3(0.3, -0.2, 0.1);
    a.angularVelocity = Vec3(0.5, 1.0, -0.4);
    BodyDesc b = test::box("b", Vec3(0.6, 2.1, 0.1), Vec3(0.1, 0.25, 0.15), 1.5);
    b.orientation = axisAngle(Vec3(0.2, -1, 1), 1.1);
    b.angularVelocity = Vec3(-0.7, 0.2, 0.9);
    s.bodies = {a, b};
    JointDesc ball = test::joint<SphericalJoint>(s, "ball", "a", "b", Vec3(0.35, 2.05, 0.02));
    ball.invMassScale0 = 0.5;
    ball.invInertiaScale0 = 2.0;
    RevoluteJoint rj;
    rj.drive.enabled = true;
    rj.drive.stiffness = 40.0;
    rj.drive.damping = 3.0;
    rj.drive.forceLimit = 25.0;
    rj.driveTarget = 0.4;
    rj.driveTargetVelocity = 0.2;
    JointDesc hinge = test::joint<RevoluteJoint>(s, "hinge", "", "a", Vec3(-0.2, 2.0, 0.1),
                                                 axisAngle(Vec3(0, 0, 1), 0.3), rj);
    PrismaticJoint pj;
    pj.drive.enabled = true;
    pj.drive.acceleration = true;
    pj.drive.stiffness = 90.0;
    pj.drive.damping = 7.0;
    pj.driveTarget = -0.1;
    JointDesc slide = test::joint<PrismaticJoint>(s, "slide", "a", "b", Vec3(0.3, 2.05, 0.05),
                                                  axisAngle(Vec3(0, 1, 0), 0.5), pj);
    s.joints = {ball, hinge, slide};
    return s;
}

/// World inverse inertia R·diag(1/I)·Rᵀ.
Mat3 worldInvInertia(const Quat& q, const Vec3& inertia) {
    const Mat3 R = glm::mat3_cast(q);
    Mat3 d(0.0);
    for (int i = 0; i < 3; ++i) d[i][i] = 1.0 / inertia[i];
    return R * d * glm::transpose(R);
}

void near(Real got, Real want, const std::string& what) {
    EXPECT_NEAR(got, want, 1e-12 * (1.0 + std::abs(want))) << what;
}

TEST(RowEquation, KIsJInvMJtAndTheUpdateIsTheClosedForm) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        const Scene sc = scene(solver);
        World w(sc);
        for (int i = 0; i < 3; ++i) w.step();
        const std::vector<BodyState> before(w.bodies().begin(), w.bodies().end());
        w.step();
        const WorldSettings& st = w.scene().settings;
        const Real dt = st.dt, h = solver == SolverType::TGS ? dt / st.posIters : dt;
        int hard = 0, springs = 0;
        for (int j = 0; j < static_cast<int>(sc.joints.size()); ++j) {
            const JointDesc& d = sc.joints[static_cast<size_t>(j)];
            const int b0 = d.body0.empty() ? -1 : sc.findBody(d.body0), b1 = sc.findBody(d.body1);
            // M⁻¹ of each side, from the masses, principal inertias and the poses at the step's start.
            auto side = [&](int b, Real massScale, Real inertiaScale, Real& invM, Mat3& invI, Vec3& v,
                            Vec3& wv) {
                invM = 0.0;
                invI = Mat3(0.0);
                v = wv = Vec3(0.0);
                if (b < 0) return;
                invM = w.inverseMass(b) * massScale;
                invI =
                    inertiaScale * worldInvInertia(before[static_cast<size_t>(b)].pose.q, w.localInertia(b));
                v = before[static_cast<size_t>(b)].linearVelocity;
                wv = before[static_cast<size_t>(b)].angularVelocity;
                if (solver == SolverType::PGS)
                    v += dt * st.gravity;  // v_pre: PGS adds the step's forces first
            };
            Real m0, m1;
            Mat3 I0, I1;
            Vec3 v0, w0, v1, w1;
            side(b0, d.invMassScale0, d.invInertiaScale0, m0, I0, v0, w0);
            side(b1, d.invMassScale1, d.invInertiaScale1, m1, I1, v1, w1);
            const int n = static_cast<int>(w.jointRows(j).size());
            ASSERT_GT(n, 0);
            for (int k = 0; k < n; ++k) {
                RowEquation e;
                ASSERT_TRUE(w.rowEquation(j, k, e));
                const Row& r = e.row;
                const std::string what =
                    std::string(kSolverTypeNames[int(solver)]) + " " + d.name + " " + r.label;
                const Real K = m0 * glm::dot(r.linear0, r.linear0) + glm::dot(r.angular0, I0 * r.angular0) +
                               m1 * glm::dot(r.linear1, r.linear1) + glm::dot(r.angular1, I1 * r.angular1);
                near(e.K, K, what + ": K = J M⁻¹ Jᵀ");
                near(e.kTerms[0] + e.kTerms[1] + e.kTerms[2] + e.kTerms[3], K, what + ": K's terms");
                const Real jv = glm::dot(r.linear0, v0) + glm::dot(r.angular0, w0) - glm::dot(r.linear1, v1) -
                                glm::dot(r.angular1, w1);
                near(e.vPre, jv, what + ": J·v_pre");
                near(e.h, h, what);
                const Real C = r.geometricError, vT = r.velocityTarget;
                if (r.flags & kRowSpring) {
                    ++springs;
                    const Drive& dr = std::holds_alternative<RevoluteJoint>(d.params)
                                          ? std::get<RevoluteJoint>(d.params).drive
                                          : std::get<PrismaticJoint>(d.params).drive;
                    const Real kk = dr.stiffness, c = dr.damping;
                    const Real a = h * (h * kk + c);                                         // D 13
                    const Real x = dr.acceleration ? 1.0 / (a + 1.0) : 1.0 / (a * K + 1.0);  // D 32 / D 15
                    const Real per = dr.acceleration ? 1.0 / K : 1.0;                        // D 35–36
                    EXPECT_EQ(e.spring, true) << what;
                    EXPECT_EQ(e.accelerationSpring, dr.acceleration) << what;
                    near(e.a, a, what + ": a");
                    near(e.x, x, what + ": x");
                    near(e.constant, per * x * (h * c * vT - h * kk * C - a * jv),
                         what + ": constant (D 20/35)");
                    near(e.vMul, -per * x * a, what + ": vMul (D 21/36)");
                    near(e.impulseMul, 1.0 - x, what + ": impulseMul (D 22/37)");
                    near(e.unbiasedConstant, e.constant, what + ": springs continue in velocity iterations");
                    if (std::isfinite(dr.forceLimit)) {
                        near(e.maxImpulse, dr.forceLimit * dt, what + ": force limit × dt");
                        near(e.minImpulse, -dr.forceLimit * dt, what);
                    }
                    EXPECT_EQ(e.bias, 0.0) << what;
                } else {
                    ++hard;
                    const Real alpha = st.baumgarte;
                    near(e.erp, alpha, what);
                    near(e.bias, alpha * C / h, what + ": b = α·C/h (F 11)");
                    near(e.constant, -(alpha * C / h - vT + jv) / K, what + ": constant (F 65)");
                    near(e.vMul, -1.0 / K, what + ": vMul (F 63)");
                    EXPECT_EQ(e.impulseMul, 1.0) << what;
                }
                EXPECT_EQ(e.impulse, w.jointRowResults(j)[static_cast<size_t>(k)].impulse) << what;
            }
        }
        EXPECT_GE(hard, 3 + 5 + 5);
        EXPECT_EQ(springs, 2);
    }
}

// A gear (the mimic doc): one row with J = {0, x_A, 0, G·x_B} (row: angular1 = −G·x_B), so
// K = x_A·I0⁻¹x_A + G²·x_B·I1⁻¹x_B (M 15 with r_AB = 0) and b = erp·C/dt with the joint's own erp (M 8).
TEST(RowEquation, AGearsTermsAreTheMimicDocsClosedForms) {
    Scene s;
    std::string error;
    ASSERT_TRUE(
        loadScenario(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/gear_train.json", s, error))
        << error;
    s.settings.gyroscopic = false;
    s.settings.solver = SolverType::PGS;  // h = dt (TGS measures the bias over dt/posIters)
    int gears = 0;
    for (JointDesc& j : s.joints)
        if (GearJoint* g = std::get_if<GearJoint>(&j.params)) {
            g->autoErp = false;
            g->erp = 0.4;
        }
    World w(s);
    for (int i = 0; i < 5; ++i) w.step();
    const std::vector<BodyState> before(w.bodies().begin(), w.bodies().end());
    w.step();
    for (int j = 0; j < static_cast<int>(s.joints.size()); ++j) {
        const GearJoint* g = std::get_if<GearJoint>(&s.joints[static_cast<size_t>(j)].params);
        if (!g) continue;
        ++gears;
        RowEquation e;
        ASSERT_TRUE(w.rowEquation(j, 0, e));
        const int a = s.findBody(s.joints[static_cast<size_t>(j)].body0),
                  b = s.findBody(s.joints[static_cast<size_t>(j)].body1);
        const Vec3 xA = e.row.angular0, xB = -e.row.angular1 / g->ratio;
        const Real rAA =
            glm::dot(xA, worldInvInertia(before[static_cast<size_t>(a)].pose.q, w.localInertia(a)) * xA);
        const Real rBB =
            glm::dot(xB, worldInvInertia(before[static_cast<size_t>(b)].pose.q, w.localInertia(b)) * xB);
        near(e.K, rAA + g->ratio * g->ratio * rBB, "gear K = r_AA + G²·r_BB");
        near(e.erp, 0.4, "the gear's own erp");
        near(e.bias, 0.4 * e.row.geometricError / w.scene().settings.dt, "b = erp·C/dt (M 8)");
        EXPECT_EQ(glm::length(e.row.linear0) + glm::length(e.row.linear1), 0.0)
            << "angular mode: no linear part";
    }
    EXPECT_EQ(gears, 2);
}

/// A box sliding on the ground (its friction rows at ±μ·λn) with a tilted box resting on it: ground
/// contacts and body–body contacts.
Scene contactScene(SolverType solver) {
    Scene s = test::emptyScene(true);
    s.settings.solver = solver;
    s.settings.posIters = 8;
    s.settings.gyroscopic = false;
    s.settings.groundFriction = 0.4;
    s.settings.bodyFriction = 0.7;
    BodyDesc low = test::box("low", Vec3(0.0, 0.2, 0.0), Vec3(0.6, 0.2, 0.5), 4.0);
    low.linearVelocity = Vec3(3.0, 0.0, 0.5);
    BodyDesc top = test::box("top", Vec3(0.1, 0.55, -0.05), Vec3(0.2, 0.15, 0.25), 1.5);
    top.orientation = axisAngle(Vec3(0, 1, 0), 0.4);
    top.linearVelocity = low.linearVelocity;
    s.bodies = {low, top};
    return s;
}

// Contacts are rows too (World::contactRowEquation): K = J M⁻¹ Jᵀ from the masses, inertias and
// start-of-step poses, κ = r × (n or t) at the contact point, a friction row's bound is μ times
// the same step's normal impulse, and the normal row's set-up is the closed form of its kind
// (hard: F 11, 63–65; PGS between bodies: an acceleration spring, D 30–37).
TEST(RowEquation, ContactRowsKIsJInvMJtAndFrictionIsBoundedByMuLambdaN) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        World w(contactScene(solver));
        for (int i = 0; i < 6; ++i) w.step();
        const std::vector<BodyState> before(w.bodies().begin(), w.bodies().end());
        w.step();
        const WorldSettings& st = w.scene().settings;
        const Real dt = st.dt, h = solver == SolverType::TGS ? dt / st.posIters : dt;
        const std::vector<ContactPoint> points = w.contactPoints();
        const auto results = w.contactRowResults();
        int ground = 0, between = 0, soft = 0, tgsSoft = 0, sliding = 0;
        for (size_t c = 0; c < points.size(); ++c) {
            const ContactPoint& p = points[c];
            auto side = [&](int b, Real& invM, Mat3& invI, Vec3& pos) {
                invM = 0.0;
                invI = Mat3(0.0);
                pos = Vec3(0.0);
                if (b < 0) return;
                invM = w.inverseMass(b);
                invI = worldInvInertia(before[static_cast<size_t>(b)].pose.q, w.localInertia(b));
                pos = before[static_cast<size_t>(b)].pose.p;
            };
            Real m0, m1;
            Mat3 I0, I1;
            Vec3 p0, p1;
            side(p.body0, m0, I0, p0);
            side(p.body1, m1, I1, p1);
            (p.body1 < 0 ? ground : between) += 1;
            const Real lambdaN = results[static_cast<size_t>(p.firstRow)].impulse;
            for (int k = 0; k < 3; ++k) {
                const int row = p.firstRow + k;
                RowEquation e;
                ASSERT_TRUE(w.contactRowEquation(row, e));
                const Row& r = e.row;
                const std::string what = std::string(kSolverTypeNames[int(solver)]) + " contact " +
                                         std::to_string(c) + " " + r.label;
                EXPECT_TRUE(e.contact) << what;
                EXPECT_EQ(e.contactPoint, static_cast<int>(c)) << what;
                EXPECT_EQ(e.contactRowKind, k) << what;
                EXPECT_EQ(e.body0, p.body0) << what;
                EXPECT_EQ(e.body1, p.body1) << what;
                // J: κ0 = r0 × μ0 with r0 from body 0's centre to the contact point.
                const Vec3 r0 = p.point - p0;
                for (int a = 0; a < 3; ++a)
                    EXPECT_NEAR(r.angular0[a], glm::cross(r0, r.linear0)[a], 1e-12)
                        << what << ": κ0 = r0 × n";
                const Real K = m0 * glm::dot(r.linear0, r.linear0) + glm::dot(r.angular0, I0 * r.angular0) +
                               m1 * glm::dot(r.linear1, r.linear1) + glm::dot(r.angular1, I1 * r.angular1);
                near(e.K, K, what + ": K = J M⁻¹ Jᵀ");
                near(e.kTerms[0] + e.kTerms[1] + e.kTerms[2] + e.kTerms[3], K, what + ": K's terms");
                EXPECT_EQ(e.impulse, results[static_cast<size_t>(row)].impulse) << what;
                EXPECT_EQ(e.normalImpulse, lambdaN) << what;
                if (k == 0) {
                    EXPECT_EQ(e.minImpulse, 0.0) << what << ": a contact only pushes";
                    EXPECT_GE(e.impulse, 0.0) << what;
                    if (e.softContact) {
                        ++soft;
                        EXPECT_TRUE(solver == SolverType::PGS && p.body1 >= 0) << what;
                        const Real a = h * (h * e.stiffness + e.damping);  // D 13
                        const Real x = 1.0 / (a + 1.0);                    // D 32
                        near(e.x, x, what + ": x = 1/(a + 1)");
                        near(e.vMul, -x * a / K, what + ": vMul (D 36)");
                        near(e.impulseMul, 1.0 - x, what + ": impulseMul (D 37)");
                        near(e.constant, x / K * (-h * e.stiffness * r.geometricError - a * e.vPre),
                             what + ": constant (D 35)");
                    } else if (e.tgsSoftContact) {
                        // TGS, touching: Box2D v3's soft contact (solver/soft_contact.h), its
                        // coefficients worked out here from f, ζ = 10 and the substep h
                        ++tgsSoft;
                        EXPECT_TRUE(solver == SolverType::TGS && e.substepImpulses) << what;
                        const Real rate = 1.0 / h;
                        const Real f = std::min(60.0, std::max(rate / 8.0, std::min(30.0, rate / 4.0)));
                        const Real w = 2.0 * kPi * f, a1 = 20.0 + h * w, a2 = h * w * a1;
                        near(e.softHertz, f, what + ": f");
                        near(e.softBiasRate, w / a1, what + ": biasRate = ω/a1");
                        near(e.softMassScale, a2 / (1.0 + a2), what + ": massScale = a2/(1 + a2)");
                        near(e.softImpulseScale, 1.0 / (1.0 + a2), what + ": impulseScale = 1/(1 + a2)");
                        near(e.bias, std::max(w / a1 * r.geometricError, -3.0),
                             what + ": b = max(biasRate·C, -3)");
                    } else {
                        near(e.bias, e.erp * r.geometricError / h, what + ": b = α·C/h (F 11)");
                        near(e.constant, -(e.bias - e.velTarget + e.vPre) / K, what + ": constant (F 65)");
                        near(e.vMul, -1.0 / K, what + ": vMul (F 63)");
                    }
                } else {
                    const Real mu = p.body1 < 0 ? st.groundFriction : st.bodyFriction;
                    EXPECT_EQ(e.friction, mu) << what;
                    near(e.maxImpulse, mu * lambdaN, what + ": friction bound μ·λn of the same step");
                    near(e.minImpulse, -mu * lambdaN, what);
                    EXPECT_LE(std::abs(e.impulse), mu * lambdaN * (1.0 + 1e-12) + 1e-15)
                        << what << ": the friction impulse stays within it";
                    sliding += std::abs(e.impulse) > mu * lambdaN * (1.0 - 1e-9) && lambdaN > 0.0;
                    EXPECT_EQ(e.bias, 0.0) << what;
                }
            }
        }
        EXPECT_GE(ground, 4) << kSolverTypeNames[int(solver)];
        EXPECT_GE(between, 3) << kSolverTypeNames[int(solver)];
        EXPECT_GT(sliding, 0) << "the sliding box's friction rows sit on ±μ·λn";
        if (solver == SolverType::PGS) {
            EXPECT_GT(soft, 0) << "PGS body contacts that touch are soft";
        } else {
            EXPECT_GT(tgsSoft, 0) << "TGS contacts that touch are soft";
        }
        RowEquation none;
        EXPECT_FALSE(w.contactRowEquation(-1, none));
        EXPECT_FALSE(w.contactRowEquation(w.contactRowCount(), none));
    }
}

TEST(RowEquation, NoRowBeforeTheFirstStepOrOutOfRange) {
    World w(scene(SolverType::PGS));
    RowEquation e;
    EXPECT_FALSE(w.rowEquation(0, 0, e));
    w.step();
    EXPECT_TRUE(w.rowEquation(0, 0, e));
    EXPECT_FALSE(w.rowEquation(0, 99, e));
    EXPECT_FALSE(w.rowEquation(7, 0, e));
    EXPECT_FALSE(w.rowEquation(-1, 0, e));
}

}  // namespace
}  // namespace jl
