// JointLab app — the width a table of fitted columns needs, so that a panel gives it a sideways
// scroll bar (and the bar's height) only when it does not fit (the Step tab's unit table).
// No ImGui here: the text is measured through a callback (ImGui::CalcTextSize in the app), so the
// sum is unit-tested against Dear ImGui's own table layout (tests/app/table_fit_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "shell/text_wrap.h"

namespace jl::app {

/// The outer width [px] of a table with borders whose columns are each as wide as their widest
/// cell (ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Borders): per column its widest text
/// plus `cellPaddingX` on both sides, plus a one-pixel border between and around the columns.
/// `columns[c]` lists the texts of column c, its header among them.
float fittedTableWidth(const std::vector<std::vector<std::string>>& columns, const TextMeasure& measure,
                       float cellPaddingX);

}  // namespace jl::app
