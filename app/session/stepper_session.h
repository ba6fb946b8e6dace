// JointLab app — the stepper's requests (next row, next sweep, finish step, leave) carried out
// between frames, and the recorded step kept in step with the simulation. GL- and ImGui-free, so
// that tests/app can drive it as the keys do; the App calls it (shell/app_stepper.cpp).
//
// The recorded step (jointlab/step_inspector.h) belongs to one state: the world at step n with
// its scene. When the world moves on (a step, a seek, a reset, a load) it is dropped; when the
// scene is edited while paused at the same step (a slider), the step is recorded again with the
// edit and the cursor kept where it was, so the numbers follow the slider. "Finish step" takes a
// normal single step (Simulation::advance), which the history and the telemetry record as any
// other, and which is the recorded step bit for bit because the World runs on the reference
// kernel while stepping: a scene on the fast kernel is switched in place when stepping starts
// (Simulation::holdReferenceKernel: not an edit, the state and the last step's results stay) and
// back on Leave, or when the simulation plays again.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "jointlab/step_inspector.h"
#include "jointlab/world.h"
#include "session/simulation.h"

namespace jl::app {

/// What the stepper is asked to do (panels/stepper_panel.cpp, F11 / F10 / Shift+F11).
enum class StepperAction { None, NextRow, NextSweep, Finish, Leave };

/// The stepper: the next step recorded row visit by row visit (jointlab/step_inspector.h), shown
/// a row or a block at a time.
struct StepperState {
    std::unique_ptr<StepInspector> inspector;  ///< null: not stepping
    uint64_t sceneRevision = 0;                ///< the scene it was recorded with (an edit records again)
    const World* world = nullptr;  ///< the live world it belongs to (a new one: reset, load, seek)
    std::string note;              ///< why it cannot step, or what it changed to step
    /// While paused and not stepping: the next step recorded once for the Equation and Drive tuner
    /// tabs (their numbers for the step about to be taken, which follow an edit at once), with the
    /// step and scene revision it belongs to.
    std::unique_ptr<StepInspector> preview;
    int64_t previewStep = -1;
    uint64_t previewRevision = 0;
};

/// Keeps the recorded step in step with the simulation; call before and after every advance. The
/// simulation playing ends the stepping: the kernel held for it goes back.
void syncStepper(Simulation& sim, StepperState& st);

/// Carries out one request. Returns true when it did something the Step tab shows (the App then
/// brings the tab to the front: the keys work from anywhere).
bool applyStepperAction(Simulation& sim, StepperState& st, StepperAction action);

}  // namespace jl::app
