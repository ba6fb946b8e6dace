// Solver row preparation shared by PGS and TGS.
//
// Hard row (F 17–23, 63–65):   λ' = −(b − v_T + J·v_pre)/r − J·Δv/r,  b = α·C/h
//   stored as newAccum = constant + vMul·(J⁽ᵐ⁾Δv⁽ᵐ⁾) + impulseMul·accum with vMul = −1/r,
//   impulseMul = 1 and the constant computed once per step.
// Soft row, force spring (D 13–22 with x_T − x_0 = −C):
//   a = h(h·k + c), x = 1/(a·r + 1)
//   λ_i = x(h·c·v_T − h·k·C − a·v_{i−1}) + (1 − x)·λ_{i−1}
// Soft row, acceleration spring (D 30–37): x = 1/(a + 1) and the bracket times 1/r.
// h is the step the row is integrated over: dt for PGS, dt/posIters for TGS (D 40).
#include <glm/gtx/norm.hpp>

#include "solver.h"

namespace jl::solver {

void setupRow(const Row& row, const RowBodies& rb, const Data& data, const Params& p, bool tgs, SolverRow& s,
              SolverRowExtra& x) {
    const BodyInfo& i0 = data.info[static_cast<size_t>(rb.b0)];
    const BodyInfo& i1 = data.info[static_cast<size_t>(rb.b1)];
    s = SolverRow{};
    x = SolverRowExtra{};
    s.b0 = rb.b0;
    s.b1 = rb.b1;
    s.lin0 = row.linear0;
    s.lin1 = row.linear1;
    s.angM0 = i0.sqrtInvInertia * row.angular0;  // F 55
    s.angM1 = i1.sqrtInvInertia * row.angular1;  // F 56
    s.linScale0 = i0.dynamic ? i0.invMass * rb.invMassScale0 : 0.0;
    s.angScale0 = i0.dynamic ? rb.invInertiaScale0 : 0.0;
    s.linScale1 = i1.dynamic ? i1.invMass * rb.invMassScale1 : 0.0;
    s.angScale1 = i1.dynamic ? rb.invInertiaScale1 : 0.0;
    // r = J M⁻¹ Jᵀ with the mass scales (F 21, 31)
    s.response = s.linScale0 * glm::length2(s.lin0) + s.angScale0 * glm::length2(s.angM0) +
                 s.linScale1 * glm::length2(s.lin1) + s.angScale1 * glm::length2(s.angM1);
    s.minImpulse = row.minImpulse;
    s.maxImpulse = row.maxImpulse;
    if ((row.flags & kRowHasDriveLimit) && (row.flags & kRowDriveLimitsAreForces)) {
        s.minImpulse *= p.dt;
        s.maxImpulse *= p.dt;
    }
    if (row.flags & kRowAngular) s.flags |= kSolveAngular;
    x.error0 = row.geometricError;
    if (tgs) {  // what TGS needs to refresh the row as the bodies move (F 66)
        x.r0 = rb.r0;
        x.r1 = rb.r1;
        x.r0Local = glm::conjugate(i0.q0) * rb.r0;
        x.r1Local = glm::conjugate(i1.q0) * rb.r1;
        x.ang0Base = row.angular0 - glm::cross(rb.r0, row.linear0);
        x.ang1Base = row.angular1 - glm::cross(rb.r1, row.linear1);
    }
    if (!(s.response > kMinResponse) || !std::isfinite(s.response)) {
        s.flags |= kSolveInactive;
        return;
    }
    s.recipResponse = 1.0 / s.response;
    const Real r = s.response, recip = s.recipResponse;

    // J·v_pre with plain angular velocities (F 18, 22).
    const Real vPreRow = glm::dot(row.linear0, i0.vPre) + glm::dot(row.angular0, i0.wPre) -
                         glm::dot(row.linear1, i1.vPre) - glm::dot(row.angular1, i1.wPre);
    const Real h = tgs ? p.dt / static_cast<Real>(p.posIters) : p.dt;
    const Real C = row.geometricError;
    Real vT = row.velocityTarget;

    if (row.flags & kRowSpring) {
        const Real k = row.mods.spring.stiffness, c = row.mods.spring.damping;
        s.flags |= kSolveSpring;
        x.stiffness = k;
        x.damping = c;
        x.velTarget = vT;
        const Real a = h * (h * k + c);  // D 13
        if (row.flags & kRowAccelerationSpring) {
            s.flags |= kSolveAccelSpring;
            const Real x = 1.0 / (a + 1.0);  // D 32
            s.constant = x * recip * (h * c * vT - h * k * C - a * vPreRow);  // D 35 minus the v_pre part
            s.vMul = -x * a * recip;                                            // D 36
            s.impulseMul = 1.0 - x;                                             // D 37
        } else {
            const Real x = 1.0 / (a * r + 1.0);                       // D 15
            s.constant = x * (h * c * vT - h * k * C - a * vPreRow);  // D 20
            s.vMul = -x * a;                                          // D 21
            s.impulseMul = 1.0 - x;                                   // D 22
        }
        s.unbiasedConstant = s.constant;  // PGS velocity iterations continue the spring
        return;
    }

    bool bounce = false;
    if ((row.flags & kRowRestitution) && -vPreRow > row.mods.bounce.velocityThreshold) {
        // physx-joints-guide.md "Hard Constraints": target = restitution · −vCurrent, bias ignored.
        vT = -row.mods.bounce.restitution * vPreRow;
        bounce = true;
        s.flags |= kSolveBounce;
    }
    x.velTarget = vT;
    x.erp = (bounce || (row.flags & kRowVelocityOnly)) ? 0.0 : (row.erpOverride >= 0 ? row.erpOverride : p.erp);
    if ((row.flags & kRowKeepBias) && !bounce) s.flags |= kSolveKeepBias;
    const Real bias = x.erp * C / h;                  // F 11
    s.constant = -(bias - vT + vPreRow) * recip;      // F 65
    s.unbiasedConstant = (s.flags & kSolveKeepBias) ? s.constant : -(-vT + vPreRow) * recip;
    s.vMul = -recip;  // F 63
    s.impulseMul = 1.0;
}

}  // namespace jl::solver
