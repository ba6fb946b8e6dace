// The Advisor tab of the Plots dock: the conditioning advisor's warnings (jointlab/advisor.h)
// for the scene as it runs, each with its explanation and one-click fixes applied through the
// editor (one undoable edit each), and a marker on each warned joint in the viewport.
#include <imgui.h>

#include <cstdio>

#include "jointlab/compare.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "render/joint_frames.h"

namespace jl::app {

namespace {

constexpr ImU32 kWarningColor = IM_COL32(240, 170, 60, 255);

const char* fixButton(AdviceFix fix) {
    switch (fix) {
        case AdviceFix::MoreIterations:
            return "More iterations";
        case AdviceFix::UseTgs:
            return "Use TGS";
        case AdviceFix::MassScales:
            return "Mass scales";
        case AdviceFix::SmallerDt:
            return "Smaller dt";
        case AdviceFix::BlockPointSolve:
            return "Block point solve";
        case AdviceFix::ResetMassScales:
            return "Reset mass scales";
    }
    return "?";
}

/// The fix as one undoable edit; remembers what it changes for the tab's notice. False (and no
/// command) when it would change nothing.
bool fixCommand(AppState& state, const Advice& advice, AdviceFix fix, Command& out) {
    Scene preview = state.sim.scene();
    const std::string what = applyAdviceFix(preview, advice, fix);
    if (what.empty()) {
        state.teach.lastFix = std::string(fixButton(fix)) + ": nothing to change";
        return false;
    }
    state.teach.lastFix = what + " (" + advice.title + ")";
    out = Command{std::string("advisor: ") + kAdviceFixNames[static_cast<int>(fix)], "",
                  [advice, fix](Scene& scene, CommandEffects&) {
                      return applyAdviceFix(scene, advice, fix).empty()
                                 ? std::string("the fix no longer applies")
                                 : std::string();
                  }};
    return true;
}

void requestFix(AppState& state, UiRequests& requests, const Advice& advice, AdviceFix fix) {
    Command c;
    if (fixCommand(state, advice, fix, c)) requests.commands.push_back(std::move(c));
}

}  // namespace

void updateAdvice(AppState& state) {
    TeachState& t = state.teach;
    const World* world = state.sim.world();
    const int64_t step = world ? world->stepCount() : 0;
    const bool sceneChanged = t.adviceRevision != state.sim.sceneRevision();
    const bool rowsDue = step < t.adviceStep || step >= t.adviceStep + kAdviceRefreshSteps;
    if (!sceneChanged && !rowsDue) return;
    t.advice = adviseScene(state.sim.scene(), world && world->stepCount() > 0 ? world : nullptr);
    t.adviceRevision = state.sim.sceneRevision();
    t.adviceStep = step;
}

bool applyAdvisorFix(AppState& state, int k, std::string& error) {
    updateAdvice(state);
    if (state.teach.advice.empty()) {
        error = "the advisor has no warning for this scene";
        return false;
    }
    const Advice& a = state.teach.advice.front();
    if (k < 1 || static_cast<size_t>(k) > a.fixes.size()) {
        error = "the advisor's first warning (" + a.title + ") has " + std::to_string(a.fixes.size()) +
                " fix(es)";
        return false;
    }
    Command c;
    if (!fixCommand(state, a, a.fixes[static_cast<size_t>(k - 1)], c)) {
        error = state.teach.lastFix;
        return false;
    }
    return state.editor.run(c, error);
}

std::string advisorTabLabel(const AppState& state) {
    const size_t n = state.teach.advice.size();
    return n ? "Advisor (" + std::to_string(n) + ")###advisor" : std::string("Advisor###advisor");
}

void drawAdvisorTab(AppState& state, UiRequests& requests) {
    TeachState& t = state.teach;
    if (!t.lastFix.empty()) {
        ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.55f, 1.0f), "Applied: %s", t.lastFix.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("(Ctrl+Z undoes it)");
    }
    if (t.advice.empty()) {
        wrappedText(
            "No conditioning problems found. The advisor looks at every joint for a mass or inertia ratio "
            "above 10, an anchor far from a light body's centre (β = m·r²/I above 20 with per-row point "
            "solve), rows whose response J·M⁻¹·Jᵀ is near the solver's threshold, chains deeper than the "
            "position iterations, and drives whose ω_n·h is above 0.5.");
        return;
    }
    ImGui::BeginChild("##advice", ImVec2(0.0f, 0.0f));
    const Scene& scene = state.sim.scene();
    for (size_t i = 0; i < t.advice.size(); ++i) {
        const Advice& a = t.advice[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::PushStyleColor(ImGuiCol_Text, kWarningColor);
        const bool open =
            ImGui::TreeNodeEx("##warning", ImGuiTreeNodeFlags_DefaultOpen, "[!] %s", a.title.c_str());
        ImGui::PopStyleColor();
        if (ImGui::IsItemClicked() && a.joint >= 0 && static_cast<size_t>(a.joint) < scene.joints.size()) {
            requests.select = true;
            requests.selection = Selection{Selection::Kind::Joint, a.joint};
        }
        if (open) {
            wrappedTextUnformatted(a.explanation);
            wrappedTextDisabled("%s: %.4g (warns above %.4g)", kAdviceKindNames[static_cast<int>(a.kind)],
                                a.value, a.limit);
            if (a.fixes.empty()) ImGui::TextDisabled("no one-click fix: change the scene");
            for (size_t f = 0; f < a.fixes.size(); ++f) {
                if (f) ImGui::SameLine();
                if (ImGui::Button(fixButton(a.fixes[f]))) requestFix(state, requests, a, a.fixes[f]);
                if (ImGui::IsItemHovered()) {
                    Scene preview = scene;
                    const std::string what = applyAdviceFix(preview, a, a.fixes[f]);
                    ImGui::SetTooltip("%s", what.empty() ? "nothing to change" : what.c_str());
                }
                // The fix as B of an A/B compare: the scene with the fix beside the scene without.
                ImGui::SameLine(0.0f, px(2));
                ImGui::PushID(static_cast<int>(f));
                if (ImGui::SmallButton("as B")) {
                    Scene fixed = scene;
                    applyAdviceFix(fixed, a, a.fixes[f]);
                    state.compare.text = fieldChangesBetween(scene, fixed);
                    state.compare.open = true;
                    requests.startCompare = state.compare.text;
                }
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(
                        "Try it first: run the scene with this fix as B beside the scene as it is (A/B "
                        "compare)");
                ImGui::PopID();
            }
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
}

void drawAdvisorMarkers(const AppState& state, const ScreenRect& rect) {
    const World* world = state.sim.world();
    if (!world || state.teach.advice.empty() || !state.view.showJoints) return;
    const Scene& scene = world->scene();
    const ViewportProjection view = ViewportProjection::of(state.camera, rect.width(), rect.height());
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const float s = state.layout.scale;
    int last = -1;
    for (const Advice& a : state.teach.advice) {
        if (a.joint < 0 || a.joint == last || static_cast<size_t>(a.joint) >= scene.joints.size()) continue;
        last = a.joint;
        glm::vec2 pixel;
        const JointDesc& j = scene.joints[static_cast<size_t>(a.joint)];
        if (!view.toScreen(glm::vec3(jointWorldFrames(state.index, world->bodies(), j, a.joint).a.p), pixel))
            continue;
        // A warning triangle above and right of the anchor, clear of the joint's own diamond.
        const ImVec2 c(rect.min.x + pixel.x + 14.0f * s, rect.min.y + pixel.y - 16.0f * s);
        const float r = 9.0f * s;
        draw->AddTriangleFilled(ImVec2(c.x, c.y - r), ImVec2(c.x - r, c.y + 0.8f * r),
                                ImVec2(c.x + r, c.y + 0.8f * r), kWarningColor);
        draw->AddText(ImVec2(c.x - 2.5f * s, c.y - 0.55f * r), IM_COL32(30, 20, 0, 255), "!");
    }
}

}  // namespace jl::app
