#include "session/shadow_run.h"

#include <algorithm>
#include <cctype>
#include <exception>

namespace jl::app {

namespace {

/// "a = 1 , b=2" → "a=1,b=2": what the panel shows and the legend names.
std::string normalised(const std::string& text) {
    std::string out;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

}  // namespace

// [SECTION] compare

bool ShadowRun::startCompare(const World& a, const std::string& changes, std::string& error) {
    std::vector<FieldChange> parsed;
    const std::string text = normalised(changes);
    if (!text.empty()) {
        if (std::string problem = parseFieldChanges(a.scene(), text, parsed); !problem.empty()) {
            error = problem;
            return false;
        }
    }
    std::unique_ptr<World> b = compareWorld(a, parsed, error);
    if (!b) return false;
    kind_ = Kind::Compare;
    changes_ = std::move(parsed);
    changesText_ = text;
    world_ = std::move(b);
    shown_ = true;
    telemetry_.clear();
    samples_.clear();
    return true;
}

bool ShadowRun::startCompareFrom(const Scene& scene, const WorldSnapshot& state,
                                 std::vector<FieldChange> changes, std::string& error) {
    std::unique_ptr<World> b;
    try {
        b = std::make_unique<World>(scene);
        b->restore(state);
    } catch (const std::exception& e) {
        error = std::string("cannot build B: ") + e.what();
        return false;
    }
    kind_ = Kind::Compare;
    changesText_.clear();
    for (const FieldChange& c : changes)
        changesText_ += (changesText_.empty() ? "" : ",") + c.path.path + "=" + formatFieldPathValue(c.value);
    changes_ = std::move(changes);
    world_ = std::move(b);
    shown_ = true;
    telemetry_.clear();
    samples_.clear();
    return true;
}

std::vector<FieldChange> ShadowRun::reversedChanges(const Scene& a) const {
    std::vector<FieldChange> back;
    for (const FieldChange& c : changes_) back.push_back({c.path, getFieldPath(a, c.path)});
    return back;
}

void ShadowRun::stopCompare() {
    if (kind_ != Kind::Compare) return;
    kind_ = ghostBranch_ >= 0 ? Kind::Ghost : Kind::None;
    forgetRun();
}

void ShadowRun::forgetRun() {
    world_.reset();
    shown_ = false;
    telemetry_.clear();
    samples_.clear();
    changes_.clear();
    changesText_.clear();
}

void ShadowRun::restartCompare(const World& a) {
    std::string error;
    std::unique_ptr<World> b = compareWorld(a, changes_, error);
    if (!b) {  // an edit of A made the changes break a rule of the scene: the compare ends
        stopCompare();
        return;
    }
    world_ = std::move(b);
    shown_ = true;
}

void ShadowRun::syncCompare(const World& a) {
    if (world_ && world_->stepCount() + 1 == a.stepCount()) {
        world_->step();  // one step of B per step of A, with the forces A had (applyForce)
        record(a);
    } else if (!world_ || world_->stepCount() != a.stepCount()) {
        restartCompare(a);
    }
}

void ShadowRun::record(const World& a) {
    if (telemetry_.capacity() != capacity_) telemetry_.setCapacity(capacity_);
    telemetry_.record(*world_);
    samples_.push_back({world_->stepCount(), maxPositionDivergence(a, *world_),
                        a.kineticEnergy() + a.potentialEnergy(),
                        world_->kineticEnergy() + world_->potentialEnergy()});
    if (samples_.size() > capacity_)
        samples_.erase(samples_.begin(), samples_.begin() + static_cast<long>(samples_.size() - capacity_));
}

// [SECTION] ghost

void ShadowRun::followBranch(int branch) {
    if (branch == ghostBranch_) return;
    ghostBranch_ = branch;
    if (kind_ == Kind::Compare) return;
    kind_ = branch >= 0 ? Kind::Ghost : Kind::None;
    world_.reset();
    shown_ = false;
    telemetry_.clear();
}

void ShadowRun::syncGhost(const World& a, History& history) {
    const int g = ghostBranch_;
    const int64_t s = a.stepCount();
    const bool there = history.hasBranch(g) && g != history.currentBranch() &&
                       s >= history.divergenceStep(history.currentBranch(), g) && s <= history.lastStep(g) &&
                       s >= history.firstStep(g);
    if (!there) {  // the two runs are one here, or the branch left behind does not reach this step
        if (!history.hasBranch(g)) ghostBranch_ = -1, kind_ = Kind::None;
        world_.reset();
        shown_ = false;
        telemetry_.clear();
        return;
    }
    if (world_ && world_->stepCount() + 1 == s) {
        // One step on, the way the live run retakes its own recorded future (Simulation::advance).
        const int64_t t = world_->stepCount();
        if (history.changeAt(g, t)) world_ = history.worldAt(g, t);
        history.replayForces(g, *world_);
        world_->step();
        if (telemetry_.capacity() != capacity_) telemetry_.setCapacity(capacity_);
        telemetry_.record(*world_);
    } else if (!world_ || world_->stepCount() != s) {
        world_ = history.worldAt(g, s);  // a jump: the branch's state at s, re-simulated from a keyframe
    }
    shown_ = world_ != nullptr;
}

// [SECTION] lockstep

void ShadowRun::applyForce(int body, const Vec3& force, const Vec3& worldPoint) {
    if (kind_ == Kind::Compare && world_) world_->applyForce(body, force, worldPoint);
}

void ShadowRun::replayForces(History& history) {
    if (kind_ == Kind::Compare && world_) history.replayForces(*world_);
}

void ShadowRun::sync(const World& a, History& history, size_t capacity, bool jumped) {
    capacity_ = std::max<size_t>(1, capacity);
    if (kind_ == Kind::Compare) {
        if (jumped) world_.reset();
        syncCompare(a);
    } else if (ghostBranch_ >= 0) {
        if (jumped) world_.reset();
        syncGhost(a, history);
    }
}

void ShadowRun::clearRecord() {
    telemetry_.clear();
    samples_.clear();
}

void ShadowRun::clear() {
    kind_ = Kind::None;
    forgetRun();
    ghostBranch_ = -1;
}

std::string ShadowRun::label(const History& history) const {
    if (kind_ == Kind::Compare) return changesText_.empty() ? "B (no change)" : "B: " + changesText_;
    if (kind_ == Kind::Ghost && history.hasBranch(ghostBranch_))
        return "ghost: branch '" + history.branches()[static_cast<size_t>(ghostBranch_)].name + "'";
    return "";
}

}  // namespace jl::app
