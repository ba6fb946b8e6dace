// Meshes of an imported body as hull children of a compound (issue 31): beside primitives, and
// several meshes on one body, each mesh is a hull of its own at the geom's pose; a mesh alone is
// still the body's hull; a flat mesh still its bounding box. And a compound's hull child exported
// to MJCF as a mesh geom that MuJoCo loads back.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "interop/axes.h"
#include "interop/import_shapes.h"
#include "interop/mjcf_export.h"
#include "interop/mjcf_import.h"
#include "interop/mujoco_model.h"
#include "jointlab/scenario_io.h"
#include "jointlab/world.h"

namespace jl::interop {
namespace {

const BodyDesc& body(const Scene& s, const std::string& name) {
    const int i = s.findBody(name);
    EXPECT_GE(i, 0) << "no body " << name;
    return s.bodies[static_cast<size_t>(std::max(i, 0))];
}

/// An octahedron's 6 vertices, radius r, about c (as an MJCF vertex list, model coordinates).
std::vector<Vec3> octahedron(const Vec3& c, Real r) {
    return {c + Vec3(r, 0, 0), c - Vec3(r, 0, 0), c + Vec3(0, r, 0),
            c - Vec3(0, r, 0), c + Vec3(0, 0, r), c - Vec3(0, 0, r)};
}
std::string vertexList(const std::vector<Vec3>& pts) {
    std::ostringstream s;
    for (const Vec3& p : pts) s << p.x << " " << p.y << " " << p.z << " ";
    return s.str();
}

/// Each of `model` (Z-up model world) has a point of child `c` of `b` at it (Y-up), to float
/// precision (MuJoCo keeps mesh vertices as floats: 1e-6 m at these sizes), and the child has no
/// other points.
void expectChildHoldsPoints(const BodyDesc& b, const ShapeDesc& c, const std::vector<Vec3>& model) {
    ASSERT_EQ(c.shape, ShapeType::Hull);
    ASSERT_EQ(c.hullPoints.size(), model.size());
    const Transform pose = Transform{b.position, b.orientation} * Transform{c.position, c.orientation};
    for (const Vec3& m : model) {
        Real nearest = kInf;
        for (const Vec3& p : c.hullPoints) nearest = std::min(nearest, glm::length(pose.apply(p) - toYUp(m)));
        EXPECT_LT(nearest, 1e-6) << "model vertex (" << m.x << ", " << m.y << ", " << m.z << ")";
    }
}

// A mesh beside a box is a hull child holding the mesh's own vertices (not its bounding box), and
// two meshes on one body are two hull children, each with its own vertices (not one merged hull).
TEST(ImportHullChildren, MeshesBecomeHullChildrenOfTheirOwn) {
    const std::vector<Vec3> a = octahedron(Vec3(0.3, 0, 0), 0.1), b = octahedron(Vec3(-0.3, 0.1, 0), 0.15);
    const std::string xml = "<mujoco><asset><mesh name='a' vertex='" + vertexList(a) +
                            "'/><mesh name='b' vertex='" + vertexList(b) +
                            "'/></asset><worldbody><body name='mixed' pos='0 0 1'><freejoint/>"
                            "<geom type='box' size='0.1 0.1 0.1'/><geom type='mesh' mesh='a'/></body>"
                            "<body name='pair' pos='0 0 2'><freejoint/><geom type='mesh' mesh='a'/>"
                            "<geom type='mesh' mesh='b'/></body>"
                            "<body name='alone' pos='0 0 3'><freejoint/><geom type='mesh' mesh='b'/></body>"
                            "</worldbody></mujoco>";
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfText(xml, "meshes.xml", s, warning, error)) << error;
    EXPECT_EQ(warning.find("bounding box"), std::string::npos) << warning;
    auto shifted = [](std::vector<Vec3> p, const Vec3& by) {
        for (Vec3& x : p) x += by;
        return p;
    };
    const BodyDesc& mixed = body(s, "mixed");
    ASSERT_EQ(mixed.shape, ShapeType::Compound);
    ASSERT_EQ(mixed.children.size(), 2u);
    EXPECT_EQ(mixed.children[0].shape, ShapeType::Box);
    expectChildHoldsPoints(mixed, mixed.children[1], shifted(a, Vec3(0, 0, 1)));

    const BodyDesc& pair = body(s, "pair");
    ASSERT_EQ(pair.shape, ShapeType::Compound);
    ASSERT_EQ(pair.children.size(), 2u);
    expectChildHoldsPoints(pair, pair.children[0], shifted(a, Vec3(0, 0, 2)));
    expectChildHoldsPoints(pair, pair.children[1], shifted(b, Vec3(0, 0, 2)));

    const BodyDesc& alone = body(s, "alone");  // as before: the body's own hull
    EXPECT_EQ(alone.shape, ShapeType::Hull);
    EXPECT_EQ(alone.hullPoints.size(), b.size());
    EXPECT_EQ(validateScene(s), "");
}

// A flat mesh (a decal) beside a primitive becomes its bounding box in its own frame, noted; a
// mesh of more than kMaxHullPoints vertices is thinned to its extreme points, noted.
TEST(ImportHullChildren, FlatMeshIsItsBoundingBoxAndBigOnesAreThinned) {
    ImportedGeom box, flat, big;
    box.kind = ImportedGeom::Kind::Box;
    box.halfExtents = Vec3(0.1);
    flat.kind = big.kind = ImportedGeom::Kind::Mesh;
    flat.label = "mesh decal";
    big.label = "mesh ball";
    flat.points = {Vec3(0, 0, 0), Vec3(0.2, 0, 0), Vec3(0, 0.4, 0), Vec3(0.2, 0.4, 0)};
    flat.world.p = Vec3(0.5, 0, 0);
    for (int i = 0; i < 1000; ++i) {  // a sphere of 1000 points (a spiral), radius 0.2
        const Real z = 1.0 - (2.0 * i + 1.0) / 1000.0, r = std::sqrt(1.0 - z * z), phi = 2.39996323 * i;
        big.points.push_back(0.2 * Vec3(r * std::cos(phi), r * std::sin(phi), z));
    }
    big.world.p = Vec3(-0.5, 0, 0);
    BodyDesc d;
    d.name = "b";
    ImportNotes notes;
    makeShapes(d, Transform{}, {&box, &flat, &big}, notes);
    ASSERT_EQ(d.shape, ShapeType::Compound);
    ASSERT_EQ(d.children.size(), 3u);
    const ShapeDesc& decal = d.children[1];
    EXPECT_EQ(decal.shape, ShapeType::Box);
    EXPECT_LT(glm::length(decal.halfExtents - Vec3(0.1, 0.2, kMinSize)), 1e-12);
    EXPECT_LT(glm::length(decal.position - toYUp(Vec3(0.6, 0.2, 0))), 1e-12);
    const ShapeDesc& ball = d.children[2];
    EXPECT_EQ(ball.shape, ShapeType::Hull);
    EXPECT_EQ(ball.hullPoints.size(), static_cast<size_t>(kMaxHullPoints));
    // 256 extreme points of a sphere of 1000 hold most of its volume (4/3 π r³ = 0.0335 m³).
    const Real v = volumeProperties(ball).volume;
    EXPECT_GT(v, 0.9 * 4.0 / 3.0 * kPi * 0.008);
    EXPECT_LT(v, 4.0 / 3.0 * kPi * 0.008);
    const std::string text = notes.text();
    EXPECT_NE(text.find("flat meshes (no volume) became their bounding boxes (mesh decal)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("thinned to 256 of their extreme points (mesh ball)"), std::string::npos) << text;
}

// MuJoCo's mug: its mesh (contype = conaffinity = 0) is only seen, over the 20 boxes and the
// cylinder that collide, so it is left out with a note; as a hull it would fill the cup (a ball
// dropped in would rest on its rim). What collides in MuJoCo collides in JointLab.
TEST(ImportHullChildren, MugsSeenOnlyMeshIsLeftOutAndItsWallsCollide) {
    const std::string path = std::string(JOINTLAB_MUJOCO_MODELS) + "/mug/mug.xml";
    if (!std::ifstream(path)) GTEST_SKIP() << path << " is missing: install libmujoco-samples";
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfFile(path, s, warning, error)) << error;
    EXPECT_EQ(warning.find("bounding box"), std::string::npos) << warning;
    EXPECT_NE(
        warning.find("geoms only seen (contype = conaffinity = 0) beside geoms that collide (mesh mug)"),
        std::string::npos)
        << warning;
    const BodyDesc& mug = body(s, "mug");
    ASSERT_EQ(mug.shape, ShapeType::Compound);
    int boxes = 0, cylinders = 0, hulls = 0;
    for (const ShapeDesc& c : mug.children) {
        boxes += c.shape == ShapeType::Box ? 1 : 0;
        cylinders += c.shape == ShapeType::Cylinder ? 1 : 0;
        hulls += c.shape == ShapeType::Hull ? 1 : 0;
    }
    EXPECT_EQ(boxes, 20);
    EXPECT_EQ(cylinders, 1);
    EXPECT_EQ(hulls, 0);
    EXPECT_NE(mug.collisionGroup, 0);
    EXPECT_EQ(validateScene(s), "");
}

// tests/data/interop/hull_children.xml (the docs' screenshot): the mallet's mesh that is only seen
// is left out, its head a hull child beside the cylinder; the dumbbell rests on its two octahedral
// weights (vertices 0.09 m from their centres, on the body's axis), not on its capsule bar
// (radius 0.015 m): its centre settles 0.09 m above the ground, to the contact's slop.
TEST(ImportHullChildren, TheDumbbellRestsOnItsHullsAndTheMeshOnlySeenIsLeftOut) {
    Scene s;
    std::string warning, error;
    ASSERT_TRUE(importMjcfFile(std::string(JOINTLAB_SOURCE_DIR) + "/tests/data/interop/hull_children.xml", s,
                               warning, error))
        << error;
    EXPECT_NE(warning.find("(mesh weight)"), std::string::npos) << warning;
    const BodyDesc& mallet = body(s, "mallet");
    ASSERT_EQ(mallet.children.size(), 2u);
    EXPECT_EQ(mallet.children[0].shape, ShapeType::Cylinder);
    EXPECT_EQ(mallet.children[1].shape, ShapeType::Hull);
    World w(s);
    for (int k = 0; k < 1000; ++k) w.step();  // 2 s at 2 ms
    const BodyState& d = w.bodies()[static_cast<size_t>(s.findBody("dumbbell"))];
    EXPECT_NEAR(d.pose.p.y, 0.09, 2e-3);
    EXPECT_LT(glm::length(d.linearVelocity), 1e-2);
}

// A compound's hull child is exported as a mesh geom of its points; MuJoCo compiles the model
// and its geom is a mesh whose vertices, placed by MuJoCo's geom pose, are the child's points in
// the world (MuJoCo recentres a mesh on its own centroid and moves the geom to match).
TEST(ImportHullChildren, HullChildExportsAsAMeshMujocoLoads) {
    Scene s;
    s.settings.groundPlane = false;
    BodyDesc b;
    b.name = "c";
    b.shape = ShapeType::Compound;
    b.position = Vec3(0.1, 1.0, -0.2);
    b.orientation = glm::normalize(Quat(0.9, 0.1, 0.3, 0.0));
    ShapeDesc box;
    box.position = Vec3(-0.2, 0, 0);
    ShapeDesc hull;
    hull.shape = ShapeType::Hull;
    hull.hullPoints = {Vec3(0.1, 0, 0), Vec3(0, 0.12, 0), Vec3(0, 0, 0.15), Vec3(-0.05, -0.05, -0.05)};
    hull.position = Vec3(0.25, 0.05, 0);
    hull.orientation = glm::normalize(Quat(0.8, 0.0, 0.0, 0.6));
    b.children = {box, hull};
    s.bodies.push_back(b);
    const MjcfExport out = exportScene(s);
    ASSERT_TRUE(out.error.empty()) << out.error;
    EXPECT_NE(out.xml.find("<mesh name=\"hull0_1\""), std::string::npos) << out.xml;
    std::string error;
    const ModelPtr model = compileMjcfText(out.xml, "hull_child.xml", error);
    ASSERT_TRUE(model) << error << "\n" << out.xml;
    const mjModel* m = model.get();
    const DataPtr data = makeData(m);
    mjData* d = data.get();
    mj_forward(m, d);
    int meshGeom = -1;
    for (int g = 0; g < m->ngeom; ++g)
        if (m->geom_type[g] == mjGEOM_MESH) meshGeom = g;
    ASSERT_GE(meshGeom, 0);
    const int mesh = m->geom_dataid[meshGeom];
    ASSERT_EQ(m->mesh_vertnum[mesh], 4);
    const Transform child = Transform{b.position, b.orientation} * Transform{hull.position, hull.orientation};
    const mjtNum* xp = d->geom_xpos + 3 * meshGeom;
    const mjtNum* xm = d->geom_xmat + 9 * meshGeom;
    for (int k = 0; k < 4; ++k) {
        const float* v = m->mesh_vert + 3 * (m->mesh_vertadr[mesh] + k);
        const Vec3 world(xp[0] + xm[0] * v[0] + xm[1] * v[1] + xm[2] * v[2],
                         xp[1] + xm[3] * v[0] + xm[4] * v[1] + xm[5] * v[2],
                         xp[2] + xm[6] * v[0] + xm[7] * v[1] + xm[8] * v[2]);
        Real nearest = kInf;
        for (const Vec3& p : hull.hullPoints)
            nearest = std::min(nearest, glm::length(toYUp(world) - child.apply(p)));
        EXPECT_LT(nearest, 1e-6) << "vertex " << k;  // MuJoCo's vertices are floats
    }
}

}  // namespace
}  // namespace jl::interop
