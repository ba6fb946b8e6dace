// A compound body's children may be hulls (issue 31): their mass properties against closed forms,
// their validation and file form, and their contacts with the ground, other bodies and other
// compounds' children through the collider's one hull path (contacts/collide.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "contact_scenes.h"
#include "jointlab/scenario_io.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"

namespace jl {
namespace {

/// The 8 corners of a box of half sizes h centred on `centre`.
std::vector<Vec3> boxCorners(const Vec3& h, const Vec3& centre = Vec3(0.0)) {
    std::vector<Vec3> p;
    for (int i = 0; i < 8; ++i)
        p.push_back(centre + Vec3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z));
    return p;
}

ShapeDesc hullChild(std::vector<Vec3> points, const Vec3& position, const Quat& orientation) {
    ShapeDesc c;
    c.shape = ShapeType::Hull;
    c.hullPoints = std::move(points);
    c.position = position;
    c.orientation = orientation;
    return c;
}

/// `a` and `b` agree to `rel` of the largest magnitude in `a` (the ~1e-16 round-off of the
/// tetrahedra sums, times a few dozen faces, stays far below 1e-12).
void expectClose(const Mat3& a, const Mat3& b, Real rel, const char* what) {
    Real scale = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) scale = std::max(scale, std::abs(a[i][j]));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_NEAR(a[i][j], b[i][j], rel * scale) << what << " [" << i << "][" << j << "]";
}

// [SECTION] mass properties

// A compound whose hull child is the 8 corners of a box equals the same compound with a box child:
// volume, centroid and the whole inertia tensor (before its diagonal is kept), and the mass and
// principal moments. The hull child is turned and placed off the body's origin, and in the second
// case its points are not centred on the child's own origin either (the cross terms of
// placedTensor): the box child then sits where the points' centre lands.
TEST(CompoundHull, HullOfABoxsCornersEqualsTheBoxChild) {
    const Vec3 h(0.3, 0.2, 0.1);
    const Quat q = glm::normalize(Quat(0.9, 0.2, -0.3, 0.1));
    const Vec3 at(0.4, -0.2, 0.15);
    ShapeDesc sphere;
    sphere.shape = ShapeType::Sphere;
    sphere.radius = 0.15;
    sphere.position = Vec3(-0.5, 0.1, 0.0);
    for (const Vec3& offset : {Vec3(0.0), Vec3(0.25, -0.1, 0.35)}) {
        BodyDesc withBox, withHull;
        withBox.shape = withHull.shape = ShapeType::Compound;
        withBox.massMode = withHull.massMode = MassMode::Density;
        withBox.density = withHull.density = 700.0;
        ShapeDesc box;
        box.halfExtents = h;
        box.position = at + glm::mat3_cast(q) * offset;
        box.orientation = q;
        withBox.children = {sphere, box};
        withHull.children = {sphere, hullChild(boxCorners(h, offset), at, q)};
        const VolumeProperties vb = volumeProperties(withBox), vh = volumeProperties(withHull);
        EXPECT_NEAR(vh.volume, vb.volume, 1e-12 * vb.volume);
        for (int k = 0; k < 3; ++k)
            EXPECT_NEAR(vh.centroid[k], vb.centroid[k], 1e-12 * glm::length(vb.centroid));
        expectClose(vb.inertia, vh.inertia, 1e-12, "inertia tensor");
        const MassProperties mb = computeMassProperties(withBox), mh = computeMassProperties(withHull);
        EXPECT_NEAR(mh.mass, mb.mass, 1e-12 * mb.mass);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(mh.inertia[k], mb.inertia[k], 1e-12 * mb.inertia[k]);
        // And the closed form of the box child alone, about the body origin: the box's own moments
        // turned by q plus the parallel-axis term V (|c|² 1 − c cᵀ).
        ShapeDesc onlyHull = withHull.children[1];
        BodyDesc single;
        single.shape = ShapeType::Compound;
        single.children = {onlyHull};
        const VolumeProperties vs = volumeProperties(single);
        const Real v = 8 * h.x * h.y * h.z;
        const Mat3 r = glm::mat3_cast(q);
        Mat3 own(0.0);
        own[0][0] = v / 3 * (h.y * h.y + h.z * h.z), own[1][1] = v / 3 * (h.x * h.x + h.z * h.z);
        own[2][2] = v / 3 * (h.x * h.x + h.y * h.y);
        Mat3 expected = r * own * glm::transpose(r);
        const Vec3 c = box.position;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) expected[a][b] += v * ((a == b ? glm::dot(c, c) : 0.0) - c[a] * c[b]);
        EXPECT_NEAR(vs.volume, v, 1e-12 * v);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(vs.centroid[k], c[k], 1e-12);
        expectClose(expected, vs.inertia, 1e-12, "closed form");
    }
}

// A hull child's own properties are the body-level hull's (one copy of the maths): a hull body of
// the same points has the same volume, centroid and tensor, bit for bit.
TEST(CompoundHull, ChildPropertiesAreTheHullBodys) {
    const std::vector<Vec3> pts = {Vec3(0.1, 0, 0), Vec3(0, 0.2, 0), Vec3(0, 0, 0.15),
                                   Vec3(-0.05, -0.05, -0.05), Vec3(0.07, 0.07, 0.07)};
    BodyDesc body;
    body.shape = ShapeType::Hull;
    body.hullPoints = pts;
    const VolumeProperties a = volumeProperties(body),
                           b = volumeProperties(hullChild(pts, Vec3(0.0), kIdentityQuat));
    EXPECT_EQ(a.volume, b.volume);
    EXPECT_EQ(a.centroid, b.centroid);
    EXPECT_EQ(a.inertia, b.inertia);
    EXPECT_EQ(shapeRadius(body), shapeRadius(hullChild(pts, Vec3(0.0), kIdentityQuat)));
}

// [SECTION] validation and files

Scene compoundScene(ShapeDesc child) {
    Scene s = test::emptyScene();
    BodyDesc b;
    b.name = "c";
    b.shape = ShapeType::Compound;
    ShapeDesc box;
    b.children = {box, std::move(child)};
    s.bodies.push_back(b);
    return s;
}

// Every problem of a hull child is refused naming the child's field and the problem.
TEST(CompoundHull, BadHullChildrenAreRefusedByName) {
    struct Case {
        std::vector<Vec3> points;
        const char* path;
        const char* problem;
    };
    std::vector<Vec3> many;
    for (int i = 0; i <= kMaxHullPoints; ++i)
        many.push_back(Vec3(std::cos(0.1 * i), std::sin(0.1 * i), 0.001 * i) * 0.2);
    std::vector<Vec3> nan = boxCorners(Vec3(0.1)), far = boxCorners(Vec3(0.1));
    nan[2].x = std::nan("");
    far[5].z = 150.0;
    const Case cases[] = {
        {{Vec3(0), Vec3(1, 0, 0), Vec3(0, 1, 0)},
         "bodies[0].children[1].hullPoints:",
         "4 to 256 points, got 3"},
        {{Vec3(0), Vec3(0.1, 0, 0), Vec3(0, 0.1, 0), Vec3(0.1, 0.1, 0)},
         "bodies[0].children[1].hullPoints:",
         "enclose no volume"},
        {many, "bodies[0].children[1].hullPoints:", "got 257"},
        {nan, "bodies[0].children[1].hullPoints[2][0]:", "must be finite"},
        {far, "bodies[0].children[1].hullPoints[5][2]:", "within ±100 m, got 150"},
    };
    for (const Case& c : cases) {
        const Scene s = compoundScene(hullChild(c.points, Vec3(0.3, 0, 0), kIdentityQuat));
        const std::string e = validateScene(s);
        EXPECT_NE(e.find(c.path), std::string::npos) << e;
        EXPECT_NE(e.find(c.problem), std::string::npos) << e;
    }
    // In a file: the same message, and the scene it was to replace is left as it was.
    Scene target = compoundScene(hullChild(boxCorners(Vec3(0.1)), Vec3(0.3, 0, 0), kIdentityQuat));
    const std::string before = serializeScenario(target);
    std::string text =
        serializeScenario(compoundScene(hullChild(cases[1].points, Vec3(0.3, 0, 0), kIdentityQuat)));
    std::string error;
    EXPECT_FALSE(parseScenario(text, target, error));
    EXPECT_NE(error.find("bodies[0].children[1].hullPoints: the points enclose no volume"), std::string::npos)
        << error;
    EXPECT_EQ(serializeScenario(target), before);
    // A compound's child may not be a compound.
    const size_t at = text.find("\"shape\": \"hull\"");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, 15, "\"shape\": \"compound\"");
    EXPECT_FALSE(parseScenario(text, target, error));
    EXPECT_NE(error.find("bodies[0].children[1].shape"), std::string::npos) << error;
    EXPECT_EQ(serializeScenario(target), before);
}

// A hull child's points survive a save and a load bit for bit; a primitive child is written without
// a hullPoints key, so files of compounds written before hull children read and write as before.
TEST(CompoundHull, HullChildRoundTripsAndOldFilesAreUnchanged) {
    const Scene s = compoundScene(
        hullChild({Vec3(0.1, 0, 0), Vec3(0, 0.1, 0), Vec3(0, 0, 0.1), Vec3(-0.05, -0.05, -0.05)},
                  Vec3(0.3, 0.1, 0), test::axisAngle(Vec3(0, 1, 0), 0.4)));
    const std::string text = serializeScenario(s);
    Scene back;
    std::string error;
    ASSERT_TRUE(parseScenario(text, back, error)) << error;
    ASSERT_EQ(back.bodies[0].children.size(), 2u);
    EXPECT_TRUE(back.bodies[0].children[0].hullPoints.empty());
    EXPECT_EQ(back.bodies[0].children[1].shape, ShapeType::Hull);
    EXPECT_EQ(back.bodies[0].children[1].hullPoints, s.bodies[0].children[1].hullPoints);
    EXPECT_EQ(serializeScenario(back), text);

    const std::string old =
        R"({"format": "jointlab-scenario", "version": 2, "bodies": [{"name": "L", "shape": "compound",
            "children": [{"shape": "box", "halfExtents": [0.2, 0.05, 0.05]},
                         {"shape": "cylinder", "radius": 0.05, "halfHeight": 0.1, "position": [0.2, 0.1, 0]}]}]})";
    Scene oldScene;
    ASSERT_TRUE(parseScenario(old, oldScene, error)) << error;
    const std::string written = serializeScenario(oldScene);
    EXPECT_EQ(written.find("hullPoints"), std::string::npos) << written;
    Scene again;
    ASSERT_TRUE(parseScenario(written, again, error)) << error;
    EXPECT_EQ(serializeScenario(again), written);
}

// [SECTION] contacts

/// A 3 kg compound: a hexagonal prism hull child under its origin (its flat bottom 0.25 m below
/// it, 0.3 m in radius, reaching x = 0.35) and a box child off to the side (x from 0.4 to 0.6) whose bottom
/// is 5 cm higher, so that on a flat support it rests on the hull child alone. Placed with its lowest hull
/// point at `bottom`.
BodyDesc hullFooted(const std::string& name, Real bottom) {
    BodyDesc b;
    b.name = name;
    b.shape = ShapeType::Compound;
    b.mass = 3.0;
    std::vector<Vec3> prism;
    for (int k = 0; k < 6; ++k) {
        const Real a = kPi / 3 * k + 0.2;
        for (Real y : {-0.1, 0.1}) prism.push_back(Vec3(0.3 * std::cos(a), y, 0.3 * std::sin(a)));
    }
    b.children.push_back(hullChild(prism, Vec3(0.05, -0.15, 0.0), kIdentityQuat));  // bottom at y = -0.25
    ShapeDesc box;
    box.halfExtents = Vec3(0.1, 0.15, 0.1);
    box.position = Vec3(0.5, -0.05, 0.0);  // x from 0.4 to 0.6, bottom at y = -0.2: 5 cm above the hull's
    b.children.push_back(box);
    b.position = Vec3(0.0, bottom + 0.25, 0.0);
    return b;
}

// A compound of a box child and a hull child rests on the hull child: on the ground, on a static
// box and on a static compound's hull child. After 3 s its contacts push it up with m·g within
// 0.1 % (at rest its velocity no longer changes, so the impulses carry exactly m·g·dt; the same
// bound as Contacts.NetContactForceOnARestingBoxIsItsWeight), its origin stands 0.25 m above
// the support (the hull's lowest point) within 1 mm (the soft contacts settle by an overlap of
// g/ω² ≈ 0.07 mm at 60 Hz, plus the step's position slop), and every contact point lies under the
// hull child's footprint, none under the box child.
TEST(CompoundHull, RestsOnItsHullChildWithItsWeight) {
    struct Case {
        const char* name;
        int support;  // 0: the ground; 1: a static box; 2: a static compound with a hull child on top
        SolverType solver;
    };
    const Case cases[] = {{"ground", 0, SolverType::PGS},
                          {"ground", 0, SolverType::TGS},
                          {"static box", 1, SolverType::PGS},
                          {"static box", 1, SolverType::TGS},
                          {"static compound's hull child", 2, SolverType::PGS},
                          {"static compound's hull child", 2, SolverType::TGS}};
    for (const Case& c : cases) {
        Scene s = test::emptyScene(c.support == 0);
        s.settings.solver = c.solver;
        Real top = 0.0;
        if (c.support == 1) {
            BodyDesc base = test::box("base", Vec3(0, 0.5, 0), Vec3(1.0, 0.5, 1.0), 10.0);
            base.motion = MotionType::Static;
            s.bodies.push_back(base);
            top = 1.0;
        } else if (c.support == 2) {
            BodyDesc base = hullFooted("base", 0.5);  // its hull child's top face at y = 0.5 + 0.2
            base.orientation = test::axisAngle(Vec3(1, 0, 0), kPi);  // upside down: the hull on top
            base.position.y = 0.5;
            base.motion = MotionType::Static;
            s.bodies.push_back(base);
            top = 0.75;
        }
        s.bodies.push_back(hullFooted("foot", top + 0.01));
        const int foot = static_cast<int>(s.bodies.size()) - 1;
        World w(s);
        for (int i = 0; i < 180; ++i) w.step();
        ASSERT_EQ(w.divergence(), nullptr) << c.name;
        const BodyState& st = w.bodies()[static_cast<size_t>(foot)];
        StepSample sample;
        captureStep(w, 0.0, sample);
        const Vec3 f = sample.contactForces[static_cast<size_t>(foot)];
        const Real weight = 3.0 * 9.81;
        std::printf(
            "%s, %s: net contact force (%.5f, %.5f, %.5f) N, m*g = %.4f N; origin %.5f m above the support\n",
            c.name, kSolverTypeNames[int(c.solver)], f.x, f.y, f.z, weight, st.pose.p.y - top);
        EXPECT_NEAR(f.y, weight, 1e-3 * weight) << c.name << " " << kSolverTypeNames[int(c.solver)];
        EXPECT_NEAR(std::hypot(f.x, f.z), 0.0, 1e-3 * weight) << c.name;
        EXPECT_NEAR(st.pose.p.y - top, 0.25, 1e-3) << c.name << " " << kSolverTypeNames[int(c.solver)];
        int points = 0;
        for (const ContactPoint& p : w.contactPoints()) {
            if (p.body0 != foot && p.body1 != foot) continue;
            ++points;
            const Vec3 local = glm::conjugate(st.pose.q) * (p.point - st.pose.p);
            EXPECT_LT(std::hypot(local.x - 0.05, local.z), 0.3 + 1e-3) << c.name << ": under the hull child";
            EXPECT_LT(local.x, 0.4) << c.name << ": not under the box child (x from 0.4 to 0.6)";
            EXPECT_NEAR(local.y, -0.25, 2e-3) << c.name << ": on the hull child's bottom face";
        }
        EXPECT_GE(points, 3) << c.name << ": a face resting needs at least three points";
    }
}

// At the limits (kMaxChildShapes hull children of kMaxHullPoints points each, 16,384 points): the
// body saves and loads, validates, builds and settles on the ground in 3 s, its contacts carrying
// its weight within 1 % (its 16 lumps underneath rock a little longer than a flat face would).
TEST(CompoundHull, SixtyFourHullsOf256PointsLoadAndSettle) {
    BodyDesc b;
    b.name = "lumps";
    b.shape = ShapeType::Compound;
    b.mass = 5.0;
    for (int k = 0; k < kMaxChildShapes; ++k) {
        std::vector<Vec3> pts;
        for (int i = 0; i < kMaxHullPoints; ++i) {  // a lumpy ellipsoid, a golden-angle spiral
            const Real z = 1.0 - (2.0 * i + 1.0) / kMaxHullPoints, r = std::sqrt(1.0 - z * z),
                       phi = 2.39996323 * i;
            const Real bump = 1.0 + 0.08 * std::sin(5 * phi + k) * std::cos(3 * z + k);
            pts.push_back(0.07 * bump *
                          Vec3(r * std::cos(phi) * (1.0 + 0.3 * std::sin(k)), r * std::sin(phi), 0.9 * z));
        }
        b.children.push_back(hullChild(pts, 0.12 * (Vec3(k % 4, (k / 4) % 4, k / 16) - Vec3(1.5)),
                                       test::axisAngle(Vec3(0, 1, 0), 0.3 * k)));
    }
    b.position = Vec3(0, 0.4, 0);
    Scene s = test::emptyScene(true);
    s.bodies.push_back(b);
    Scene loaded;
    std::string error;
    ASSERT_TRUE(parseScenario(serializeScenario(s), loaded, error)) << error;
    ASSERT_EQ(loaded.bodies[0].children.size(), static_cast<size_t>(kMaxChildShapes));
    World w(loaded);
    for (int i = 0; i < 180; ++i) w.step();
    ASSERT_EQ(w.divergence(), nullptr);
    StepSample sample;
    captureStep(w, 0.0, sample);
    const Real weight = 5.0 * 9.81;
    std::printf(
        "64 hulls of 256 points: net contact force %.4f N (m*g = %.4f N), %zu contact points, at y = %.4f "
        "m\n",
        sample.contactForces[0].y, weight, w.contactPoints().size(), w.bodies()[0].pose.p.y);
    EXPECT_NEAR(sample.contactForces[0].y, weight, 1e-2 * weight);
    EXPECT_LT(glm::length(w.bodies()[0].linearVelocity), 1e-2);
}

}  // namespace
}  // namespace jl
