// The export of a relative gear between parallel hinges (interop/mjcf_export_couplings.cpp,
// parallelReadingProblem). Such a gear reads each finger's turn through its frames' origins
// (gear.h "Parallel axes"), taking each as fixed on the carrier: it is MuJoCo's joint equality
// between the two hinges only when each origin sits on its hinge's axis, and when the origins are
// apart enough for the gear to write a row at all. Otherwise the export names the gear and what is
// off, and writes no equality. Hand-built scenes: tests/engine/gear_hand.h's swinging hand.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include "../engine/gear_hand.h"
#include "interop/mjcf_export.h"
#include "interop/mujoco_model.h"

namespace jl::interop {
namespace {

using test::HandFinger;

/// The hand with two fingers hinged about parallel axes 0.2 m apart, geared q_a = −q_b (a mirrored
/// gripper's fingers), relative.
Scene parallelHand() {
    const Vec3 axis = glm::normalize(Vec3(0.3, 1.0, 0.2));
    const HandFinger a{Vec3(0.1, 0.0, 0.05), axis, Vec3(0.0, 0.0, 0.05)};
    const HandFinger b{Vec3(-0.1, 0.0, 0.05), axis, Vec3(0.0, 0.0, 0.05)};
    return test::gearHand(SolverType::TGS, true, false, -1.0, a, b);
}

/// The export's line about the gear "mimic" ("" when there is none).
std::string mimicOmitted(const MjcfExport& e) {
    for (const std::string& o : e.omitted)
        if (o.rfind("joint \"mimic\"", 0) == 0) return o;
    return "";
}

/// Whether the model `e` wrote, compiled by MuJoCo, has the joint equality "mimic" between the
/// hinges ja and jb (either way round) with `polycoef` (0, ±1).
void expectMimicEquality(const MjcfExport& e, Real slope) {
    std::string error;
    const ModelPtr m = compileMjcfText(e.xml, "gear_export.xml", error);
    ASSERT_TRUE(m) << error << "\n" << e.xml;
    const int eq = mj_name2id(m.get(), mjOBJ_EQUALITY, "mimic");
    ASSERT_GE(eq, 0) << e.xml;
    EXPECT_EQ(m->eq_type[eq], mjEQ_JOINT);
    const int ja = mj_name2id(m.get(), mjOBJ_JOINT, "ja"), jb = mj_name2id(m.get(), mjOBJ_JOINT, "jb");
    const int o1 = m->eq_obj1id[eq], o2 = m->eq_obj2id[eq];
    EXPECT_TRUE((o1 == ja && o2 == jb) || (o1 == jb && o2 == ja)) << o1 << " " << o2;
    EXPECT_NEAR(m->eq_data[mjNEQDATA * eq], 0.0, 1e-12);
    EXPECT_NEAR(m->eq_data[mjNEQDATA * eq + 1], slope, 1e-12);
}

// Origins on the hinges' axes (the gear frames are the hinge frames on the fingers, as the import
// builds them), or moved along the axes: the gear's law is the hinges' (q_a = −q_b, the
// equality's slope −1 either way round). An origin moved 2 cm off its axis: the gear reads
// something else, so no equality, and the export says which origin and by how much.
TEST(GearExport, ParallelRelativeGearIsAnEqualityOnlyWithItsOriginsOnTheHingeAxes) {
    Scene s = parallelHand();
    MjcfExport e = exportScene(s);
    EXPECT_EQ(mimicOmitted(e), "");
    expectMimicEquality(e, -1.0);

    JointDesc& mimic = s.joints[3];
    mimic.frame0.p += mimic.frame0.rotate(Vec3(0.05, 0.0, 0.0));  // along finger a's axis: still on it
    e = exportScene(s);
    EXPECT_EQ(mimicOmitted(e), "");
    expectMimicEquality(e, -1.0);

    mimic.frame0.p += mimic.frame0.rotate(Vec3(0.0, 0.02, 0.0));  // 2 cm off it
    e = exportScene(s);
    EXPECT_EQ(
        mimicOmitted(e),
        "joint \"mimic\" (gear): not written as a joint equality: body 0's frame origin is 0.02 m off the "
        "axis of its hinge \"ja\": the gear reads parallel hinges' turns through its frames' origins "
        "(gear.h), taking them as fixed on the carrier, so its law is not the one between the hinges' "
        "coordinates");
    std::string error;
    const ModelPtr m = compileMjcfText(e.xml, "gear_export.xml", error);
    ASSERT_TRUE(m) << error;
    EXPECT_LT(mj_name2id(m.get(), mjOBJ_EQUALITY, "mimic"), 0);
    EXPECT_FALSE(e.blocking.empty());  // the reference run refuses a model without the scene's law

    // Body 1's origin off its axis, by 1 mm: named the same way.
    s = parallelHand();
    s.joints[3].frame1.p += s.joints[3].frame1.rotate(Vec3(0.0, 0.0, 0.001));
    EXPECT_NE(mimicOmitted(exportScene(s))
                  .find("body 1's frame origin is 0.001 m off the axis of its hinge \"jb\""),
              std::string::npos)
        << mimicOmitted(exportScene(s));
}

// Fingers hinged about one line (finger b's hinge 0.1 m along finger a's axis): the gear writes no
// row (its origins are not apart across the axes), so an equality would add a law JointLab does not
// have; named instead.
TEST(GearExport, ParallelRelativeGearAboutOneLineIsNamed) {
    const Vec3 axis = glm::normalize(Vec3(0.3, 1.0, 0.2));
    const HandFinger a{Vec3(0.1, 0.0, 0.05), axis, Vec3(0.0, 0.0, 0.05)};
    const HandFinger b{Vec3(0.1, 0.0, 0.05) + 0.1 * axis, axis, Vec3(0.0, 0.0, 0.05)};
    const MjcfExport e = exportScene(test::gearHand(SolverType::TGS, true, false, -1.0, a, b));
    EXPECT_NE(mimicOmitted(e).find(" from each other's axis, under the 0.001 m below which JointLab's gear, "
                                   "reading parallel hinges through their origins, writes no row"),
              std::string::npos)
        << mimicOmitted(e);
}

// Axes at an angle (60°): the gear reads the fingers' relative rotation, not their origins, so an
// origin off its axis changes nothing and the equality is written.
TEST(GearExport, RelativeGearAtAnAngleIgnoresItsOrigins) {
    const HandFinger a{Vec3(0.1, 0.0, 0.05), Vec3(0, 1, 0), Vec3(0.0, 0.0, 0.05)};
    const HandFinger b{Vec3(-0.1, 0.0, 0.05), glm::normalize(Vec3(std::sqrt(3.0), 1.0, 0.0)),
                       Vec3(0.0, 0.0, 0.05)};
    Scene s = test::gearHand(SolverType::TGS, true, false, 0.5, a, b);
    s.joints[3].frame0.p += s.joints[3].frame0.rotate(Vec3(0.0, 0.02, 0.0));
    const MjcfExport e = exportScene(s);
    EXPECT_EQ(mimicOmitted(e), "");
    expectMimicEquality(e, 0.5);
}

}  // namespace
}  // namespace jl::interop
