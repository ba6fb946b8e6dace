// JointLab app — what the Advisor and Lesson tabs of the Plots dock keep between frames
// (panels/advisor_panel.cpp, panels/lesson_panel.cpp). Plain data: no ImGui here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jointlab/advisor.h"

namespace jl::app {

/// The dock's tabs, for a request to show one (--tab, a lesson opening).
enum class DockTab { None, Plots, Rows, Step, Tuner, Advisor, Lesson, Reference };

struct TeachState {
    /// The advisor's warnings (jointlab/advisor.h) for the scene revision and step they were made
    /// for: worked out again when the scene changes and, for the rows' responses, every
    /// kAdviceRefreshSteps steps of the run.
    std::vector<Advice> advice;
    uint64_t adviceRevision = 0;
    int64_t adviceStep = -1;
    std::string lastFix;  ///< what the last one-click fix changed ("posIters 4 → 12"), shown until the next
    /// The lesson tab: the step shown (0-based) and the lesson it belongs to (its title), so
    /// opening another lesson starts at its first step.
    int lessonStep = 0;
    std::string lessonTitle;
    std::string lessonMessage;           ///< why the last "Do this step" changed nothing ("" = fine)
    DockTab requestTab = DockTab::None;  ///< select this dock tab in the next frame
    /// The Step tab was in front last frame: the dock then takes at least kStepDockShare of the
    /// height (shell/layout.h dockShareFor), so the row list and the equation fit at 1280x720.
    bool stepTabInFront = false;
};

/// The advisor looks at the rows again after this many steps of a run (the scene's own changes
/// are seen at once).
inline constexpr int64_t kAdviceRefreshSteps = 30;

}  // namespace jl::app
