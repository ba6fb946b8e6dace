// Panel text wraps between fields (issue 31, point 2): a number never splits at its '.', never
// ends a line with its unit on the next, and "C = 1.2e-3 m" stays whole, at every width from far
// too narrow to wide enough. The measure is one unit per character, as a monospaced font would
// give; the app measures with ImGui::CalcTextSize, which adds glyph advances the same way.
#include "shell/text_wrap.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace jl::app {
namespace {

float characters(std::string_view s) {
    float n = 0.0f;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

std::vector<std::string> split(const std::string& s, char by) {
    std::vector<std::string> parts;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, by);) parts.push_back(part);
    return parts;
}

TEST(TextWrap, NumbersAreWords) {
    for (const char* yes : {"1.2e-3", "-4", "(0.5,", "\u22122", "\u22483", ".5", "12%", "0.3)"})
        EXPECT_TRUE(isNumberWord(yes)) << yes;
    for (const char* no : {"-x", "\u03b2", "v1", ".", "", "(", "m/s"}) EXPECT_FALSE(isNumberWord(no)) << no;
}

TEST(TextWrap, ANumberKeepsItsUnitAndRelationsTheirSides) {
    // ImGui's own wrapping at 14 characters could end a line with "1." and put "25e-4 N·m" on
    // the next; here the value moves whole.
    EXPECT_EQ(wrapText("the load 1.25e-4 N\u00b7m is high", 14, characters),
              "the load\n1.25e-4 N\u00b7m is\nhigh");
    EXPECT_EQ(wrapText("error = 1.25e-4 m at step 40", 20, characters), "error = 1.25e-4 m at\nstep 40");
    // A field wider than the whole line breaks at its own spaces, never inside a word.
    EXPECT_EQ(wrapText("error = 1.25e-4 m", 9, characters), "error =\n1.25e-4 m");
    // A single word wider than the line stays whole on its own line.
    EXPECT_EQ(wrapText("x 123456789012 y", 5, characters), "x\n123456789012\ny");
    // "3 of 4" stays whole, as a number and its unit do.
    EXPECT_EQ(wrapText("position iteration 3 of 4): C = 0.5", 22, characters),
              "position iteration\n3 of 4): C = 0.5");
    // A one-letter name keeps its value: the stepper's "λ 0.082343 → 0.082325".
    EXPECT_EQ(wrapText("b = 0, \u03bb 0.082343 \u2192 0.082325", 22, characters),
              "b = 0,\n\u03bb 0.082343 \u2192 0.082325");
    // An operator is no name: "+ 40)" may break after the "+" as a formula does.
    EXPECT_EQ(wrapText("a = h + 40) = 0.78", 10, characters), "a = h +\n40) = 0.78");
    // The text's own line breaks and a paragraph's indent stay; wide enough changes nothing.
    EXPECT_EQ(wrapText("  a b\nc = 1 m", 100, characters), "  a b\nc = 1 m");
    EXPECT_EQ(wrapText("", 10, characters), "");
}

// The stepper's velocity line at every width from 6 to 80 characters: only spaces become line
// breaks; no line is wider than the width unless it is one word; no line ends with a number whose
// unit starts the next, nor at a relation sign; no number is split.
TEST(TextWrap, AtEveryWidthTheLinesBreakOnlyBetweenFields) {
    const std::string text =
        "box after: v = (0.123, -4.5e-05, 6.78) m/s, \u03c9 = (1.5, 2.5, 3.5) rad/s; \u03bb 0.25 \u2192 "
        "0.5 N\u00b7s, C = 1.25e-3 m";
    for (int width = 6; width <= 80; ++width) {
        SCOPED_TRACE(width);
        const std::string wrapped = wrapText(text, static_cast<float>(width), characters);
        std::string joined = wrapped;
        for (char& c : joined)
            if (c == '\n') c = ' ';
        EXPECT_EQ(joined, text);
        const std::vector<std::string> lines = split(wrapped, '\n');
        for (size_t i = 0; i < lines.size(); ++i) {
            const std::string& line = lines[i];
            EXPECT_TRUE(characters(line) <= static_cast<float>(width) || line.find(' ') == std::string::npos)
                << line;
            if (i + 1 == lines.size()) continue;
            const std::vector<std::string> words = split(line, ' ');
            const std::vector<std::string> next = split(lines[i + 1], ' ');
            const std::string& last = words.back();
            const std::string& first = next.front();
            for (const char* sign : {"=", "\u2192"}) {
                // A sign at a line's end or start is allowed only where a field was wider than the
                // line: the widest here, "λ 0.25 → 0.5 N·s,", is 18 characters.
                if (width >= 18) {
                    EXPECT_TRUE(last != sign && first != sign) << line << " | " << lines[i + 1];
                }
            }
            if (width >= 18 && isNumberWord(last)) {
                EXPECT_TRUE(isNumberWord(first)) << line << " | " << first;
            }
        }
    }
}

}  // namespace
}  // namespace jl::app

namespace jl::app {
namespace {

// The status bar's message at 1280x720 (after Restore it ran past the right edge): a message
// that fits is left whole; one that does not ends at a word with "…" within the width, and the
// number keeps its unit.
TEST(TextWrap, OneLineKeepsWhatFitsAndEndsAtAWord) {
    const std::string message =
        "restored joint 'revolute': pulling its bodies together over 60 steps (12.1 m apart)";
    EXPECT_EQ(fitOneLine(message, 200.0f, characters), message);
    const std::string cut = fitOneLine(message, 75.0f, characters);
    EXPECT_LE(characters(cut), 75.0f);
    EXPECT_EQ(cut, "restored joint 'revolute': pulling its bodies together over 60 steps\u2026")
        << "a number keeps its unit: the line ends before it";
    EXPECT_EQ(fitOneLine(message, 27.0f, characters), "restored joint 'revolute'\u2026")
        << "no ':' before the '…'";
}

}  // namespace
}  // namespace jl::app
