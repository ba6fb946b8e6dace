// Simulation (session/simulation.h), the run's history: going back to a step, branches, the step
// the stepper records, and the stepper's kernel switched in place (holdReferenceKernel).
#include "session/simulation.h"

namespace jl::app {

void Simulation::adoptHistoryWorld(std::unique_ptr<World> world) {
    world_ = std::move(world);
    hasStepResults_ = world_->stepCount() > 0;  // History::worldAt re-took the step, for its rows
    // The descriptions the editor shows are the ones that step ran with.
    scene_ = world_->scene();
    ++sceneRevision_;
    breaksSeen_ = world_->breakEvents().size();
    pull_.reset();
    divergence_.reset();
    restartRecording();
}

bool Simulation::seekStep(int64_t step) {
    if (!world_ || !history_.started()) return false;
    clock.playing = false;
    clock.resetTime();
    drag.reset();
    adoptHistoryWorld(history_.worldAt(step));
    telemetryAhead_ = true;
    syncShadow(true);
    return true;
}

bool Simulation::switchBranch(int id) {
    const int before = history_.currentBranch();
    if (!history_.switchBranch(id)) return false;
    if (id != before) shadow_.followBranch(before);
    editBranch_ = -1;
    return seekStep(history_.lastStep());
}

bool Simulation::undoBranch() {
    if (!world_ || editBranch_ < 0 || editBranch_ != history_.currentBranch() ||
        world_->stepCount() != editBranchStep_)
        return false;
    return leaveBranch(editBranch_);
}

bool Simulation::leaveBranch(int left) {
    const History::Branch& b = history_.branches()[static_cast<size_t>(left)];
    const int parent = b.parent;
    const int64_t fork = b.fork;
    const bool empty = b.end <= b.fork;  // nothing but the change itself: nothing to keep
    if (parent < 0 || !history_.switchBranch(parent)) return false;
    editBranch_ = -1;
    seekStep(fork);
    std::string ignored;
    if (empty) history_.deleteBranch(left, ignored);
    shadow_.followBranch(empty ? -1 : left);
    syncShadow(true);
    return true;
}

void Simulation::switchKernel(KernelType kernel, const std::string& what) {
    scene_.settings.kernel = kernel;
    world_->settings().kernel = kernel;  // read by the next step (World::settings), nothing rebuilt
    ++sceneRevision_;
    restartRecording();  // a recording replays with one scene: it starts again at the switch
    noteChange(HistoryMark::Setting, what);
}

bool Simulation::holdReferenceKernel() {
    if (!world_ || scene_.settings.kernel == KernelType::Reference) return false;
    KernelHold hold;
    hold.before = scene_.settings.kernel;
    hold.leftBranch = history_.currentBranch();
    switchKernel(KernelType::Reference, "kernel: reference, for the stepper");
    if (history_.currentBranch() != hold.leftBranch) hold.branch = history_.currentBranch();
    hold.step = world_->stepCount();
    hold.revision = sceneRevision_;
    kernelHold_ = hold;
    return true;
}

void Simulation::releaseReferenceKernel() {
    if (!kernelHold_) return;
    const KernelHold hold = *kernelHold_;
    kernelHold_.reset();
    if (!world_ || scene_.settings.kernel != KernelType::Reference) return;  // chosen since
    // Back in the history the switch started a branch; if that is all that happened, leave it.
    if (hold.branch >= 0 && hold.branch == history_.currentBranch() && hold.revision == sceneRevision_ &&
        world_->stepCount() == hold.step && leaveBranch(hold.branch))
        return;
    switchKernel(hold.before, std::string("kernel: ") + kKernelTypeNames[static_cast<int>(hold.before)] +
                                  " again, the stepper left");
}

std::unique_ptr<StepInspector> Simulation::inspectNextStep(std::string& why) {
    if (!world_) {
        why = "no scene";
        return nullptr;
    }
    if (clock.playing) {
        why = "pause first: the stepper steps inside the next step while the simulation is paused";
        return nullptr;
    }
    if (drag) {
        why = "a body is being dragged: its spring force is applied as the step is taken, so step normally";
        return nullptr;
    }
    if (pull_) {
        why = "a Restore is pulling a joint together over several steps: step normally until it is done";
        return nullptr;
    }
    // What advance() does before the step (inside the history: the change retaken, the forces).
    std::unique_ptr<World> next;
    const int64_t now = world_->stepCount();
    if (now < history_.lastStep() && history_.changeAt(now))
        next = history_.worldAt(now);
    else
        next = StepInspector::clone(*world_);
    if (now < history_.lastStep()) history_.replayForces(*next);
    return std::make_unique<StepInspector>(std::move(next));
}

}  // namespace jl::app
