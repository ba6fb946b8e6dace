// The timeline: a scrub bar along the bottom of the viewport over the run's history
// (jointlab/history.h). Drag to any step; the marks (a joint broke, an edit, a setting changed, a
// restore, a branch, a diverged step) sit on it and a click on one goes there; the branch list
// switches and deletes branches. Going back pauses the run; playing on retakes the recorded
// future, and changing anything there starts a new branch (the old future is kept).
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "panels/panels.h"

namespace jl::app {

namespace {

ImU32 markColour(HistoryMark kind) {
    switch (kind) {
        case HistoryMark::Break:
        case HistoryMark::NonFinite:
            return IM_COL32(235, 80, 70, 255);
        case HistoryMark::Restore:
            return IM_COL32(90, 200, 110, 255);
        case HistoryMark::Setting:
            return IM_COL32(90, 170, 240, 255);
        case HistoryMark::Branch:
            return IM_COL32(240, 200, 70, 255);
        case HistoryMark::LimitHit:
            return IM_COL32(200, 120, 230, 255);
        case HistoryMark::DriveSaturated:
            return IM_COL32(240, 150, 60, 255);
        case HistoryMark::RowDropped:
            return IM_COL32(150, 150, 150, 255);
        default:
            return IM_COL32(200, 200, 200, 255);
    }
}

}  // namespace

float timelineHeight() {
    return ImGui::GetFrameHeight() + 2.0f * px(6.0f);
}

void drawTimeline(AppState& state, const ScreenRect& rect, UiRequests& requests) {
    const History& history = state.sim.history();
    const World* world = state.sim.world();
    if (!world || !history.started()) return;
    const float height = timelineHeight();
    ImGui::SetNextWindowPos(ImVec2(rect.min.x, rect.max.y - height));
    ImGui::SetNextWindowSize(ImVec2(rect.width(), height));
    ImGui::SetNextWindowBgAlpha(0.75f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(px(6.0f), px(6.0f)));
    if (!ImGui::Begin("##timeline", nullptr, flags)) {
        ImGui::End();
        ImGui::PopStyleVar();
        return;
    }
    const int64_t first = history.firstStep(), last = history.lastStep(), now = world->stepCount();

    // The branch list.
    const std::span<const History::Branch> branches = history.branches();
    const History::Branch& current = branches[static_cast<size_t>(history.currentBranch())];
    ImGui::SetNextItemWidth(px(120.0f));
    if (ImGui::BeginCombo("##branch", current.name.c_str())) {
        for (const History::Branch& b : branches) {
            if (b.deleted) continue;
            char label[160];
            std::snprintf(label, sizeof label, "%s  (steps %" PRId64 "-%" PRId64 ")##b%d", b.name.c_str(),
                          b.fork, b.end, b.id);
            if (ImGui::Selectable(label, b.id == current.id)) requests.switchBranch = b.id;
            if (b.id != current.id && ImGui::BeginPopupContextItem()) {
                if (ImGui::MenuItem("Delete branch")) requests.deleteBranch = b.id;
                ImGui::EndPopup();
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Branches of this run: editing at a past step starts a new one and keeps the old "
            "future. Right-click another branch to delete it.");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) requests.seekStep = std::max(first, now - 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("One step back (Left arrow; Home: the start)");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) {
        if (now < last)
            requests.seekStep = now + 1;
        else
            ++requests.singleSteps;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("One step forward (Right arrow; End: the newest step)");
    ImGui::SameLine();

    // The bar.
    char counter[96];
    std::snprintf(counter, sizeof counter, "step %" PRId64 " / %" PRId64, now, last);
    const float counterWidth = ImGui::CalcTextSize("step 00000000 / 00000000").x;
    const float barWidth = std::max(px(40.0f), ImGui::GetContentRegionAvail().x - counterWidth - px(8.0f));
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float barHeight = ImGui::GetFrameHeight();
    ImGui::InvisibleButton("##scrub", ImVec2(barWidth, barHeight));
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float y = p0.y + barHeight * 0.5f;
    const double span = static_cast<double>(std::max<int64_t>(last - first, 1));
    auto xOf = [&](int64_t step) {
        return p0.x + static_cast<float>(static_cast<double>(step - first) / span) * barWidth;
    };
    auto stepAt = [&](float x) {
        const double t = std::clamp(static_cast<double>((x - p0.x) / barWidth), 0.0, 1.0);
        return first + static_cast<int64_t>(t * span + 0.5);
    };
    draw->AddRectFilled(ImVec2(p0.x, y - px(3.0f)), ImVec2(p0.x + barWidth, y + px(3.0f)),
                        IM_COL32(70, 74, 82, 255), px(3.0f));
    draw->AddRectFilled(ImVec2(p0.x, y - px(3.0f)), ImVec2(xOf(now), y + px(3.0f)),
                        IM_COL32(110, 140, 190, 255), px(3.0f));
    if (history.droppedBefore() > 0) {
        // Older steps were dropped to stay within the history's memory: a hatch at the start.
        for (float x = p0.x; x < p0.x + px(14.0f); x += px(4.0f))
            draw->AddLine(ImVec2(x, y + px(6.0f)), ImVec2(x + px(4.0f), y - px(6.0f)),
                          IM_COL32(160, 160, 160, 200));
    }
    // The marks; the one under the mouse is told and a click goes there.
    const HistoryEvent* hoveredMark = nullptr;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (const HistoryEvent& e : history.events()) {
        if (e.step < first || e.step > last) continue;
        const float x = xOf(e.step);
        draw->AddTriangleFilled(ImVec2(x, y - px(2.0f)), ImVec2(x - px(4.0f), y - px(10.0f)),
                                ImVec2(x + px(4.0f), y - px(10.0f)), markColour(e.kind));
        if (hovered && std::abs(mouse.x - x) <= px(4.0f) && mouse.y < y) hoveredMark = &e;
    }
    draw->AddCircleFilled(ImVec2(xOf(now), y), px(6.0f), IM_COL32(235, 235, 240, 255));
    if (hoveredMark) {
        ImGui::SetTooltip("step %" PRId64 ": %s (%s)\nclick to go there", hoveredMark->step,
                          hoveredMark->what.c_str(), kHistoryMarkNames[static_cast<int>(hoveredMark->kind)]);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) requests.seekStep = hoveredMark->step;
    } else if (active) {
        const int64_t target = stepAt(mouse.x);
        if (target != now) requests.seekStep = target;
    } else if (hovered) {
        ImGui::SetTooltip(
            "step %" PRId64 " of %" PRId64 "–%" PRId64 "%s\ndrag to go back; Left/Right step while paused",
            stepAt(mouse.x), first, last,
            history.droppedBefore() > 0 ? "\n(older steps were dropped to stay within memory)" : "");
    }
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    if (now < last)
        ImGui::TextColored(ImVec4(0.95f, 0.8f, 0.35f, 1.0f), "%s", counter);
    else
        ImGui::TextUnformatted(counter);
    if (ImGui::IsItemHovered() && now < last)
        ImGui::SetTooltip(
            "Back in the run: play retakes what was recorded; an edit, a pull or a new setting "
            "here starts a branch.");
    ImGui::End();
    ImGui::PopStyleVar();
}

}  // namespace jl::app
