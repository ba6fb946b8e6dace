// Stage 6 of the step: the solver's poses and velocities become the bodies' states, with the
// speed caps. Static bodies keep the state they had. Reads data.info and data.bodies; writes the
// World's body states (the World then checks them for divergence).
#include <cmath>

#include "world/world_impl.h"

namespace jl {

namespace {

/// A velocity or quaternion component under 1e-150 (m/s, rad/s or –) is zero. Damping and slow decays would
/// otherwise carry it down through the denormal numbers (below 2.2e-308), where arithmetic is
/// a hundred times slower and precision is gone; nothing measurable is lost.
constexpr Real kTinyVelocity = 1e-150;

Real flushTiny(Real x) {
    return std::abs(x) < kTinyVelocity ? 0.0 : x;
}
Vec3 flushTiny(const Vec3& v) {
    return {flushTiny(v.x), flushTiny(v.y), flushTiny(v.z)};
}

}  // namespace

void World::Impl::writeBackBodies(StepContext& step) {
    Impl& m = *this;
    const WorldSettings& s = step.s;
    const std::vector<BodyState>& before = *step.before;
    std::vector<BodyState>& bodies_ = step.world.bodies_;
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const int si = m.solverIndex[i];
        BodyState& st = bodies_[i];
        if (si == 0) {  // static: as it was
            st = before[i];
            continue;
        }
        st.pose = data.info[static_cast<size_t>(si)].pose;
        // A quaternion component under 1e-150 is rounding of a rotation about the other axes.
        st.pose.q = Quat(flushTiny(st.pose.q.w), flushTiny(st.pose.q.x), flushTiny(st.pose.q.y),
                         flushTiny(st.pose.q.z));
        st.linearVelocity =
            flushTiny(clampLength(data.bodies[static_cast<size_t>(si)].linVel, s.maxLinearSpeed));
        st.angularVelocity =
            flushTiny(clampLength(data.bodies[static_cast<size_t>(si)].angVel, s.maxAngularSpeed));
    }
}

}  // namespace jl
