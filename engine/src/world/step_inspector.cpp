// Stepping inside a step (jointlab/step_inspector.h): one reference-kernel step recorded visit by
// visit, shown through a cursor.
#include "jointlab/step_inspector.h"

#include <algorithm>

namespace jl {

std::unique_ptr<World> StepInspector::clone(const World& w) {
    auto copy = std::make_unique<World>(w.scene());
    copy->restore(w.snapshot());
    return copy;
}

StepInspector::StepInspector(std::unique_ptr<World> next) : stepped_(std::move(next)) {
    World& w = *stepped_;
    w.settings().kernel = KernelType::Reference;
    fromStep_ = w.stepCount();
    posIters_ = w.scene().settings.posIters;
    start_.assign(w.bodies().begin(), w.bodies().end());
    w.setRowTrace([this](const World::RowTrace& v) { visits_.push_back(v); });
    w.step();
    w.setRowTrace({});
    for (size_t i = 0; i < visits_.size();) {
        // A block's rows are visited one after the other, each saying the block's size.
        const int n =
            visits_[i].block > 0 ? std::min<int>(visits_[i].block, static_cast<int>(visits_.size() - i)) : 1;
        units_.push_back(Unit{i, n});
        i += static_cast<size_t>(n);
    }
}

bool StepInspector::nextUnit() {
    if (atEnd()) return false;
    ++cursor_;
    return true;
}

bool StepInspector::nextSweep() {
    if (atEnd()) return false;
    auto sameSweep = [&](size_t a, size_t b) {
        const Visit& va = visits_[units_[a].first];
        const Visit& vb = visits_[units_[b].first];
        return va.phase == vb.phase && va.sweep == vb.sweep;
    };
    // Inside a sweep: to its end. At a sweep's end (or before the first): through the next one.
    const bool inside = cursor_ > 0 && sameSweep(cursor_ - 1, cursor_);
    const size_t anchor = inside ? cursor_ - 1 : cursor_;
    while (cursor_ < units_.size() && sameSweep(anchor, cursor_)) ++cursor_;
    return true;
}

int StepInspector::residualIndex(const Visit& v) const {
    if (v.phase == 0) return v.sweep;
    if (v.phase == 1) return posIters_ + v.sweep;
    return -1;  // split impulse's pseudo sweeps, TGS relax sweeps
}

std::span<const Real> StepInspector::residualsSoFar() const {
    const std::span<const Real> all = stepped_->lastResiduals();
    if (atEnd()) return all;
    // Sweep i is complete when no visit of sweep i or an earlier one is still to come.
    const size_t shown =
        cursor_ > 0 ? units_[cursor_ - 1].first + static_cast<size_t>(units_[cursor_ - 1].count) : 0;
    size_t done = all.size();
    for (size_t k = shown; k < visits_.size(); ++k) {
        const int r = residualIndex(visits_[k]);
        if (r >= 0)
            done = std::min(done, static_cast<size_t>(r));
        else if (visits_[k].phase == 2 && posIters_ > 0) {
            // A pseudo or relax sweep still to come: PGS's come after all position sweeps, TGS's
            // relax sweep s after substep s's sweep.
            done = std::min(done, static_cast<size_t>(stepped_->scene().settings.solver == SolverType::TGS
                                                          ? visits_[k].sweep + 1
                                                          : posIters_));
        }
    }
    return all.first(std::min(done, all.size()));
}

void StepInspector::bodyVelocity(int body, Vec3& linear, Vec3& angular) const {
    linear = angular = Vec3(0.0);
    if (body < 0 || static_cast<size_t>(body) >= start_.size()) return;
    linear = start_[static_cast<size_t>(body)].linearVelocity;
    angular = start_[static_cast<size_t>(body)].angularVelocity;
    if (cursor_ == 0) return;
    const size_t end = units_[cursor_ - 1].first + static_cast<size_t>(units_[cursor_ - 1].count);
    for (size_t k = end; k-- > 0;) {
        const Visit& v = visits_[k];
        if (v.body0 == body) {
            linear = v.v0;
            angular = v.w0;
            return;
        }
        if (v.body1 == body) {
            linear = v.v1;
            angular = v.w1;
            return;
        }
    }
}

}  // namespace jl
