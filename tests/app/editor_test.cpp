// The editing model without a window: commands, validation, undo/redo, coalescing, live patching
// of the running World, and that what the commands build is a scenario that round-trips exactly.
#include "editor/editor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "jointlab/scenario_io.h"

namespace jl::app {
namespace {

/// A Simulation holding an empty scene (no ground, so bodies hang where they are put).
struct EditorFixture : ::testing::Test {
    Simulation sim;
    Editor editor{sim};
    std::string error;

    void SetUp() override {
        Scene empty;
        empty.settings.groundPlane = false;
        ASSERT_TRUE(sim.setScene(empty, "", error)) << error;
    }
    void run(const Command& c) { ASSERT_TRUE(editor.run(c, error)) << error; }
    std::string json() const { return serializeScenario(sim.scene()); }

    /// Two boxes side by side, A at x = 0 and B at x = 1, both 1 m up.
    void twoBodies() {
        run(addBody(makeBody(ShapeType::Box, Vec3(0, 1, 0))));
        BodyDesc b = makeBody(ShapeType::Box, Vec3(1, 1, 0));
        b.name.assign(1, 'B');  // (not = "B": a g++ 12 -Wrestrict false positive)
        run(addBody(b));
        run(renameBody("box", "A"));
    }
    JointPlacement between(int type, const std::string& a, const std::string& b) const {
        JointPlacement p;
        p.typeIndex = type;
        p.body0 = a;
        p.body1 = b;
        p.worldFrame.p = Vec3(0.5, 1, 0);
        p.worldFrame.q = kIdentityQuat;
        const Scene& s = sim.scene();
        if (!a.empty())
            p.pose0 = Transform{s.bodies[s.findBody(a)].position, s.bodies[s.findBody(a)].orientation};
        if (!b.empty())
            p.pose1 = Transform{s.bodies[s.findBody(b)].position, s.bodies[s.findBody(b)].orientation};
        return p;
    }
};

// [SECTION] Bodies

TEST_F(EditorFixture, AddBodyGetsAUniqueNameAndIsUndoable) {
    run(addBody(makeBody(ShapeType::Box, Vec3(0, 1, 0))));
    run(addBody(makeBody(ShapeType::Box, Vec3(1, 1, 0))));
    CommandEffects fx;
    ASSERT_TRUE(editor.run(addBody(makeBody(ShapeType::Sphere, Vec3(2, 1, 0))), error, &fx)) << error;
    ASSERT_EQ(sim.scene().bodies.size(), 3u);
    EXPECT_EQ(sim.scene().bodies[0].name, "box");
    EXPECT_EQ(sim.scene().bodies[1].name, "box2");
    EXPECT_EQ(sim.scene().bodies[2].name, "sphere");
    EXPECT_EQ(fx.selectKind, Selection::Kind::Body);
    EXPECT_EQ(fx.selectName, "sphere");
    EXPECT_EQ(sim.world()->bodies().size(), 3u);

    EXPECT_EQ(editor.undoLabel(), "add sphere");
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.scene().bodies.size(), 2u);
    EXPECT_EQ(sim.world()->bodies().size(), 2u);
    ASSERT_TRUE(editor.redo(error)) << error;
    EXPECT_EQ(sim.scene().bodies.size(), 3u);
}

TEST_F(EditorFixture, UniqueNamesContinueTrailingNumbers) {
    Scene s;
    s.bodies.push_back(makeBody(ShapeType::Box, Vec3(0)));
    s.bodies.back().name = "link3";
    EXPECT_EQ(uniqueBodyName(s, "link3"), "link4");
    EXPECT_EQ(uniqueBodyName(s, "link"), "link");
    EXPECT_EQ(uniqueJointName(s, "link3"), "link3");
}

TEST_F(EditorFixture, UniqueNamesSkipEveryTakenNumberOfALargeScene) {
    // box, box2 .. box20000 taken (and a gap at box7000): a new box is box7000, a duplicate of
    // box7001 continues after the last number taken from there.
    Scene s;
    for (int i = 1; i <= 20000; ++i) {
        if (i == 7000) continue;
        s.bodies.push_back(makeBody(ShapeType::Box, Vec3(0)));
        s.bodies.back().name = i == 1 ? "box" : "box" + std::to_string(i);
    }
    EXPECT_EQ(uniqueBodyName(s, "box"), "box7000");
    EXPECT_EQ(uniqueBodyName(s, "box7001"), "box20001");
}

TEST_F(EditorFixture, DeleteBodyRemovesItsJointsAndUndoBringsThemBack) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "A", "B")));
    run(addJoint(between(findJointType("spherical"), "", "A")));
    ASSERT_EQ(sim.scene().joints.size(), 2u);
    const std::string before = json();
    run(deleteBody("A"));
    EXPECT_EQ(sim.scene().bodies.size(), 1u);
    EXPECT_TRUE(sim.scene().joints.empty());
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(json(), before);
}

TEST_F(EditorFixture, RenameBodyJointsFollowAndTheRunningStateIsKept) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "A", "B")));
    for (int i = 0; i < 30; ++i) sim.world()->step();  // B swings down under gravity
    const BodyState moving = sim.world()->bodies()[1];
    ASSERT_GT(glm::length(moving.linearVelocity), 0.1);

    run(renameBody("B", "bob"));
    const JointDesc& j = sim.scene().joints[0];
    EXPECT_EQ(j.body0, "A");
    EXPECT_EQ(j.body1, "bob");
    EXPECT_EQ(sim.world()->stepCount(), 30);
    const BodyState after = sim.world()->bodies()[sim.scene().findBody("bob")];
    EXPECT_EQ(after.pose.p, moving.pose.p);
    EXPECT_EQ(after.linearVelocity, moving.linearVelocity);

    EXPECT_FALSE(editor.run(renameBody("bob", "A"), error));
    EXPECT_NE(error.find("already a body named 'A'"), std::string::npos) << error;
    EXPECT_FALSE(editor.run(renameBody("bob", ""), error));
}

TEST_F(EditorFixture, DuplicateStartsAtRestBesideWhereTheBodyIsNow) {
    twoBodies();
    // B has been falling for a while: its start pose and velocity are not where it is now.
    for (int i = 0; i < 30; ++i) sim.world()->step();
    const BodyState now = sim.world()->bodies()[1];
    ASSERT_GT(glm::length(now.linearVelocity), 1.0);
    const BodyDesc& b = sim.scene().bodies[1];
    const Vec3 offset = besideOffset(b, now.pose.q, Vec3(1, 0, 0));
    EXPECT_GE(offset.x, 2.0 * b.halfExtents.x + 0.1 - 1e-12);  // clear of the original: visible
    CommandEffects fx;
    ASSERT_TRUE(editor.run(duplicateBody("B", now.pose, offset), error, &fx)) << error;
    const BodyDesc& copy = sim.scene().bodies.back();
    EXPECT_EQ(copy.name, "B2");
    EXPECT_EQ(fx.selectName, "B2");
    EXPECT_EQ(copy.position, now.pose.p + offset);
    EXPECT_EQ(copy.linearVelocity, Vec3(0.0));
    EXPECT_EQ(copy.angularVelocity, Vec3(0.0));
    // In the running World the copy is at rest beside the original; the original kept moving.
    const BodyState& running = sim.world()->bodies()[2];
    EXPECT_EQ(running.pose.p, now.pose.p + offset);
    EXPECT_EQ(running.linearVelocity, Vec3(0.0));
    EXPECT_EQ(sim.world()->bodies()[1].linearVelocity, now.linearVelocity);
}

// [SECTION] Joints

TEST_F(EditorFixture, EveryJointTypeAttachesBetweenTwoBodiesAndToTheWorld) {
    twoBodies();
    for (int t = 0; t < kJointTypeCount; ++t) {
        SCOPED_TRACE(jointTypeInfo(t).name);
        JointPlacement p = between(t, "A", "B");
        p.worldFrame.q = glm::angleAxis(0.3, glm::normalize(Vec3(0, 1, 1)));
        CommandEffects fx;
        ASSERT_TRUE(editor.run(addJoint(p), error, &fx)) << error;
        const JointDesc& j = sim.scene().joints.back();
        EXPECT_EQ(j.typeIndex(), t);
        EXPECT_EQ(fx.selectName, j.name);
        if (std::string(jointTypeInfo(t).name) == "distance") continue;
        // Both frames land on the requested world frame at the bodies' poses.
        const Transform w0 = p.pose0 * j.frame0, w1 = p.pose1 * j.frame1;
        EXPECT_LT(glm::length(w0.p - p.worldFrame.p), 1e-12);
        EXPECT_LT(glm::length(w1.p - p.worldFrame.p), 1e-12);
        EXPECT_GT(std::abs(glm::dot(w0.q, p.worldFrame.q)), 1.0 - 1e-12);
        EXPECT_GT(std::abs(glm::dot(w1.q, p.worldFrame.q)), 1.0 - 1e-12);

        ASSERT_TRUE(editor.run(addJoint(between(t, "", "B")), error)) << error;
        EXPECT_EQ(sim.scene().joints.back().body0, "");
    }
    EXPECT_EQ(static_cast<int>(sim.scene().joints.size()), 2 * kJointTypeCount - 1);
    // The World runs every one of them.
    for (int i = 0; i < 5; ++i) sim.world()->step();
    for (size_t j = 0; j < sim.scene().joints.size(); ++j) {
        const JointDesc& joint = sim.scene().joints[j];
        if (std::holds_alternative<DistanceJoint>(joint.params)) continue;  // slack: no rows inside its range
        EXPECT_GT(sim.world()->jointRows(static_cast<int>(j)).size(), 0u) << joint.name;
    }
}

TEST_F(EditorFixture, DistanceJointSpansBetweenThePickedPoints) {
    twoBodies();
    JointPlacement p = between(findJointType("distance"), "A", "B");
    p.worldFrame.p = Vec3(0.25, 1, 0);
    p.pointOnBody1 = Vec3(0.75, 1.25, 0);
    p.hasPointOnBody1 = true;
    run(addJoint(p));
    const JointDesc& j = sim.scene().joints.back();
    const auto& d = std::get<DistanceJoint>(j.params);
    EXPECT_NEAR(d.maxDistance, std::sqrt(0.25 + 0.0625), 1e-12);
    EXPECT_LT(glm::length((p.pose1 * j.frame1).p - p.pointOnBody1), 1e-12);
}

TEST_F(EditorFixture, ChangingTheJointTypeKeepsBodiesAndFramesAndD6PresetsApply) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "A", "B")));
    const JointDesc before = sim.scene().joints[0];
    run(setJointType(before.name, findJointType("d6")));
    const JointDesc after = sim.scene().joints[0];  // a copy: the next command replaces the scene
    EXPECT_EQ(after.typeIndex(), findJointType("d6"));
    EXPECT_EQ(after.body0, before.body0);
    EXPECT_EQ(after.frame0.p, before.frame0.p);
    run(applyJointPreset(after.name, 0));
    const auto& d6 = std::get<D6Joint>(sim.scene().joints[0].params);
    const D6Joint preset = kD6Presets[0].make();
    for (int k = 0; k < 6; ++k) EXPECT_EQ(d6.motion[k], preset.motion[k]);

    run(setJointType(after.name, findJointType("revolute")));
    EXPECT_FALSE(editor.run(applyJointPreset(after.name, 0), error));
    EXPECT_NE(error.find("has no presets"), std::string::npos);
}

TEST_F(EditorFixture, RenameJointAndDuplicateJoint) {
    twoBodies();
    run(addJoint(between(findJointType("fixed"), "A", "B")));
    run(renameJoint("fixed", "weld"));
    EXPECT_EQ(sim.scene().joints[0].name, "weld");
    run(duplicateJoint("weld"));
    EXPECT_EQ(sim.scene().joints[1].name, "weld2");
    run(deleteJoint("weld"));
    ASSERT_EQ(sim.scene().joints.size(), 1u);
    EXPECT_EQ(sim.scene().joints[0].name, "weld2");
}

TEST_F(EditorFixture, JointFrameCanBeMovedInWorld) {
    twoBodies();
    run(addJoint(between(findJointType("spherical"), "A", "B")));
    JointPlacement p = between(0, "A", "B");
    Transform moved{Vec3(0.5, 1.5, 0.2), glm::angleAxis(0.5, Vec3(0, 0, 1))};
    run(setJointWorldFrames("spherical", moved, moved, p.pose0, p.pose1, false));
    const JointDesc& j = sim.scene().joints[0];
    EXPECT_LT(glm::length((p.pose0 * j.frame0).p - moved.p), 1e-12);
    EXPECT_LT(glm::length((p.pose1 * j.frame1).p - moved.p), 1e-12);
}

// [SECTION] Fields

TEST_F(EditorFixture, EditingAParameterWhileRunningDoesNotResetTheSimulation) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "", "B")));
    for (int i = 0; i < 20; ++i) sim.world()->step();
    const BodyState state = sim.world()->bodies()[1];
    run(setField(FieldOwner::joint("revolute"), "limit.enabled", true));
    run(setField(FieldOwner::joint("revolute"), "limit.upper", 0.5));
    run(setField(FieldOwner::body("B"), "mass", 3.0));
    run(setField(FieldOwner::settings(), "solver", 1));
    EXPECT_EQ(sim.world()->stepCount(), 20);
    EXPECT_EQ(sim.world()->bodies()[1].pose.p, state.pose.p);
    EXPECT_EQ(sim.world()->bodies()[1].linearVelocity, state.linearVelocity);
    EXPECT_EQ(sim.world()->scene().bodies[1].mass, 3.0);
    EXPECT_EQ(sim.world()->scene().settings.solver, SolverType::TGS);
    EXPECT_TRUE(std::get<RevoluteJoint>(sim.world()->scene().joints[0].params).limit.enabled);
    EXPECT_NEAR(1.0 / sim.world()->inverseMass(1), 3.0, 1e-12);
}

TEST_F(EditorFixture, BadValuesAreRefusedWithTheFieldNamedAndTheOldValueStays) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "", "B")));
    const std::string before = json();
    const size_t levels = editor.undoCount();

    EXPECT_FALSE(editor.run(setField(FieldOwner::body("B"), "mass", -2.0), error));
    EXPECT_NE(error.find("mass"), std::string::npos) << error;
    EXPECT_NE(error.find("must be >= 1e-6"), std::string::npos) << error;
    EXPECT_NE(error.find("B.mass"), std::string::npos) << error;  // named, not bodies[1]

    EXPECT_FALSE(editor.run(setField(FieldOwner::body("B"), "radius", std::nan("")), error));
    EXPECT_NE(error.find("NaN"), std::string::npos) << error;

    run(setField(FieldOwner::joint("revolute"), "limit.enabled", true));
    const std::string enabled = json();
    EXPECT_FALSE(editor.run(setField(FieldOwner::joint("revolute"), "limit.lower", 2.0), error));
    EXPECT_NE(error.find("revolute.limit.lower"), std::string::npos) << error;
    EXPECT_EQ(json(), enabled);
    ASSERT_TRUE(editor.undo(error)) << error;

    EXPECT_FALSE(editor.run(setField(FieldOwner::body("B"), "mas", 2.0), error));
    EXPECT_NE(error.find("no field 'mas'"), std::string::npos) << error;
    EXPECT_FALSE(editor.run(setField(FieldOwner::body("B"), "mass", std::string("heavy")), error));
    EXPECT_FALSE(editor.run(setField(FieldOwner::settings(), "posIters", 0), error));
    EXPECT_FALSE(editor.run(setField(FieldOwner::body("B"), "position", Vec3(0, kInf, 0)), error));
    EXPECT_FALSE(editor.run(setField(FieldOwner::joint("revolute"), "body1", std::string("nobody")), error));
    EXPECT_NE(error.find("no body named"), std::string::npos) << error;

    EXPECT_EQ(json(), before);
    EXPECT_EQ(editor.undoCount(), levels);
}

TEST_F(EditorFixture, InfinityIsAcceptedExactlyWhereTheFormatAcceptsIt) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "", "B")));
    const auto fields = listFields(sim.scene(), FieldOwner::joint("revolute"));
    for (const FieldInfo& f : fields) {
        if (f.kind != FieldKind::Real) continue;
        SCOPED_TRACE(f.name);
        const bool accepted = editor.run(setField(FieldOwner::joint("revolute"), f.name, kInf), error);
        EXPECT_EQ(accepted, f.acceptsInfinity) << error;
        if (accepted) {
            ASSERT_TRUE(editor.undo(error));
        }
    }
    ASSERT_TRUE(findField(sim.scene(), FieldOwner::joint("revolute"), "breakForce")->acceptsInfinity);
    run(setField(FieldOwner::joint("revolute"), "breakForce", 500.0));
    run(setField(FieldOwner::joint("revolute"), "breakForce", kInf));
    EXPECT_TRUE(std::isinf(sim.scene().joints[0].breakForce));
}

TEST_F(EditorFixture, FieldListsCoverEveryFieldAndWritingAValueBackChangesNothing) {
    twoBodies();
    for (int t = 0; t < kJointTypeCount; ++t) run(addJoint(between(t, "A", "B")));
    const std::string before = json();
    std::vector<FieldOwner> owners = {FieldOwner::settings(), FieldOwner::camera(), FieldOwner::body("A")};
    for (const JointDesc& j : sim.scene().joints) owners.push_back(FieldOwner::joint(j.name));
    for (const FieldOwner& owner : owners) {
        const auto fields = listFields(sim.scene(), owner);
        ASSERT_FALSE(fields.empty()) << owner.describe();
        for (const FieldInfo& f : fields) {
            Scene copy = sim.scene();
            EXPECT_EQ(writeField(copy, owner, f.name, f.value), "") << owner.describe() << " " << f.name;
            EXPECT_EQ(serializeScenario(copy), before) << owner.describe() << " " << f.name;
        }
    }
    // A revolute joint lists the common fields, then its own.
    const auto rev = listFields(sim.scene(), FieldOwner::joint("revolute"));
    EXPECT_EQ(rev.front().name, "name");
    EXPECT_FALSE(rev.front().typeParam);
    bool hasLimit = false;
    for (const FieldInfo& f : rev)
        if (f.name == "limit.lower") hasLimit = f.typeParam && f.meta.angle;
    EXPECT_TRUE(hasLimit);
    EXPECT_TRUE(listFields(sim.scene(), FieldOwner::body("nobody")).empty());
}

// The Inspector leaves out the fields that do nothing with the body's other settings: a box's
// radius, a sphere's half extents, the density of a body given by its mass. The list says so per
// field (relevant), following the body as it is edited; the fields stay in the list and the file.
TEST_F(EditorFixture, ShapeAndMassFieldsAreRelevantOnlyWhereTheyHaveAnEffect) {
    run(addBody(makeBody(ShapeType::Box, Vec3(0, 1, 0))));
    auto relevant = [&](const char* field) {
        const auto f = findField(sim.scene(), FieldOwner::body("box"), field);
        EXPECT_TRUE(f.has_value()) << field;
        return f && f->meta.relevant;
    };
    const struct {
        ShapeType shape;
        bool halfExtents, radius, halfHeight;
    } cases[] = {{ShapeType::Box, true, false, false},
                 {ShapeType::Sphere, false, true, false},
                 {ShapeType::Capsule, false, true, true}};
    for (const auto& c : cases) {
        run(setField(FieldOwner::body("box"), "shape", static_cast<int>(c.shape)));
        SCOPED_TRACE(kShapeTypeNames[static_cast<int>(c.shape)]);
        EXPECT_EQ(relevant("halfExtents"), c.halfExtents);
        EXPECT_EQ(relevant("radius"), c.radius);
        EXPECT_EQ(relevant("halfHeight"), c.halfHeight);
    }
    EXPECT_TRUE(relevant("mass"));
    EXPECT_FALSE(relevant("density"));
    run(setField(FieldOwner::body("box"), "massMode", static_cast<int>(MassMode::Density)));
    EXPECT_FALSE(relevant("mass"));
    EXPECT_TRUE(relevant("density"));
    EXPECT_TRUE(relevant("position"));
    EXPECT_NE(json().find("\"halfExtents\""), std::string::npos) << "still saved";
}

TEST_F(EditorFixture, RenamingThroughTheNameFieldUpdatesReferences) {
    twoBodies();
    run(addJoint(between(findJointType("revolute"), "A", "B")));
    run(setField(FieldOwner::body("A"), "name", std::string("base")));
    EXPECT_EQ(sim.scene().joints[0].body0, "base");
}

// [SECTION] Undo and redo

TEST_F(EditorFixture, ASliderDragIsOneUndoStep) {
    twoBodies();
    const size_t levels = editor.undoCount();
    for (int i = 1; i <= 20; ++i) run(setField(FieldOwner::body("B"), "mass", 1.0 + 0.1 * i));
    EXPECT_EQ(editor.undoCount(), levels + 1);
    EXPECT_DOUBLE_EQ(sim.scene().bodies[1].mass, 3.0);
    editor.endCoalescing();
    run(setField(FieldOwner::body("B"), "mass", 5.0));
    EXPECT_EQ(editor.undoCount(), levels + 2);
    ASSERT_TRUE(editor.undo(error));
    EXPECT_DOUBLE_EQ(sim.scene().bodies[1].mass, 3.0);
    ASSERT_TRUE(editor.undo(error));
    EXPECT_DOUBLE_EQ(sim.scene().bodies[1].mass, 1.0);
    // A different field does not merge into the drag before it.
    run(setField(FieldOwner::body("B"), "mass", 2.0));
    run(setField(FieldOwner::body("B"), "radius", 0.5));
    EXPECT_EQ(editor.undoCount(), levels + 2);
}

TEST_F(EditorFixture, AtLeastAHundredLevelsUndoAndRedoExactly) {
    twoBodies();
    std::vector<std::string> states{json()};
    for (int i = 0; i < 150; ++i) {
        editor.endCoalescing();
        run(setField(FieldOwner::body("B"), "position", Vec3(1, 1 + 0.01 * i, 0)));
        states.push_back(json());
    }
    ASSERT_GE(editor.undoCount(), 100u);
    for (int i = 0; i < 120; ++i) {
        ASSERT_TRUE(editor.undo(error)) << i << ": " << error;
        EXPECT_EQ(json(), states[states.size() - 2 - i]);
    }
    for (int i = 0; i < 120; ++i) ASSERT_TRUE(editor.redo(error));
    EXPECT_EQ(json(), states.back());
    // A new command clears the redo stack.
    ASSERT_TRUE(editor.undo(error));
    run(addBody(makeBody(ShapeType::Sphere, Vec3(0, 3, 0))));
    EXPECT_FALSE(editor.canRedo());
    EXPECT_FALSE(editor.redo(error));
}

TEST_F(EditorFixture, UndoOfARenameKeepsTheRunningState) {
    twoBodies();
    run(addJoint(between(findJointType("spherical"), "", "B")));
    for (int i = 0; i < 15; ++i) sim.world()->step();
    run(renameBody("B", "bob"));
    const BodyState moving = sim.world()->bodies()[1];
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.scene().bodies[1].name, "B");
    EXPECT_EQ(sim.world()->bodies()[1].pose.p, moving.pose.p);
}

TEST_F(EditorFixture, UndoingAMoveWhileRunningPutsTheBodyBackWhereItWas) {
    twoBodies();
    run(addJoint(between(findJointType("spherical"), "", "B")));
    for (int i = 0; i < 20; ++i) sim.world()->step();
    const BodyState before = sim.world()->bodies()[1];
    run(setBodyPose("B", Transform{Vec3(3, 2, 1), kIdentityQuat}, false));
    EXPECT_EQ(sim.world()->bodies()[1].pose.p, Vec3(3, 2, 1));
    for (int i = 0; i < 5; ++i) sim.world()->step();
    const BodyState moved = sim.world()->bodies()[1];
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.world()->bodies()[1].pose.p, before.pose.p);  // not the initial pose (1, 1, 0)
    EXPECT_EQ(sim.world()->bodies()[1].linearVelocity, before.linearVelocity);
    ASSERT_TRUE(editor.redo(error)) << error;
    EXPECT_EQ(sim.world()->bodies()[1].pose.p, moved.pose.p);
    // An edit that does not touch the pose leaves the running state alone on undo.
    run(setField(FieldOwner::body("B"), "mass", 2.0));
    for (int i = 0; i < 5; ++i) sim.world()->step();
    const BodyState running = sim.world()->bodies()[1];
    ASSERT_TRUE(editor.undo(error)) << error;
    EXPECT_EQ(sim.world()->bodies()[1].pose.p, running.pose.p);
}

TEST_F(EditorFixture, DirtyFollowsTheHistory) {
    EXPECT_FALSE(editor.dirty());
    twoBodies();
    EXPECT_TRUE(editor.dirty());
    editor.markSaved();
    EXPECT_FALSE(editor.dirty());
    run(setField(FieldOwner::body("B"), "mass", 2.0));
    EXPECT_TRUE(editor.dirty());
    ASSERT_TRUE(editor.undo(error));
    EXPECT_FALSE(editor.dirty());
    ASSERT_TRUE(editor.redo(error));
    EXPECT_TRUE(editor.dirty());
    editor.resetHistory();
    EXPECT_FALSE(editor.dirty());
    EXPECT_FALSE(editor.canUndo());
}

// [SECTION] Round trip

TEST_F(EditorFixture, AMechanismBuiltByCommandsRoundTripsToIdenticalJson) {
    const std::string empty = json();
    twoBodies();
    run(addBody(makeBody(ShapeType::Capsule, Vec3(2, 2, 0))));
    run(addBody(makeBody(ShapeType::Sphere, Vec3(-1, 2, 0))));
    run(setField(FieldOwner::body("A"), "motion", static_cast<int>(MotionType::Static)));
    run(setField(FieldOwner::body("capsule"), "massMode", static_cast<int>(MassMode::Density)));
    run(setField(FieldOwner::body("capsule"), "density", 750.5));
    run(setField(FieldOwner::body("sphere"), "orientation",
                 glm::angleAxis(0.7, glm::normalize(Vec3(1, 2, 3)))));
    for (int t = 0; t < kJointTypeCount; ++t) run(addJoint(between(t, "A", "B")));
    run(addJoint(between(findJointType("revolute"), "", "capsule")));
    run(setField(FieldOwner::joint("revolute"), "limit.enabled", true));
    run(setField(FieldOwner::joint("revolute"), "limit.lower", -0.3));
    run(setField(FieldOwner::joint("revolute"), "breakTorque", 1234.5));
    run(setField(FieldOwner::joint("revolute"), "invMassScale1", 0.5));
    run(setField(FieldOwner::settings(), "gravity", Vec3(0, -3.7, 0)));
    run(setDescription("built by the editor test"));
    run(deleteJoint("fixed"));
    const std::string built = json();

    Scene reread;
    ASSERT_TRUE(parseScenario(built, reread, error)) << error;
    EXPECT_EQ(serializeScenario(reread), built);
    EXPECT_EQ(validateScene(sim.scene()), "");

    // Undo everything: back to the empty scene, byte for byte; redo everything: the same mechanism.
    int steps = 0;
    while (editor.canUndo()) {
        ASSERT_TRUE(editor.undo(error)) << error;
        ++steps;
    }
    EXPECT_EQ(json(), empty);
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(editor.redo(error)) << error;
    EXPECT_EQ(json(), built);
}

}  // namespace
}  // namespace jl::app
