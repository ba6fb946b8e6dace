// Stage 1 of the step: external forces and damping give each body its velocity before the
// constraints (v_pre, ω_pre), and the per-step body constants the solver reads (inertia frozen
// over the step, F "TGS"). Reads the scene's bodies and the poses before the step; writes
// data.info.
#include "world/world_impl.h"

namespace jl {

namespace {

/// R·diag(s)·Rᵀ: a symmetric world tensor from principal values in the body frame. Element
/// (column j, row i) = Σ_k (R[k][i]·s_k)·R[k][j], summed over k in order: the products glm's
/// R * D * transpose(R) forms, without its multiplications by the zeros of D.
Mat3 worldTensor(const Mat3& R, const Vec3& s) {
    Mat3 T;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            T[j][i] = (R[0][i] * s.x) * R[0][j] + (R[1][i] * s.y) * R[1][j] + (R[2][i] * s.z) * R[2][j];
    return T;
}

}  // namespace

void World::Impl::applyBodyForces(StepContext& step) {
    Impl& m = *this;
    World& w = step.world;
    const WorldSettings& s = step.s;
    const Real dt = step.params.dt;
    const bool tgs = step.tgs;
    const std::vector<BodyState>& before = *step.before;
    const std::vector<BodyState>& bodies_ = w.bodies_;
    solver::Data& data = m.data;
    data.info[0] = solver::BodyInfo{};
    for (size_t i = static_cast<size_t>(m.solverBodyCount); i < data.info.size(); ++i)
        data.info[i] = solver::BodyInfo{};  // stand-ins
    const bool loads = m.externalLoads;     // else every extForce and extTorque is zero
    m.externalLoads = false;
    const Vec3 zero(0.0);
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const int si = m.solverIndex[i];
        const Vec3 force = loads ? m.extForce[i] : zero;
        const Vec3 torque = loads ? m.extTorque[i] : zero;
        if (loads) m.extForce[i] = m.extTorque[i] = zero;  // (static bodies' too: they ignore them)
        if (si == 0) continue;
        const Impl::BodyStepConsts& c = m.bodyConsts[i];
        const BodyState& st = before[i];
        solver::BodyInfo& info = data.info[static_cast<size_t>(si)];
        info.pose = st.pose;
        if (tgs) info.q0 = st.pose.q;
        if (c.dynamic) {
            const Mat3 R = glm::mat3_cast(st.pose.q);
            info.dynamic = true;
            info.invMass = c.invMass;
            info.sqrtInvInertia = worldTensor(R, c.sqrtInvInertiaLocal);
            if (tgs) info.sqrtInertia = worldTensor(R, c.sqrtInertiaLocal);
            Vec3 v = st.linearVelocity + dt * (s.gravity + info.invMass * force);
            Vec3 w = st.angularVelocity;
            if (torque != zero) w += dt * (worldTensor(R, safeInverse(m.mass[i].inertia)) * torque);
            if (c.linearDamping != 0.0) v *= 1.0 / (1.0 + c.linearDamping * dt);
            if (c.angularDamping != 0.0) w *= 1.0 / (1.0 + c.angularDamping * dt);
            info.vPre = v;
            info.wPre = w;
        } else {  // kinematic: infinitely heavy, moves at its set velocity; momocity = ω
            info.dynamic = false;
            info.invMass = 0.0;
            info.sqrtInvInertia = Mat3(1.0);
            if (tgs) info.sqrtInertia = Mat3(1.0);
            info.vPre = st.linearVelocity;
            info.wPre = st.angularVelocity;
        }
    }
}

}  // namespace jl
