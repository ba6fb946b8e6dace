#include <imgui.h>

#include <cstdarg>

#include "panels/panels.h"

namespace jl::app {

void helpMarker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void sectionHeader(const char* title) {
    ImGui::Spacing();
    ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "%s", title);
    ImGui::Separator();
}

void propertyRow(const char* label, const char* format, ...) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", label);
    ImGui::TableSetColumnIndex(1);
    va_list args;
    va_start(args, format);
    ImGui::TextV(format, args);
    va_end(args);
}

const char* bodyDisplayName(const std::string& name) {
    return name.empty() ? "world" : name.c_str();
}

}  // namespace jl::app
