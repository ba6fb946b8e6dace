// The Lesson tab of the Plots dock: a scenario's guided lesson (jointlab/lesson.h), one numbered
// step at a time. "Do this step" applies the step's settings as one undoable edit and restarts
// the run; "Check" runs the step's claim headless (measureLessonStep) and shows the number.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "panels/panels.h"
#include "panels/plots_panels.h"

namespace jl::app {

namespace {

const char* measureWords(LessonMeasure m) {
    switch (m) {
        case LessonMeasure::None:
            return "";
        case LessonMeasure::MaxError:
            return "the largest row error of any joint";
        case LessonMeasure::JointError:
            return "the largest row error of";
        case LessonMeasure::FinalError:
            return "the largest row error in the last step";
        case LessonMeasure::JointForce:
            return "the largest force of";
        case LessonMeasure::Broken:
            return "broken (1) or not (0):";
        case LessonMeasure::EnergyGain:
            return "the largest energy gain";
        case LessonMeasure::Residual:
            return "the last sweep's residual";
        case LessonMeasure::Reference:
            return "the largest |simulated - closed form| of";
        case LessonMeasure::MaxAngle:
            return "the largest angle of";
        case LessonMeasure::Warnings:
            return "the advisor's warnings at the end";
    }
    return "";
}

std::string claimText(const LessonStep& s, Real dt) {
    std::string text = std::string("Claim: ") + measureWords(s.measure);
    if (!s.joint.empty() && s.measure != LessonMeasure::MaxError && s.measure != LessonMeasure::FinalError &&
        s.measure != LessonMeasure::EnergyGain && s.measure != LessonMeasure::Residual &&
        s.measure != LessonMeasure::Warnings)
        text += " \"" + s.joint + "\"";
    char buf[160];
    std::snprintf(buf, sizeof buf, " over the first %d steps (%.3g s)", s.run, s.run * dt);
    text += buf;
    if (std::isfinite(s.atLeast) && std::isfinite(s.atMost) && s.atLeast == s.atMost)
        std::snprintf(buf, sizeof buf, " is %.4g", s.atMost);
    else if (std::isfinite(s.atLeast) && std::isfinite(s.atMost))
        std::snprintf(buf, sizeof buf, " is between %.4g and %.4g", s.atLeast, s.atMost);
    else if (std::isfinite(s.atLeast))
        std::snprintf(buf, sizeof buf, " is at least %.4g", s.atLeast);
    else
        std::snprintf(buf, sizeof buf, " is at most %.4g", s.atMost);
    return text + buf;
}

}  // namespace

bool drawLessonTab(AppState& state, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    const Lesson& lesson = scene.lesson;
    TeachState& t = state.teach;
    if (lesson.empty()) return false;
    if (t.lessonTitle != lesson.title) {  // another lesson: from its first step
        t.lessonTitle = lesson.title;
        t.lessonStep = 0;
        t.lessonMessage.clear();
    }
    const int count = static_cast<int>(lesson.steps.size());
    t.lessonStep = std::min(std::max(t.lessonStep, 0), count - 1);
    const LessonStep& step = lesson.steps[static_cast<size_t>(t.lessonStep)];

    ImGui::TextColored(ImVec4(0.95f, 0.85f, 0.55f, 1.0f), "%s", lesson.title.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("  step %d of %d", t.lessonStep + 1, count);
    ImGui::SameLine();
    ImGui::BeginDisabled(t.lessonStep == 0);
    if (ImGui::SmallButton("< Previous")) --t.lessonStep, t.lessonMessage.clear();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(t.lessonStep + 1 >= count);
    if (ImGui::SmallButton("Next >")) ++t.lessonStep, t.lessonMessage.clear();
    ImGui::EndDisabled();
    ImGui::Separator();
    wrappedText("%d. %s", t.lessonStep + 1, step.text.c_str());
    if (!step.set.empty()) {
        if (ImGui::Button("Do this step")) {
            const int index = t.lessonStep;
            requests.commands.push_back(
                Command{"lesson step " + std::to_string(index + 1), "",
                        [set = step.set](Scene& s, CommandEffects&) { return applyLessonSet(s, set); }});
            requests.reset = true;  // the claims are about the run from its start
            t.lessonMessage.clear();
        }
        ImGui::SameLine();
        ImGui::TextDisabled("sets %s, then restarts the run", step.set.c_str());
    }
    if (step.measure != LessonMeasure::None) {
        wrappedTextDisabled("%s", claimText(step, scene.settings.dt).c_str());
        if (ImGui::Button("Check the claim")) {
            Real value = 0.0;
            const std::string e = measureLessonStep(scene, static_cast<size_t>(t.lessonStep), value);
            char buf[200];
            if (!e.empty())
                std::snprintf(buf, sizeof buf, "cannot check: %s", e.c_str());
            else
                std::snprintf(buf, sizeof buf, "measured %.4g: the claim %s", value,
                              value >= step.atLeast && value <= step.atMost ? "holds" : "does NOT hold");
            t.lessonMessage = buf;
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "runs this lesson from its start, with every step's settings up to this one, "
                "without a window, and measures the claim");
    }
    if (!t.lessonMessage.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(t.lessonMessage.c_str());
    }
    return true;
}

}  // namespace jl::app
