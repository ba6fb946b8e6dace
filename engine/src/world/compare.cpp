// A/B compare (jointlab/compare.h).
#include "jointlab/compare.h"

#include <algorithm>
#include <charconv>

#include "jointlab/scenario_io.h"

namespace jl {

namespace {

/// The text of a value as the field's kind wants it: a number, true/false, or a name.
FieldPathValue valueFromText(const FieldPath& path, std::string_view text) {
    if (path.kind == FieldPathKind::Enum) return std::string(text);
    if (path.kind == FieldPathKind::Bool) {
        if (text == "true") return true;
        if (text == "false") return false;
        return std::string(text);  // refused by checkFieldPathValue with the field's words
    }
    if (text == "inf") return kInf;
    Real v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::string(text);
    return v;
}

}  // namespace

std::string fieldChangesBetween(const Scene& a, const Scene& b) {
    std::string out;
    if (a.bodies.size() != b.bodies.size() || a.joints.size() != b.joints.size()) return out;
    for (const std::string& path : listFieldPaths(a)) {
        FieldPath resolved;
        if (!resolveFieldPath(a, path, resolved).empty()) continue;
        const FieldPathValue va = getFieldPath(a, resolved), vb = getFieldPath(b, resolved);
        if (formatFieldPathValue(va) == formatFieldPathValue(vb)) continue;
        out += (out.empty() ? "" : ",") + path + "=" + formatFieldPathValue(vb);
    }
    return out;
}

std::string parseFieldChanges(const Scene& scene, std::string_view text, std::vector<FieldChange>& out) {
    std::vector<FieldChange> changes;
    if (text.empty()) return "expected PATH=VALUE[,PATH=VALUE...], e.g. settings.solver=tgs";
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view entry = text.substr(start, comma - start);
        const size_t eq = entry.find('=');
        if (eq == std::string_view::npos || eq == 0)
            return "'" + std::string(entry) + "': expected PATH=VALUE, e.g. settings.posIters=8";
        FieldChange c;
        const std::string_view path = entry.substr(0, eq), value = entry.substr(eq + 1);
        if (std::string e = resolveFieldPath(scene, path, c.path); !e.empty())
            return std::string(path) + ": " + e;
        c.value = valueFromText(c.path, value);
        if (std::string e = checkFieldPathValue(c.path, c.value); !e.empty())
            return std::string(path) + ": " + e;
        changes.push_back(std::move(c));
        start = comma + 1;
    }
    out = std::move(changes);
    return "";
}

std::unique_ptr<World> compareWorld(const World& a, const std::vector<FieldChange>& changes,
                                    std::string& error) {
    Scene scene = a.scene();
    for (const FieldChange& c : changes)
        if (std::string e = setFieldPath(scene, c.path, c.value); !e.empty()) {
            error = c.path.path + ": " + e;
            return nullptr;
        }
    if (std::string e = validateScene(scene); !e.empty()) {
        error = e;
        return nullptr;
    }
    auto b = std::make_unique<World>(std::move(scene));
    b->restore(a.snapshot());
    return b;
}

Real maxPositionDivergence(const World& a, const World& b) {
    const auto pa = a.bodies(), pb = b.bodies();
    Real worst = 0.0;
    for (size_t i = 0; i < pa.size() && i < pb.size(); ++i)
        worst = std::max(worst, glm::length(pa[i].pose.p - pb[i].pose.p));
    return worst;
}

}  // namespace jl
