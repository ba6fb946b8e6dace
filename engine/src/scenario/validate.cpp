// Scene validation: the checks shared by parseScenario (after reading) and validateScene (the
// editor's scenes). Policies are described at the top of scenario/io.cpp.
#include <map>

#include "jointlab/scenario_io.h"
#include "scenario/json_text.h"
#include "scenario/scenario_fields.h"

namespace jl {
namespace scenario {

namespace {

using json::quote;

// [SECTION] Validation (shared by parseScenario and validateScene)

/// Checks values against their Field: finite (or an allowed infinity), range, unit quaternions,
/// enum values in range. Records the first problem only.
class Checker {
public:
    Checker(std::string path, const Schema& schema, std::string& error)
        : path_(std::move(path)), schema_(schema), error_(error) {}

    // The paths are built only for a message: a scene of 100 000 bodies has millions of fields.
    void operator()(const char* name, Real& x, const Field& f) {
        checkReal([&] { return join(path_, name); }, x, f, schema_.allowsInfinity(name));
    }
    void operator()(const char* name, Vec3& v, const Field& f) {
        const bool inf = schema_.allowsInfinity(name);
        for (int k = 0; k < 3; ++k)
            checkReal([&] { return join(path_, name) + "[" + std::to_string(k) + "]"; }, v[k], f, inf);
    }
    void operator()(const char* name, Quat& q, const Field&) {
        if (!error_.empty()) return;
        const Real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
        if (!isFinite(q))
            error_ = fail(join(path_, name), "must be finite, got [" + number(q.w) + ", " + number(q.x) +
                                                 ", " + number(q.y) + ", " + number(q.z) + "]");
        else if (!(std::abs(n - 1.0) <= kUnitQuatTolerance))
            error_ = fail(join(path_, name), "not a unit quaternion (|q| = " + number(n) + ")");
    }
    void operator()(const char* name, int& i, const Field& f) {
        if (!error_.empty()) return;
        if (std::string problem = f.check(static_cast<Real>(i)); !problem.empty())
            error_ = fail(join(path_, name), problem);
    }
    void operator()(const char*, bool&, const Field&) {}
    void operator()(const char*, std::string&, const Field&) {}
    template <class E>
    void operator()(const char* name, EnumField<E> e, const Field&) {
        if (!error_.empty()) return;
        const int i = static_cast<int>(e.value);
        if (i < 0 || i >= e.count) error_ = fail(join(path_, name), "invalid value " + std::to_string(i));
    }

private:
    template <class Path>
    void checkReal(const Path& path, Real x, const Field& f, bool infinityAllowed) {
        if (!error_.empty()) return;
        if (std::isinf(x) && !infinityAllowed) {
            error_ = fail(path(), std::string("must be finite, got ") + (x > 0 ? "inf" : "-inf"));
            return;
        }
        if (std::string problem = f.check(x); !problem.empty()) {
            error_ = fail(path(), problem);
            return;
        }
        if (std::isfinite(x) && std::abs(x) > kMaxMagnitude)
            error_ = fail(path(), "magnitude must be <= " + number(kMaxMagnitude) + ", got " + number(x) +
                                      (infinityAllowed ? " (write \"inf\" for no limit)" : ""));
    }

    std::string path_;
    const Schema& schema_;
    std::string& error_;
};

std::string checkName(const std::string& path, const std::string& name) {
    if (name.empty()) return fail(path, "must not be empty");
    // Text that ends lines or moves the cursor in a message, a list or a terminal: C0 and C1 control
    // characters, DEL, and U+2028/U+2029 (line and paragraph separators). The text is valid UTF-8
    // here (the parser checks), so C1 is the two bytes C2 80..9F and U+2028/9 E2 80 A8/A9.
    for (size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        const auto next = [&](size_t k) {
            return i + k < name.size() ? static_cast<unsigned char>(name[i + k]) : 0;
        };
        if (c < 0x20 || c == 0x7F || (c == 0xC2 && next(1) >= 0x80 && next(1) <= 0x9F))
            return fail(path, "must not contain control characters, got " + quote(name));
        if (c == 0xE2 && next(1) == 0x80 && (next(2) == 0xA8 || next(2) == 0xA9))
            return fail(path,
                        "must not contain line or paragraph separators (U+2028, U+2029), got " + quote(name));
    }
    return "";
}

/// A hull's points (a hull body's or a compound child's, at `p`): 4 to kMaxHullPoints, each
/// coordinate finite and within ±kMaxSize, enclosing a volume (not all on one plane).
std::string checkHullPoints(const std::string& p, const std::vector<Vec3>& points) {
    if (points.size() < 4 || points.size() > static_cast<size_t>(kMaxHullPoints))
        return fail(p, "a hull needs 4 to " + std::to_string(kMaxHullPoints) + " points, got " +
                           std::to_string(points.size()));
    for (size_t k = 0; k < points.size(); ++k)
        for (int c = 0; c < 3; ++c) {
            const Real x = points[k][c];
            if (!std::isfinite(x) || std::abs(x) > kMaxSize)
                return fail(
                    indexed(p.c_str(), k) + "[" + std::to_string(c) + "]",
                    "must be finite and within ±" + shortestNumber(kMaxSize) + " m, got " + number(x));
        }
    const Real v = hullProperties(points).volume;
    if (!(v >= kMinSize * kMinSize * kMinSize))
        return fail(p, "the points enclose no volume (" + shortestNumber(v) +
                           " m^3): they lie on a plane, a line or one point");
    return "";
}

/// The shape lists of a hull or compound body: present when its shape needs them, in range, and a
/// hull that encloses a volume (its points not all on one plane).
std::string checkShapeLists(const std::string& path, BodyDesc& b, std::string& error) {
    if (b.shape == ShapeType::Hull)
        if (std::string e = checkHullPoints(join(path, "hullPoints"), b.hullPoints); !e.empty()) return e;
    if (hasExplicitInertia(b)) {
        const std::string p = join(path, "inertia");
        for (int k = 0; k < 3; ++k) {
            const Real i = b.inertia[k];
            if (!std::isfinite(i) || i < kMinInertia || i > kMaxInertia)
                return fail(p + "[" + std::to_string(k) + "]",
                            "must be within [" + shortestNumber(kMinInertia) + ", " +
                                shortestNumber(kMaxInertia) + "] kg·m², got " + number(i));
        }
        const Vec3& i = b.inertia;
        // A rigid body's principal moments obey the triangle inequality (each <= the sum of the others).
        for (int k = 0; k < 3; ++k)
            if (i[k] > (i[(k + 1) % 3] + i[(k + 2) % 3]) * (1.0 + 1e-9))
                return fail(p + "[" + std::to_string(k) + "]",
                            "must be <= the sum of the other two moments (no rigid body has " + number(i.x) +
                                ", " + number(i.y) + ", " + number(i.z) + ")");
    }
    if (b.shape == ShapeType::Compound) {
        const std::string p = join(path, "children");
        if (b.children.empty() || b.children.size() > static_cast<size_t>(kMaxChildShapes))
            return fail(p, "a compound needs 1 to " + std::to_string(kMaxChildShapes) +
                               " child shapes, got " + std::to_string(b.children.size()));
        for (size_t k = 0; k < b.children.size(); ++k) {
            const std::string childPath = indexed(p.c_str(), k);
            Checker c(childPath, schemaOf<ShapeDesc>(), error);
            b.children[k].visit(c);
            if (!error.empty()) return error;
            if (b.children[k].shape == ShapeType::Hull)
                if (std::string e = checkHullPoints(join(childPath, "hullPoints"), b.children[k].hullPoints);
                    !e.empty())
                    return e;
        }
    }
    return "";
}

/// References: each field in range, a unique name, the curve's own rules. Joint and body names
/// that do not exist are not errors (as for plots: the app shows the reference as missing).
std::string validateReferences(Scene& s) {
    std::string error;
    std::map<std::string, size_t> names;
    for (size_t i = 0; i < s.references.size(); ++i) {
        ReferenceDesc& r = s.references[i];
        const std::string path = indexed("references", i);
        Checker c(path, schemaOf<ReferenceDesc>(), error);
        r.visit(c);
        if (!error.empty()) return error;
        const std::string namePath = join(path, keyOf(r, r.name));
        if (error = checkName(namePath, r.name); !error.empty()) return error;
        if (auto [it, inserted] = names.emplace(r.name, i); !inserted)
            return fail(namePath, "duplicate reference name " + quote(r.name) + " (also " +
                                      indexed("references", it->second) + ")");
        if (r.isPendulum() && !(std::abs(r.amplitude) < 3.14159))
            return fail(
                join(path, keyOf(r, r.amplitude)),
                "must be within (-3.14159, 3.14159) rad: a pendulum released upside down never swings");
        if (std::string problem = validateReference(r); !problem.empty()) return join(path, problem);
    }
    return "";
}

/// The lesson: a title, at least one step, each step's fields in range, its `set` pairs valid
/// against the scene (with the earlier steps' applied), a claim with a run and a sensible range.
std::string validateLesson(Scene& s) {
    if (s.lesson.empty()) return "";
    if (s.lesson.title.empty()) return fail("lesson.title", "must not be empty");
    if (s.lesson.steps.empty()) return fail("lesson.steps", "must hold at least one step");
    std::string error;
    Scene applied = s;
    applied.lesson = Lesson{};
    applied.state.reset();
    for (size_t i = 0; i < s.lesson.steps.size(); ++i) {
        LessonStep& step = s.lesson.steps[i];
        const std::string path = "lesson.steps[" + std::to_string(i) + "]";
        Checker c(path, schemaOf<LessonStep>(), error);
        step.visit(c);
        if (!error.empty()) return error;
        if (step.text.empty()) return fail(join(path, keyOf(step, step.text)), "must not be empty");
        if (std::string e = applyLessonSet(applied, step.set); !e.empty())
            return fail(join(path, keyOf(step, step.set)), e);
        if (step.measure == LessonMeasure::None) continue;
        if (step.run < 1)
            return fail(join(path, keyOf(step, step.run)), "must be >= 1 for a claim (measure)");
        if (step.measure != LessonMeasure::MaxError && step.measure != LessonMeasure::FinalError &&
            step.measure != LessonMeasure::EnergyGain && step.measure != LessonMeasure::Residual &&
            step.measure != LessonMeasure::Warnings && step.joint.empty())
            return fail(join(path, keyOf(step, step.joint)), "must name what the claim measures");
        if (!(step.atLeast <= step.atMost))
            return fail(join(path, keyOf(step, step.atMost)),
                        "must be >= atLeast (" + number(step.atLeast) + "), got " + number(step.atMost));
    }
    if (std::string e = validateScene(applied); !e.empty())
        return fail("lesson", "with every step's settings applied the scene is invalid: " + e);
    return "";
}

}  // namespace

std::string validate(Scene& s) {
    std::string error;
    {
        Checker c("settings", schemaOf<WorldSettings>(), error);
        s.settings.visit(c);
        if (!error.empty()) return error;
        Checker cam("camera", schemaOf<CameraState>(), error);
        s.camera.visit(cam);
        if (!error.empty()) return error;
    }

    std::map<std::string, size_t> bodyIndex;
    for (size_t i = 0; i < s.bodies.size(); ++i) {
        BodyDesc& b = s.bodies[i];
        const std::string path = indexed("bodies", i);
        Checker c(path, schemaOf<BodyDesc>(), error);
        b.visit(c);
        if (!error.empty()) return error;
        if (error = checkShapeLists(path, b, error); !error.empty()) return error;
        if (b.massMode == MassMode::Density) {
            // Density and size are each in range, but their product need not be a mass the solver
            // works with (a 1 mm box of air, a 100 m sphere of lead).
            const Real m = computeMassProperties(b).mass;
            if (!(m >= kMinMass && m <= kMaxMass))
                return fail(join(path, "density"), "density × volume gives a mass of " + shortestNumber(m) +
                                                       " kg, outside the accepted masses [" +
                                                       shortestNumber(kMinMass) + ", " +
                                                       shortestNumber(kMaxMass) + "] kg");
        }
        const std::string namePath = join(path, keyOf(b, b.name));
        if (error = checkName(namePath, b.name); !error.empty()) return error;
        if (auto [it, inserted] = bodyIndex.emplace(b.name, i); !inserted)
            return fail(namePath, "duplicate body name " + quote(b.name) + " (also " +
                                      indexed("bodies", it->second) + ")");
    }

    std::map<std::string, size_t> jointIndex;
    for (size_t i = 0; i < s.joints.size(); ++i) {
        JointDesc& j = s.joints[i];
        const std::string path = indexed("joints", i);
        Checker c(path, schemaOf<JointDesc>(), error);
        j.visitCommon(c);
        if (!error.empty()) return error;
        const std::string paramsPath = join(path, "params");
        std::visit(
            [&](auto& params) {
                Checker pc(paramsPath, schemaOf<std::decay_t<decltype(params)>>(), error);
                params.visit(pc);
            },
            j.params);
        if (!error.empty()) return error;
        if (std::string problem = validateJointParams(j.params); !problem.empty())
            return join(paramsPath, problem);
        if (j.projection.enabled && !j.typeInfo().projection.any())
            return fail(join(path, "projection.enabled"),
                        std::string("a ") + j.typeInfo().name +
                            " joint has no hard lock to project onto (projection works on fixed, "
                            "spherical, revolute and prismatic joints)");

        const std::string namePath = join(path, keyOf(j, j.name));
        if (error = checkName(namePath, j.name); !error.empty()) return error;
        if (auto [it, inserted] = jointIndex.emplace(j.name, i); !inserted)
            return fail(namePath, "duplicate joint name " + quote(j.name) + " (also " +
                                      indexed("joints", it->second) + ")");

        const std::string body0Path = join(path, keyOf(j, j.body0));
        const std::string body1Path = join(path, keyOf(j, j.body1));
        if (!j.body0.empty() && !bodyIndex.count(j.body0))
            return fail(body0Path, "no body named " + quote(j.body0));
        if (!j.body1.empty() && !bodyIndex.count(j.body1))
            return fail(body1Path, "no body named " + quote(j.body1));
        if (j.body0.empty() && j.body1.empty())
            return fail(path, "both bodies are the world (" + keyOf(j, j.body0) + " and " +
                                  keyOf(j, j.body1) + " are empty); a joint needs at least one body");
        if (j.body0 == j.body1) return fail(body1Path, "joins body " + quote(j.body1) + " to itself");
    }

    // Plots name joints and rows, but a name that does not exist is not an error: the app shows it
    // as missing (deleting a joint must not make the scene invalid).
    for (size_t i = 0; i < s.plots.size(); ++i) {
        Checker c(indexed("plots", i), schemaOf<PlotDesc>(), error);
        s.plots[i].visit(c);
        if (!error.empty()) return error;
    }
    if (std::string e = validateReferences(s); !e.empty()) return e;
    if (std::string e = validateLesson(s); !e.empty()) return e;
    if (s.state) return validateState(s, *s.state);
    return "";
}

}  // namespace scenario

std::string validateScene(const Scene& scene) {
    Scene copy = scene;  // the field lists are non-const visitors; validation reads only
    return json::oneLine(scenario::validate(copy));
}

}  // namespace jl
