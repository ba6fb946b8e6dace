// Typing a number into an Inspector field (issue: a newcomer typing "12" into breakForce broke
// the joint at "1"). Every drag box of the field editor follows one rule: a drag applies live, one
// undo step per gesture; text typed into the box (Ctrl+click, double-click) is applied once, when
// the box is left with Enter or a click elsewhere, and Escape drops it with no command at all.
// The field list is drawn by the real widget code in a headless Dear ImGui context, driven by
// mouse and key input as a person would.
#include <gtest/gtest.h>

#include <functional>

#include "headless_imgui.h"
#include "panels/field_editor.h"

namespace jl::app {
namespace {

struct FieldTyping : ::testing::Test {
    test::HeadlessImGui ctx{ImVec2(420, 120)};
    Scene scene;
    InspectorState inspector;
    UiRequests requests;
    std::vector<Command> commands;  ///< every command raised so far
    bool ended = false;             ///< a gesture's end was signalled

    void SetUp() override {
        BodyDesc bob;
        bob.name = "bob";
        scene.bodies.push_back(bob);
        JointDesc j;
        j.name = "pivot";
        j.body1 = "bob";
        j.params = makeJointParams(findJointType("revolute"));
        j.breakForce = 1000.0;
        scene.joints.push_back(j);
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_Enter] = ImGuiKey_Enter;
        io.KeyMap[ImGuiKey_Escape] = ImGuiKey_Escape;
        io.KeyMap[ImGuiKey_Backspace] = ImGuiKey_Backspace;
        frame();  // the window and the field exist before the first click
    }

    /// One frame drawing only the breakForce row; `input` sets the frame's input first.
    void frame(const std::function<void(ImGuiIO&)>& input = {}) {
        ImGuiIO& io = ImGui::GetIO();
        io.MouseDown[0] = false;
        io.KeyCtrl = false;
        for (bool& k : io.KeysDown) k = false;
        if (input) input(io);
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("inspector", nullptr, ImGuiWindowFlags_NoDecoration);
        const FieldOwner owner = FieldOwner::joint("pivot");
        requests = UiRequests{};
        drawFieldList(listFields(scene, owner), owner, scene, inspector, requests,
                      [](const FieldInfo& f) { return f.name != "breakForce"; });
        ImGui::End();
        ImGui::Render();
        for (Command& c : requests.commands) commands.push_back(std::move(c));
        ended = ended || requests.endCoalescing;
    }

    /// A point inside the value box: the label takes 45–55 % of the width, "inf" the right end.
    ImVec2 box() const { return ImVec2(ImGui::GetIO().DisplaySize.x * 0.68f, 18.0f); }

    void ctrlClick() {
        frame([&](ImGuiIO& io) { io.MousePos = box(); });
        frame([&](ImGuiIO& io) {
            io.KeyCtrl = true;
            io.MouseDown[0] = true;
        });
        frame([&](ImGuiIO& io) { io.KeyCtrl = true; });
        frame();
    }
    void type(const char* text) {
        for (const char* c = text; *c; ++c)
            frame([&](ImGuiIO& io) { io.AddInputCharacter(static_cast<unsigned>(*c)); });
    }
    void press(ImGuiKey_ key) {
        frame([&](ImGuiIO& io) { io.KeysDown[key] = true; });
        frame();
    }

    /// The scene as the commands raised so far leave it.
    Real breakForceAfterCommands() {
        Scene s = scene;
        CommandEffects effects;
        for (const Command& c : commands) EXPECT_EQ(c.apply(s, effects), "") << c.label;
        return s.joints[0].breakForce;
    }
};

TEST_F(FieldTyping, ATypedNumberIsAppliedOnceOnEnterNotPerKeystroke) {
    ctrlClick();
    type("1");
    EXPECT_TRUE(commands.empty()) << "'1' on its way to '12' must not reach the joint";
    type("2");
    EXPECT_TRUE(commands.empty());
    press(ImGuiKey_Enter);
    ASSERT_EQ(commands.size(), 1u);
    EXPECT_TRUE(commands[0].coalesceKey.empty()) << "a typed value is its own undo step";
    EXPECT_EQ(breakForceAfterCommands(), 12.0);
    for (int i = 0; i < 3; ++i) frame();
    EXPECT_EQ(commands.size(), 1u);
    EXPECT_TRUE(inspector.typedKey.empty());
}

TEST_F(FieldTyping, ATypedNumberIsAppliedWhenTheBoxIsLeftByAClickElsewhere) {
    ctrlClick();
    type("25");
    EXPECT_TRUE(commands.empty());
    const ImVec2 elsewhere(10.0f, 100.0f);
    frame([&](ImGuiIO& io) { io.MousePos = elsewhere; });
    frame([&](ImGuiIO& io) {
        io.MousePos = elsewhere;
        io.MouseDown[0] = true;
    });
    frame([&](ImGuiIO& io) { io.MousePos = elsewhere; });
    ASSERT_EQ(commands.size(), 1u);
    EXPECT_EQ(breakForceAfterCommands(), 25.0);
}

TEST_F(FieldTyping, EscapeRestoresTheOldValueAndChangesNothing) {
    ctrlClick();
    type("1");
    press(ImGuiKey_Escape);
    for (int i = 0; i < 3; ++i) frame();
    EXPECT_TRUE(commands.empty()) << "Escape: no edit, no undo entry";
    EXPECT_TRUE(inspector.typedKey.empty());
    EXPECT_FALSE(ImGui::IsAnyItemActive());
}

TEST_F(FieldTyping, ADragStillAppliesLiveAsOneGesture) {
    const ImVec2 at = box();
    frame([&](ImGuiIO& io) { io.MousePos = at; });
    for (int i = 0; i <= 6; ++i)
        frame([&](ImGuiIO& io) {
            io.MousePos = ImVec2(at.x + 10.0f * static_cast<float>(i), at.y);
            io.MouseDown[0] = true;
        });
    const size_t whileDragging = commands.size();
    EXPECT_GE(whileDragging, 2u) << "the value follows the mouse while it is held";
    for (const Command& c : commands) EXPECT_FALSE(c.coalesceKey.empty()) << "one undo step for the drag";
    EXPECT_FALSE(ended);
    frame([&](ImGuiIO& io) { io.MousePos = ImVec2(at.x + 60.0f, at.y); });
    EXPECT_TRUE(ended) << "releasing the mouse ends the gesture";
    EXPECT_GT(breakForceAfterCommands(), 1000.0);
}

}  // namespace
}  // namespace jl::app
