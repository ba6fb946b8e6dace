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

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace jl::json {

/// Object keys keep their file order, so files are written in field-list order.
using Json = nlohmann::ordered_json;

/// Deepest allowed nesting of arrays and objects. A scenario needs 6.
inline constexpr int kMaxNestingDepth = 64;

/// Parses `text` into `out`. On failure returns false, sets `error` and leaves `out` unchanged.
/// `ignoredKey`: a top-level key whose object or array value is checked like the rest (syntax,
/// depth, duplicate keys) but not kept: `out` holds an empty container of its kind there.
bool parseStrictJson(std::string_view text, Json& out, std::string& error, int maxDepth = kMaxNestingDepth,
                     std::string_view ignoredKey = {});

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
