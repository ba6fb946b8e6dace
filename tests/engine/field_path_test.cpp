// Field paths (jointlab/field_path.h): names as in the scenario file, ranges from the field lists,
// and a value set through a path is the value the scene (and so the World) then has.
#include "jointlab/field_path.h"

#include <gtest/gtest.h>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"

namespace jl {
namespace {

Scene driven_arm() {
    Scene s;
    std::string error;
    EXPECT_TRUE(loadScenario(JOINTLAB_SOURCE_DIR "/assets/scenarios/driven_arm.json", s, error)) << error;
    return s;
}

FieldPath resolved(const Scene& s, std::string_view path) {
    FieldPath p;
    const std::string e = resolveFieldPath(s, path, p);
    EXPECT_EQ(e, "") << path;
    return p;
}

TEST(FieldPath, SettingsFieldHasItsListRangeAndKind) {
    const Scene s = driven_arm();
    const FieldPath p = resolved(s, "settings.posIters");
    EXPECT_EQ(p.kind, FieldPathKind::Int);
    EXPECT_EQ(p.path, "settings.posIters");
    EXPECT_EQ(p.meta.min, 1);
    EXPECT_EQ(p.meta.max, 255);
    EXPECT_EQ(checkFieldPathValue(p, Real(8)), "");
    EXPECT_EQ(checkFieldPathValue(p, Real(300)), "must be <= 255, got 300");
    EXPECT_EQ(checkFieldPathValue(p, Real(0)), "must be >= 1, got 0");
    EXPECT_EQ(checkFieldPathValue(p, Real(2.5)), "expected a whole number, got 2.5");
    EXPECT_EQ(checkFieldPathValue(p, true), "expected a number, got true");
}

TEST(FieldPath, JointTypeParameterWithAndWithoutParamsPrefix) {
    Scene s = driven_arm();
    const FieldPath a = resolved(s, "joints.shoulder.drive.stiffness");
    const FieldPath b = resolved(s, "joints.shoulder.params.drive.stiffness");
    EXPECT_EQ(a.path, "joints.shoulder.drive.stiffness");
    EXPECT_EQ(b.path, a.path);
    EXPECT_EQ(a.kind, FieldPathKind::Real);
    EXPECT_STREQ(a.meta.unit, "N·m/rad");
    // The file says k = 400.
    EXPECT_EQ(std::get<Real>(getFieldPath(s, a)), 400.0);
    EXPECT_EQ(setFieldPath(s, a, Real(123.5)), "");
    const auto& rev = std::get<RevoluteJoint>(s.joints[0].params);
    EXPECT_EQ(rev.drive.stiffness, 123.5);
    EXPECT_EQ(checkFieldPathValue(a, Real(-1)), "must be >= 0, got -1");
}

TEST(FieldPath, CommonJointFieldsBodiesAndVectorComponents) {
    Scene s = driven_arm();
    const FieldPath mass = resolved(s, "bodies.arm.mass");
    EXPECT_EQ(mass.owner, FieldPath::Owner::Body);
    EXPECT_EQ(s.bodies[static_cast<size_t>(mass.index)].name, "arm");
    const FieldPath y = resolved(s, "bodies.arm.position.y");
    EXPECT_EQ(y.component, 1);
    EXPECT_EQ(setFieldPath(s, y, Real(0.25)), "");
    EXPECT_EQ(s.bodies[static_cast<size_t>(y.index)].position.y, 0.25);
    const FieldPath g = resolved(s, "settings.gravity.y");
    EXPECT_EQ(std::get<Real>(getFieldPath(s, g)), -9.81);
    const FieldPath brk = resolved(s, "joints.shoulder.breakForce");
    EXPECT_TRUE(brk.acceptsInfinity);
    EXPECT_EQ(checkFieldPathValue(brk, kInf), "");
    EXPECT_EQ(checkFieldPathValue(mass, kInf), "must be finite, got inf");
}

TEST(FieldPath, EnumsAndBools) {
    Scene s = driven_arm();
    const FieldPath solver = resolved(s, "settings.solver");
    EXPECT_EQ(solver.kind, FieldPathKind::Enum);
    EXPECT_EQ(checkFieldPathValue(solver, std::string("tgs")), "");
    EXPECT_EQ(checkFieldPathValue(solver, std::string("sor")), "expected one of pgs, tgs, got sor");
    EXPECT_EQ(setFieldPath(s, solver, std::string("tgs")), "");
    EXPECT_EQ(s.settings.solver, SolverType::TGS);
    const FieldPath autoB = resolved(s, "settings.autoBaumgarte");
    EXPECT_EQ(autoB.kind, FieldPathKind::Bool);
    EXPECT_EQ(checkFieldPathValue(autoB, Real(1)), "expected true or false, got 1");
    // baumgarte has no effect while autoBaumgarte is on (the field list says so).
    const FieldPath b = resolved(s, "settings.baumgarte");
    EXPECT_FALSE(fieldPathRelevant(s, b));
    EXPECT_EQ(setFieldPath(s, autoB, false), "");
    EXPECT_TRUE(fieldPathRelevant(s, b));
}

TEST(FieldPath, BadPathsAreNamed) {
    const Scene s = driven_arm();
    FieldPath p;
    EXPECT_EQ(resolveFieldPath(s, "joints.elbow.drive.stiffness", p), "no joint named \"elbow\"");
    EXPECT_EQ(resolveFieldPath(s, "joints.shoulder.drive.stifness", p),
              "joint \"shoulder\" (revolute) has no field \"drive.stifness\" that takes a number, true/false "
              "or a name");
    EXPECT_EQ(resolveFieldPath(s, "bodies.arm.position", p),
              "body \"arm\": \"position\" is a vector: name one component, \"position\".x, .y or .z");
    EXPECT_EQ(resolveFieldPath(s, "bodies.arm.name", p),
              "body \"arm\" has no field \"name\" that takes a number, true/false or a name");
    EXPECT_EQ(resolveFieldPath(s, "posIters", p),
              "a field path starts with settings., bodies.NAME. or joints.NAME., got \"posIters\"");
    EXPECT_NE(resolveFieldPath(s, "settings.posIters.x", p), "");
}

TEST(FieldPath, EveryListedPathResolvesAndReadsBackWhatIsSet) {
    Scene s = driven_arm();
    const std::vector<std::string> paths = listFieldPaths(s);
    ASSERT_GT(paths.size(), 40u);
    for (const std::string& path : paths) {
        FieldPath p;
        ASSERT_EQ(resolveFieldPath(s, path, p), "") << path;
        EXPECT_EQ(p.path, path);
        // Writing the current value back changes nothing, and reads back equal.
        const FieldPathValue v = getFieldPath(s, p);
        EXPECT_EQ(setFieldPath(s, p, v), "") << path;
        EXPECT_EQ(getFieldPath(s, p), v) << path;
    }
}

TEST(FieldPath, SetThroughPathIsWhatTheWorldSimulates) {
    // A drive twice as stiff settles the arm at the same angle but oscillates faster: compare
    // the scene built through the path with one edited directly, bit for bit.
    Scene viaPath = driven_arm();
    Scene direct = driven_arm();
    ASSERT_EQ(setFieldPath(viaPath, resolved(viaPath, "joints.shoulder.drive.stiffness"), Real(800)), "");
    std::get<RevoluteJoint>(direct.joints[0].params).drive.stiffness = 800;
    World a(viaPath), b(direct);
    for (int i = 0; i < 50; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.stateHash(), b.stateHash());
}

}  // namespace
}  // namespace jl
