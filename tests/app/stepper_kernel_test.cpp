// The stepper's kernel (session/stepper_session.h, Simulation::holdReferenceKernel). Stepping
// inside a step runs the World on the reference kernel, whose row visits the stepper shows, so
// that Finish step is the step shown bit for bit (the fast kernel differs from it in the last bits:
// tests/engine/kernels_test.cpp). Starting the stepper on a scene on the fast kernel is not an
// edit: the World is not rebuilt, its state, the last step's rows, results and joint loads (what
// the Inspector shows) and the telemetry stay, and nothing goes on the undo stack. Leave (or
// playing on) switches back the same way. The history records both switches, so going back
// retakes every step on the kernel it ran on.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "editor/editor.h"
#include "session/default_scene.h"
#include "session/simulation.h"
#include "session/stepper_session.h"

namespace jl::app {
namespace {

/// The showcase on the fast kernel, `steps` steps in, paused.
void startShowcase(Simulation& sim, int steps) {
    std::string error;
    Scene scene = makeBuiltInShowcase();
    scene.settings.kernel = KernelType::Fast;
    ASSERT_TRUE(sim.setScene(scene, "", error)) << error;
    sim.clock.fixedStepsPerFrame = 1;
    sim.clock.playing = true;
    for (int i = 0; i < steps; ++i) sim.advance(1.0 / 60.0);
    sim.clock.playing = false;
    ASSERT_EQ(sim.world()->stepCount(), steps);
}

/// Everything the Inspector and the Rows tab show of the last step, as bits: every joint's force
/// and torque, and every row's impulse and errors.
std::vector<double> lastStepResults(const World& w) {
    std::vector<double> out;
    for (int j = 0; j < static_cast<int>(w.scene().joints.size()); ++j) {
        const JointState& s = w.jointState(j);
        for (int k = 0; k < 3; ++k) out.insert(out.end(), {s.force[k], s.torque[k]});
    }
    for (const RowResult& r : w.rowResults())
        out.insert(out.end(), {r.impulse, r.geometricError, r.velocityError});
    return out;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

int kernelMarks(const Simulation& sim) {
    int n = 0;
    for (const HistoryEvent& e : sim.history().events())
        if (e.kind == HistoryMark::Setting && e.what.find("kernel") != std::string::npos) ++n;
    return n;
}

TEST(StepperKernel, StartingTheStepperKeepsTheStateAndTheLastStep) {
    Simulation sim;
    startShowcase(sim, 30);
    Editor editor(sim);
    const World* world = sim.world();
    const uint64_t hash = world->stateHash();
    const std::vector<double> results = lastStepResults(*world);
    const size_t recorded = sim.telemetry().size();
    ASSERT_GT(recorded, 0u);
    ASSERT_TRUE(sim.hasStepResults());

    StepperState st;
    EXPECT_TRUE(applyStepperAction(sim, st, StepperAction::NextRow));
    ASSERT_TRUE(st.inspector) << st.note;
    EXPECT_EQ(st.inspector->cursor(), 1u);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Reference);
    EXPECT_EQ(sim.world()->scene().settings.kernel, KernelType::Reference);
    EXPECT_TRUE(sim.referenceKernelHeld());
    EXPECT_NE(st.note.find("kernel set to reference"), std::string::npos) << st.note;
    // Not an edit: the same World, its state and the last step's results as they were.
    EXPECT_EQ(sim.world(), world) << "the World was rebuilt";
    EXPECT_TRUE(sim.hasStepResults()) << "the Inspector would say 'no step since the scene was edited'";
    EXPECT_EQ(sim.world()->stateHash(), hash);
    EXPECT_TRUE(sameBits(lastStepResults(*sim.world()), results));
    EXPECT_EQ(sim.telemetry().size(), recorded);
    EXPECT_FALSE(editor.canUndo()) << "the switch is not an undoable edit";
    EXPECT_FALSE(editor.dirty());
    EXPECT_EQ(kernelMarks(sim), 1) << "the history records the switch";
    syncStepper(sim, st);  // the next frame: the recording stays
    ASSERT_TRUE(st.inspector);

    // Finish step takes exactly the step shown.
    const uint64_t shown = st.inspector->stepped().stateHash();
    EXPECT_TRUE(applyStepperAction(sim, st, StepperAction::Finish));
    syncStepper(sim, st);
    EXPECT_EQ(sim.advance(0.0), 1);
    syncStepper(sim, st);
    EXPECT_FALSE(st.inspector) << "the step is taken: the recording is dropped";
    EXPECT_EQ(sim.world()->stateHash(), shown);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Reference) << "held until Leave";

    // Going back retakes the step on the kernel it ran on.
    ASSERT_TRUE(sim.seekStep(29));
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Fast);
    ASSERT_TRUE(sim.seekStep(31));
    EXPECT_EQ(sim.world()->stateHash(), shown);
    EXPECT_EQ(sim.history().branches().size(), 1u) << "at the end of the run the switch starts no branch";
}

TEST(StepperKernel, LeavingPutsTheKernelBackInPlaceAndTheRunReplays) {
    Simulation sim;
    startShowcase(sim, 25);
    Editor editor(sim);
    StepperState st;
    ASSERT_TRUE(applyStepperAction(sim, st, StepperAction::NextSweep));
    ASSERT_TRUE(applyStepperAction(sim, st, StepperAction::Finish));
    ASSERT_EQ(sim.advance(0.0), 1);
    syncStepper(sim, st);
    ASSERT_FALSE(st.inspector);
    ASSERT_TRUE(sim.referenceKernelHeld()) << "after Finish step the stepping goes on until Leave";

    const World* world = sim.world();
    const uint64_t hash = world->stateHash();
    const std::vector<double> results = lastStepResults(*world);
    applyStepperAction(sim, st, StepperAction::Leave);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Fast);
    EXPECT_FALSE(sim.referenceKernelHeld());
    EXPECT_NE(st.note.find("fast again"), std::string::npos) << st.note;
    EXPECT_EQ(sim.world(), world);
    EXPECT_TRUE(sim.hasStepResults());
    EXPECT_EQ(sim.world()->stateHash(), hash);
    EXPECT_TRUE(sameBits(lastStepResults(*sim.world()), results));
    EXPECT_FALSE(editor.canUndo());
    EXPECT_EQ(kernelMarks(sim), 2);

    // Ten more steps on the fast kernel; back to before the stepping, the replay gives the same bits
    // (the reference step at 26 in the middle, the fast ones either side).
    sim.clock.playing = true;
    std::vector<uint64_t> hashes;
    for (int i = 0; i < 10; ++i) {
        sim.advance(1.0 / 60.0);
        hashes.push_back(sim.world()->stateHash());
    }
    sim.clock.playing = false;
    ASSERT_TRUE(sim.seekStep(20));
    sim.clock.playing = true;
    for (int i = 0; i < 16; ++i) sim.advance(1.0 / 60.0);
    ASSERT_EQ(sim.world()->stepCount(), 36);
    EXPECT_EQ(sim.world()->stateHash(), hashes.back());
    EXPECT_EQ(sim.history().branches().size(), 1u);
}

TEST(StepperKernel, PlayingOnEndsTheStepping) {
    Simulation sim;
    startShowcase(sim, 10);
    StepperState st;
    ASSERT_TRUE(applyStepperAction(sim, st, StepperAction::NextRow));
    ASSERT_EQ(sim.scene().settings.kernel, KernelType::Reference);
    sim.clock.playing = true;
    syncStepper(sim, st);  // before the frame's steps
    EXPECT_FALSE(st.inspector);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Fast) << "the steps played run on the fast kernel";
    EXPECT_FALSE(sim.referenceKernelHeld());
}

TEST(StepperKernel, BackInTheHistoryLeavingReturnsToTheBranchLeft) {
    Simulation sim;
    startShowcase(sim, 40);
    const uint64_t at40 = sim.world()->stateHash();
    ASSERT_TRUE(sim.seekStep(20));
    const uint64_t at20 = sim.world()->stateHash();
    StepperState st;
    ASSERT_TRUE(applyStepperAction(sim, st, StepperAction::NextRow));
    ASSERT_TRUE(st.inspector) << st.note;
    // The recorded future ran on the fast kernel: the step on the reference one starts a branch.
    EXPECT_EQ(sim.history().branches().size(), 2u);
    EXPECT_EQ(sim.world()->stateHash(), at20);
    applyStepperAction(sim, st, StepperAction::Leave);
    EXPECT_EQ(sim.history().currentBranch(), 0);
    ASSERT_EQ(sim.history().branches().size(), 2u);
    EXPECT_TRUE(sim.history().branches()[1].deleted) << "the empty branch is dropped";
    EXPECT_EQ(sim.world()->stepCount(), 20);
    EXPECT_EQ(sim.world()->stateHash(), at20);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Fast);
    EXPECT_EQ(sim.history().lastStep(), 40);
    EXPECT_EQ(kernelMarks(sim), 0);
    ASSERT_TRUE(sim.seekStep(40));
    EXPECT_EQ(sim.world()->stateHash(), at40);
}

TEST(StepperKernel, AKernelChosenWhileSteppingStopsItAndIsKept) {
    Simulation sim;
    startShowcase(sim, 10);
    StepperState st;
    ASSERT_TRUE(applyStepperAction(sim, st, StepperAction::NextRow));
    std::string error;
    Scene edited = sim.scene();
    edited.settings.kernel = KernelType::Fast;  // the Solver panel's "fast", or an undo
    ASSERT_TRUE(sim.applyEdit(edited, {}, {}, error)) << error;
    syncStepper(sim, st);
    EXPECT_FALSE(st.inspector) << "Finish step would not take the visits shown";
    EXPECT_NE(st.note.find("stepping stopped"), std::string::npos) << st.note;
    EXPECT_FALSE(sim.referenceKernelHeld());
    // Chosen by hand afterwards, the reference kernel stays on Leave.
    edited.settings.kernel = KernelType::Reference;
    ASSERT_TRUE(sim.applyEdit(edited, {}, {}, error)) << error;
    applyStepperAction(sim, st, StepperAction::Leave);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Reference);
}

TEST(StepperKernel, AnotherDocumentDropsTheHold) {
    Simulation sim;
    startShowcase(sim, 5);
    StepperState st;
    ASSERT_TRUE(applyStepperAction(sim, st, StepperAction::NextRow));
    std::string error;
    Scene other = makeBuiltInShowcase();
    other.settings.kernel = KernelType::Reference;
    ASSERT_TRUE(sim.setScene(other, "", error)) << error;
    EXPECT_FALSE(sim.referenceKernelHeld());
    sim.clock.playing = true;
    syncStepper(sim, st);
    EXPECT_EQ(sim.scene().settings.kernel, KernelType::Reference) << "the file's own kernel";
}

}  // namespace
}  // namespace jl::app
