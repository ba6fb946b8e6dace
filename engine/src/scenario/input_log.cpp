// Recorded user input (see input_log.h).
#include "jointlab/input_log.h"

#include <algorithm>

#include "jointlab/world.h"

namespace jl {

void InputLog::applyForce(World& world, int body, const Vec3& force, const Vec3& worldPoint) {
    // After a rewind, what was recorded for later steps no longer happened.
    discardFrom(world.stepCount() + 1);
    events_.push_back({world.stepCount(), body, force, worldPoint});
    world.applyForce(body, force, worldPoint);
}

void InputLog::replay(World& world) const {
    const int64_t step = world.stepCount();
    auto it = std::lower_bound(events_.begin(), events_.end(), step,
                               [](const InputEvent& e, int64_t s) { return e.step < s; });
    for (; it != events_.end() && it->step == step; ++it)
        world.applyForce(it->body, it->force, it->worldPoint);
}

bool InputLog::append(const InputEvent& event) {
    if (!events_.empty() && event.step < events_.back().step) return false;
    events_.push_back(event);
    return true;
}

void InputLog::discardFrom(int64_t step) {
    auto it = std::lower_bound(events_.begin(), events_.end(), step,
                               [](const InputEvent& e, int64_t s) { return e.step < s; });
    events_.erase(it, events_.end());
}

}  // namespace jl
