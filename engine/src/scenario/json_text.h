// JointLab engine (private) — JSON text: strict parsing of files a person may have edited by
// hand, and the canonical printing JointLab writes.
//
// nlohmann::json accepts duplicate keys (the last one silently wins), reports overflowing
// numbers (1e400) without a position, and its DOM recursion is unbounded. parseStrictJson()
// adds what a loader needs on top:
//   * a cheap pre-scan that refuses nesting deeper than a limit BEFORE nlohmann sees the text,
//   * a SAX handler (nlohmann's SAX parser is iterative) that builds an ordered DOM, refuses
//     duplicate keys, and knows the path of the value being parsed when something goes wrong,
//   * one-line messages: "bodies[2].mass: number out of range: 1e400 (line 14, column 22)".
// No exception escapes.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace jl::json {

/// Object keys keep their file order, so files are written in field-list order.
using Json = nlohmann::ordered_json;

/// Deepest allowed nesting of arrays and objects. A scenario needs 6.
inline constexpr int kMaxNestingDepth = 64;

/// Large top-level arrays handed over one element at a time: each element of the array that is
/// the value of one of `keys` at the top level is passed to `sink` as soon as it is complete (its
/// key, its index, the element), then dropped, so that `out` holds an empty array there. A reader
/// converts "bodies" one body at a time this way instead of holding the DOM of all of them next to
/// the descriptions it makes of them. The sink must not throw; it is not called once parsing has
/// failed, and it may be called for elements before a syntax error later in the file.
struct StreamedArrays {
    std::vector<std::string_view> keys;
    std::function<void(std::string_view key, size_t index, const Json& element)> sink;
    /// Optional: called when such an array opens, with its element count as a pre-scan of the text
    /// found it (exact when the text is valid JSON; a hint to reserve storage, nothing more).
    std::function<void(std::string_view key, size_t count)> start;
};

/// Parses `text` into `out`. On failure returns false, sets `error` and leaves `out` unchanged.
/// `ignoredKey`: a top-level key whose object or array value is checked like the rest (syntax,
/// depth, duplicate keys) but not kept: `out` holds an empty container of its kind there.
/// `streamed`: top-level arrays whose elements go to a sink rather than into `out` (see above).
bool parseStrictJson(std::string_view text, Json& out, std::string& error, int maxDepth = kMaxNestingDepth,
                     std::string_view ignoredKey = {}, const StreamedArrays* streamed = nullptr);

/// Canonical text of v: objects one key per line, 2-space indent; arrays of scalars on one line
/// ("position": [0.0, 1.0, 0.0]); numbers as nlohmann prints them (shortest text that reads back
/// as the same double); strings as UTF-8 (invalid bytes replaced). No trailing newline.
std::string printCanonical(const Json& v);

/// `s` as a double-quoted, escaped, one-line string for messages, cut after maxChars bytes.
std::string quote(std::string_view s, size_t maxChars = 60);

/// Replaces control characters and invalid UTF-8 in a message so it stays on one printable line.
std::string oneLine(std::string_view message);

/// 1-based line and column of byte `offset` in `text`.
void lineColumn(std::string_view text, size_t offset, size_t& line, size_t& column);

}  // namespace jl::json
