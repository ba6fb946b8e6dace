// The equation of one row with its numbers (jointlab/row_equation.h): the solver's own set-up
// (setupRow) run again on the row with the last step's body constants and parameters, which are
// still in the World's solver state until the next step.
#include "jointlab/row_equation.h"

#include <glm/gtx/norm.hpp>

#include "world/world_impl.h"

namespace jl {

bool World::rowEquation(int joint, int row, RowEquation& out) const {
    const Impl& m = *impl_;
    if (!m.haveLastParams || joint < 0 || static_cast<size_t>(joint) >= m.jointBodies.size()) return false;
    const std::span<const Row> rows = jointRows(joint);
    if (row < 0 || static_cast<size_t>(row) >= rows.size()) return false;
    const Row& r = rows[static_cast<size_t>(row)];
    const solver::RowBodies& rb = m.jointBodies[static_cast<size_t>(joint)];
    const solver::Params& p = m.lastParams;
    solver::SolverRow s;
    solver::SolverRowExtra x;
    solver::RowReport rep;
    solver::setupRow(r, rb, m.data, p, m.lastStepTgs, s, x, rep);

    out = RowEquation{};
    out.row = r;
    out.body0 = m.jointBody0[static_cast<size_t>(joint)];
    out.body1 = m.jointBody1[static_cast<size_t>(joint)];
    const solver::BodyInfo& i0 = m.data.info[static_cast<size_t>(rb.b0)];
    const solver::BodyInfo& i1 = m.data.info[static_cast<size_t>(rb.b1)];
    out.invMass0 = s.linScale0;
    out.invMass1 = s.linScale1;
    out.invInertia0 = s.angScale0 * (i0.sqrtInvInertia * i0.sqrtInvInertia);
    out.invInertia1 = s.angScale1 * (i1.sqrtInvInertia * i1.sqrtInvInertia);
    out.kTerms[0] = s.linScale0 * glm::length2(s.lin0);
    out.kTerms[1] = s.angScale0 * glm::length2(s.angM0);
    out.kTerms[2] = s.linScale1 * glm::length2(s.lin1);
    out.kTerms[3] = s.angScale1 * glm::length2(s.angM1);
    out.K = s.response;
    out.active = !(s.flags & solver::kSolveInactive);
    out.tgs = m.lastStepTgs;
    out.dt = p.dt;
    out.h = m.lastStepTgs ? p.dt / static_cast<Real>(p.posIters) : p.dt;
    out.vPre = x.vPre;
    out.erp = x.erp;
    out.velTarget = x.velTarget;
    out.bias = out.erp * r.geometricError / out.h;  // F 11
    out.bounce = s.flags & solver::kSolveBounce;
    out.keepBias = s.flags & solver::kSolveKeepBias;
    out.spring = s.flags & solver::kSolveSpring;
    out.accelerationSpring = s.flags & solver::kSolveAccelSpring;
    if (out.spring) {
        out.stiffness = x.stiffness;
        out.damping = x.damping;
        out.bias = 0.0;
        out.a = out.h * (out.h * x.stiffness + x.damping);  // D 13
        // x is what impulseMul = 1 − x left (D 22, 37), read back rather than derived again.
        out.x = 1.0 - s.impulseMul;
    }
    out.constant = s.constant;
    out.unbiasedConstant = s.unbiasedConstant;
    out.vMul = s.vMul;
    out.impulseMul = s.impulseMul;
    out.minImpulse = rep.minImpulse;
    out.maxImpulse = rep.maxImpulse;
    out.solveMin = s.minImpulse;
    out.solveMax = s.maxImpulse;
    const RowResult& res = jointRowResults(joint)[static_cast<size_t>(row)];
    out.impulse = res.impulse;
    out.blockSize = res.blockSize;
    out.blockIndex = res.blockIndex;
    for (int c = 0; c < 3; ++c) out.blockK[c] = res.blockK[c];
    return true;
}

}  // namespace jl
