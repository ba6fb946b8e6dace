// Field paths (jointlab/field_path.h): every lookup walks the owner's field list once.
#include "jointlab/field_path.h"

#include <cmath>
#include <type_traits>

#include "scenario/scenario_fields.h"

namespace jl {

namespace {

constexpr const char* kComponents[] = {"x", "y", "z"};

/// What a visit does at the field it is looking for.
enum class Mode { Find, Get, Set, List };

/// Walks one owner's field list; at the field called `field` (component `component` of a vector)
/// it records the metadata (Find), reads (Get) or writes (Set) the value. List collects the names.
struct Access {
    Mode mode = Mode::Find;
    std::string_view field;
    int component = -1;
    const FieldPathValue* input = nullptr;  ///< Set
    // Results
    bool found = false;
    bool vectorWithoutComponent = false;  ///< the name is a vector's: it needs .x, .y or .z
    FieldPathKind kind = FieldPathKind::Real;
    Field meta;
    const char* const* enumNames = nullptr;
    int enumCount = 0;
    bool acceptsInfinity = false;
    FieldPathValue output;
    std::string error;
    std::vector<std::string> names;

    bool at(const char* name) const { return name == field; }

    void scalar(const char* name, Real& x, const Field& f, FieldPathKind k, bool infinite) {
        found = true;
        kind = k;
        meta = f;
        acceptsInfinity = infinite;
        if (mode == Mode::Get) output = x;
        if (mode == Mode::Set) {
            if (const Real* r = std::get_if<Real>(input))
                x = *r;
            else
                error = std::string(name) + ": expected a number";
        }
    }

    void operator()(const char* name, Real& x, const Field& f) {
        if (mode == Mode::List) {
            names.emplace_back(name);
            return;
        }
        if (at(name) && component < 0) scalar(name, x, f, FieldPathKind::Real, std::isinf(x));
    }
    void operator()(const char* name, Vec3& v, const Field& f) {
        if (mode == Mode::List) {
            for (const char* c : kComponents) names.push_back(std::string(name) + "." + c);
            return;
        }
        if (!at(name)) return;
        if (component < 0) {
            vectorWithoutComponent = true;
            return;
        }
        const bool infinite = std::isinf(v.x) || std::isinf(v.y) || std::isinf(v.z);
        scalar(name, v[component], f, FieldPathKind::Real, infinite);
    }
    void operator()(const char* name, int& x, const Field& f) {
        if (mode == Mode::List) {
            names.emplace_back(name);
            return;
        }
        if (!at(name) || component >= 0) return;
        found = true;
        kind = FieldPathKind::Int;
        meta = f;
        if (mode == Mode::Get) output = static_cast<Real>(x);
        if (mode == Mode::Set) {
            const Real* r = std::get_if<Real>(input);
            if (r && std::floor(*r) == *r && std::fabs(*r) < 2e9)
                x = static_cast<int>(*r);
            else
                error = std::string(name) + ": expected a whole number";
        }
    }
    void operator()(const char* name, bool& b, const Field& f) {
        if (mode == Mode::List) {
            names.emplace_back(name);
            return;
        }
        if (!at(name) || component >= 0) return;
        found = true;
        kind = FieldPathKind::Bool;
        meta = f;
        if (mode == Mode::Get) output = b;
        if (mode == Mode::Set) {
            if (const bool* v = std::get_if<bool>(input))
                b = *v;
            else
                error = std::string(name) + ": expected true or false";
        }
    }
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field& f) {
        if (mode == Mode::List) {
            names.emplace_back(name);
            return;
        }
        if (!at(name) || component >= 0) return;
        found = true;
        kind = FieldPathKind::Enum;
        meta = f;
        enumNames = e.names;
        enumCount = e.count;
        if (mode == Mode::Get) output = std::string(e.names[static_cast<int>(e.value)]);
        if (mode == Mode::Set) {
            const std::string* s = std::get_if<std::string>(input);
            const int i = s ? findName(*s, e.names, e.count) : -1;
            if (i >= 0)
                e.value = static_cast<E>(i);
            else
                error = std::string(name) + ": expected one of its names";
        }
    }
    /// Strings (names, references), quaternions: no path.
    template <class T>
    void operator()(const char*, T&, const Field&) {}
};

/// Runs `a` over the owner's field list. The scene is only written in Mode::Set.
void visitOwner(Scene& scene, FieldPath::Owner owner, int index, Access& a) {
    switch (owner) {
        case FieldPath::Owner::Settings:
            scene.settings.visit(a);
            break;
        case FieldPath::Owner::Body:
            scene.bodies[static_cast<size_t>(index)].visit(a);
            break;
        case FieldPath::Owner::Joint: {
            JointDesc& j = scene.joints[static_cast<size_t>(index)];
            j.visitCommon(a);
            std::visit([&](auto& p) { p.visit(a); }, j.params);
            break;
        }
    }
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

std::string quoted(std::string_view s) {
    std::string out(1, '"');  // appended, not "\"" + s: GCC 12 warns falsely (-Wrestrict) on that
    out += s;
    out += '"';
    return out;
}

/// The body or joint whose name followed by '.' starts `rest` (the longest such name, as names
/// may hold dots); −1 when none.
template <class Desc>
int ownerByName(const std::vector<Desc>& list, std::string_view rest) {
    int best = -1;
    size_t bestLength = 0;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string& n = list[i].name;
        if (rest.size() > n.size() && startsWith(rest, n) && rest[n.size()] == '.' &&
            (best < 0 || n.size() > bestLength)) {
            best = static_cast<int>(i);
            bestLength = n.size();
        }
    }
    return best;
}

std::string ownerWords(const Scene& scene, FieldPath::Owner owner, int index) {
    switch (owner) {
        case FieldPath::Owner::Settings:
            return "settings";
        case FieldPath::Owner::Body:
            return "body " + quoted(scene.bodies[static_cast<size_t>(index)].name);
        case FieldPath::Owner::Joint: {
            const JointDesc& j = scene.joints[static_cast<size_t>(index)];
            return "joint " + quoted(j.name) + " (" + j.typeInfo().name + ")";
        }
    }
    return "";
}

}  // namespace

std::string resolveFieldPath(const Scene& constScene, std::string_view path, FieldPath& out) {
    // The visits take a mutable owner (visit() is not const); Find mode writes nothing.
    Scene& scene = const_cast<Scene&>(constScene);
    FieldPath r;
    std::string_view rest;
    if (startsWith(path, "settings.")) {
        r.owner = FieldPath::Owner::Settings;
        rest = path.substr(9);
    } else if (startsWith(path, "bodies.") || startsWith(path, "joints.")) {
        const bool body = path[0] == 'b';
        rest = path.substr(7);
        r.index = body ? ownerByName(scene.bodies, rest) : ownerByName(scene.joints, rest);
        if (r.index < 0) {
            const size_t dot = rest.find('.');
            return std::string(body ? "no body named " : "no joint named ") +
                   quoted(rest.substr(0, dot == std::string_view::npos ? rest.size() : dot)) +
                   (dot == std::string_view::npos ? " (and no field after its name)" : "");
        }
        r.owner = body ? FieldPath::Owner::Body : FieldPath::Owner::Joint;
        const std::string& name = body ? scene.bodies[static_cast<size_t>(r.index)].name
                                       : scene.joints[static_cast<size_t>(r.index)].name;
        rest = rest.substr(name.size() + 1);
        if (!body && startsWith(rest, "params.")) rest = rest.substr(7);  // the file's nesting
    } else {
        return "a field path starts with settings., bodies.NAME. or joints.NAME., got " + quoted(path);
    }
    // A trailing .x/.y/.z names a vector's component, unless the name without it is a field.
    Access a;
    a.field = rest;
    visitOwner(scene, r.owner, r.index, a);
    if (!a.found && rest.size() > 2 && rest[rest.size() - 2] == '.') {
        for (int c = 0; c < 3; ++c)
            if (rest.back() == kComponents[c][0]) {
                Access b;
                b.field = rest.substr(0, rest.size() - 2);
                b.component = c;
                visitOwner(scene, r.owner, r.index, b);
                if (b.found) {
                    a = b;
                    r.component = c;
                }
            }
    }
    if (!a.found) {
        const std::string owner = ownerWords(constScene, r.owner, r.index);
        if (a.vectorWithoutComponent)
            return owner + ": " + quoted(rest) + " is a vector: name one component, " + quoted(rest) +
                   ".x, .y or .z";
        return owner + " has no field " + quoted(rest) + " that takes a number, true/false or a name";
    }
    r.field = r.component >= 0 ? std::string(rest.substr(0, rest.size() - 2)) : std::string(rest);
    switch (r.owner) {
        case FieldPath::Owner::Settings:
            r.path = "settings.";
            break;
        case FieldPath::Owner::Body:
            r.path = "bodies." + constScene.bodies[static_cast<size_t>(r.index)].name + ".";
            break;
        case FieldPath::Owner::Joint:
            r.path = "joints." + constScene.joints[static_cast<size_t>(r.index)].name + ".";
            break;
    }
    r.path += r.field + (r.component >= 0 ? std::string(".") + kComponents[r.component] : "");
    r.kind = a.kind;
    r.meta = a.meta;
    r.enumNames = a.enumNames;
    r.enumCount = a.enumCount;
    r.acceptsInfinity = a.acceptsInfinity;
    out = std::move(r);
    return "";
}

std::string checkFieldPathValue(const FieldPath& path, const FieldPathValue& value) {
    switch (path.kind) {
        case FieldPathKind::Real:
        case FieldPathKind::Int: {
            const Real* x = std::get_if<Real>(&value);
            if (!x) return "expected a number, got " + formatFieldPathValue(value);
            if (path.kind == FieldPathKind::Int && std::floor(*x) != *x)
                return "expected a whole number, got " + shortestNumber(*x);
            if (std::isinf(*x) && !path.acceptsInfinity) return "must be finite, got " + shortestNumber(*x);
            if (std::isfinite(*x) && std::fabs(*x) > scenario::kMaxMagnitude)
                return "must be at most " + shortestNumber(scenario::kMaxMagnitude) + " in magnitude, got " +
                       shortestNumber(*x);
            return path.meta.check(*x);
        }
        case FieldPathKind::Bool:
            if (!std::holds_alternative<bool>(value))
                return "expected true or false, got " + formatFieldPathValue(value);
            return "";
        case FieldPathKind::Enum: {
            const std::string* s = std::get_if<std::string>(&value);
            if (s && findName(*s, path.enumNames, path.enumCount) >= 0) return "";
            std::string names;
            for (int i = 0; i < path.enumCount; ++i) names += std::string(i ? ", " : "") + path.enumNames[i];
            return "expected one of " + names + ", got " + formatFieldPathValue(value);
        }
    }
    return "";
}

std::string setFieldPath(Scene& scene, const FieldPath& path, const FieldPathValue& value) {
    Access a;
    a.mode = Mode::Set;
    a.field = path.field;
    a.component = path.component;
    a.input = &value;
    visitOwner(scene, path.owner, path.index, a);
    if (!a.found) return path.path + ": no such field in this scene";
    return a.error.empty() ? "" : path.path + ": " + a.error.substr(a.error.find(':') + 2);
}

FieldPathValue getFieldPath(const Scene& scene, const FieldPath& path) {
    Access a;
    a.mode = Mode::Get;
    a.field = path.field;
    a.component = path.component;
    visitOwner(const_cast<Scene&>(scene), path.owner, path.index, a);
    return a.output;
}

bool fieldPathRelevant(const Scene& scene, const FieldPath& path) {
    Access a;
    a.field = path.field;
    a.component = path.component;
    visitOwner(const_cast<Scene&>(scene), path.owner, path.index, a);
    return a.found && a.meta.relevant;
}

std::string formatFieldPathValue(const FieldPathValue& value) {
    if (const Real* x = std::get_if<Real>(&value)) return shortestNumber(*x);
    if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
    return std::get<std::string>(value);
}

std::vector<std::string> listFieldPaths(const Scene& constScene) {
    Scene& scene = const_cast<Scene&>(constScene);
    std::vector<std::string> out;
    auto add = [&](const std::string& prefix, FieldPath::Owner owner, int index) {
        Access a;
        a.mode = Mode::List;
        visitOwner(scene, owner, index, a);
        for (const std::string& n : a.names) out.push_back(prefix + n);
    };
    add("settings.", FieldPath::Owner::Settings, -1);
    for (size_t i = 0; i < scene.bodies.size(); ++i)
        add("bodies." + scene.bodies[i].name + ".", FieldPath::Owner::Body, static_cast<int>(i));
    for (size_t i = 0; i < scene.joints.size(); ++i)
        add("joints." + scene.joints[i].name + ".", FieldPath::Owner::Joint, static_cast<int>(i));
    return out;
}

}  // namespace jl
