// Body–body contacts (issue 29): shapes and their mass properties, contact rows between bodies
// (stacking, friction onset, restitution), who collides, and the stored contacts as part of the
// world's state (save/load and snapshots continue bit for bit).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "contact_scenes.h"
#include "contacts/collide.h"
#include "jointlab/joints/fixed.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"

namespace jl {
namespace {

// [SECTION] shapes

// A hull of a box's 8 corners has the box's volume and inertia (Bullet's hull faces fanned into
// tetrahedra, body.cpp); a cylinder's is m r²/2 about its axis and m (r²/4 + L²/12) across; a
// compound of two boxes side by side sums them with the parallel-axis term.
TEST(Shapes, MassPropertiesOfHullCylinderCompound) {
    BodyDesc hull;
    hull.shape = ShapeType::Hull;
    const Vec3 h(0.3, 0.2, 0.1);
    for (int i = 0; i < 8; ++i)
        hull.hullPoints.push_back(Vec3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z));
    hull.mass = 2.0;
    BodyDesc box = test::box("b", Vec3(0.0), h, 2.0);
    const MassProperties mh = computeMassProperties(hull), mb = computeMassProperties(box);
    EXPECT_NEAR(shapeVolume(hull), 8 * h.x * h.y * h.z, 1e-7);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(mh.inertia[k], mb.inertia[k], 1e-6 * mb.inertia[k]);

    BodyDesc cyl;
    cyl.shape = ShapeType::Cylinder;
    cyl.radius = 0.2;
    cyl.halfHeight = 0.5;
    cyl.mass = 3.0;
    const MassProperties mc = computeMassProperties(cyl);
    EXPECT_NEAR(mc.inertia.x, 0.5 * 3.0 * 0.04, 1e-12);
    EXPECT_NEAR(mc.inertia.y, 3.0 * (0.04 / 4 + 1.0 / 12), 1e-12);
    EXPECT_NEAR(shapeVolume(cyl), kPi * 0.04 * 1.0, 1e-12);

    BodyDesc comp;
    comp.shape = ShapeType::Compound;
    comp.mass = 2.0;
    for (Real x : {-0.5, 0.5}) {
        ShapeDesc c;
        c.halfExtents = Vec3(0.1);
        c.position = Vec3(x, 0, 0);
        comp.children.push_back(c);
    }
    const MassProperties mm = computeMassProperties(comp);
    const Real own = 1.0 / 3.0 * (0.01 + 0.01);  // each 1 kg cube about its centre
    EXPECT_NEAR(mm.inertia.x, 2 * own, 1e-12);
    EXPECT_NEAR(mm.inertia.y, 2 * (own + 1.0 * 0.25), 1e-12);
}

// A hull whose points lie on a plane encloses no volume: refused, naming the field.
TEST(Shapes, FlatHullIsRefused) {
    Scene s = test::emptyScene();
    BodyDesc b;
    b.name = "flat";
    b.shape = ShapeType::Hull;
    for (int i = 0; i < 4; ++i) b.hullPoints.push_back(Vec3(i & 1, 0, (i >> 1) & 1));
    s.bodies.push_back(b);
    EXPECT_NE(validateScene(s).find("bodies[0].hullPoints"), std::string::npos) << validateScene(s);
    s.bodies[0].shape = ShapeType::Compound;
    EXPECT_NE(validateScene(s).find("bodies[0].children"), std::string::npos) << validateScene(s);
}

// Hull points and compound children survive a save and a load.
TEST(Shapes, HullAndCompoundRoundTrip) {
    Scene s = test::emptyScene();
    BodyDesc hull;
    hull.name = "hull";
    hull.shape = ShapeType::Hull;
    hull.hullPoints = {Vec3(0.1, 0, 0), Vec3(0, 0.1, 0), Vec3(0, 0, 0.1), Vec3(-0.05, -0.05, -0.05)};
    s.bodies.push_back(hull);
    BodyDesc comp;
    comp.name = "comp";
    comp.shape = ShapeType::Compound;
    ShapeDesc c;
    c.shape = ShapeType::Cylinder;
    c.position = Vec3(0.2, 0.1, 0);
    c.orientation = test::axisAngle(Vec3(0, 0, 1), 0.3);
    comp.children = {c, ShapeDesc{}};
    s.bodies.push_back(comp);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(s), back, error)) << error;
    ASSERT_EQ(back.bodies[0].hullPoints.size(), 4u);
    EXPECT_EQ(back.bodies[0].hullPoints[3], hull.hullPoints[3]);
    ASSERT_EQ(back.bodies[1].children.size(), 2u);
    EXPECT_EQ(back.bodies[1].children[0].shape, ShapeType::Cylinder);
    EXPECT_EQ(back.bodies[1].children[0].orientation, c.orientation);
    EXPECT_EQ(serializeScenario(back), serializeScenario(s));
}

// [SECTION] contact rows

/// Top box of a 10-box stack after `seconds`: how far it moved from where it started.
Real stackDrift(SolverType solver, Real seconds, KernelType kernel = KernelType::Fast) {
    Scene s = test::boxStack(10, solver);
    s.settings.kernel = kernel;
    World w(s);
    const Vec3 start = w.bodies()[9].pose.p;
    for (int i = 0; i < static_cast<int>(seconds / s.settings.dt); ++i) w.step();
    EXPECT_EQ(w.divergence(), nullptr);
    return glm::length(w.bodies()[9].pose.p - start);
}

// A 10-box stack stands for 10 s at default settings.
// TGS (8 substeps): its top box moves less than 1 cm. Its contacts are soft (60 Hz, damping
// ratio 10, solver/soft_contact.h), so the stack settles by the springs' overlap (each contact
// overlaps in proportion to the boxes above it): the top box sinks 7.7 mm in the first second and
// then stands still (it sways up to 3 mm sideways while settling, 0.1 mm off after 10 s). Before
// contact impulses per substep and the soft step it rocked and fell within 10 s (2.3 m).
// PGS (8 iterations): less than 5 cm (a tenth of its size; soft body contacts at 30 Hz, 0.28 mm
// per box above a contact, and it creeps a little). With hard contacts it fell within 10 s.
TEST(Contacts, TenBoxStackStandsTenSeconds) {
    const Real tgs = stackDrift(SolverType::TGS, 10.0);
    const Real tgsReference = stackDrift(SolverType::TGS, 10.0, KernelType::Reference);
    const Real pgs = stackDrift(SolverType::PGS, 10.0);
    std::printf("top box moved in 10 s: TGS %.4f m (reference kernel %.4f m), PGS %.4f m\n", tgs,
                tgsReference, pgs);
    EXPECT_LT(tgs, 0.01);
    EXPECT_LT(tgsReference, 0.01);
    EXPECT_LT(pgs, 0.05);
}

/// How far a block slides down a static ramp tilted by `angle` in `seconds` (bodyFriction mu).
Real slideOnRamp(Real angle, Real mu, Real seconds) {
    Scene s = test::emptyScene(false);
    s.settings.solver = SolverType::TGS;
    s.settings.bodyFriction = mu;
    const Quat tilt = test::axisAngle(Vec3(0, 0, 1), angle);
    BodyDesc ramp = test::box("ramp", Vec3(0, 1, 0), Vec3(2.0, 0.1, 1.0), 1.0);
    ramp.motion = MotionType::Static;
    ramp.orientation = tilt;
    s.bodies.push_back(ramp);
    // the block on the ramp's top face, turned with it
    BodyDesc block = test::box("block", Vec3(0, 1, 0) + tilt * Vec3(0, 0.2, 0), Vec3(0.1), 1.0);
    block.orientation = tilt;
    s.bodies.push_back(block);
    World w(s);
    for (int i = 0; i < 30; ++i) w.step();  // settle onto the face
    const Vec3 start = w.bodies()[1].pose.p;
    for (int i = 0; i < static_cast<int>(seconds * 60); ++i) w.step();
    return glm::length(w.bodies()[1].pose.p - start);
}

// A block on a ramp starts to slide at atan(μ): 0.5° below it, it stays (under 2 mm in 2 s); 0.5°
// above, it slides with a = g (sin θ − μ cos θ) = 0.0957 m/s² for μ = 0.5, from the moment it is
// released: 0.5·a·(2.5² − 0.5²) = 3a = 0.287 m in the 2 s after its 0.5 s of settling (within
// 10 %). The slope direction is one of the friction rows' axes here (contact_rows.cpp picks them
// from the normal), where the box approximation of Coulomb's cone is exact.
TEST(Contacts, RampSlidesAtArctanMu) {
    const Real mu = 0.5, onset = std::atan(mu), half = 0.5 * kPi / 180;
    const Real below = slideOnRamp(onset - half, mu, 2.0), above = slideOnRamp(onset + half, mu, 2.0);
    const Real a = 9.81 * (std::sin(onset + half) - mu * std::cos(onset + half));
    std::printf("slid %.5f m at atan(mu) - 0.5 deg, %.5f m at + 0.5 deg (expected %.4f m)\n", below, above,
                3 * a);
    EXPECT_LT(below, 0.002);
    EXPECT_NEAR(above, 3 * a, 0.1 * 3 * a);
}

/// Peak height of a ball's bottom above a static block's top after its first bounce, dropped from
/// height h with restitution e.
Real bounceHeight(Real h, Real e, SolverType solver, Correction correction = Correction::Relax,
                  int hz = 1000) {
    Scene s = test::emptyScene(false);
    s.settings.solver = solver;
    s.settings.correction = correction;
    s.settings.bodyRestitution = e;
    s.settings.dt = 1.0 / hz;
    BodyDesc floor = test::box("floor", Vec3(0, -0.5, 0), Vec3(2.0, 0.5, 2.0), 1.0);
    floor.motion = MotionType::Static;
    s.bodies.push_back(floor);
    const Real r = 0.1;
    s.bodies.push_back(test::sphere("ball", Vec3(0, h + r, 0), 1.0, r));
    World w(s);
    bool bounced = false;
    Real peak = 0.0;
    for (int i = 0; i < hz * 3; ++i) {
        w.step();
        const BodyState& b = w.bodies()[1];
        if (!bounced && b.linearVelocity.y > 0) bounced = true;
        if (bounced) {
            peak = std::max(peak, b.pose.p.y - r);
            if (b.linearVelocity.y < 0) break;
        }
    }
    return peak;
}

// A ball dropped from h bounces to e²·h within 2 % (PGS and TGS) at a 1 ms step. A contact bounces
// in the step in which the gap closes, from where the ball is then: up to one step's travel
// (|v|·dt) above the surface, which at 60 Hz (7 cm at 4.4 m/s) would add up to 13 % to the height.
TEST(Contacts, BallBouncesToESquaredH) {
    const Real h = 1.0, e = 0.6;
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        const Correction c = solver == SolverType::TGS ? Correction::Baumgarte : Correction::Relax;
        const Real peak = bounceHeight(h, e, solver, c);
        std::printf("%s: bounced to %.4f m, e^2 h = %.4f m\n", kSolverTypeNames[int(solver)], peak,
                    e * e * h);
        EXPECT_NEAR(peak, e * e * h, 0.02 * e * e * h) << kSolverTypeNames[int(solver)];
    }
    std::printf("tgs relax: bounced to %.4f m\n", bounceHeight(h, e, SolverType::TGS));
    std::printf("tgs relax 240: bounced to %.4f m\n",
                bounceHeight(h, e, SolverType::TGS, Correction::Relax, 240));
    std::printf("tgs relax 60: bounced to %.4f m\n",
                bounceHeight(h, e, SolverType::TGS, Correction::Relax, 60));
    std::printf("pgs 60: bounced to %.4f m\n", bounceHeight(h, e, SolverType::PGS, Correction::Relax, 60));
}

// [SECTION] state

// An edit that keeps the bodies in their places (here the kernel, as the stepper switches it)
// keeps every contact's impulse for the next step's warm start: the body contacts and the ground
// contacts alike (the ground's were dropped before, and a resting stack restarted from zero).
TEST(Contacts, AnEditKeepsTheContactsWarmStarts) {
    World w(test::boxStack(3, SolverType::TGS));
    for (int i = 0; i < 60; ++i) w.step();
    const WorldSnapshot before = w.snapshot();
    Scene edited = w.scene();
    edited.settings.kernel = KernelType::Reference;
    w.applyScene(edited, w.scene());
    const WorldSnapshot after = w.snapshot();
    ASSERT_EQ(after.contactImpulses.size(), before.contactImpulses.size());
    EXPECT_EQ(after.contactImpulses, before.contactImpulses);
    EXPECT_GT(*std::max_element(after.contactImpulses.begin(), after.contactImpulses.end()), 0.05)
        << "the bottom box carries the stack: 3 × 9.81 N × dt = 0.49 N·s over its four points";
    ASSERT_EQ(after.bodyContacts.size(), before.bodyContacts.size());
    for (size_t i = 0; i < after.bodyContacts.size(); ++i)
        EXPECT_EQ(after.bodyContacts[i].normalImpulse, before.bodyContacts[i].normalImpulse);
}

// A stack saved to text mid-run and loaded continues bit for bit (the stored contacts and their
// impulses are in the file), and so does a World restored from a snapshot.
TEST(Contacts, SaveLoadMidRunIsBitIdentical) {
    Scene s = test::boxStack(5, SolverType::PGS);
    s.bodies[4].linearVelocity = Vec3(0.3, 0, 0);  // the top box slides: friction warm-starts too
    World straight(s), saved(s);
    for (int i = 0; i < 40; ++i) straight.step(), saved.step();
    const WorldSnapshot mid = saved.snapshot();
    ASSERT_FALSE(mid.bodyContacts.empty());
    Scene withState = s;
    withState.state = mid;
    Scene loaded;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(withState), loaded, error)) << error;
    World resumed(loaded);
    World restored(s);
    restored.restore(mid);
    for (int i = 0; i < 60; ++i) straight.step(), resumed.step(), restored.step();
    EXPECT_EQ(resumed.stateHash(), straight.stateHash());
    EXPECT_EQ(restored.stateHash(), straight.stateHash());
    // and without the stored contacts the run differs: they are state the next step depends on
    World cold(s);
    WorldSnapshot noContacts = mid;
    noContacts.bodyContacts.clear();
    cold.restore(noContacts);
    for (int i = 0; i < 60; ++i) cold.step();
    EXPECT_NE(cold.stateHash(), straight.stateHash());
}

// The reference and the fast kernel agree on a stack and a pile of mixed shapes (the fast PGS
// applies a body contact's warm start to both of its bodies, as the reference does).
TEST(Contacts, KernelsAgreeOnContacts) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = test::boxStack(4, solver);
        BodyDesc cyl;
        cyl.name = "cyl";
        cyl.shape = ShapeType::Cylinder;
        cyl.radius = 0.2;
        cyl.halfHeight = 0.3;
        cyl.position = Vec3(0.1, 2.3, 0.05);
        s.bodies.push_back(cyl);
        BodyDesc ball = test::sphere("ball", Vec3(-0.05, 2.8, 0.0), 1.0, 0.15);
        s.bodies.push_back(ball);
        s.settings.kernel = KernelType::Fast;
        World fast(s);
        s.settings.kernel = KernelType::Reference;
        World ref(s);
        Real worst = 0.0;
        for (int i = 0; i < 60; ++i) {
            fast.step(), ref.step();
            for (size_t b = 0; b < s.bodies.size(); ++b)
                worst = std::max(worst, glm::length(fast.bodies()[b].pose.p - ref.bodies()[b].pose.p));
        }
        EXPECT_GT(fast.contactRowCount(), 0);
        EXPECT_LE(worst, 1e-9) << kSolverTypeNames[int(solver)];
    }
}

// Same scene, same bits: two worlds of a falling ragdoll agree to the last bit, and so does one
// restored from a snapshot taken as its limbs whip round on landing (fast-turning pairs are tested
// at their predicted poses then: the points depend on the state alone).
TEST(Contacts, Deterministic) {
    World a(test::ragdoll(1.0)), b(test::ragdoll(1.0));
    for (int i = 0; i < 120; ++i) a.step(), b.step();
    EXPECT_EQ(a.stateHash(), b.stateHash());
    Scene spun = test::ragdoll(1.5);
    spun.bodies[1].angularVelocity = Vec3(3, 0, -1);
    World straight(spun), restored(spun);
    for (int i = 0; i < 40; ++i) straight.step();
    const WorldSnapshot mid = straight.snapshot();
    restored.restore(mid);
    for (int i = 0; i < 40; ++i) straight.step(), restored.step();
    EXPECT_EQ(restored.stateHash(), straight.stateHash());
}

}  // namespace
}  // namespace jl

namespace jl {
namespace {

Scene example(const char* name) {
    Scene s;
    std::string error;
    EXPECT_TRUE(loadScenario(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/" + name, s, error))
        << error;
    return s;
}

// The contact examples do what their descriptions say.
TEST(ContactExamples, DoWhatTheirTextSays) {
    {  // the door swung shut stops at the jamb: its free edge never passes the jamb's face
        World w(example("door_frame.json"));
        Real deepest = 0.0;
        for (int i = 0; i < 180; ++i) {
            w.step();
            const BodyState& d = w.bodies()[static_cast<size_t>(w.scene().findBody("door"))];
            const Vec3 edge = d.pose.apply(Vec3(0.4, 0.0, -0.03));  // back face of the free edge
            deepest = std::max(deepest, -0.04 - edge.z);            // the jamb's front face is z = -0.04
        }
        const BodyState& d = w.bodies()[static_cast<size_t>(w.scene().findBody("door"))];
        std::printf("door: deepest into the jamb %.4f m, final spin %.4f rad/s\n", deepest,
                    glm::length(d.angularVelocity));
        EXPECT_LT(deepest, 0.02);
        EXPECT_LT(glm::length(d.angularVelocity), 0.1);
    }
    {  // both driven gears turn the other way: B at the driver's speed, A through its teeth slower
        World w(example("gears_contact.json"));
        Real sumA = 0.0, sumB = 0.0;
        const int a = w.scene().findBody("drivenA"), b = w.scene().findBody("drivenB");
        for (int i = 0; i < 240; ++i) {
            w.step();
            if (i >= 120) {
                sumA += w.bodies()[static_cast<size_t>(a)].angularVelocity.x / 120;
                sumB += w.bodies()[static_cast<size_t>(b)].angularVelocity.x / 120;
            }
        }
        std::printf("gears: driven through contacts %.3f rad/s, through the gear joint %.3f rad/s\n", sumA,
                    sumB);
        EXPECT_NEAR(sumB, -2.0, 0.05);
        // the text: "driven gear A averages about -1.6 rad/s over its second second" (backlash,
        // chatter, the odd slipped tooth): -1.628 rad/s before TGS's soft contacts, -1.579 after
        EXPECT_NEAR(sumA, -1.6, 0.1);
    }
    {  // the ragdoll ends up below the top step, in one piece
        World w(example("ragdoll_steps.json"));
        for (int i = 0; i < 300; ++i) w.step();
        const Real y = w.bodies()[static_cast<size_t>(w.scene().findBody("pelvis"))].pose.p.y;
        std::printf("ragdoll: pelvis at %.3f m after 5 s (top step 1.25 m)\n", y);
        EXPECT_EQ(w.divergence(), nullptr);
        EXPECT_LT(y, 1.25);
    }
    {  // the stack of five stands (PGS, 16 iterations): its top box moves less than 2 cm in 10 s
        World w(example("box_stack.json"));
        const Vec3 start = w.bodies()[4].pose.p;
        for (int i = 0; i < 600; ++i) w.step();
        std::printf("box stack: top box moved %.4f m in 10 s\n", glm::length(w.bodies()[4].pose.p - start));
        EXPECT_LT(glm::length(w.bodies()[4].pose.p - start), 0.02);
    }
}

// [SECTION] contact rows as the panels and plots read them

// Force = m·g: the net force the contacts push a resting 2 kg box with is its weight, whether it
// rests on the ground, on a static box (body contacts), or in a stack of two (the ground pushes
// the bottom box up with 2·m·g, the box above pushes it down with m·g). After 3 s of settling,
// within 0.1 % (at rest a box's velocity no longer changes, so its contact impulses carry exactly
// m·g·dt). Both solvers, except the stack under TGS, whose stacks rock (docs/contacts.md).
TEST(Contacts, NetContactForceOnARestingBoxIsItsWeight) {
    struct Case {
        const char* name;
        int boxes;
        bool staticBase;
        SolverType solver;
    };
    const Case cases[] = {{"on the ground", 1, false, SolverType::PGS},
                          {"on the ground", 1, false, SolverType::TGS},
                          {"on a static box", 2, true, SolverType::PGS},
                          {"on a static box", 2, true, SolverType::TGS},
                          {"stack of two", 2, false, SolverType::PGS}};
    for (const Case& c : cases) {
        Scene s = test::boxStack(c.boxes, c.solver);
        for (BodyDesc& b : s.bodies) b.mass = 2.0;
        if (c.staticBase) s.bodies[0].motion = MotionType::Static;
        World w(s);
        for (int i = 0; i < 180; ++i) w.step();
        StepSample sample;
        captureStep(w, 0.0, sample);
        ASSERT_EQ(sample.contactForces.size(), s.bodies.size());
        const Real weight = 2.0 * 9.81;
        for (size_t b = c.staticBase ? 1 : 0; b < s.bodies.size(); ++b) {
            const Vec3 f = sample.contactForces[b];
            std::printf("%s, %s, box %zu: net contact force (%.5f, %.5f, %.5f) N, m*g = %.4f N\n", c.name,
                        kSolverTypeNames[int(c.solver)], b, f.x, f.y, f.z, weight);
            EXPECT_NEAR(f.y, weight, 1e-3 * weight) << c.name << " " << kSolverTypeNames[int(c.solver)] << b;
            EXPECT_NEAR(std::hypot(f.x, f.z), 0.0, 1e-3 * weight) << c.name;
        }
    }
}

// The contact rows the row inspector shows are the rows that ran: three per point in
// contactPoints() order, the normal row's impulse the point's, a sliding block's friction rows
// clamped at ±μ·λn and a resting box's not.
TEST(Contacts, ContactRowsMatchTheirPoints) {
    Scene s = test::boxStack(2, SolverType::PGS);
    s.bodies[1].linearVelocity = Vec3(3.0, 0.0, 0.0);  // the top box slides over the bottom one
    World w(s);
    w.step();
    w.step();
    const std::vector<ContactPoint> points = w.contactPoints();
    const auto rows = w.contactRows();
    const auto results = w.contactRowResults();
    ASSERT_EQ(rows.size(), 3 * points.size());
    ASSERT_EQ(results.size(), rows.size());
    int slidingRows = 0, groundRows = 0;
    for (size_t c = 0; c < points.size(); ++c) {
        const ContactPoint& p = points[c];
        ASSERT_EQ(p.firstRow, static_cast<int>(3 * c));
        EXPECT_EQ(results[static_cast<size_t>(p.firstRow)].impulse, p.normalImpulse);
        EXPECT_EQ(rows[static_cast<size_t>(p.firstRow)].linear0, p.normal);
        for (int k = 1; k < 3; ++k) {
            const bool clamped = results[static_cast<size_t>(p.firstRow + k)].clamped;
            (p.body1 < 0 ? groundRows : slidingRows) += clamped ? 1 : 0;
        }
    }
    EXPECT_GT(slidingRows, 0) << "the sliding box's friction rows sit on their cone";
    EXPECT_EQ(groundRows, 0) << "the bottom box does not slide on the ground";
}

}  // namespace
}  // namespace jl
