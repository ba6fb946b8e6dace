// Strict JSON parsing (depth pre-scan, SAX-built DOM with duplicate-key and path tracking) and
// canonical printing.
// See scenario/json_text.h for why this exists.
#include "scenario/json_text.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string_view>
#include <vector>

namespace jl::json {

// [SECTION] Message helpers

namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
size_t utf8SequenceLength(std::string_view s, size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    if (b < 0x80) return 1;
    if ((b & 0xE0) == 0xC0 && b >= 0xC2)
        n = 2;
    else if ((b & 0xF0) == 0xE0)
        n = 3;
    else if ((b & 0xF8) == 0xF0 && b <= 0xF4)
        n = 4;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    return n;
}

void appendEscapedByte(std::string& out, unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", b);
    out += buf;
}

/// Appends s with control characters and invalid UTF-8 escaped; `quote` also escapes " and \.
void appendPrintable(std::string& out, std::string_view s, bool quote, size_t maxChars) {
    size_t i = 0;
    while (i < s.size()) {
        if (i >= maxChars) {
            out += "...";
            return;
        }
        const auto b = static_cast<unsigned char>(s[i]);
        if (b == '\n')
            out += "\\n";
        else if (b == '\t')
            out += "\\t";
        else if (b == '\r')
            out += "\\r";
        else if (b < 0x20 || b == 0x7F)
            appendEscapedByte(out, b);
        else if (quote && (b == '"' || b == '\\')) {
            out += '\\';
            out += static_cast<char>(b);
        } else {
            const size_t n = utf8SequenceLength(s, i);
            const auto b1 = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0;
            if (n == 0) {
                appendEscapedByte(out, b);
            } else if ((n == 2 && b == 0xC2 && b1 < 0xA0) ||
                       (n == 3 && b == 0xE2 && b1 == 0x80 &&
                        (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8)) {
                // C1 controls (U+0080..U+009F) and the line and paragraph separators U+2028/U+2029,
                // which some viewers break lines at: escaped so a message stays one printable line.
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04X",
                              n == 2 ? b1 : 0x2000u + (static_cast<unsigned char>(s[i + 2]) & 0x3Fu));
                out += buf;
                i += n;
                continue;
            } else {
                out.append(s.substr(i, n));
                i += n;
                continue;
            }
        }
        ++i;
    }
}

}  // namespace

std::string quote(std::string_view s, size_t maxChars) {
    std::string out = "\"";
    appendPrintable(out, s, true, maxChars);
    out += '"';
    return out;
}

std::string oneLine(std::string_view message) {
    std::string out;
    appendPrintable(out, message, false, 400);
    return out;
}

void lineColumn(std::string_view text, size_t offset, size_t& line, size_t& column) {
    if (offset > text.size()) offset = text.size();
    line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    column = offset - lineStart + 1;
}

namespace {

std::string at(std::string_view text, size_t offset) {
    size_t line = 0, column = 0;
    lineColumn(text, offset, line, column);
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// [SECTION] Pre-scan
//
// One O(n) pass with O(1) memory before any parser runs:
//   * nesting: counts [ and { outside strings, so "[[[[...]]]]" 100 000 deep is refused before a
//     parser allocates a frame for it;
//   * binary data: a control byte other than tab, CR and LF is never valid JSON (inside strings
//     it must be escaped), and is the first thing an image, an archive or UTF-16 text hits;
//   * a UTF-8 byte order mark anywhere but at the very start (which nlohmann skips).
constexpr char kUtf8Bom[] = "\xEF\xBB\xBF";

/// `arrayCounts`: for each array opened one level down (the values of the top-level object's
/// keys), in order, its number of elements (commas at its level + 1, 0 when empty): exact for valid
/// JSON, and only a capacity hint (StreamedArrays::start).
bool preScan(std::string_view text, int maxDepth, std::string& error, std::vector<size_t>& arrayCounts) {
    int depth = 0;
    bool inString = false;
    bool inTopArray = false;  // inside an array opened at depth 1 (its elements are at depth 2)
    bool topArrayEmpty = true;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", byte);
            error =
                at(text, i) +
                (byte == 0
                     ? ": NUL byte: not a text file (binary data, or UTF-16 text without a byte order mark)"
                     : std::string(": control byte ") + hex +
                           ": not a text file (a scenario is UTF-8 JSON text)");
            return false;
        }
        if (inString) {
            if (c == '\\')
                ++i;  // skip the escaped character (\" does not end the string)
            else if (c == '"')
                inString = false;
            continue;
        }
        if (inTopArray && topArrayEmpty && c != ' ' && c != '\t' && c != '\n' && c != '\r' &&
            !(c == ']' && depth == 2)) {
            topArrayEmpty = false;
            arrayCounts.back() = 1;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (c == '[' && depth == 1) {
                arrayCounts.push_back(0);
                inTopArray = true;
                topArrayEmpty = true;
            }
            if (++depth > maxDepth) {
                error = at(text, i) + ": nesting deeper than " + std::to_string(maxDepth) + " levels";
                return false;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            if (--depth == 1) inTopArray = false;
        } else if (c == ',' && depth == 2 && inTopArray) {
            ++arrayCounts.back();
        } else if (i > 0 && text.substr(i, 3) == kUtf8Bom) {
            error = at(text, i) +
                    ": UTF-8 byte order mark (U+FEFF) in the middle of the text; only one, at the very "
                    "start of the file, is allowed";
            return false;
        }
    }
    return true;
}

/// The encoding a byte order mark announces, for files that are not UTF-8; nullptr otherwise.
const char* foreignEncoding(std::string_view text) {
    if (text.substr(0, 4) == std::string_view("\xFF\xFE\0\0", 4) ||
        text.substr(0, 4) == std::string_view("\0\0\xFE\xFF", 4))
        return "UTF-32";
    if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF") return "UTF-16";
    return nullptr;
}

// [SECTION] SAX handler building an ordered DOM

/// The keys of one object under construction, for the duplicate-key check in O(1) per key: a
/// plain scan while the object is small, then an open-addressing table of indices into the object
/// (4 bytes a slot, at most half full), filled lazily with the keys added since the last lookup.
/// (The ordered DOM's own find is a linear scan: 200 000 keys took a minute.)
class KeyIndex {
public:
    /// `keys`: the object's entries (Json::object_t) or, for an object whose values are not
    /// kept, its keys alone (std::vector<std::string>).
    template <class Keys>
    bool contains(const Keys& keys, std::string_view key) {
        if (keys.size() < kScanBelow) {
            for (size_t i = 0; i < keys.size(); ++i)
                if (keyAt(keys, i) == key) return true;
            return false;
        }
        while (indexed_ < keys.size()) insert(keys, indexed_++);
        for (size_t i = hash(key) & mask(); slots_[i] != 0; i = (i + 1) & mask())
            if (keyAt(keys, slots_[i] - 1) == key) return true;
        return false;
    }

private:
    static constexpr size_t kScanBelow = 16;
    static size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
    static std::string_view keyAt(const Json::object_t& obj, size_t i) {
        return (obj.begin() + static_cast<std::ptrdiff_t>(i))->first;
    }
    static std::string_view keyAt(const std::vector<std::string>& keys, size_t i) { return keys[i]; }
    size_t mask() const { return slots_.size() - 1; }

    template <class Keys>
    void insert(const Keys& keys, size_t index) {
        if (2 * (index + 1) > slots_.size()) {  // grow, keeping the table at most half full
            std::vector<uint32_t> old(std::max<size_t>(64, slots_.size() * 2), 0);
            old.swap(slots_);
            for (uint32_t entry : old)
                if (entry != 0) place(keys, entry - 1);
        }
        place(keys, index);
    }
    template <class Keys>
    void place(const Keys& keys, size_t index) {
        size_t i = hash(keyAt(keys, index)) & mask();
        while (slots_[i] != 0) i = (i + 1) & mask();
        slots_[i] = static_cast<uint32_t>(index + 1);
    }

    std::vector<uint32_t> slots_;  ///< index + 1 into the keys; 0 = empty
    size_t indexed_ = 0;           ///< keys in the table so far
};

class DomBuilder {
public:
    DomBuilder(std::string_view text, int maxDepth, std::string_view ignoredKey,
               const StreamedArrays* streamed, const std::vector<size_t>& arrayCounts)
        : text_(text),
          maxDepth_(maxDepth),
          ignoredKey_(ignoredKey),
          streamed_(streamed),
          arrayCounts_(arrayCounts) {}

    Json root;
    std::string error;

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool v) { return add(Json(v)); }
    bool number_integer(Json::number_integer_t v) { return add(Json(v)); }
    bool number_unsigned(Json::number_unsigned_t v) { return add(Json(v)); }
    bool number_float(Json::number_float_t v, const Json::string_t&) { return add(Json(v)); }
    bool string(Json::string_t& v) { return add(Json(std::move(v))); }
    bool binary(Json::binary_t&) { return fail(pendingPath() + ": binary values are not JSON"); }

    bool start_object(std::size_t) { return open(Json::object()); }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(Json::string_t& k) {
        Frame& f = stack_.back();
        const bool duplicate = f.keepsValues
                                   ? f.keys.contains(f.container->get_ref<const Json::object_t&>(), k)
                                   : f.keys.contains(f.droppedKeys, k);
        if (duplicate) {
            const std::string where = containerPath();
            return fail(where.empty() ? "duplicate top-level key " + quote(k)
                                      : where + ": duplicate key " + quote(k));
        }
        if (!f.keepsValues) f.droppedKeys.push_back(k);
        f.key = std::move(k);
        f.hasKey = true;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken,
                     const nlohmann::detail::exception& ex) {
        std::string detail = ex.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
        if (const size_t p = detail.find("] "); p != std::string::npos) detail.erase(0, p + 2);
        if (detail.rfind("parse error", 0) == 0)
            if (const size_t p = detail.find(": "); p != std::string::npos) detail.erase(0, p + 2);
        size_t offset = position;
        if (ex.id == 406) {  // number overflow: position is after the token
            detail = "number out of range: " +
                     (lastToken.size() > 40 ? lastToken.substr(0, 40) + "..." : lastToken);
            offset = position >= lastToken.size() ? position - lastToken.size() : 0;
        } else if (offset > 0) {
            --offset;  // position counts the character that could not be used; point at it
        }
        // nlohmann quotes the whole token read so far: keep a 300 kB unterminated string out of the message.
        if (const size_t a = detail.find("last read: '"); a != std::string::npos) {
            const size_t from = a + 12;
            size_t to = detail.find("'; expected", from);
            if (to == std::string::npos) to = detail.rfind('\'');
            if (to != std::string::npos && to > from + 40)
                detail.replace(from, to - from, detail.substr(from, 40) + "...");
        }
        // Right after a complete value the parser wanted a separator or the end of the container,
        // as in "mass": 0x10 (the 0 is a value) or a missing comma: name that value, not the next.
        const bool afterValue = detail.find("; expected '}'") != std::string::npos ||
                                detail.find("; expected ']'") != std::string::npos;
        const std::string path = afterValue ? lastValuePath() : pendingPath();
        error = (path.empty() ? "" : path + ": ") + detail + " (" + at(text_, offset) + ")";
        return false;
    }

private:
    struct Frame {
        Json* container;  ///< nullptr inside the ignored key's value (nothing of it is kept)
        bool isArray = false;
        bool keepsValues = true;  ///< false: the values in it are checked and dropped
        std::string segment;      ///< how the container is reached from its parent: ".key" or "[3]"
        size_t count = 0;         ///< elements added so far
        std::string key;          ///< objects: the key of the value being parsed
        bool hasKey = false;
        KeyIndex keys;                         ///< objects: their keys so far, for the duplicate check
        std::vector<std::string> droppedKeys;  ///< the keys of an object whose values are not kept
        std::string_view streamedKey;          ///< a streamed top-level array: its key (else empty)
    };

    bool fail(std::string message) {
        error = std::move(message);
        return false;
    }

    std::string containerPath() const {
        std::string p;
        for (size_t i = 1; i < stack_.size(); ++i) p += stack_[i].segment;
        if (!p.empty() && p[0] == '.') p.erase(0, 1);
        return p;
    }

    /// Segment of the value about to be added to the top container.
    std::string pendingSegment() const {
        if (stack_.empty()) return "";
        const Frame& f = stack_.back();
        if (f.isArray) return "[" + std::to_string(f.count) + "]";
        return f.hasKey ? "." + f.key : "";
    }

    /// Path of the value most recently added to the top container (pendingPath() if none).
    std::string lastValuePath() const {
        if (stack_.empty() || stack_.back().count == 0) return pendingPath();
        const Frame& f = stack_.back();
        std::string p = containerPath() + (f.isArray ? "[" + std::to_string(f.count - 1) + "]" : "." + f.key);
        if (!p.empty() && p[0] == '.') p.erase(0, 1);
        return p;
    }

    std::string pendingPath() const {
        std::string p = containerPath() + pendingSegment();
        if (!p.empty() && p[0] == '.') p.erase(0, 1);
        return p;
    }

    /// Adds v to the top container (or makes it the root) and returns where it now lives.
    Json* place(Json&& v) {
        if (stack_.empty()) {
            root = std::move(v);
            return &root;
        }
        Frame& f = stack_.back();
        ++f.count;
        if (!f.keepsValues) {  // inside the ignored key's value: checked by the parser, not kept
            f.hasKey = false;
            return nullptr;
        }
        if (f.isArray) {
            f.container->push_back(std::move(v));
            return &f.container->back();
        }
        f.hasKey = false;
        // Appended at the end (key() has checked it is new): the ordered DOM's operator[] would
        // search the keys first. Children are complete before their parent grows, so this
        // pointer stays valid while the child is on the stack.
        Json::object_t& object = f.container->get_ref<Json::object_t&>();
        object.emplace_back(f.key, std::move(v));  // f.key stays: lastValuePath() names it
        return &object.back().second;
    }

    bool add(Json&& v) {
        place(std::move(v));
        handOver();
        return true;
    }

    /// When the top container is a streamed array, passes its newest (complete) element to the
    /// sink and drops it from the DOM.
    void handOver() {
        if (stack_.empty() || stack_.back().streamedKey.empty()) return;
        Frame& f = stack_.back();
        Json::array_t& array = f.container->get_ref<Json::array_t&>();
        streamed_->sink(f.streamedKey, f.count - 1, array.back());
        array.pop_back();
    }

    /// The key, among the streamed ones, of a container about to open as the value of a top-level
    /// key; empty when it is not streamed.
    std::string_view streamedKeyFor(bool isArray, bool keeps) const {
        if (!streamed_ || !isArray || !keeps || stack_.size() != 1 || stack_.back().isArray ||
            !stack_.back().hasKey)
            return {};
        for (std::string_view k : streamed_->keys)
            if (stack_.back().key == k) return k;
        return {};
    }

    bool open(Json&& container) {
        if (static_cast<int>(stack_.size()) >= maxDepth_)
            return fail(pendingPath() + ": nesting deeper than " + std::to_string(maxDepth_) + " levels");
        std::string segment = pendingSegment();
        // The value of the ignored top-level key ("app" in scenarios) is parsed, depth- and
        // duplicate-checked, and dropped: an empty container of its kind stands in for it, so a
        // large section nobody reads costs no memory.
        const bool ignored = stack_.size() == 1 && !ignoredKey_.empty() && stack_.back().hasKey &&
                             stack_.back().key == ignoredKey_ && !stack_.back().isArray;
        const bool keeps = (stack_.empty() || stack_.back().keepsValues) && !ignored;
        const bool isArray = container.is_array();
        const std::string_view streamedKey = streamedKeyFor(isArray, keeps);
        if (isArray && stack_.size() == 1) {  // the pre-scan counted the elements of this one
            if (!streamedKey.empty() && topArrays_ < arrayCounts_.size() && streamed_->start)
                streamed_->start(streamedKey, arrayCounts_[topArrays_]);
            ++topArrays_;
        }
        Json* where = place(std::move(container));
        stack_.push_back(Frame{where, isArray, keeps, std::move(segment), 0, {}, false, {}, {}, streamedKey});
        return true;
    }

    bool close() {
        stack_.pop_back();
        handOver();  // the container just closed may be an element of a streamed array
        return true;
    }

    std::string_view text_;
    int maxDepth_;
    std::string_view ignoredKey_;
    const StreamedArrays* streamed_;
    const std::vector<size_t>& arrayCounts_;
    size_t topArrays_ = 0;  ///< arrays opened at depth 1 so far (an index into arrayCounts_)
    std::vector<Frame> stack_;
};

}  // namespace

// [SECTION] Canonical printing

namespace {

std::string scalarText(const Json& v) {
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool isScalar(const Json& v) {
    return !v.is_object() && !v.is_array();
}

void print(const Json& v, int indent, std::string& out) {
    const std::string pad(static_cast<size_t>(indent + 2), ' ');
    if (v.is_object()) {
        if (v.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!first) out += ",\n";
            first = false;
            out += pad + scalarText(Json(it.key())) + ": ";
            print(it.value(), indent + 2, out);
        }
        out += "\n" + std::string(static_cast<size_t>(indent), ' ') + "}";
    } else if (v.is_array()) {
        bool allScalars = true;
        for (const Json& e : v) allScalars = allScalars && isScalar(e);
        if (allScalars) {
            out += "[";
            for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + scalarText(v[i]);
            out += "]";
            return;
        }
        out += "[\n";
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ",\n";
            out += pad;
            print(v[i], indent + 2, out);
        }
        out += "\n" + std::string(static_cast<size_t>(indent), ' ') + "]";
    } else {
        out += scalarText(v);
    }
}

}  // namespace

std::string printCanonical(const Json& v) {
    std::string out;
    print(v, 0, out);
    return out;
}

// [SECTION] Entry point

bool parseStrictJson(std::string_view text, Json& out, std::string& error, int maxDepth,
                     std::string_view ignoredKey, const StreamedArrays* streamed) {
    const size_t bom = text.substr(0, 3) == kUtf8Bom ? 3 : 0;  // one leading BOM is allowed (RFC 8259 §8.1)
    if (text.find_first_not_of(" \t\r\n", bom) == std::string_view::npos) {
        error = "the file is empty (expected a JSON object)";
        return false;
    }
    if (const char* encoding = foreignEncoding(text)) {
        error = std::string("the file is ") + encoding + " text (it starts with a " + encoding +
                " byte order mark); JointLab reads UTF-8: save it as UTF-8";
        return false;
    }
    std::vector<size_t> arrayCounts;
    if (!preScan(text, maxDepth, error, arrayCounts)) return false;
    DomBuilder builder(text, maxDepth, ignoredKey, streamed, arrayCounts);
    bool ok = false;
    try {
        ok = Json::sax_parse(text.begin(), text.end(), &builder, nlohmann::detail::input_format_t::json,
                             /*strict=*/true, /*ignore_comments=*/false);
    } catch (const std::exception& e) {
        builder.error = std::string("cannot parse: ") + e.what();
        ok = false;
    }
    if (!ok) {
        error = oneLine(builder.error.empty() ? "cannot parse the file" : builder.error);
        return false;
    }
    out = std::move(builder.root);
    return true;
}

}  // namespace jl::json
