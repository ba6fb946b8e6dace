// Stage 1 of the step: the gyroscopic term, external forces and damping give each body its
// velocity before the constraints (v_pre, ω_pre), and the per-step body constants the solver
// reads (inertia frozen over the step, F "TGS"). PGS takes the whole step's forces here; TGS
// takes them in every substep (solver/integrate.h applySubstepForces), from the accelerations
// and damping factors written here. Reads the scene's bodies and the poses before the step;
// writes data.info.
#include "solver/integrate.h"
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

/// What moves a dynamic body before the constraints, for one step.
struct Loads {
    Vec3 force, torque;                  ///< external force [N] and torque [N·m], world axes
    Vec3 inertia;                        ///< principal moments of inertia (body frame) [kg·m²]
    Real linearDamping, angularDamping;  ///< c, c_ω [1/s]
};

/// A dynamic body's velocities before the constraints and (TGS) what each substep adds.
/// ω first takes the gyroscopic term over the whole step (solver/integrate.h gyroscopicStep).
/// PGS: v_pre = (v + dt·(g + F/m))/(1 + c·dt), ω_pre = (ω + dt·I⁻¹τ)/(1 + c_ω·dt); a body that
/// takes gravity as RATTLE's two half kicks (`halfKick`, rattle: markHalfKicks) gets ½·dt·g here
/// and the other half after the position pass.
/// TGS: v_pre = v and ω_pre = ω; the forces and damping enter each substep of h = dt/n
/// (applySubstepForces), from a = g + F/m, I^-½τ and 1/(1 + c·h).
void dynamicVelocities(solver::BodyInfo& info, const BodyState& st, const Mat3& R, const Loads& loads,
                       const WorldSettings& s, const solver::Params& p, bool tgs, bool halfKick) {
    const Real dt = p.dt;
    const Vec3 accel = s.gravity + info.invMass * loads.force;
    Vec3 w = s.gyroscopic ? solver::gyroscopicStep(st.angularVelocity, st.pose.q, loads.inertia, dt)
                          : st.angularVelocity;
    if (tgs) {
        const Real h = dt / static_cast<Real>(p.posIters);
        info.accel = accel;
        info.torqueM = info.sqrtInvInertia * loads.torque;  // d(I^½ω)/dt = I^½·I⁻¹τ = I^-½τ
        info.linDamping = solver::dampingFactor(loads.linearDamping, h);
        info.angDamping = solver::dampingFactor(loads.angularDamping, h);
        info.vPre = st.linearVelocity;
        info.wPre = w;
        return;
    }
    const Vec3 v = st.linearVelocity + dt * (halfKick ? accel - 0.5 * s.gravity : accel);
    if (loads.torque != Vec3(0.0)) w += dt * (worldTensor(R, safeInverse(loads.inertia)) * loads.torque);
    info.vPre = v * solver::dampingFactor(loads.linearDamping, dt);
    info.wPre = w * solver::dampingFactor(loads.angularDamping, dt);
}

}  // namespace

void World::Impl::applyBodyForces(StepContext& step) {
    Impl& m = *this;
    const std::vector<BodyState>& before = *step.before;
    solver::Data& data = m.data;
    data.info[0] = solver::BodyInfo{};
    for (size_t i = static_cast<size_t>(m.solverBodyCount); i < data.info.size(); ++i)
        data.info[i] = solver::BodyInfo{};  // stand-ins
    const bool loads = m.externalLoads;     // else every extForce and extTorque is zero
    m.externalLoads = false;
    const Vec3 zero(0.0);
    markHalfKicks(step);
    for (size_t i = 0; i < step.world.bodies_.size(); ++i) {
        const int si = m.solverIndex[i];
        const Impl::BodyStepConsts& c = m.bodyConsts[i];
        const Loads l{loads ? m.extForce[i] : zero, loads ? m.extTorque[i] : zero, m.mass[i].inertia,
                      c.linearDamping, c.angularDamping};
        if (loads) m.extForce[i] = m.extTorque[i] = zero;  // (static bodies' too: they ignore them)
        if (si == 0) continue;
        const BodyState& st = before[i];
        solver::BodyInfo& info = data.info[static_cast<size_t>(si)];
        info.pose = st.pose;
        if (step.tgs) info.q0 = st.pose.q;
        if (c.dynamic) {
            const Mat3 R = glm::mat3_cast(st.pose.q);
            info.dynamic = true;
            info.invMass = c.invMass;
            info.sqrtInvInertia = worldTensor(R, c.sqrtInvInertiaLocal);
            if (step.tgs) info.sqrtInertia = worldTensor(R, c.sqrtInertiaLocal);
            dynamicVelocities(info, st, R, l, step.s, step.params, step.tgs,
                              i < m.halfKicked.size() && m.halfKicked[i]);
        } else {  // kinematic: infinitely heavy, moves at its set velocity; momocity = ω
            info.dynamic = false;
            info.invMass = 0.0;
            info.sqrtInvInertia = Mat3(1.0);
            if (step.tgs) {
                info.sqrtInertia = Mat3(1.0);
                info.accel = info.torqueM = zero;  // no forces, no damping
                info.linDamping = info.angDamping = 1.0;
            }
            info.vPre = st.linearVelocity;
            info.wPre = st.angularVelocity;
        }
    }
}

}  // namespace jl
