// MJCF export (interop/mjcf_export.h): every shipped example is written, loaded back through
// MuJoCo's compiler, and the tree examples are checked field by field against the scene.
#include "interop/mjcf_export.h"

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "interop/axes.h"
#include "interop/mujoco_model.h"
#include "jointlab/scenario_io.h"

namespace jl::interop {
namespace {

namespace fs = std::filesystem;

Vec3 v3(const mjtNum* p) {
    return Vec3(p[0], p[1], p[2]);
}
Quat q4(const mjtNum* p) {
    return Quat(p[0], p[1], p[2], p[3]);
}

Transform worldPose(const Scene& s, const std::string& body) {
    const int b = s.findBody(body);
    if (b < 0) return {};
    return {s.bodies[static_cast<size_t>(b)].position, s.bodies[static_cast<size_t>(b)].orientation};
}

std::vector<fs::path> examples() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios"))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Every example is written and MuJoCo compiles what was written (the tree part when there are
// loops); the examples whose joints form a tree lose nothing, and MuJoCo holds them field by field
// as the scene does: masses, inertias, poses at the start, joint axes and anchors (world frame,
// after MuJoCo's own forward kinematics at qpos0 = ref = the scene's start).
TEST(MjcfExport, EveryExampleLoadsBackAndTreesMatchFieldByField) {
    std::set<std::string> trees;
    for (const fs::path& file : examples()) {
        SCOPED_TRACE(file.filename().string());
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario(file.string(), scene, error)) << error;
        const MjcfExport e = exportScene(scene);
        ASSERT_TRUE(e.error.empty()) << e.error;
        const ModelPtr m = compileMjcfText(e.xml, "export.xml", error);
        ASSERT_TRUE(m) << error << "\n" << e.xml;
        EXPECT_DOUBLE_EQ(m->opt.timestep, scene.settings.dt);
        EXPECT_NEAR(glm::length(toYUp(v3(m->opt.gravity)) - scene.settings.gravity), 0.0, 1e-12);
        if (!e.loopJoint.empty() || !e.omitted.empty()) continue;
        trees.insert(file.stem().string());

        // Every scene body is a MuJoCo body (static ones fixed to the world), the moving ones first.
        ASSERT_EQ(m->nbody, static_cast<int>(scene.bodies.size()) + 1);
        const DataPtr d = makeData(m.get());
        mj_forward(m.get(), d.get());
        for (size_t k = 0; k < e.tree.order.size(); ++k) {
            const int mb = static_cast<int>(k) + 1;
            const BodyDesc& b = scene.bodies[static_cast<size_t>(e.tree.order[k])];
            SCOPED_TRACE(b.name);
            EXPECT_STREQ(mj_id2name(m.get(), mjOBJ_BODY, mb), b.name.c_str());
            const MassProperties mp = computeMassProperties(b);
            EXPECT_NEAR(m->body_mass[mb], mp.mass, 1e-12 * mp.mass);
            EXPECT_NEAR(glm::length(v3(m->body_inertia + 3 * mb) - mp.inertia), 0.0,
                        1e-12 * glm::length(mp.inertia));
            EXPECT_NEAR(glm::length(v3(m->body_ipos + 3 * mb)), 0.0, 1e-15);
            EXPECT_NEAR(glm::length(toYUp(v3(d->xpos + 3 * mb)) - b.position), 0.0, 1e-9);
            EXPECT_NEAR(std::abs(glm::dot(toYUp(q4(d->xquat + 4 * mb)), b.orientation)), 1.0, 1e-12);
        }
        for (size_t j = 0; j < scene.joints.size(); ++j) {
            const JointDesc& jd = scene.joints[j];
            SCOPED_TRACE(jd.name);
            if (!hasCoordinate(jd)) continue;
            const int mj = mj_name2id(m.get(), mjOBJ_JOINT, jd.name.c_str());
            ASSERT_GE(mj, 0);
            const Transform f0 = worldPose(scene, jd.body0) * jd.frame0,
                            f1 = worldPose(scene, jd.body1) * jd.frame1;
            // The anchor is where both frames are (the examples start without joint error).
            EXPECT_NEAR(glm::length(toYUp(v3(d->xanchor + 3 * mj)) - f1.p), 0.0, 1e-9);
            EXPECT_NEAR(glm::length(toYUp(v3(d->xanchor + 3 * mj)) - f0.p), 0.0, 1e-9);
            if (m->jnt_type[mj] == mjJNT_BALL) continue;
            // MuJoCo's axis is frame X of the MuJoCo child; its qpos is JointLab's coordinate × sign.
            const int sign = e.tree.sign[j];
            ASSERT_NE(sign, 0);
            EXPECT_NEAR(
                glm::length(toYUp(v3(d->xaxis + 3 * mj)) - (sign > 0 ? f1 : f0).rotate(Vec3(1, 0, 0))), 0.0,
                1e-12);
            EXPECT_NEAR(d->qpos[m->jnt_qposadr[mj]],
                        sign * jointCoordinate(jd, worldPose(scene, jd.body0), worldPose(scene, jd.body1)),
                        1e-12);
            const LimitPair& limit = m->jnt_type[mj] == mjJNT_HINGE
                                         ? std::get<RevoluteJoint>(jd.params).limit
                                         : std::get<PrismaticJoint>(jd.params).limit;
            EXPECT_EQ(m->jnt_limited[mj] != 0, limit.enabled);
            if (limit.enabled) {
                EXPECT_DOUBLE_EQ(m->jnt_range[2 * mj], sign > 0 ? limit.lower : -limit.upper);
                EXPECT_DOUBLE_EQ(m->jnt_range[2 * mj + 1], sign > 0 ? limit.upper : -limit.lower);
            }
        }
    }
    // The examples that are trees by construction are found to be trees.
    for (const char* name :
         {"pendulum", "pendulum_hinge", "chain20", "door_hinge", "driven_arm", "ragdoll_steps", "gear_train",
          "mass_spring", "box_stack", "welded_pair", "reference_arm"})
        EXPECT_TRUE(trees.count(name)) << name;
}

// A bridge anchored at both ends is a loop: the joint where the walks from its two ends meet is
// named and left out (the crate's distance rope too); the distance rope has no MuJoCo joint at all.
TEST(MjcfExport, LoopsAndUnmappedJointsAreNamed) {
    const auto load = [](const char* name) {
        Scene s;
        std::string error;
        EXPECT_TRUE(
            loadScenario((fs::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios" / name).string(), s, error))
            << error;
        return s;
    };
    const MjcfExport bridge = exportScene(load("bridge.json"));
    EXPECT_EQ(bridge.loopJoint.rfind("joint ", 0), 0u) << bridge.loopJoint;
    ASSERT_EQ(bridge.omitted.size(), 2u);
    EXPECT_NE(bridge.omitted[0].find("(distance): MuJoCo has no such joint"), std::string::npos);
    EXPECT_NE(bridge.omitted[1].find("\"" + bridge.loopJoint + "\" (revolute): closes a loop"),
              std::string::npos)
        << bridge.omitted[1];
    const MjcfExport rope = exportScene(load("rope.json"));
    EXPECT_TRUE(rope.loopJoint.empty());
    ASSERT_FALSE(rope.omitted.empty());
    EXPECT_NE(rope.omitted[0].find("(distance): MuJoCo has no such joint"), std::string::npos)
        << rope.omitted[0];
    std::string error, warning;
    EXPECT_FALSE(exportMjcf(load("rope.json"), error, &warning).empty());
    EXPECT_NE(warning.find("left out: joint"), std::string::npos) << warning;
}

// A gear between two world hinges becomes a joint equality whose polycoef holds the gear's law:
// stepping MuJoCo with the first gear turned, the second follows at −ratio (gear_train.json).
TEST(MjcfExport, GearBecomesJointEqualityThatHolds) {
    Scene s;
    std::string error;
    ASSERT_TRUE(loadScenario((fs::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios/gear_train.json").string(), s,
                             error));
    const MjcfExport e = exportScene(s);
    ASSERT_TRUE(e.omitted.empty()) << e.omitted[0];
    const ModelPtr m = compileMjcfText(e.xml, "gears.xml", error);
    ASSERT_TRUE(m) << error;
    ASSERT_EQ(m->neq, 2);
    const int g = s.findJoint("mesh12");
    const auto& gear = std::get<GearJoint>(s.joints[static_cast<size_t>(g)].params);
    EXPECT_NEAR(m->eq_data[mjNEQDATA * 0 + 1], -gear.ratio, 1e-12);  // both axes along +X, same sense
    const DataPtr d = makeData(m.get());
    const int a1 = m->jnt_dofadr[mj_name2id(m.get(), mjOBJ_JOINT, "axle1")];
    const int a2 = m->jnt_dofadr[mj_name2id(m.get(), mjOBJ_JOINT, "axle2")];
    for (int i = 0; i < 2000; ++i) {
        d->qfrc_applied[a1] = 0.5;  // turn the first gear
        mj_step(m.get(), d.get());
    }
    const Real q1 = d->qpos[m->jnt_qposadr[a1]] - m->qpos0[m->jnt_qposadr[a1]];
    const Real q2 = d->qpos[m->jnt_qposadr[a2]] - m->qpos0[m->jnt_qposadr[a2]];
    ASSERT_GT(std::abs(q1), 0.5);
    // q1 + G·q2 = 0 up to MuJoCo's soft equality (it gives a little under load).
    EXPECT_NEAR(q1 + gear.ratio * q2, 0.0, 0.02 * std::abs(q1));
}

// Joined bodies do not touch in JointLab: in MuJoCo the arm of driven_arm.json, hinged to a static
// post it overlaps at the start, has no contact with it either (MuJoCo alone would filter it only
// against a moving parent, not against the world).
TEST(MjcfExport, JoinedBodiesDoNotTouch) {
    Scene s;
    std::string error;
    ASSERT_TRUE(loadScenario((fs::path(JOINTLAB_SOURCE_DIR) / "assets/scenarios/driven_arm.json").string(), s,
                             error));
    const MjcfExport e = exportScene(s);
    EXPECT_NE(e.xml.find("<exclude body1=\"post\" body2=\"arm\"/>"), std::string::npos) << e.xml;
    const ModelPtr m = compileMjcfText(e.xml, "arm.xml", error);
    ASSERT_TRUE(m) << error;
    const DataPtr d = makeData(m.get());
    mj_forward(m.get(), d.get());
    EXPECT_EQ(d->ncon, 0);
    // Without the exclusion they do touch: the test would see it.
    std::string without = e.xml;
    without.erase(without.find("  <contact>"), without.find("</contact>") + 11 - without.find("  <contact>"));
    const ModelPtr m2 = compileMjcfText(without, "arm2.xml", error);
    ASSERT_TRUE(m2) << error;
    const DataPtr d2 = makeData(m2.get());
    mj_forward(m2.get(), d2.get());
    EXPECT_GT(d2->ncon, 0);
}

// A hull becomes a mesh of its points and a compound several geoms; a scene without contacts
// disables MuJoCo's.
TEST(MjcfExport, HullCompoundAndContactsOff) {
    Scene s;
    s.settings.groundPlane = false;
    s.settings.bodyCollisions = false;
    BodyDesc hull;
    hull.name = "hull";
    hull.shape = ShapeType::Hull;
    hull.hullPoints = {Vec3(-0.2, -0.1, -0.1), Vec3(0.2, -0.1, -0.1), Vec3(0, 0.2, -0.1), Vec3(0, 0, 0.2)};
    hull.position = Vec3(0, 2, 0);
    BodyDesc comp;
    comp.name = "comp";
    comp.shape = ShapeType::Compound;
    comp.children.resize(3);
    comp.children[1].shape = ShapeType::Cylinder;
    comp.children[1].position = Vec3(0.3, 0, 0);
    comp.children[2].shape = ShapeType::Sphere;
    comp.children[2].position = Vec3(-0.3, 0, 0);
    comp.position = Vec3(1, 2, 0);
    s.bodies = {hull, comp};
    const MjcfExport e = exportScene(s);
    std::string error;
    const ModelPtr m = compileMjcfText(e.xml, "shapes.xml", error);
    ASSERT_TRUE(m) << error << "\n" << e.xml;
    EXPECT_EQ(m->nmesh, 1);
    EXPECT_EQ(m->mesh_vertnum[0], 4);
    EXPECT_EQ(m->ngeom, 4);
    EXPECT_EQ(m->njnt, 2);  // two free joints
    EXPECT_EQ(m->jnt_type[0], mjJNT_FREE);
    EXPECT_TRUE(m->opt.disableflags & mjDSBL_CONTACT);
    // The cylinder lies along the body's X in both.
    const int cyl = 2;
    EXPECT_EQ(m->geom_type[cyl], mjGEOM_CYLINDER);
    EXPECT_NEAR(glm::length(q4(m->geom_quat + 4 * cyl) * Vec3(0, 0, 1) - Vec3(1, 0, 0)), 0.0, 1e-12);
}

}  // namespace
}  // namespace jl::interop

namespace jl::interop {
namespace {

/// A chain of `n` small balls on hinges, hanging off the world.
Scene hingeChain(int n) {
    Scene s;
    s.settings.groundPlane = false;
    const Quat xToZ = glm::angleAxis(-kPi / 2, Vec3(0, 1, 0));
    for (int i = 0; i < n; ++i) {
        BodyDesc b;
        b.name = "b" + std::to_string(i);
        b.shape = ShapeType::Sphere;
        b.radius = 0.02;
        b.position = Vec3(0.05 + 0.1 * i, 2, 0);
        s.bodies.push_back(b);
        JointDesc j;
        j.name = "j" + std::to_string(i);
        j.body0 = i == 0 ? "" : "b" + std::to_string(i - 1);
        j.body1 = b.name;
        j.frame0 = {i == 0 ? Vec3(0, 2, 0) : Vec3(0.05, 0, 0), xToZ};
        j.frame1 = {Vec3(-0.05, 0, 0), xToZ};
        j.params = RevoluteJoint{};
        s.joints.push_back(j);
    }
    return s;
}

// MuJoCo 2.2.2's XML reader stops at 100 nested elements: a 96-link chain loads, a 97-link one
// does not, and the export says so beforehand (the reference refuses it with that reason).
TEST(MjcfExport, TreesDeeperThanMujocosXmlReaderAreNamed) {
    std::string error;
    const MjcfExport ok = exportScene(hingeChain(96));
    EXPECT_EQ(ok.depth, 96);
    EXPECT_TRUE(ok.tooDeep.empty());
    EXPECT_TRUE(compileMjcfText(ok.xml, "chain96.xml", error)) << error;
    const MjcfExport deep = exportScene(hingeChain(97));
    EXPECT_NE(deep.tooDeep.find("97 bodies deep"), std::string::npos) << deep.tooDeep;
    EXPECT_FALSE(compileMjcfText(deep.xml, "chain97.xml", error));
    EXPECT_NE(error.find("XML_ELEMENT_DEPTH_EXCEEDED"), std::string::npos) << error;
}

}  // namespace
}  // namespace jl::interop
