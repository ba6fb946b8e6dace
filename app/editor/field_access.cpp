#include "editor/field_access.h"

#include <cmath>

namespace jl::app {

namespace {

// [SECTION] Visitors over the field lists

/// Appends every visited field (with its value) to a list.
struct Lister {
    std::vector<FieldInfo>& out;
    bool typeParam = false;

    void add(const char* name, FieldKind kind, const Field& f, FieldValue value) {
        FieldInfo info;
        info.name = name;
        info.kind = kind;
        info.meta = f;
        info.value = std::move(value);
        info.typeParam = typeParam;
        out.push_back(std::move(info));
    }
    void operator()(const char* n, Real& x, const Field& f) { add(n, FieldKind::Real, f, x); }
    void operator()(const char* n, Vec3& x, const Field& f) { add(n, FieldKind::Vec3, f, x); }
    void operator()(const char* n, Quat& x, const Field& f) { add(n, FieldKind::Quat, f, x); }
    void operator()(const char* n, bool& x, const Field& f) { add(n, FieldKind::Bool, f, x); }
    void operator()(const char* n, int& x, const Field& f) { add(n, FieldKind::Int, f, x); }
    void operator()(const char* n, std::string& x, const Field& f) { add(n, FieldKind::String, f, x); }
    template <class E>
    void operator()(const char* n, EnumField<E> e, const Field& f) {
        add(n, FieldKind::Enum, f, static_cast<int>(e.value));
        out.back().enumNames = e.names;
        out.back().enumCount = e.count;
    }
};

/// Marks the fields whose default value is infinite: the file format accepts "inf" exactly there.
struct InfinityMarker {
    std::vector<FieldInfo>& fields;
    void mark(const char* name) {
        for (FieldInfo& f : fields)
            if (f.name == name) f.acceptsInfinity = true;
    }
    void operator()(const char* n, Real& x, const Field&) {
        if (std::isinf(x)) mark(n);
    }
    void operator()(const char* n, Vec3& x, const Field&) {
        if (std::isinf(x.x) || std::isinf(x.y) || std::isinf(x.z)) mark(n);
    }
    template <class T>
    void operator()(const char*, T&&, const Field&) {}
};

/// Assigns `value` to the field called `name`, if the kinds agree.
struct Writer {
    std::string_view name;
    const FieldValue& value;
    bool found = false;
    std::string error = {};

    template <class T>
    void assign(const char* n, T& field, const char* expected) {
        if (found || name != n) return;
        found = true;
        if (const T* v = std::get_if<T>(&value))
            field = *v;
        else
            error = std::string(n) + ": expected " + expected;
    }
    void operator()(const char* n, Real& x, const Field&) {
        // An int is accepted for a number (e.g. typed "2").
        if (!found && name == n && std::holds_alternative<int>(value)) {
            found = true;
            x = std::get<int>(value);
            return;
        }
        assign(n, x, "a number");
    }
    void operator()(const char* n, Vec3& x, const Field&) { assign(n, x, "a vector (x, y, z)"); }
    void operator()(const char* n, Quat& x, const Field&) { assign(n, x, "a quaternion (w, x, y, z)"); }
    void operator()(const char* n, bool& x, const Field&) { assign(n, x, "true or false"); }
    void operator()(const char* n, int& x, const Field&) { assign(n, x, "a whole number"); }
    void operator()(const char* n, std::string& x, const Field&) { assign(n, x, "text"); }
    template <class E>
    void operator()(const char* n, EnumField<E> e, const Field&) {
        if (found || name != n) return;
        found = true;
        const int* i = std::get_if<int>(&value);
        if (!i)
            error = std::string(n) + ": expected one of its names";
        else if (*i < 0 || *i >= e.count)
            error = std::string(n) + ": no value number " + std::to_string(*i);
        else
            e.value = static_cast<E>(*i);
    }
};

/// The fields every joint has, as something with a visit() like the other descriptions.
struct CommonJointFields {
    JointDesc& joint;
    template <class V>
    void visit(V& v) {
        joint.visitCommon(v);
    }
};

/// Calls f(visitable, typeParam) for each part of the owner's field list; false if no such owner.
template <class S, class F>
bool forEachPart(S& scene, const FieldOwner& owner, F&& f) {
    switch (owner.kind) {
        case FieldOwner::Kind::Settings:
            f(scene.settings, false);
            return true;
        case FieldOwner::Kind::Camera:
            f(scene.camera, false);
            return true;
        case FieldOwner::Kind::Body: {
            const int i = scene.findBody(owner.name);
            if (i < 0) return false;
            f(scene.bodies[static_cast<size_t>(i)], false);
            return true;
        }
        case FieldOwner::Kind::Joint: {
            const int i = scene.findJoint(owner.name);
            if (i < 0) return false;
            JointDesc& j = scene.joints[static_cast<size_t>(i)];
            CommonJointFields common{j};
            f(common, false);
            std::visit([&](auto& params) { f(params, true); }, j.params);
            return true;
        }
    }
    return false;
}

}  // namespace

std::string FieldOwner::describe() const {
    switch (kind) {
        case Kind::Settings:
            return "settings";
        case Kind::Camera:
            return "camera";
        case Kind::Body:
            return "body '" + name + "'";
        case Kind::Joint:
            return "joint '" + name + "'";
    }
    return "?";
}

std::vector<FieldInfo> listFields(const Scene& scene, const FieldOwner& owner) {
    // The field lists are non-const visitors; work on copies of the parts that are listed.
    Scene copy;
    copy.settings = scene.settings;
    copy.camera = scene.camera;
    if (owner.kind == FieldOwner::Kind::Body) {
        const int i = scene.findBody(owner.name);
        if (i >= 0) copy.bodies.push_back(scene.bodies[static_cast<size_t>(i)]);
    } else if (owner.kind == FieldOwner::Kind::Joint) {
        const int i = scene.findJoint(owner.name);
        if (i >= 0) copy.joints.push_back(scene.joints[static_cast<size_t>(i)]);
    }
    std::vector<FieldInfo> fields;
    const bool exists = forEachPart(copy, owner, [&](auto& part, bool typeParam) {
        Lister lister{fields, typeParam};
        part.visit(lister);
    });
    if (!exists) return {};

    // Which fields accept infinity follows from the defaults, as in the file format.
    Scene defaults;
    if (owner.kind == FieldOwner::Kind::Body) {
        defaults.bodies.push_back(BodyDesc{});
        defaults.bodies.back().name = owner.name;
    } else if (owner.kind == FieldOwner::Kind::Joint) {
        JointDesc d;
        d.name = owner.name;
        d.params = makeJointParams(copy.joints.front().typeIndex());
        defaults.joints.push_back(std::move(d));
    }
    forEachPart(defaults, owner, [&](auto& part, bool) {
        InfinityMarker marker{fields};
        part.visit(marker);
    });
    return fields;
}

std::optional<FieldInfo> findField(const Scene& scene, const FieldOwner& owner, std::string_view name) {
    for (FieldInfo& f : listFields(scene, owner))
        if (f.name == name) return std::move(f);
    return std::nullopt;
}

std::string writeField(Scene& scene, const FieldOwner& owner, std::string_view name,
                       const FieldValue& value) {
    Writer writer{name, value};
    const bool exists = forEachPart(scene, owner, [&](auto& part, bool) { part.visit(writer); });
    if (!exists) return "no " + owner.describe();
    if (!writer.found) return owner.describe() + " has no field '" + std::string(name) + "'";
    return writer.error;
}

}  // namespace jl::app
