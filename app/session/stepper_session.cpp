#include "session/stepper_session.h"

namespace jl::app {

namespace {

/// Moves a fresh recording's cursor to `units` units shown (as many as it has).
void moveCursor(StepInspector& s, size_t units) {
    while (s.cursor() < units && s.nextUnit()) {
    }
}

const char* kernelName(const Simulation& sim) {
    return kKernelTypeNames[static_cast<int>(sim.scene().settings.kernel)];
}

}  // namespace

void syncStepper(Simulation& sim, StepperState& st) {
    if (sim.clock.playing && sim.referenceKernelHeld()) {  // playing on: the stepping is over
        sim.releaseReferenceKernel();
        st.note.clear();
    }
    if (!st.inspector) return;
    const World* world = sim.world();
    if (!world || world != st.world || sim.clock.playing || world->stepCount() != st.inspector->fromStep()) {
        st.inspector.reset();  // the world moved on: that step is taken (or another one is next)
        return;
    }
    if (st.sceneRevision == sim.sceneRevision()) return;
    if (sim.scene().settings.kernel != KernelType::Reference) {
        // The kernel was chosen (the Solver panel, an undo): Finish step would not take the
        // visits recorded, so they are not shown.
        st.inspector.reset();
        st.note = std::string("kernel set to ") + kernelName(sim) +
                  ": the stepper shows the reference kernel's row visits, so stepping stopped (Next row "
                  "starts again, on the reference kernel)";
        return;
    }
    const size_t at = st.inspector->cursor();  // an edit while paused: the same step, edited
    std::string why;
    st.inspector = sim.inspectNextStep(why);
    st.sceneRevision = sim.sceneRevision();
    st.note = why;
    if (st.inspector) moveCursor(*st.inspector, at);
}

bool applyStepperAction(Simulation& sim, StepperState& st, StepperAction action) {
    if (action == StepperAction::None) return false;
    if (action == StepperAction::Leave) {
        st.inspector.reset();
        const bool held = sim.referenceKernelHeld();
        sim.releaseReferenceKernel();
        st.note = held ? std::string("left the stepper: kernel ") + kernelName(sim) + " again" : "";
        return false;
    }
    if (!sim.world()) return false;
    // Past the step's last row, "next" goes on into the next step: this one is finished first.
    if (action == StepperAction::Finish || (st.inspector && st.inspector->atEnd())) {
        // The normal step; syncStepper drops the recording once it is taken.
        if (!sim.clock.playing) ++sim.clock.pendingSingleSteps;
        return true;
    }
    if (!st.inspector) {
        std::string why;
        st.inspector = sim.inspectNextStep(why);
        if (!st.inspector) {  // refused (playing, dragging): nothing switched
            st.note = why;
            return true;
        }
        if (sim.holdReferenceKernel()) {
            // Switched in place (no edit: the state and the last step's results stay). Back in the
            // history the switch starts a branch: the step is recorded again from there.
            st.inspector = sim.inspectNextStep(why);
            st.note =
                "kernel set to reference while stepping: Finish step takes exactly the step shown (Leave, or "
                "Play, goes back to fast)";
            if (!st.inspector) {
                st.note = why;
                return true;
            }
        } else if (!sim.referenceKernelHeld()) {
            st.note.clear();
        }
        st.sceneRevision = sim.sceneRevision();
        st.world = sim.world();
    }
    if (action == StepperAction::NextRow)
        st.inspector->nextUnit();
    else
        st.inspector->nextSweep();
    return true;
}

}  // namespace jl::app
