// JointLab app — inside the solver: the Step tab (stepper_panel.cpp: next row, next sweep,
// finish step, with the equation of the row from equation_panel.cpp beside it) and the Drive
// tuner tab (drive_tuner_panel.cpp), both in the Plots dock. Internal to app/panels.
#pragma once

#include "jointlab/step_inspector.h"
#include "shell/app_state.h"

namespace jl::app {

/// The Step tab: the stepper's buttons and position, the row or block it is at, and the
/// equation of that row (or of the selected joint's chosen row when not stepping).
void drawStepTab(AppState& state, UiRequests& requests);
/// The equation of a row with its numbers (equation_panel.cpp).
void drawRowEquation(AppState& state, UiRequests& requests);
/// The Drive tuner tab: ω_n and ζ of the selected joint's drive, editable, and its step response.
void drawDriveTunerTab(AppState& state, UiRequests& requests);

/// While stepping: the visit of joint `joint`'s row `row` in the unit shown last, or null.
const StepInspector::Visit* currentVisitOf(const AppState& state, int joint, int row);
/// While stepping: the row's accumulated impulse after the visits shown so far; false when it
/// has not been visited yet in this step (or not stepping).
bool lambdaSoFar(const AppState& state, int joint, int row, Real& lambda);
/// "position iteration 3 of 8", "substep 2 of 4", "velocity iteration 1 of 1", … for a visit.
std::string sweepName(const StepInspector::Visit& v, const WorldSettings& settings);

}  // namespace jl::app
