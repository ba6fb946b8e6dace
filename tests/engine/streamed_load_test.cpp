// Bodies and joints are read while the file is parsed, one element at a time (json::StreamedArrays,
// scenario/io.cpp StreamedItems), so that the DOM of all of them never exists. The refusals must be
// the ones the whole-DOM reader gave: the same message, and the same one first when a file has
// several problems (syntax before content; format, version, top-level keys and settings before
// bodies; bodies before joints).

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "jointlab/scenario_io.h"
#include "scenario/json_text.h"

namespace jl {
namespace {

using json::Json;

const std::string kHead = R"({"format": "jointlab-scenario", "version": 2, )";
const std::string kBody0 = R"({"name": "a", "shape": "sphere", "radius": 0.1, "mass": 1.0})";
const std::string kBody1 = R"({"name": "b", "shape": "box", "halfExtents": [0.1, 0.2, 0.3], "mass": 2.0})";
const std::string kJoint = R"({"type": "revolute", "name": "j", "body0": "", "body1": "a"})";

std::string refusal(const std::string& text) {
    Scene scene;
    std::string error;
    EXPECT_FALSE(parseScenario(text, scene, error)) << text;
    return error;
}

TEST(StreamedLoad, ElementsOfTopLevelArraysGoToTheSinkInOrderAndTheDomKeepsAnEmptyArray) {
    const std::string text =
        R"({"a": 1, "bodies": [1, {"x": [1, 2]}, [3], "s"], "other": {"bodies": [5]}, "app": {"bodies": [7]},)"
        R"( "joints": {"k": [8]}, "plots": [9]})";
    std::vector<std::tuple<std::string, size_t, Json>> seen;
    const json::StreamedArrays streamed{{"bodies", "joints"},
                                        [&](std::string_view key, size_t index, const Json& element) {
                                            seen.emplace_back(std::string(key), index, element);
                                        }};
    Json root;
    std::string error;
    ASSERT_TRUE(json::parseStrictJson(text, root, error, json::kMaxNestingDepth, "app", &streamed)) << error;
    ASSERT_EQ(seen.size(), 4u);
    const Json expected[] = {Json(1), Json::parse(R"({"x": [1, 2]})"), Json::parse("[3]"), Json("s")};
    for (size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(std::get<0>(seen[i]), "bodies");
        EXPECT_EQ(std::get<1>(seen[i]), i);
        EXPECT_EQ(std::get<2>(seen[i]), expected[i]) << i;
    }
    // Only the top-level arrays of the named keys: nested ones, the ignored section, a "joints"
    // that is an object and other arrays stay in the DOM (or out of it, for "app").
    EXPECT_EQ(root.dump(),
              R"({"a":1,"bodies":[],"other":{"bodies":[5]},"app":{},"joints":{"k":[8]},"plots":[9]})");
}

TEST(StreamedLoad, EachStreamedArrayStartsWithItsElementCountFromThePreScan) {
    // Commas inside strings and inside nested containers are not separators of the array; an array
    // of the "app" section or one that is not streamed still counts in the order of arrays.
    const std::string text =
        R"({"app": [[1, 2], 3], "bodies": [ ], "x": [1, [2, 3], {"a": [4, 5]}],)"
        " \"joints\": [\n 1, \"a,b\\\",]\", {\"c\": 1, \"d\": [2, 3]}, [] ], \"plots\": [{}]}";
    std::vector<std::pair<std::string, size_t>> starts;
    size_t elements = 0;
    const json::StreamedArrays streamed{
        {"bodies", "joints"},
        [&](std::string_view, size_t, const Json&) { ++elements; },
        [&](std::string_view key, size_t count) { starts.emplace_back(std::string(key), count); }};
    Json root;
    std::string error;
    ASSERT_TRUE(json::parseStrictJson(text, root, error, json::kMaxNestingDepth, "app", &streamed)) << error;
    const std::vector<std::pair<std::string, size_t>> expected = {{"bodies", 0}, {"joints", 4}};
    EXPECT_EQ(starts, expected);
    EXPECT_EQ(elements, 4u);
    EXPECT_EQ(root["joints"], Json::array());
}

TEST(StreamedLoad, AStreamedFileLoadsAndSavesAsBefore) {
    const std::string text =
        kHead + R"("bodies": [)" + kBody0 + ", " + kBody1 + R"(], "joints": [)" + kJoint + "]}";
    Scene scene;
    std::string error;
    ASSERT_TRUE(parseScenario(text, scene, error)) << error;
    ASSERT_EQ(scene.bodies.size(), 2u);
    EXPECT_EQ(scene.bodies[0].name, "a");
    EXPECT_EQ(scene.bodies[1].name, "b");
    EXPECT_EQ(scene.bodies[1].halfExtents, Vec3(0.1, 0.2, 0.3));
    ASSERT_EQ(scene.joints.size(), 1u);
    EXPECT_EQ(scene.joints[0].body1, "a");
    const std::string saved = serializeScenario(scene);
    Scene again;
    ASSERT_TRUE(parseScenario(saved, again, error)) << error;
    EXPECT_EQ(serializeScenario(again), saved);
}

TEST(StreamedLoad, ABadBodyIsReportedWithItsIndexAndTheFirstOneWins) {
    const std::string text =
        kHead + R"("bodies": [)" + kBody0 + R"(, {"name": "b", "mas": 1}, {"name": "c", "radius": "x"}]})";
    EXPECT_EQ(refusal(text), R"(bodies[1]: unknown key "mas" (did you mean "mass"?))");
}

TEST(StreamedLoad, ASyntaxErrorAfterABadBodyIsReportedFirst) {
    const std::string text = kHead + R"("bodies": [{"name": "b", "mas": 1}], "joints": [}})";
    const std::string e = refusal(text);
    EXPECT_EQ(e.rfind("joints[0]: ", 0), 0u) << e;
    EXPECT_NE(e.find("syntax error"), std::string::npos) << e;
}

TEST(StreamedLoad, ChecksThatComeBeforeTheBodiesStillComeFirst) {
    const std::string badBody = R"("bodies": [{"name": "b", "mas": 1}])";
    EXPECT_EQ(refusal(R"({"format": "jointlab-scenario", "version": 3, )" + badBody + "}")
                  .rfind("version: 3 is newer", 0),
              0u);
    EXPECT_EQ(refusal(R"({"format": "other", "version": 2, )" + badBody + "}").rfind("format: ", 0), 0u);
    EXPECT_EQ(refusal(kHead + badBody + R"(, "bodys": 1})"),
              R"(unknown top-level key "bodys" (did you mean "bodies"?))");
    EXPECT_EQ(refusal(kHead + badBody + R"(, "settings": {"gravity": 1}})").rfind("settings.gravity: ", 0),
              0u);
    EXPECT_EQ(refusal(kHead + badBody + R"(, "app": []})"), "app: expected an object, got array");
}

TEST(StreamedLoad, ABadBodyComesBeforeABadJointAndAJointErrorNamesItsIndex) {
    EXPECT_EQ(refusal(kHead + R"("joints": [{"type": "hinge"}], "bodies": [{"name": "b", "mas": 1}]})"),
              R"(bodies[0]: unknown key "mas" (did you mean "mass"?))");
    const std::string e = refusal(kHead + R"("bodies": [)" + kBody0 + R"(], "joints": [)" + kJoint +
                                  R"(, {"type": "hinge", "name": "k", "body0": "", "body1": "a"}]})");
    EXPECT_EQ(e.rfind(R"(joints[1].type: unknown joint type "hinge")", 0), 0u) << e;
}

TEST(StreamedLoad, BodiesThatAreNotAnArrayAreRefusedAsBefore) {
    EXPECT_EQ(refusal(kHead + R"("bodies": {"a": 1}})"), "bodies: expected an array, got object");
    EXPECT_EQ(refusal(kHead + R"("bodies": [1]})"), "bodies[0]: expected an object, got number 1");
    EXPECT_EQ(refusal(kHead + R"("joints": "x"})"), R"(joints: expected an array, got string "x")");
}

}  // namespace
}  // namespace jl
