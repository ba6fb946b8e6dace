#include <imgui.h>
#include <imgui_internal.h>  // the current window's text wrap position, as TextWrapped reads it

#include <algorithm>
#include <cfloat>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "panels/panels.h"
#include "shell/text_wrap.h"

namespace jl::app {

namespace {

std::string formatted(const char* format, va_list args) {
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (n <= 0) return {};
    std::string s(static_cast<size_t>(n) + 1, '\0');
    std::vsnprintf(s.data(), s.size(), format, args);
    s.resize(static_cast<size_t>(n));
    return s;
}

void wrappedV(const ImVec4* colour, const char* format, va_list args) {
    if (ImGui::GetCurrentWindow()->SkipItems) return;
    wrappedTextUnformatted(formatted(format, args), colour);
}

}  // namespace

void wrappedTextUnformatted(const std::string& text, const ImVec4* colour) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (window->SkipItems) return;
    // TextWrapped wraps at the window's (or cell's) edge when no wrap position was pushed.
    const float wrapPos = std::max(window->DC.TextWrapPos, 0.0f);
    const float width = std::max(1.0f, ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrapPos));
    // The font's own advance sum, as ImGui's wrapping measures (CalcTextSize rounds up a pixel).
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const std::string lines = wrapText(text, width, [font, size](std::string_view s) {
        return font->CalcTextSizeA(size, FLT_MAX, 0.0f, s.data(), s.data() + s.size()).x;
    });
    if (colour) ImGui::PushStyleColor(ImGuiCol_Text, *colour);
    ImGui::PushTextWrapPos(-1.0f);  // the lines are broken already: one item, ImGui's line spacing
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
    ImGui::PopTextWrapPos();
    if (colour) ImGui::PopStyleColor();
}

void wrappedText(const char* format, ...) {
    va_list args;
    va_start(args, format);
    wrappedV(nullptr, format, args);
    va_end(args);
}

void wrappedTextColored(const ImVec4& colour, const char* format, ...) {
    va_list args;
    va_start(args, format);
    wrappedV(&colour, format, args);
    va_end(args);
}

void wrappedTextDisabled(const char* format, ...) {
    va_list args;
    va_start(args, format);
    wrappedV(&ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], format, args);
    va_end(args);
}

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

void centerNextWindow(float width, float height) {
    const ImVec2 center(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f);
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (width > 0.0f || height > 0.0f) ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Appearing);
}

bool escapePressed() {
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
}

bool okButton() {
    return ImGui::Button("OK", ImVec2(px(120.0f), 0.0f)) || escapePressed() ||
           ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
}

bool cancelButton(float designWidth) {
    return ImGui::Button("Cancel", ImVec2(px(designWidth), 0.0f)) || escapePressed();
}

}  // namespace jl::app
