// The stepper's requests (next row, next sweep, finish step) carried out between frames, and the
// recorded step kept in step with the simulation.
//
// The recorded step (jointlab/step_inspector.h) belongs to one state: the world at step n with
// its scene. When the world moves on (a step, a seek, a reset, a load) it is dropped; when the
// scene is edited while paused at the same step (a slider), the step is recorded again with the
// edit and the cursor kept where it was, so the numbers follow the slider. "Finish step" takes a
// normal single step (Simulation::advance), which the history and the telemetry record as any
// other, and which is the recorded step bit for bit because the stepper runs on the reference
// kernel: a scene on the fast kernel is switched to the reference one first, as an undoable edit
// (the two kernels agree to 1e-9, not bit for bit: docs/solvers.md "Two kernels").
#include <algorithm>

#include "editor/commands.h"
#include "render/debug_draw.h"
#include "shell/app.h"

namespace jl::app {

namespace {

/// Moves a fresh recording's cursor to `units` units shown (as many as it has).
void moveCursor(StepInspector& s, size_t units) {
    while (s.cursor() < units && s.nextUnit()) {
    }
}

}  // namespace

void App::syncStepper() {
    StepperState& st = state_.stepper;
    if (!st.inspector) return;
    const World* world = state_.sim.world();
    if (!world || world != st.world || state_.sim.clock.playing ||
        world->stepCount() != st.inspector->fromStep()) {
        st.inspector.reset();  // the world moved on: that step is taken (or another one is next)
        return;
    }
    if (st.sceneRevision == state_.sim.sceneRevision()) return;
    const size_t at = st.inspector->cursor();  // an edit while paused: the same step, edited
    std::string why;
    st.inspector = state_.sim.inspectNextStep(why);
    st.sceneRevision = state_.sim.sceneRevision();
    st.note = why;
    if (st.inspector) moveCursor(*st.inspector, at);
}

void App::applyStepperRequest(const UiRequests& r) {
    StepperState& st = state_.stepper;
    if (r.stepper == StepperAction::None) return;
    if (r.stepper == StepperAction::Leave) {
        st.inspector.reset();
        st.note.clear();
        return;
    }
    const World* world = state_.sim.world();
    if (!world) return;
    // The keys work from anywhere: the Step tab comes to the front to show what they did.
    state_.teach.requestTab = DockTab::Step;
    // Past the step's last row, "next" goes on into the next step: this one is finished first.
    if (r.stepper == StepperAction::Finish || (st.inspector && st.inspector->atEnd())) {
        // The normal step; syncStepper drops the recording once it is taken.
        if (!state_.sim.clock.playing) ++state_.sim.clock.pendingSingleSteps;
        return;
    }
    if (!st.inspector) {
        if (world->scene().settings.kernel != KernelType::Reference) {
            runCommand(setField(FieldOwner::settings(), "kernel", 1));
            st.note =
                "kernel set to reference, the one shown, so Finish step gives exactly this step (Ctrl+Z "
                "undoes)";
        } else {
            st.note.clear();
        }
        std::string why;
        st.inspector = state_.sim.inspectNextStep(why);
        st.sceneRevision = state_.sim.sceneRevision();
        st.world = state_.sim.world();
        if (!st.inspector) {
            st.note = why;
            return;
        }
    }
    if (r.stepper == StepperAction::NextRow)
        st.inspector->nextUnit();
    else
        st.inspector->nextSweep();
}

void App::drawStepperArrows() {
    const StepInspector& ins = *state_.stepper.inspector;
    const StepInspector::Unit* u = ins.current();
    const World* world = state_.sim.world();
    if (!u || !world) return;
    // One scale for the whole step, so an arrow's length compares across visits: the largest speed
    // any visit left a body with is drawn 0.6 m long.
    Real vMax = 1e-9, wMax = 1e-9;
    for (const StepInspector::Visit& v : ins.visits()) {
        vMax = std::max({vMax, glm::length(v.v0), glm::length(v.v1)});
        wMax = std::max({wMax, glm::length(v.w0), glm::length(v.w1)});
    }
    const Real vScale = 0.6 / vMax, wScale = 0.6 / wMax;
    const StepInspector::Visit& last = ins.visits()[u->first + static_cast<size_t>(u->count) - 1];
    const Color kLinear{0.30f, 0.85f, 1.00f, 1.0f}, kAngular{1.00f, 0.45f, 0.85f, 1.0f};
    const Color kBefore{0.60f, 0.62f, 0.66f, 0.9f};
    auto arrows = [&](int b, const Vec3& v, const Vec3& w) {
        if (b < 0 || static_cast<size_t>(b) >= world->bodies().size()) return;
        // Before the visit: the body's velocity after its previous visit (or at the step's start).
        Vec3 v0 = world->bodies()[static_cast<size_t>(b)].linearVelocity;
        Vec3 w0 = world->bodies()[static_cast<size_t>(b)].angularVelocity;
        for (size_t k = u->first; k-- > 0;) {
            const StepInspector::Visit& p = ins.visits()[k];
            if (p.body0 == b || p.body1 == b) {
                v0 = p.body0 == b ? p.v0 : p.v1;
                w0 = p.body0 == b ? p.w0 : p.w1;
                break;
            }
        }
        const glm::vec3 c(world->bodies()[static_cast<size_t>(b)].pose.p);
        lines_.arrow(c, c + glm::vec3(v0 * vScale), kBefore, DebugDraw::Layer::Overlay);
        lines_.arrow(c, c + glm::vec3(w0 * wScale), kBefore, DebugDraw::Layer::Overlay);
        lines_.outlinedArrow(c, c + glm::vec3(v * vScale), kLinear);
        lines_.outlinedArrow(c, c + glm::vec3(w * wScale), kAngular);
    };
    arrows(last.body0, last.v0, last.w0);
    arrows(last.body1, last.v1, last.w1);
}

}  // namespace jl::app
