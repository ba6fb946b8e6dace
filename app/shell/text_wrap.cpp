#include "shell/text_wrap.h"

#include <vector>

namespace jl::app {

namespace {

/// A word of a paragraph: [begin, end), after the spaces that start at `spaces`.
struct Word {
    size_t spaces = 0, begin = 0, end = 0;
};

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool isRelation(std::string_view word) {
    for (std::string_view r : {"=", "≈", "→", "<", ">", "≤", "≥", "±", "<=", ">=", "=>"})
        if (word == r) return true;
    return false;
}

/// Characters (UTF-8 code points) of a word.
int codePoints(std::string_view s) {
    int n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

/// A Latin or Greek letter on its own (a quantity's name: "λ", "C"), not an operator ("+", "×").
bool isOneLetter(std::string_view w) {
    if (codePoints(w) != 1) return false;
    const auto lead = static_cast<unsigned char>(w.front());
    return (lead >= 'a' && lead <= 'z') || (lead >= 'A' && lead <= 'Z') ||
           (lead >= 0xCE && lead <= 0xCF);  // U+0380–U+03FF: the Greek letters
}

/// No line break in the spaces between `a` and `b`.
bool glued(std::string_view a, std::string_view b) {
    if (isRelation(a) || isRelation(b)) return true;
    // "3 of 4", "1 to 10", and a one-letter name before its value: "λ 0.08 → 0.09".
    if ((a == "of" || a == "to" || isOneLetter(a)) && isNumberWord(b)) return true;
    // A number that ends a field ("4):", "0.5,") has no unit after it.
    const char end = a.empty() ? ' ' : a.back();
    if (end == ',' || end == ';' || end == ':') return false;
    return isNumberWord(a) && !isNumberWord(b) && codePoints(b) <= kUnitMaxChars;
}

std::vector<Word> wordsOf(std::string_view para) {
    std::vector<Word> words;
    size_t i = 0;
    while (i < para.size()) {
        Word w;
        w.spaces = i;
        while (i < para.size() && para[i] == ' ') ++i;
        if (i == para.size()) break;  // trailing spaces belong to the last word's line
        w.begin = i;
        while (i < para.size() && para[i] != ' ') ++i;
        w.end = i;
        words.push_back(w);
    }
    return words;
}

/// The indices of the words that start a new line.
std::vector<size_t> lineStarts(std::string_view para, const std::vector<Word>& words, float width,
                               const TextMeasure& measure) {
    std::vector<size_t> starts;
    const size_t n = words.size();
    auto word = [&](size_t k) { return para.substr(words[k].begin, words[k].end - words[k].begin); };
    // The line so far runs from `from` (a word's start, or 0 for the first line and its indent).
    size_t first = 0, from = 0;
    auto fits = [&](size_t endWord) {
        return measure(para.substr(from, words[endWord].end - from)) <= width;
    };
    auto newLine = [&](size_t k) {
        starts.push_back(k);
        first = k;
        from = words[k].begin;
    };
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;  // the field [i, j): words glued together
        while (j < n && glued(word(j - 1), word(j))) ++j;
        if (fits(j - 1)) {
            i = j;
            continue;
        }
        if (i != first) {  // the field goes to the next line whole
            newLine(i);
            continue;
        }
        // Wider than a whole line: it breaks at its own spaces.
        for (size_t k = i; k < j; ++k)
            if (k != first && !fits(k)) newLine(k);
        i = j;
    }
    return starts;
}

void wrapParagraph(std::string_view para, float width, const TextMeasure& measure, std::string& out) {
    const std::vector<Word> words = wordsOf(para);
    size_t at = 0;
    for (size_t k : lineStarts(para, words, width, measure)) {
        out.append(para.substr(at, words[k].spaces - at));
        out.push_back('\n');
        at = words[k].begin;
    }
    out.append(para.substr(at));
}

}  // namespace

bool isNumberWord(std::string_view word) {
    for (;;) {
        if (word.empty()) return false;
        const char c = word.front();
        if (c >= '0' && c <= '9') return true;
        if (c == '(' || c == '[' || c == '{' || c == '-' || c == '+' || c == '~') {
            word.remove_prefix(1);
        } else if (startsWith(word, "−") || startsWith(word, "≈")) {
            word.remove_prefix(std::string_view("−").size());  // both are three bytes in UTF-8
        } else if (c == '.' && word.size() > 1 && word[1] >= '0' && word[1] <= '9') {
            return true;  // ".5"
        } else {
            return false;
        }
    }
}

std::string wrapText(std::string_view text, float width, const TextMeasure& measure) {
    std::string out;
    out.reserve(text.size());
    size_t start = 0;
    for (;;) {
        const size_t nl = text.find('\n', start);
        wrapParagraph(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start),
                      width, measure, out);
        if (nl == std::string_view::npos) break;
        out.push_back('\n');
        start = nl + 1;
    }
    return out;
}

std::string fitOneLine(std::string_view text, float width, const TextMeasure& measure) {
    if (text.find('\n') == std::string_view::npos && measure(text) <= width) return std::string(text);
    const std::string ellipsis = "\u2026";
    const std::string lines = wrapText(text, width - measure(ellipsis), measure);
    std::string first = lines.substr(0, lines.find('\n'));
    while (!first.empty() &&
           (first.back() == ',' || first.back() == ';' || first.back() == ':' || first.back() == ' '))
        first.pop_back();
    return first + ellipsis;
}

}  // namespace jl::app
