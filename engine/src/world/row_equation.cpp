// The equation of one row with its numbers (jointlab/row_equation.h): the solver's own set-up
// (setupRow) run again on the row with the last step's body constants and parameters, which are
// still in the World's solver state until the next step.
#include "jointlab/row_equation.h"

#include <glm/gtx/norm.hpp>

#include "solver/soft_contact.h"
#include "world/world_impl.h"

namespace jl {

namespace {

/// What the solver's own set-up (setupRow) made of row r between the bodies rb, with the last
/// step's body constants and parameters, into out (all but the results and the contact terms).
void fillFromSetup(const Row& r, const solver::RowBodies& rb, const solver::Data& data,
                   const solver::Params& p, bool tgs, RowEquation& out) {
    solver::SolverRow s;
    solver::SolverRowExtra x;
    solver::RowReport rep;
    solver::setupRow(r, rb, data, p, tgs, s, x, rep);
    out.row = r;
    const solver::BodyInfo& i0 = data.info[static_cast<size_t>(rb.b0)];
    const solver::BodyInfo& i1 = data.info[static_cast<size_t>(rb.b1)];
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
    out.tgs = tgs;
    out.dt = p.dt;
    out.h = tgs ? p.dt / static_cast<Real>(p.posIters) : p.dt;
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
}

void fillResult(const RowResult& res, RowEquation& out) {
    out.impulse = res.impulse;
    out.blockSize = res.blockSize;
    out.blockIndex = res.blockIndex;
    for (int c = 0; c < 3; ++c) out.blockK[c] = res.blockK[c];
}

}  // namespace

bool World::rowEquation(int joint, int row, RowEquation& out) const {
    const Impl& m = *impl_;
    if (!m.haveLastParams || joint < 0 || static_cast<size_t>(joint) >= m.jointBodies.size()) return false;
    const std::span<const Row> rows = jointRows(joint);
    if (row < 0 || static_cast<size_t>(row) >= rows.size()) return false;
    out = RowEquation{};
    fillFromSetup(rows[static_cast<size_t>(row)], m.jointBodies[static_cast<size_t>(joint)], m.data,
                  m.lastParams, m.lastStepTgs, out);
    out.body0 = m.jointBody0[static_cast<size_t>(joint)];
    out.body1 = m.jointBody1[static_cast<size_t>(joint)];
    fillResult(jointRowResults(joint)[static_cast<size_t>(row)], out);
    // TGS under correction = soft: Box2D v3's soft joint row (solver/soft_contact.h), shown with the
    // soft contact's fields (softHertz > 0 on a joint row), its impulse the substep's.
    if (out.tgs && m.lastParams.softJoints && !out.spring && !out.bounce && !out.keepBias && out.erp > 0.0 &&
        (out.minImpulse == -kInf || out.minImpulse == 0.0) &&
        (out.maxImpulse == kInf || out.maxImpulse == 0.0) && out.minImpulse != out.maxImpulse && out.active) {
        const Real C = out.row.geometricError;
        const solver::SoftCoefficients k = solver::softJointCoefficients(out.h);
        out.substepImpulses = true;
        out.softHertz = k.hertz;
        out.softZeta = k.zeta;
        out.softBiasRate = k.biasRate;
        out.softMassScale = k.massScale;
        out.softImpulseScale = k.impulseScale;
        out.speculative = solver::softJointApart(C, out.solveMin, out.solveMax);
        out.bias = solver::softJointBias(C, out.speculative, out.h, true);
    }
    return true;
}

bool World::contactRowEquation(int row, RowEquation& out) const {
    const Impl& m = *impl_;
    const std::span<const Row> rows = contactRows();
    const std::span<const RowResult> results = contactRowResults();
    if (!m.haveLastParams || row < 0 || static_cast<size_t>(row) >= rows.size() ||
        static_cast<size_t>(row) >= results.size())
        return false;
    // The point whose three rows hold this one (contacts are in row order, 3 rows each).
    const int first = m.jointRowCount + row;
    size_t point = m.contacts.size();
    for (size_t c = 0; c < m.contacts.size(); ++c)
        if (first >= m.contacts[c].firstRow && first < m.contacts[c].firstRow + 3) point = c;
    if (point == m.contacts.size()) return false;
    const ContactRef& c = m.contacts[point];
    const std::vector<ContactPoint> points = contactPoints();
    if (point >= points.size()) return false;
    out = RowEquation{};
    const Row& r = rows[static_cast<size_t>(row)];
    fillFromSetup(r, c.rb, m.data, m.lastParams, m.lastStepTgs, out);
    out.body0 = points[point].body0;
    out.body1 = points[point].body1;
    fillResult(results[static_cast<size_t>(row)], out);
    out.contact = true;
    out.contactPoint = static_cast<int>(point);
    out.contactRowKind = first - c.firstRow;
    out.friction = c.friction;  // the coefficient the solver bounds the friction rows with
    out.normalImpulse = results[static_cast<size_t>(c.firstRow - m.jointRowCount)].impulse;
    const WorldSettings& s = scene_.settings;
    const bool ground = out.body1 < 0;
    out.restitution = ground ? s.groundRestitution : s.bodyRestitution;
    out.bounceThreshold = (r.flags & kRowRestitution) ? r.mods.bounce.velocityThreshold : 0.0;
    // What the step's contact set-up added to the row (world/batch_setup.cpp prepareRow).
    const uint16_t prepared = m.rowOut[static_cast<size_t>(first)].flags;
    out.substepImpulses = prepared & solver::kSolveSubstep;
    out.tgsSoftContact = prepared & solver::kSolveSoftContact;
    if (out.tgsSoftContact) {
        const solver::SoftCoefficients k = solver::softContactCoefficients(out.h);
        out.softHertz = k.hertz;
        out.softZeta = k.zeta;
        out.softBiasRate = k.biasRate;
        out.softMassScale = k.massScale;
        out.softImpulseScale = k.impulseScale;
        out.softMaxPush = solver::kSoftContactMaxPush;
        out.softDepth = solver::kSoftContactDepth;
        out.bias = solver::softContactBias(r.geometricError, out.h, true);
    }
    if (out.contactRowKind == 0) {
        out.softContact = out.accelerationSpring;
        out.speculative = r.geometricError > 0;
    } else {
        // Friction: the solver bounds the row by ±μ·(the normal row's accumulated impulse) at
        // every visit (prepareRow, solver.h kSolveFriction); at the end of the step that is λn.
        const Real b = c.friction * out.normalImpulse;
        out.minImpulse = out.solveMin = -b;
        out.maxImpulse = out.solveMax = b;
        out.erp = 0.0;
        out.bias = 0.0;
    }
    return true;
}

}  // namespace jl
