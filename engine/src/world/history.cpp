// JointLab engine — History: keyframes, forces and marks of a run; seek and branches
// (jointlab/history.h).
#include "jointlab/history.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "jointlab/world.h"

namespace jl {

// [SECTION] recording

History::History() : budget_(Budget{}) {}
History::History(Budget budget) : budget_(budget) {}
History::~History() = default;
History::History(History&&) noexcept = default;
History& History::operator=(History&&) noexcept = default;

size_t History::sceneBytes(const Scene& scene) {
    // What a Scene holds, roughly: its descriptions (names, frames, parameters).
    return sizeof(Scene) + scene.bodies.size() * (sizeof(BodyDesc) + 32) +
           scene.joints.size() * (sizeof(JointDesc) + 64);
}

void History::start(const World& world) {
    branches_.clear();
    bytes_ = 0;
    droppedBefore_ = 0;
    scratch_.reset();
    scratchScene_.reset();
    spare_.reset();
    spareScene_.reset();
    scratchBranch_ = -1;
    Branch b;
    b.id = 0;
    b.name = "main";
    b.fork = b.end = world.stepCount();
    branches_.push_back(std::move(b));
    current_ = 0;
    lastScene_.reset();
    retaking_ = false;
    addKeyframe(branches_[0], world, true);
    interval_ = budget_.interval > 0 ? budget_.interval : 1;
    stepsFor10Minutes_ =
        std::ceil(600.0 / (world.scene().settings.dt > 0 ? world.scene().settings.dt : 1.0 / 60.0));
    packedWords_ = 0;
    packedKeys_ = 0;
    adaptInterval(branches_[0].keys[0]);
}

void History::adaptInterval(const HistoryKeyframe& key) {
    if (budget_.interval > 0) return;
    // 10 minutes of steps at the scene's dt in 95% of the budget, at the mean size of the
    // keyframes so far. The rest (12.8 MB of 256 MB) is for scenes, forces and the keyframes of
    // changes: a mouse drag held for all 10 minutes at 60 Hz records 2.3 MB of forces; an edit of a
    // 1000-body, 1000-joint scene costs a keyframe and a scene, about 1.5 MB (sceneBytes), so such
    // a run has room for a drag and 7 edits. A run that goes past it drops
    // its oldest steps (droppedBefore), never the newest. (It was 85%: an interval of 12 instead
    // of 11 steps on the history benchmark, so a worst jump of one step more.) The first keyframe,
    // at rest, packs smaller than the ones that follow (zero velocities), so the interval is
    // worked out again as they come.
    packedWords_ += key.packed.size();
    ++packedKeys_;
    const Real perKey = static_cast<Real>(packedWords_ * sizeof(uint64_t)) / static_cast<Real>(packedKeys_);
    const Real k = std::ceil(stepsFor10Minutes_ * perKey / (0.95 * static_cast<Real>(budget_.bytes)));
    interval_ = static_cast<int>(std::clamp<Real>(k, 1.0, 64.0));
}

void History::addKeyframe(Branch& b, const World& world, bool change) {
    HistoryKeyframe key;
    key.step = world.stepCount();
    key.change = change;
    if (change || !lastScene_) {
        lastScene_ = std::make_shared<const Scene>(world.scene());
        bytes_ += sceneBytes(*lastScene_);
    }
    key.scene = lastScene_;
    key.packed = packSnapshot(world.snapshot(), key.scene.get());
    bytes_ += key.packed.size() * sizeof(uint64_t) + sizeof(HistoryKeyframe);
    // A change at a step that already has a keyframe (several edits between two steps): the last
    // state is the one the step starts from.
    if (!b.keys.empty() && b.keys.back().step == key.step) {
        bytes_ -= b.keys.back().packed.size() * sizeof(uint64_t) + sizeof(HistoryKeyframe);
        key.change = key.change || b.keys.back().change;
        b.keys.back() = std::move(key);
    } else {
        b.keys.push_back(std::move(key));
    }
    enforceBudget();
}

void History::branchAt(int64_t step) {
    Branch b;
    b.id = static_cast<int>(branches_.size());
    b.name = "branch " + std::to_string(b.id);
    b.parent = current_;
    b.fork = b.end = step;
    b.events.push_back(
        {step, HistoryMark::Branch, "branched from '" + branches_[static_cast<size_t>(current_)].name + "'"});
    branches_.push_back(std::move(b));
    current_ = static_cast<int>(branches_.size()) - 1;
    retaking_ = false;
}

void History::applyForce(World& world, int body, const Vec3& force, const Vec3& worldPoint) {
    recordForce(world, body, force, worldPoint);
    world.applyForce(body, force, worldPoint);
}

void History::recordForce(const World& world, int body, const Vec3& force, const Vec3& worldPoint) {
    if (!started()) start(world);
    const int64_t step = world.stepCount();
    if (step < lastStep()) {
        branchAt(step);
        addKeyframe(branches_[static_cast<size_t>(current_)], world, true);
    }
    Branch& b = branches_[static_cast<size_t>(current_)];
    b.forces.push_back({step, body, force, worldPoint});
    bytes_ += sizeof(InputEvent);
}

void History::stepped(const World& world) {
    if (!started()) return;
    Branch& b = branches_[static_cast<size_t>(current_)];
    const int64_t step = world.stepCount();
    retaking_ = step <= b.end;
    if (retaking_) return;  // re-taking a step the branch has (resumed after a seek)
    b.end = step;
    if (const Divergence* d = world.divergence())
        b.events.push_back({step, HistoryMark::NonFinite, d->message});
    if (b.keys.empty() || step - b.keys.back().step >= interval_) {
        addKeyframe(b, world, false);
        adaptInterval(b.keys.back());
    }
}

void History::changed(const World& world, HistoryMark kind, std::string what) {
    if (!started()) {
        start(world);
        return;
    }
    const int64_t step = world.stepCount();
    if (step < lastStep()) branchAt(step);
    Branch& b = branches_[static_cast<size_t>(current_)];
    if (step > b.end) b.end = step;
    b.events.push_back({step, kind, std::move(what)});
    addKeyframe(b, world, true);
}

void History::mark(int64_t step, HistoryMark kind, std::string what) {
    if (!started() || retaking_) return;  // a retaken step has its marks already
    branches_[static_cast<size_t>(current_)].events.push_back({step, kind, std::move(what)});
}

void History::adopt(Budget budget, int interval, int current, int64_t droppedBefore,
                    std::vector<Branch> branches) {
    budget_ = budget;
    interval_ = std::max(interval, 1);
    branches_ = std::move(branches);
    current_ = current;
    droppedBefore_ = droppedBefore;
    scratch_.reset();
    scratchScene_.reset();
    spare_.reset();
    spareScene_.reset();
    scratchBranch_ = -1;
    bytes_ = 0;
    std::vector<const Scene*> scenes;
    for (const Branch& b : branches_) {
        for (const HistoryKeyframe& k : b.keys) {
            bytes_ += k.packed.size() * sizeof(uint64_t) + sizeof(HistoryKeyframe);
            scenes.push_back(k.scene.get());
        }
        bytes_ += b.forces.size() * sizeof(InputEvent);
    }
    std::sort(scenes.begin(), scenes.end());
    scenes.erase(std::unique(scenes.begin(), scenes.end()), scenes.end());
    for (const Scene* scene : scenes) bytes_ += sceneBytes(*scene);
    lastScene_ = branches_.empty() || branches_[static_cast<size_t>(current_)].keys.empty()
                     ? nullptr
                     : branches_[static_cast<size_t>(current_)].keys.back().scene;
}

// [SECTION] the budget

size_t History::keyframeCount() const {
    size_t n = 0;
    for (const Branch& b : branches_) n += b.keys.size();
    return n;
}

void History::enforceBudget() {
    while (bytes_ > budget_.bytes) {
        // The oldest keyframe of any branch, never the only one of the current branch's newest.
        Branch* oldest = nullptr;
        for (Branch& b : branches_) {
            if (b.deleted || b.keys.size() < 2) continue;
            if (!oldest || b.keys.front().step < oldest->keys.front().step) oldest = &b;
        }
        if (!oldest) return;
        const int64_t next = oldest->keys[1].step;
        bytes_ -= oldest->keys.front().packed.size() * sizeof(uint64_t) + sizeof(HistoryKeyframe);
        if (oldest->keys.front().scene.use_count() == 1) bytes_ -= sceneBytes(*oldest->keys.front().scene);
        oldest->keys.erase(oldest->keys.begin());
        // Its forces before the new first keyframe can never be replayed.
        auto& f = oldest->forces;
        const auto keep =
            std::find_if(f.begin(), f.end(), [&](const InputEvent& e) { return e.step >= next; });
        bytes_ -= static_cast<size_t>(keep - f.begin()) * sizeof(InputEvent);
        f.erase(f.begin(), keep);
        droppedBefore_ = std::max(droppedBefore_, next);
        if (scratchBranch_ == oldest->id) scratchBranch_ = -1;
    }
}

// [SECTION] going back

std::vector<History::Piece> History::lineage(int branch) const {
    std::vector<Piece> pieces;
    int64_t to = branches_[static_cast<size_t>(branch)].end + 1;
    for (int id = branch; id >= 0; id = branches_[static_cast<size_t>(id)].parent) {
        const Branch& b = branches_[static_cast<size_t>(id)];
        pieces.push_back({&b, b.fork, to});
        to = b.fork;
    }
    std::reverse(pieces.begin(), pieces.end());
    return pieces;
}

const History::Branch* History::owner(const std::vector<Piece>& pieces, int64_t step) const {
    for (const Piece& p : pieces)
        if (step >= p.from && step < p.to) return p.branch;
    return nullptr;
}

int64_t History::firstStep() const {
    return started() ? firstStep(current_) : 0;
}

int64_t History::firstStep(int branch) const {
    return hasBranch(branch) ? reachableFrom(lineage(branch), lastStep(branch)) : 0;
}

int64_t History::reachableFrom(const std::vector<Piece>& pieces, int64_t last) const {
    // Walking back from the newest piece: an earlier piece is reachable only while the later one
    // still has its keyframe at its fork (the change it starts with cannot be replayed).
    int64_t first = last;
    for (size_t i = pieces.size(); i-- > 0;) {
        const Piece& p = pieces[i];
        const HistoryKeyframe* k = nullptr;
        for (const HistoryKeyframe& key : p.branch->keys)
            if (key.step >= p.from && key.step < p.to) {
                k = &key;
                break;
            }
        if (!k) return first;
        first = k->step;
        if (k->step != p.from) return first;
    }
    return first;
}

int64_t History::lastStep() const {
    return started() ? branches_[static_cast<size_t>(current_)].end : 0;
}

int64_t History::lastStep(int branch) const {
    return hasBranch(branch) ? branches_[static_cast<size_t>(branch)].end : 0;
}

bool History::hasBranch(int branch) const {
    return branch >= 0 && static_cast<size_t>(branch) < branches_.size() &&
           !branches_[static_cast<size_t>(branch)].deleted;
}

int64_t History::divergenceStep(int a, int b) const {
    if (!hasBranch(a) || !hasBranch(b)) return 0;
    // Walk both lineages from the root: they share pieces up to the first branch that differs;
    // the later lineage leaves the common one at that branch's fork.
    const std::vector<Piece> la = lineage(a), lb = lineage(b);
    size_t k = 0;
    while (k < la.size() && k < lb.size() && la[k].branch == lb[k].branch) ++k;
    if (k == la.size() && k == lb.size()) return lastStep(a) + 1;  // the same branch
    int64_t step = std::numeric_limits<int64_t>::max();
    if (k < la.size()) step = std::min(step, la[k].from);
    if (k < lb.size()) step = std::min(step, lb[k].from);
    return step;
}

void History::restoreInto(const HistoryKeyframe& key) {
    if (!scratch_ || scratchScene_ != key.scene) {
        if (spare_ && spareScene_ == key.scene) {  // back across an edit: the world of that scene
            std::swap(scratch_, spare_);
            std::swap(scratchScene_, spareScene_);
        } else {
            if (scratch_) {  // kept for a seek back
                spare_ = std::move(scratch_);
                spareScene_ = std::move(scratchScene_);
            }
            scratch_ = std::make_unique<World>(*key.scene);
            scratchScene_ = key.scene;
        }
    }
    WorldSnapshot s;
    unpackSnapshot(key.packed, s, key.scene.get());  // packed by this History: it reads back
    scratch_->restore(s);
}

const World& History::seek(int64_t step) {
    return seekIn(current_, step);
}

const World& History::seekIn(int branch, int64_t step) {
    const std::vector<Piece> pieces = lineage(branch);
    const int64_t first = reachableFrom(pieces, lastStep(branch));
    step = std::clamp(step, first, lastStep(branch));
    // The keyframe to start from: the last before `step` (so that the step itself is re-taken and
    // its rows are there), or the one at `step` when a change made it there or none is before.
    const HistoryKeyframe* from = nullptr;
    for (const Piece& p : pieces)
        for (const HistoryKeyframe& k : p.branch->keys) {
            if (k.step < p.from || k.step >= p.to || k.step < first) continue;
            if (k.step < step || (k.step == step && (k.change || !from))) from = &k;
        }
    // Carry on from where the scratch world is when that is on the way (stepping forward).
    const bool onTheWay = scratch_ && scratchBranch_ == branch && scratchScene_ == from->scene &&
                          scratch_->stepCount() >= from->step && scratch_->stepCount() <= step &&
                          !(from->step == step);
    if (!onTheWay) restoreInto(*from);
    scratchBranch_ = branch;
    while (scratch_->stepCount() < step) {
        applyForcesOf(pieces, *scratch_);
        scratch_->step();
    }
    // The live run continues from a seek of its own branch: its next periodic keyframes share this
    // scene. Looking at another branch (a ghost) must not change what the live run's keys point to.
    if (branch == current_) lastScene_ = from->scene;
    return *scratch_;
}

bool History::replayForces(World& world) {
    return started() && replayForces(current_, world);
}

bool History::replayForces(int branch, World& world) {
    if (!hasBranch(branch) || world.stepCount() >= lastStep(branch)) return false;
    applyForcesOf(lineage(branch), world);
    return true;
}

void History::applyForcesOf(const std::vector<Piece>& pieces, World& world) const {
    const int64_t s = world.stepCount();
    const Branch* b = owner(pieces, s);
    if (!b) return;
    const auto first = std::lower_bound(b->forces.begin(), b->forces.end(), s,
                                        [](const InputEvent& e, int64_t v) { return e.step < v; });
    for (auto e = first; e != b->forces.end() && e->step == s; ++e)
        world.applyForce(e->body, e->force, e->worldPoint);
}

bool History::changeAt(int64_t step) const {
    return started() && changeAt(current_, step);
}

bool History::changeAt(int branch, int64_t step) const {
    if (!hasBranch(branch)) return false;
    const std::vector<Piece> pieces = lineage(branch);
    const Branch* b = owner(pieces, step);
    if (!b) return false;
    const auto k = std::lower_bound(b->keys.begin(), b->keys.end(), step,
                                    [](const HistoryKeyframe& key, int64_t v) { return key.step < v; });
    return k != b->keys.end() && k->step == step && k->change;
}

std::unique_ptr<World> History::worldAt(int64_t step) {
    return worldAt(current_, step);
}

std::unique_ptr<World> History::worldAt(int branch, int64_t step) {
    if (!hasBranch(branch)) return nullptr;
    // The scratch world itself: it took the step, so its rows and joint forces are that step's.
    seekIn(branch, step);
    scratchScene_.reset();
    scratchBranch_ = -1;
    return std::move(scratch_);
}

// [SECTION] branches

bool History::switchBranch(int id) {
    if (id < 0 || static_cast<size_t>(id) >= branches_.size() || branches_[static_cast<size_t>(id)].deleted)
        return false;
    current_ = id;
    return true;
}

bool History::deleteBranch(int id, std::string& error) {
    if (id < 0 || static_cast<size_t>(id) >= branches_.size() || branches_[static_cast<size_t>(id)].deleted) {
        error = "no branch " + std::to_string(id);
        return false;
    }
    if (id == current_) {
        error = "the current branch cannot be deleted: switch to another first";
        return false;
    }
    for (const Branch& b : branches_)
        if (!b.deleted && b.parent == id) {
            error = "branch '" + b.name + "' starts from it: delete that first";
            return false;
        }
    for (int a = current_; a >= 0; a = branches_[static_cast<size_t>(a)].parent)
        if (a == id) {
            error = "the current branch starts from it";
            return false;
        }
    Branch& b = branches_[static_cast<size_t>(id)];
    for (const HistoryKeyframe& k : b.keys) {
        bytes_ -= k.packed.size() * sizeof(uint64_t) + sizeof(HistoryKeyframe);
        if (k.scene.use_count() == 1) bytes_ -= sceneBytes(*k.scene);
    }
    bytes_ -= b.forces.size() * sizeof(InputEvent);
    b.keys.clear();
    b.keys.shrink_to_fit();
    b.forces.clear();
    b.forces.shrink_to_fit();
    b.events.clear();
    b.deleted = true;
    if (scratchBranch_ == id) scratchBranch_ = -1;
    return true;
}

void History::renameBranch(int id, std::string name) {
    if (id >= 0 && static_cast<size_t>(id) < branches_.size())
        branches_[static_cast<size_t>(id)].name = std::move(name);
}

std::vector<HistoryEvent> History::events() const {
    std::vector<HistoryEvent> out;
    if (!started()) return out;
    for (const Piece& p : lineage())
        for (const HistoryEvent& e : p.branch->events)
            if (e.step >= p.from && e.step < p.to) out.push_back(e);
    std::stable_sort(out.begin(), out.end(),
                     [](const HistoryEvent& a, const HistoryEvent& b) { return a.step < b.step; });
    return out;
}

}  // namespace jl
