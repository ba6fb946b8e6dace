// Stage 6 of the step: the solver's poses and velocities become the bodies' states, with the
// speed caps. Static bodies keep the state they had. Reads data.info and data.bodies; writes the
// World's body states (the World then checks them for divergence).
#include "world/world_impl.h"

namespace jl {

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
        st.linearVelocity = clampLength(data.bodies[static_cast<size_t>(si)].linVel, s.maxLinearSpeed);
        st.angularVelocity = clampLength(data.bodies[static_cast<size_t>(si)].angVel, s.maxAngularSpeed);
    }
}

}  // namespace jl
