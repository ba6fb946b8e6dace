// A Dear ImGui context for tests that draw without a window or GL: the font atlas is built (no
// texture upload needed) and the draw lists can be inspected after ImGui::Render().
#pragma once

#include <imgui.h>

namespace jl::test {

struct HeadlessImGui {
    explicit HeadlessImGui(ImVec2 displaySize) {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = displaySize;
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(); }
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace jl::test
