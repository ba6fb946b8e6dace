// Lessons: applying a step's settings and measuring its claim (jointlab/lesson.h).
#include "jointlab/lesson.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "jointlab/advisor.h"
#include "jointlab/field_path.h"
#include "jointlab/scene.h"
#include "jointlab/telemetry.h"
#include "jointlab/world.h"

namespace jl {

namespace {

std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && s[a] == ' ') ++a;
    while (b > a && s[b - 1] == ' ') --b;
    return std::string(s.substr(a, b - a));
}

/// "16" → 16.0, "true" → true, anything else → the text (an enum's name).
FieldPathValue parseValue(const std::string& text) {
    if (text == "true") return true;
    if (text == "false") return false;
    Real x = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec == std::errc() && end == text.data() + text.size()) return x;
    if (text == "inf") return kInf;
    return text;
}

/// The largest row error of joint j in the world's last step (rowViolation).
Real jointError(const World& world, int j) {
    Real e = 0.0;
    const auto rows = world.jointRows(j);
    const auto results = world.jointRowResults(j);
    for (size_t k = 0; k < rows.size() && k < results.size(); ++k)
        e = std::max(e, rowViolation(rows[k], results[k]));
    return e;
}

}  // namespace

std::string applyLessonSet(Scene& scene, const std::string& set) {
    Scene copy = scene;
    size_t start = 0;
    while (start < set.size()) {
        size_t end = set.find(';', start);
        if (end == std::string::npos) end = set.size();
        const std::string pair = trim(std::string_view(set).substr(start, end - start));
        start = end + 1;
        if (pair.empty()) continue;
        const size_t eq = pair.find('=');
        if (eq == std::string::npos) return "\"" + pair + "\": expected path=value";
        const std::string path = trim(std::string_view(pair).substr(0, eq));
        FieldPath resolved;
        if (std::string e = resolveFieldPath(copy, path, resolved); !e.empty())
            return "\"" + pair + "\": " + e;
        const FieldPathValue value = parseValue(trim(std::string_view(pair).substr(eq + 1)));
        if (std::string e = checkFieldPathValue(resolved, value); !e.empty()) return "\"" + pair + "\": " + e;
        if (std::string e = setFieldPath(copy, resolved, value); !e.empty()) return "\"" + pair + "\": " + e;
    }
    scene = std::move(copy);
    return "";
}

std::string measureLessonStep(const Scene& scene, size_t index, Real& value) {
    if (index >= scene.lesson.steps.size()) return "no step " + std::to_string(index + 1);
    Scene s = scene;
    s.state.reset();  // a claim is about the run from its start
    for (size_t i = 0; i <= index; ++i)
        if (std::string e = applyLessonSet(s, s.lesson.steps[i].set); !e.empty())
            return "step " + std::to_string(i + 1) + ": " + e;
    const LessonStep& step = scene.lesson.steps[index];
    const int joint = step.measure == LessonMeasure::Reference ? -1 : s.findJoint(step.joint);
    int reference = -1;
    for (size_t r = 0; r < s.references.size(); ++r)
        if (s.references[r].name == step.joint) reference = static_cast<int>(r);
    const bool needsJoint = step.measure == LessonMeasure::JointError ||
                            step.measure == LessonMeasure::JointForce ||
                            step.measure == LessonMeasure::Broken || step.measure == LessonMeasure::MaxAngle;
    if (needsJoint && joint < 0) return "no joint named \"" + step.joint + "\"";
    if (step.measure == LessonMeasure::Reference && reference < 0)
        return "no reference named \"" + step.joint + "\"";
    World world(s);
    const Real startEnergy = world.kineticEnergy() + world.potentialEnergy();
    std::vector<ReferenceSample> refs;
    value = step.measure == LessonMeasure::MaxAngle ? -kInf : 0.0;
    for (int n = 0; n < step.run; ++n) {
        world.step();
        if (world.divergence()) return "the run diverged at step " + std::to_string(n + 1);
        switch (step.measure) {
            case LessonMeasure::MaxError:
                for (size_t j = 0; j < s.joints.size(); ++j)
                    value = std::max(value, jointError(world, static_cast<int>(j)));
                break;
            case LessonMeasure::FinalError:
                value = 0.0;
                for (size_t j = 0; j < s.joints.size(); ++j)
                    value = std::max(value, jointError(world, static_cast<int>(j)));
                break;
            case LessonMeasure::JointError:
                value = std::max(value, jointError(world, joint));
                break;
            case LessonMeasure::JointForce:
                value = std::max(value, glm::length(world.jointState(joint).force));
                break;
            case LessonMeasure::Broken:
                value = world.jointState(joint).broken ? 1.0 : 0.0;
                break;
            case LessonMeasure::EnergyGain:
                value = std::max(value, world.kineticEnergy() + world.potentialEnergy() - startEnergy);
                break;
            case LessonMeasure::Residual: {
                const auto r = world.lastResiduals();
                value = r.empty() ? 0.0 : r.back();
                break;
            }
            case LessonMeasure::Reference: {
                sampleReferences(world, refs);
                const ReferenceSample& x = refs[static_cast<size_t>(reference)];
                if (std::isfinite(x.reference)) value = std::max(value, std::abs(x.simulated - x.reference));
                break;
            }
            case LessonMeasure::MaxAngle:
                value =
                    std::max(value, measureQuantity(world, ReferenceQuantity::JointAngle, step.joint, ""));
                break;
            case LessonMeasure::Warnings:
            case LessonMeasure::None:
                break;
        }
    }
    if (step.measure == LessonMeasure::Warnings) value = static_cast<Real>(adviseScene(s, &world).size());
    return "";
}

}  // namespace jl
