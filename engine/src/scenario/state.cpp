// The "state" section of scenario files (format version 2): where a run was when it was saved, so
// that loading the file continues it bit for bit (docs/scenario-format.md, "state").
//
//   "state": {
//     "step": 300, "time": 5.000000000000004,
//     "bodies": [{"name": "a", "position": [...], "orientation": [w, x, y, z],
//                 "linearVelocity": [...], "angularVelocity": [...],
//                 "contactImpulses": [kMaxGroundContacts × (normal, friction X, friction Z)]}],
//     "joints": [{"name": "h", "broken": false, "angles": [a0, null, null, null]}],
//     "contacts": [{"body0": "a", "body1": "b", "feature": 0, "point": [x, y, z],
//                   "normalImpulse": λn, "frictionImpulse": [x, y, z]}]
//   }
//
// `contacts` (optional, written when there is one) are the body contacts of the last step with
// their impulses, in the canonical order (WorldSnapshot::bodyContacts): body1 "" is the ground.
//
// It is WorldSnapshot written out: one entry per scene body and per joint, in the scene's order
// and carrying the scene's names (so a state that no longer fits its scene, say after a hand edit
// removed a body, is refused with a message rather than applied to the wrong bodies).
// `contactImpulses` (the ground contacts' warm start) is written only when one is not +0.0, and
// an angle the joint has not tracked yet is null. Numbers are written with full precision, so a
// loaded state is bit-identical to the saved one; unlike descriptions, state values have no
// ±1e15 plausibility cap: whatever finite state a World reaches can be saved and loaded back.
#include <cstring>

#include "contacts/collide.h"
#include "contacts/ground.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/name_index.h"
#include "scenario/scenario_json.h"

namespace jl::scenario {

namespace {

constexpr const char* kStepKey = "step";
constexpr const char* kTimeKey = "time";
constexpr const char* kBodiesKey = "bodies";
constexpr const char* kJointsKey = "joints";
constexpr const char* kNameKey = "name";
constexpr const char* kContactKey = "contactImpulses";
constexpr const char* kBrokenKey = "broken";
constexpr const char* kAnglesKey = "angles";
constexpr const char* kContactsKey = "contacts";

constexpr size_t kContactValues = static_cast<size_t>(kMaxGroundContacts) * 3;
constexpr size_t kAngleSlots = static_cast<size_t>(JointMemory::kSlots);

bool isPositiveZero(Real x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits == 0;
}

/// An array of exactly n numbers (or null where `nullAllowed`, reported through `isNull`).
std::string readNumbers(const Json& v, const std::string& path, size_t n, Real* out, bool* isNull = nullptr) {
    const char* what = isNull ? " numbers or nulls" : " numbers";
    if (!v.is_array())
        return fail(path, "expected an array of " + std::to_string(n) + what + ", got " + describe(v));
    if (v.size() != n)
        return fail(path, "expected " + std::to_string(n) + what + ", got " + std::to_string(v.size()));
    for (size_t k = 0; k < n; ++k) {
        const Json& e = v[k];
        if (isNull) isNull[k] = e.is_null();
        if (isNull && e.is_null()) {
            out[k] = 0.0;
            continue;
        }
        if (!e.is_number())
            return fail(
                path + "[" + std::to_string(k) + "]",
                std::string("expected a number") + (isNull ? " or null" : "") + ", got " + describe(e));
        out[k] = e.get<Real>();
    }
    return "";
}

/// The "name" of entry `path` must be `expected` (the scene's body or joint at that index).
std::string checkEntryName(const Json& v, const std::string& path, const std::string& expected,
                           const std::string& scenePath) {
    auto it = v.find(kNameKey);
    if (it == v.end()) return fail(join(path, kNameKey), "missing (required)");
    if (!it->is_string()) return fail(join(path, kNameKey), "expected a string, got " + describe(*it));
    if (it->get_ref<const std::string&>() != expected)
        return fail(join(path, kNameKey), "expected " + quote(expected) + " (the name of " + scenePath +
                                              "), got " + quote(it->get_ref<const std::string&>()) +
                                              "; the state does not belong to this scene");
    return "";
}

/// The entries array `key` must have one object per scene item.
std::string checkEntries(const Json& state, const std::string& path, const char* key, size_t count,
                         const char* items) {
    auto it = state.find(key);
    if (it == state.end()) return fail(join(path, key), "missing (required)");
    if (!it->is_array()) return fail(join(path, key), "expected an array, got " + describe(*it));
    if (it->size() != count)
        return fail(join(path, key), "has " + std::to_string(it->size()) + " entries but the scene has " +
                                         std::to_string(count) + " " + items +
                                         "; the state does not belong to this scene");
    return "";
}

std::string readBodyState(const Json& v, const std::string& path, const std::string& name, BodyState& b,
                          Real* contact) {
    if (std::string e = checkObject(v, path, schemaOf<BodyState>(), {kNameKey, kContactKey}); !e.empty())
        return e;
    if (std::string e = checkEntryName(v, path, name, "bodies" + path.substr(path.find('['))); !e.empty())
        return e;
    std::string error;
    Reader r(v, path, error, {&b.pose.p, &b.pose.q, &b.linearVelocity, &b.angularVelocity});
    b.visit(r);
    if (!error.empty()) return error;
    if (auto it = v.find(kContactKey); it != v.end())
        return readNumbers(*it, join(path, kContactKey), kContactValues, contact);
    return "";
}

std::string readJointState(const Json& v, const std::string& path, const std::string& name, bool& broken,
                           Real* angles, bool* invalid) {
    if (!v.is_object()) return fail(path, "expected an object, got " + describe(v));
    if (std::string e = checkKeys(v, path, {kNameKey, kBrokenKey, kAnglesKey}); !e.empty()) return e;
    if (std::string e = checkEntryName(v, path, name, "joints" + path.substr(path.find('['))); !e.empty())
        return e;
    auto b = v.find(kBrokenKey);
    if (b == v.end()) return fail(join(path, kBrokenKey), "missing (required)");
    if (!b->is_boolean()) return fail(join(path, kBrokenKey), "expected true or false, got " + describe(*b));
    broken = b->get<bool>();
    auto a = v.find(kAnglesKey);
    if (a == v.end()) return fail(join(path, kAnglesKey), "missing (required)");
    return readNumbers(*a, join(path, kAnglesKey), kAngleSlots, angles, invalid);
}

/// The stored body contacts: bodies by name ("" for the ground as body 1), the point on body 0
/// in its frame, the impulses. Their order and bodies are checked by validateState.
std::string readContacts(const Json& v, const std::string& path, const Scene& scene,
                         std::vector<BodyContactState>& out) {
    if (!v.is_array()) return fail(path, "expected an array of contacts, got " + describe(v));
    const NameIndex bodies(scene.bodies);
    for (size_t i = 0; i < v.size(); ++i) {
        const Json& o = v[i];
        const std::string p = indexed(path.c_str(), i);
        if (!o.is_object()) return fail(p, "expected an object, got " + describe(o));
        if (std::string e =
                checkKeys(o, p, {"body0", "body1", "feature", "point", "normalImpulse", "frictionImpulse"});
            !e.empty())
            return e;
        BodyContactState c;
        for (int side = 0; side < 2; ++side) {
            const char* key = side == 0 ? "body0" : "body1";
            auto it = o.find(key);
            if (it == o.end()) return fail(join(p, key), "missing (required)");
            if (!it->is_string()) return fail(join(p, key), "expected a body name, got " + describe(*it));
            const std::string& name = it->get_ref<const std::string&>();
            const int b = name.empty() && side == 1 ? -1 : bodies.find(name);
            if (b < 0 && !(name.empty() && side == 1))
                return fail(join(p, key), "no body named " + json::quote(name));
            (side == 0 ? c.body0 : c.body1) = b;
        }
        auto f = o.find("feature");
        if (f == o.end() || !f->is_number_integer() || f->get<int64_t>() < 0 ||
            f->get<int64_t>() >= int64_t{kMaxChildShapes} * kMaxChildShapes)
            return fail(join(p, "feature"), "expected an integer in [0, " +
                                                std::to_string(kMaxChildShapes * kMaxChildShapes - 1) + "]");
        c.feature = static_cast<int>(f->get<int64_t>());
        Real pt[3], fr[3];
        for (const char* key : {"point", "normalImpulse", "frictionImpulse"}) {
            auto it = o.find(key);
            if (it == o.end()) return fail(join(p, key), "missing (required)");
        }
        if (std::string e = readNumbers(o["point"], join(p, "point"), 3, pt); !e.empty()) return e;
        if (std::string e = readNumbers(o["frictionImpulse"], join(p, "frictionImpulse"), 3, fr); !e.empty())
            return e;
        const Json& n = o["normalImpulse"];
        if (!n.is_number()) return fail(join(p, "normalImpulse"), "expected a number, got " + describe(n));
        c.local0 = Vec3(pt[0], pt[1], pt[2]);
        c.frictionImpulse = Vec3(fr[0], fr[1], fr[2]);
        c.normalImpulse = n.get<Real>();
        out.push_back(c);
    }
    return "";
}

}  // namespace

std::string readState(const Json& v, const std::string& path, const Scene& scene, WorldSnapshot& out) {
    if (!v.is_object()) return fail(path, "expected an object, got " + describe(v));
    if (std::string e = checkKeys(v, path, {kStepKey, kTimeKey, kBodiesKey, kJointsKey, kContactsKey});
        !e.empty())
        return e;

    WorldSnapshot s;
    const std::string stepPath = join(path, kStepKey);
    auto step = v.find(kStepKey);
    if (step == v.end()) return fail(stepPath, "missing (required)");
    if (!step->is_number_integer()) return fail(stepPath, "expected an integer, got " + describe(*step));
    if (step->is_number_unsigned() && step->get<uint64_t>() > static_cast<uint64_t>(kMaxStepCount))
        return fail(stepPath, "must be <= " + std::to_string(kMaxStepCount) +
                                  " (the longest run JointLab takes), got " + step->dump());
    s.stepCount = step->get<int64_t>();

    auto time = v.find(kTimeKey);
    if (time == v.end()) return fail(join(path, kTimeKey), "missing (required)");
    if (!time->is_number()) return fail(join(path, kTimeKey), "expected a number, got " + describe(*time));
    s.time = time->get<Real>();

    const size_t nb = scene.bodies.size(), nj = scene.joints.size();
    if (std::string e = checkEntries(v, path, kBodiesKey, nb, "bodies"); !e.empty()) return e;
    if (std::string e = checkEntries(v, path, kJointsKey, nj, "joints"); !e.empty()) return e;

    s.bodies.resize(nb);
    s.contactImpulses.assign(nb * kContactValues, 0.0);
    const Json& bodies = v[kBodiesKey];
    for (size_t i = 0; i < nb; ++i)
        if (std::string e = readBodyState(bodies[i], join(path, indexed(kBodiesKey, i)), scene.bodies[i].name,
                                          s.bodies[i], &s.contactImpulses[i * kContactValues]);
            !e.empty())
            return e;

    s.broken.assign(nj, false);
    s.jointAngles.assign(nj * kAngleSlots, 0.0);
    s.jointAngleValid.assign(nj * kAngleSlots, false);
    const Json& joints = v[kJointsKey];
    for (size_t j = 0; j < nj; ++j) {
        bool broken = false;
        bool invalid[kAngleSlots] = {};
        if (std::string e =
                readJointState(joints[j], join(path, indexed(kJointsKey, j)), scene.joints[j].name, broken,
                               &s.jointAngles[j * kAngleSlots], invalid);
            !e.empty())
            return e;
        s.broken[j] = broken;
        for (size_t k = 0; k < kAngleSlots; ++k) s.jointAngleValid[j * kAngleSlots + k] = !invalid[k];
    }
    if (auto c = v.find(kContactsKey); c != v.end())
        if (std::string e = readContacts(*c, join(path, kContactsKey), scene, s.bodyContacts); !e.empty())
            return e;
    out = std::move(s);
    return "";
}

Json writeState(const Scene& scene, const WorldSnapshot& state) {
    Json root = Json::object();
    root[kStepKey] = state.stepCount;
    root[kTimeKey] = realJson(state.time);
    Json bodies = Json::array();
    for (size_t i = 0; i < state.bodies.size(); ++i) {
        Json b = Json::object();
        b[kNameKey] = i < scene.bodies.size() ? scene.bodies[i].name : std::string();
        BodyState st = state.bodies[i];
        Writer w(b);
        st.visit(w);
        const size_t first = i * kContactValues;
        if (first + kContactValues <= state.contactImpulses.size()) {
            bool allZero = true;
            for (size_t k = 0; k < kContactValues; ++k)
                allZero = allZero && isPositiveZero(state.contactImpulses[first + k]);
            if (!allZero) {
                Json c = Json::array();
                for (size_t k = 0; k < kContactValues; ++k)
                    c.push_back(realJson(state.contactImpulses[first + k]));
                b[kContactKey] = std::move(c);
            }
        }
        bodies.push_back(std::move(b));
    }
    root[kBodiesKey] = std::move(bodies);
    Json joints = Json::array();
    for (size_t j = 0; j < state.broken.size(); ++j) {
        Json o = Json::object();
        o[kNameKey] = j < scene.joints.size() ? scene.joints[j].name : std::string();
        o[kBrokenKey] = static_cast<bool>(state.broken[j]);
        Json angles = Json::array();
        for (size_t k = 0; k < kAngleSlots; ++k) {
            const size_t i = j * kAngleSlots + k;
            const bool valid = i < state.jointAngleValid.size() && state.jointAngleValid[i];
            angles.push_back(valid && i < state.jointAngles.size() ? realJson(state.jointAngles[i])
                                                                   : Json(nullptr));
        }
        o[kAnglesKey] = std::move(angles);
        joints.push_back(std::move(o));
    }
    root[kJointsKey] = std::move(joints);
    if (!state.bodyContacts.empty()) {
        Json contacts = Json::array();
        auto name = [&](int i) {
            return i >= 0 && static_cast<size_t>(i) < scene.bodies.size()
                       ? scene.bodies[static_cast<size_t>(i)].name
                       : std::string();
        };
        for (const BodyContactState& c : state.bodyContacts) {
            Json o = Json::object();
            o["body0"] = name(c.body0);
            o["body1"] = name(c.body1);
            o["feature"] = c.feature;
            o["point"] = Json::array({realJson(c.local0.x), realJson(c.local0.y), realJson(c.local0.z)});
            o["normalImpulse"] = realJson(c.normalImpulse);
            o["frictionImpulse"] = Json::array({realJson(c.frictionImpulse.x), realJson(c.frictionImpulse.y),
                                                realJson(c.frictionImpulse.z)});
            contacts.push_back(std::move(o));
        }
        root[kContactsKey] = std::move(contacts);
    }
    return root;
}

std::string validateState(const Scene& scene, const WorldSnapshot& s) {
    const std::string path = "state";
    const size_t nb = scene.bodies.size(), nj = scene.joints.size();
    if (s.bodies.size() != nb)
        return fail(join(path, kBodiesKey), "has " + std::to_string(s.bodies.size()) +
                                                " entries but the scene has " + std::to_string(nb) +
                                                " bodies");
    if (s.broken.size() != nj || s.jointAngles.size() != nj * kAngleSlots ||
        s.jointAngleValid.size() != nj * kAngleSlots)
        return fail(join(path, kJointsKey), "has " + std::to_string(s.broken.size()) +
                                                " entries but the scene has " + std::to_string(nj) +
                                                " joints");
    if (s.contactImpulses.size() != nb * kContactValues)
        return fail(join(path, kBodiesKey), "has " + std::to_string(s.contactImpulses.size()) +
                                                " contact impulses, expected " +
                                                std::to_string(nb * kContactValues) + " (" +
                                                std::to_string(kContactValues) + " per body)");
    if (s.stepCount < 0)
        return fail(join(path, kStepKey), "must be >= 0, got " + std::to_string(s.stepCount));
    if (s.stepCount > kMaxStepCount)
        return fail(join(path, kStepKey), "must be <= " + std::to_string(kMaxStepCount) +
                                              " (the longest run JointLab takes), got " +
                                              std::to_string(s.stepCount));
    if (!std::isfinite(s.time) || s.time < 0.0)
        return fail(join(path, kTimeKey), "must be finite and >= 0, got " + number(s.time));

    auto finite = [](const std::string& p, Real x) {
        return std::isfinite(x) ? std::string() : fail(p, "must be finite, got " + number(x));
    };
    for (size_t i = 0; i < nb; ++i) {
        const std::string bp = join(path, indexed(kBodiesKey, i));
        const BodyState& b = s.bodies[i];
        const Vec3* vectors[3] = {&b.pose.p, &b.linearVelocity, &b.angularVelocity};
        const char* names[3] = {"position", "linearVelocity", "angularVelocity"};
        for (int v = 0; v < 3; ++v)
            for (int k = 0; k < 3; ++k)
                if (std::string e =
                        finite(join(bp, names[v]) + "[" + std::to_string(k) + "]", (*vectors[v])[k]);
                    !e.empty())
                    return e;
        const Quat& q = b.pose.q;
        const Real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
        if (!isFinite(q) || !(std::abs(n - 1.0) <= kUnitQuatTolerance))
            return fail(join(bp, "orientation"), "not a finite unit quaternion (|q| = " + number(n) + ")");
        for (size_t k = 0; k < kContactValues; ++k)
            if (std::string e = finite(join(bp, kContactKey) + "[" + std::to_string(k) + "]",
                                       s.contactImpulses[i * kContactValues + k]);
                !e.empty())
                return e;
    }
    for (size_t i = 0; i < s.bodyContacts.size(); ++i) {
        const BodyContactState& c = s.bodyContacts[i];
        const std::string cp = join(path, indexed(kContactsKey, i));
        if (c.body0 < 0 || static_cast<size_t>(c.body0) >= nb || c.body1 >= static_cast<int>(nb) ||
            (c.body1 >= 0 && c.body1 <= c.body0))
            return fail(cp, "body0 must come before body1 in the scene's bodies (body1 empty: the ground)");
        if (i > 0) {
            const BodyContactState& b = s.bodyContacts[i - 1];
            if (contactPairLess(c.body0, c.body1, c.feature, b.body0, b.body1, b.feature))
                return fail(cp,
                            "out of order: contacts are sorted by body0, body1 (the ground first), feature");
        }
        const Vec3* vectors[2] = {&c.local0, &c.frictionImpulse};
        const char* names[2] = {"point", "frictionImpulse"};
        for (int v = 0; v < 2; ++v)
            for (int k = 0; k < 3; ++k)
                if (std::string e =
                        finite(join(cp, names[v]) + "[" + std::to_string(k) + "]", (*vectors[v])[k]);
                    !e.empty())
                    return e;
        if (std::string e = finite(join(cp, "normalImpulse"), c.normalImpulse); !e.empty()) return e;
    }
    for (size_t j = 0; j < nj; ++j)
        for (size_t k = 0; k < kAngleSlots; ++k)
            if (std::string e = finite(
                    join(join(path, indexed(kJointsKey, j)), kAnglesKey) + "[" + std::to_string(k) + "]",
                    s.jointAngles[j * kAngleSlots + k]);
                !e.empty())
                return e;
    return "";
}

}  // namespace jl::scenario
