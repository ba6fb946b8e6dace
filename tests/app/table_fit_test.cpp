// The Step tab's unit table scrolls sideways only when its columns do not fit, and only then keeps
// room for the scroll bar under it (it left an empty band under the table when nothing scrolled).
// The decision rests on fittedTableWidth (shell/table_fit.h) being the width Dear ImGui itself
// gives such a table: measured here against a real table laid out without GL.
#include "shell/table_fit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "headless_imgui.h"

namespace jl::app {
namespace {

/// The width Dear ImGui gives a bordered table of fitted columns holding `columns` (header first).
float imguiTableWidth(const std::vector<std::vector<std::string>>& columns) {
    float width = 0.0f;
    for (int frame = 0; frame < 3; ++frame) {  // fitted columns take their widths from the frame before
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
        ImGui::Begin("table", nullptr, ImGuiWindowFlags_NoDecoration);
        const ImGuiTableFlags flags =
            ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX;
        if (ImGui::BeginTable("##t", static_cast<int>(columns.size()), flags)) {
            for (const std::vector<std::string>& c : columns) ImGui::TableSetupColumn(c[0].c_str());
            ImGui::TableHeadersRow();
            size_t rows = 0;
            for (const std::vector<std::string>& c : columns) rows = std::max(rows, c.size());
            for (size_t r = 1; r < rows; ++r) {
                ImGui::TableNextRow();
                for (size_t c = 0; c < columns.size(); ++c) {
                    ImGui::TableSetColumnIndex(static_cast<int>(c));
                    if (r < columns[c].size()) ImGui::TextUnformatted(columns[c][r].c_str());
                }
            }
            ImGui::EndTable();
        }
        width = ImGui::GetItemRectSize().x;
        ImGui::End();
        ImGui::Render();
    }
    return width;
}

TEST(TableFit, TheWidthIsTheOneDearImGuiGivesTheTable) {
    test::HeadlessImGui imgui{ImVec2(1280, 720)};
    const TextMeasure measure = [](std::string_view t) {
        return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x;
    };
    // One row, and a block of three with long labels (a contact's normal and friction rows).
    const std::vector<std::vector<std::vector<std::string>>> tables = {
        {{"", "C", "J\u00b7v", "\u03bb before", "clamp"}, {"5 twist drive", "-0.03102", "5.941", "-"}},
        {{"", "C", "\u03bb after"},
         {"0 contact normal", "-0.001247", "CLAMPED"},
         {"1 contact friction (tangent 1)", "1.272e-4", "-"},
         {"2 contact friction (tangent 2)", "8.998", "0.08233"}},
    };
    for (const auto& columns : tables) {
        const float imgui = imguiTableWidth(columns);
        ASSERT_GT(imgui, 50.0f);
        // Whole pixels apart at most: ImGui rounds each column's offset.
        EXPECT_NEAR(fittedTableWidth(columns, measure, ImGui::GetStyle().CellPadding.x), imgui, 1.0f);
    }
    // The measure is the callback's: twice as wide a font, twice the text.
    const std::vector<std::vector<std::string>> one = {{"ab"}, {"abcd"}};
    const float unit = fittedTableWidth(
        one, [](std::string_view t) { return 7.0f * t.size(); }, 4.0f);
    EXPECT_FLOAT_EQ(unit, 1.0f + (14.0f + 8.0f + 1.0f) + (28.0f + 8.0f + 1.0f));
}

}  // namespace
}  // namespace jl::app
