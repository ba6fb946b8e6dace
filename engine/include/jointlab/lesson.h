// JointLab engine — guided lessons: a scenario's optional "lesson" section, a title and numbered
// steps (docs/user-guide.md "Lessons"). A step says what to do and what happens; a step whose claim is a
// number also says so in data (`run`, `measure`, `atLeast`/`atMost`), and the engine's tests run every lesson
// and check each such claim (tests/engine/lessons_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "jointlab/fields.h"

namespace jl {

/// What a step's claim measures over its run (lessonMeasure below).
enum class LessonMeasure {
    None,        ///< no number: the step only explains
    MaxError,    ///< the largest row error of any joint, over the run [m or rad]
    JointError,  ///< the largest row error of `joint`, over the run
    FinalError,  ///< the largest row error of any joint in the run's last step
    JointForce,  ///< the largest |force| `joint` reported, over the run [N]
    Broken,      ///< 1 when `joint` is broken at the end of the run, else 0
    EnergyGain,  ///< the largest rise of total (kinetic + potential) energy above its start [J]
    Residual,    ///< the last sweep's residual in the run's last step [m/s]
    Reference,   ///< the largest |simulated − closed form| of reference `joint` over the run
    MaxAngle,    ///< the largest twist angle of `joint` over the run [rad] (ReferenceQuantity::JointAngle)
    Warnings,    ///< how many warnings the conditioning advisor gives at the end of the run
};
inline constexpr const char* kLessonMeasureNames[] = {"none",       "maxError", "jointError", "finalError",
                                                      "jointForce", "broken",   "energyGain", "residual",
                                                      "reference",  "maxAngle", "warnings"};
inline constexpr int kLessonMeasureCount = 11;

/// One numbered step of a lesson.
struct LessonStep {
    std::string text;  ///< what to do and what happens, in plain words
    /// Settings this step asks for, as `path=value` pairs separated by ';' (field paths as in
    /// sweeps: "settings.posIters=16; joints.elbow.invMassScale0=0.1"). The lesson panel applies
    /// them with one click (undoable); they stay for the later steps.
    std::string set;
    int run = 0;  ///< steps from the start the claim is about (0: no number to check)
    LessonMeasure measure = LessonMeasure::None;
    std::string joint;     ///< the joint (or, for `reference`, the reference) measured
    Real atLeast = -kInf;  ///< the claim: the measured value is at least this ...
    Real atMost = kInf;    ///< ... and at most this

    template <class V>
    void visit(V& v) {
        const bool claim = measure != LessonMeasure::None;
        v("text", text, Field{"", 0, 0, "what to do and what happens"});
        v("set", set,
          Field{"", 0, 0, "settings this step applies: path=value pairs separated by ';' (sweep paths)"});
        v("run", run, relevantIf(claim, Field{"", 0, 1000000, "steps from the start the claim is about"}));
        v("measure", EnumField<LessonMeasure>{measure, kLessonMeasureNames, kLessonMeasureCount},
          Field{"", 0, 0,
                "the number the claim is about: maxError, jointError, finalError, jointForce, broken, "
                "energyGain, residual, reference, maxAngle, warnings (none: no number)"});
        v("joint", joint, relevantIf(claim, Field{"", 0, 0, "the joint measured (reference: its name)"}));
        v("atLeast", atLeast, relevantIf(claim, anyReal("", "the claim: the value is at least this")));
        v("atMost", atMost, relevantIf(claim, anyReal("", "the claim: the value is at most this")));
    }
};

/// A lesson: empty (no title, no steps) when the scene has none.
struct Lesson {
    std::string title;
    std::vector<LessonStep> steps;

    bool empty() const { return title.empty() && steps.empty(); }

    template <class V>
    void visit(V& v) {
        v("title", title, Field{"", 0, 0, "the lesson's title"});
    }
};

struct Scene;

/// Applies a step's `set` text to `scene`: "" when every pair resolves and its value is valid
/// (then the scene has them), else the problem naming the pair; the scene is unchanged on error.
std::string applyLessonSet(Scene& scene, const std::string& set);

/// Runs step `index`'s claim: the scene with the `set` of steps 0..index applied, from its start,
/// for the step's `run` steps; `value` is what `measure` measured. "" or the problem.
std::string measureLessonStep(const Scene& scene, size_t index, Real& value);

}  // namespace jl
