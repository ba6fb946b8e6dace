// JointLab app — where a paragraph of panel text breaks into lines. Dear ImGui's own wrapping
// (TextWrapped) breaks after any '.' or ',' as well as at spaces, so at 1280×720 a value such as
// "1.25e-4" could end one line with "1." and start the next with "25e-4", and a number could end a
// line with its unit on the next. These lines break only at spaces, and never inside a field:
// a number stays with the short word after it (its unit: "0.25 m", "3 rows"), a relation sign
// stays with both neighbours ("C = 1.2e-3 m", "λ 0.1 → 0.4"), and "iteration 3 of 4" keeps its
// "3 of 4". No ImGui here, so the rule is
// unit-tested (tests/app/text_wrap_test.cpp); panels/widgets.cpp draws with it.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace jl::app {

/// The width of a piece of text [px] (ImGui::CalcTextSize in the app).
using TextMeasure = std::function<float(std::string_view)>;

/// True for a word that is a number, possibly after an opening bracket or a sign ("1.2e-3",
/// "-4", "(0.5,", "−2", "≈3"): its first digit comes before any letter.
bool isNumberWord(std::string_view word);

/// `text` with the spaces where its lines end replaced by '\n', each line no wider than `width`
/// where the fields allow it: lines break only at spaces (a run of spaces at a break goes), never
/// between a number and the short word after it (at most kUnitMaxChars characters, its unit), nor
/// on either side of a relation sign (= ≈ → < > ≤ ≥ ±), nor after a one-letter name or in "3 of 4"
/// and "1 to 10". A field wider than the
/// whole width breaks at its own spaces; a single word wider than it stays whole. The text's own line breaks
/// stay.
inline constexpr int kUnitMaxChars = 8;
std::string wrapText(std::string_view text, float width, const TextMeasure& measure);

/// `text` on one line of `width`: whole when it fits, else its first wrapped line (wrapText's
/// rules, so no number loses its unit) ended by "…", for a line that cannot grow (the status bar).
std::string fitOneLine(std::string_view text, float width, const TextMeasure& measure);

}  // namespace jl::app
