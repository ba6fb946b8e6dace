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
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <glm/gtx/norm.hpp>

#include "solver/block.h"
#include "solver/fast/fast.h"

namespace jl::solver {

namespace {

/// What set-up computes for one row; every field is written on every path.
struct Setup {
    Vec3 angM0, angM1;
    Real response, recip;
    Real constant, unbiasedConstant, vMul, impulseMul;
    Real minImpulse, maxImpulse;  ///< the row's own bounds (reported)
    Real solveMin, solveMax;      ///< what the solver clamps to: also within ±kMaxRowVelocityChange/r
    Real erp, velTarget, stiffness, damping;
    Real vPre;  ///< J·v_pre (0 for an inactive row)
    uint16_t flags;
};

/// The set-up shared by PGS and TGS (F 21, 55–56, 63–65; D 13–22 for springs). ls/as: the two
/// bodies' invMass·invMassScale and invInertiaScale (0 if not dynamic).
inline void computeSetup(const Row& row, const BodyInfo& i0, const BodyInfo& i1, Real ls0, Real as0, Real ls1,
                         Real as1, const Params& p, bool tgs, Setup& s) {
    s.angM0 = i0.sqrtInvInertia * row.angular0;  // F 55
    s.angM1 = i1.sqrtInvInertia * row.angular1;  // F 56
    // r = J M⁻¹ Jᵀ with the mass scales (F 21, 31)
    s.response = ls0 * glm::length2(row.linear0) + as0 * glm::length2(s.angM0) +
                 ls1 * glm::length2(row.linear1) + as1 * glm::length2(s.angM1);
    s.minImpulse = row.minImpulse;
    s.maxImpulse = row.maxImpulse;
    if ((row.flags & kRowHasDriveLimit) && (row.flags & kRowDriveLimitsAreForces)) {
        s.minImpulse *= p.dt;
        s.maxImpulse *= p.dt;
    }
    s.flags = (row.flags & kRowAngular) ? kSolveAngular : 0;
    s.recip = 0.0;
    s.constant = s.unbiasedConstant = s.vMul = 0.0;
    s.impulseMul = 1.0;
    s.erp = s.velTarget = s.stiffness = s.damping = s.vPre = 0.0;
    s.solveMin = s.minImpulse;
    s.solveMax = s.maxImpulse;
    // (a row the forest solves, kRowTree, is inactive in the sweeps: solver/tree.h)
    if (!(s.response > kMinResponse) || !std::isfinite(s.response) || (row.flags & kRowTree)) {
        s.flags |= kSolveInactive;
        return;
    }
    s.recip = 1.0 / s.response;
    const Real r = s.response, recip = s.recip;
    const Real cap = kMaxRowVelocityChange * recip;
    s.solveMin = std::clamp(s.minImpulse, -cap, cap);
    s.solveMax = std::clamp(s.maxImpulse, -cap, cap);

    // J·v_pre with plain angular velocities (F 18, 22).
    const Real vPreRow = glm::dot(row.linear0, i0.vPre) + glm::dot(row.angular0, i0.wPre) -
                         glm::dot(row.linear1, i1.vPre) - glm::dot(row.angular1, i1.wPre);
    s.vPre = vPreRow;
    const Real h = tgs ? p.dt / static_cast<Real>(p.posIters) : p.dt;
    const Real C = row.geometricError;
    Real vT = row.velocityTarget;

    if (row.flags & kRowSpring) {
        const Real k = row.mods.spring.stiffness, c = row.mods.spring.damping;
        s.flags |= kSolveSpring;
        s.stiffness = k;
        s.damping = c;
        s.velTarget = vT;
        const Real a = h * (h * k + c);  // D 13
        if (row.flags & kRowAccelerationSpring) {
            s.flags |= kSolveAccelSpring;
            const Real x = 1.0 / (a + 1.0);                                   // D 32
            s.constant = x * recip * (h * c * vT - h * k * C - a * vPreRow);  // D 35 minus the v_pre part
            s.vMul = -x * a * recip;                                          // D 36
            s.impulseMul = 1.0 - x;                                           // D 37
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
    s.velTarget = vT;
    s.erp =
        (bounce || (row.flags & kRowVelocityOnly)) ? 0.0 : (row.erpOverride >= 0 ? row.erpOverride : p.erp);
    if ((row.flags & kRowKeepBias) && !bounce) s.flags |= kSolveKeepBias;
    // TGS under `soft`: a hard row that corrects position, with a bound of 0 or none on each side
    // (an equality row or a limit), is Box2D v3's soft joint row (solver/soft_contact.h); a contact's
    // set-up takes the flag off again (World::Impl::prepareRow).
    const bool openBounds = (s.minImpulse == -kInf || s.minImpulse == 0.0) &&
                            (s.maxImpulse == kInf || s.maxImpulse == 0.0) && s.minImpulse != s.maxImpulse;
    if (tgs && p.softJoints && s.erp > 0.0 && !(s.flags & kSolveKeepBias) && openBounds)
        s.flags |= kSolveSoftJoint;
    const Real bias = s.erp * C / h;              // F 11
    s.constant = -(bias - vT + vPreRow) * recip;  // F 65
    s.unbiasedConstant = (s.flags & kSolveKeepBias) ? s.constant : -(-vT + vPreRow) * recip;
    s.vMul = -recip;  // F 63
    s.impulseMul = 1.0;
}

inline void report(const Setup& s, RowReport& out) {
    out.response = s.response;
    out.minImpulse = s.minImpulse;
    out.maxImpulse = s.maxImpulse;
    out.erp = s.erp;
    out.velTarget = s.velTarget;
    out.flags = s.flags;
}

}  // namespace

void setupRow(const Row& row, const RowBodies& rb, const State& state, const Params& p, bool tgs,
              SolverRow& s, SolverRowExtra& x, RowReport& rep) {
    const BodyInfo& i0 = state.info[static_cast<size_t>(rb.b0)];
    const BodyInfo& i1 = state.info[static_cast<size_t>(rb.b1)];
    s = SolverRow{};
    x = SolverRowExtra{};
    s.b0 = rb.b0;
    s.b1 = rb.b1;
    s.lin0 = row.linear0;
    s.lin1 = row.linear1;
    bodyScales(i0, rb.invMassScale0, rb.invInertiaScale0, s.linScale0, s.angScale0);
    bodyScales(i1, rb.invMassScale1, rb.invInertiaScale1, s.linScale1, s.angScale1);
    Setup u;
    computeSetup(row, i0, i1, s.linScale0, s.angScale0, s.linScale1, s.angScale1, p, tgs, u);
    report(u, rep);
    s.angM0 = u.angM0;
    s.angM1 = u.angM1;
    s.response = u.response;
    s.recipResponse = u.recip;
    s.constant = u.constant;
    s.unbiasedConstant = u.unbiasedConstant;
    s.vMul = u.vMul;
    s.impulseMul = u.impulseMul;
    s.minImpulse = u.solveMin;
    s.maxImpulse = u.solveMax;
    s.flags = u.flags;
    x.error0 = row.geometricError;
    x.vPre = u.vPre;
    x.velTarget = u.velTarget;
    x.erp = u.erp;
    x.stiffness = u.stiffness;
    x.damping = u.damping;
    if (tgs) {  // what TGS needs to refresh the row as the bodies move (F 66)
        x.r0 = rb.r0;
        x.r1 = rb.r1;
        x.r0Local = glm::conjugate(i0.q0) * rb.r0;
        x.r1Local = glm::conjugate(i1.q0) * rb.r1;
        x.ang0Base = row.angular0 - glm::cross(rb.r0, row.linear0);
        x.ang1Base = row.angular1 - glm::cross(rb.r1, row.linear1);
        if ((row.flags & kRowSeparation) && !(s.flags & kSolveInactive)) {
            s.flags |= kSolveSeparation;
            x.length0 = glm::dot(row.linear0, rb.separation);
        }
    }
}

namespace {
// (kRowSeparation only changes what TGS does within a step: PGS sets such a row up as any other.)
constexpr uint16_t kPlainHardFlags =
    kRowOutputForce | kRowAngular | kRowKeepBias | kRowVelocityOnly | kRowSeparation;
}  // namespace

void setupTgsJointBatch(Data& data, size_t bi, const Row* const rows[kLanes], const int count[kLanes],
                        const RowBodies* const rbs[kLanes], const Params& p,
                        RowReport* const reports[kLanes]) {
    Batch& bt = data.batches[bi];
    bt.separation = bt.softJoints = 0;
    TgsArms& arm = data.tgsArms[bi];
    TgsLanes* slots = data.tgsSlots.data() + bt.firstSlot;
    const BodyInfo* i0[kLanes];
    const BodyInfo* i1[kLanes];
    TgsRowsIn in;  // what the AVX2 set-up reads, the per-batch part filled once
    for (int l = 0; l < kLanes; ++l) {
        // The lane's lever arms, as setupRow gives its first row's (SolverRowExtra), and I^-½.
        const bool real = count[l] > 0;
        i0[l] = &data.info[static_cast<size_t>(real ? rbs[l]->b0 : 0)];
        i1[l] = &data.info[static_cast<size_t>(real ? rbs[l]->b1 : 0)];
        const Vec3 r0 = real ? rbs[l]->r0 : Vec3(0.0), r1 = real ? rbs[l]->r1 : Vec3(0.0);
        const Vec3 r0L = real ? glm::conjugate(i0[l]->q0) * r0 : Vec3(0.0);
        const Vec3 r1L = real ? glm::conjugate(i1[l]->q0) * r1 : Vec3(0.0);
        writeTgsArm(arm, l, r0L, r1L, r0, r1, data.info[static_cast<size_t>(bt.body0[l])].sqrtInvInertia,
                    data.info[static_cast<size_t>(bt.body1[l])].sqrtInvInertia);
        in.invI0[l] = &i0[l]->sqrtInvInertia[0][0];
        in.invI1[l] = &i1[l]->sqrtInvInertia[0][0];
        for (int k = 0; k < 3; ++k) in.r0[k][l] = r0[k], in.r1[k][l] = r1[k];
    }
    bool blockKept[kLanes] = {true, true, true, true};
    // Row t of lane l (setupRow's computeSetup, then packTgsBatch's lane), or padding after its rows.
    auto setUpLane = [&](TgsLanes& L, int l, int t) {
        if (t >= count[l]) {  // padding: never solved
            clearTgsLane(L, l);
            return;
        }
        const Row& row = rows[l][t];
        const RowBodies& rb = *rbs[l];
        Setup u;
        computeSetup(row, *i0[l], *i1[l], bt.linScale0[l], bt.angScale0[l], bt.linScale1[l], bt.angScale1[l],
                     p, true, u);
        report(u, reports[l][t]);
        const bool inactive = u.flags & kSolveInactive;
        const bool angular = u.flags & kSolveAngular;
        const bool separation = (row.flags & kRowSeparation) && !inactive;  // as setupRow marks it
        TgsLaneRow lane;
        lane.lin0 = row.linear0;
        lane.lin1 = row.linear1;
        lane.ang0Base = row.angular0 - glm::cross(rb.r0, row.linear0);
        lane.ang1Base = row.angular1 - glm::cross(rb.r1, row.linear1);
        lane.baseM0 = angular ? u.angM0 : i0[l]->sqrtInvInertia * lane.ang0Base;
        lane.baseM1 = angular ? u.angM1 : i1[l]->sqrtInvInertia * lane.ang1Base;
        lane.error0 = row.geometricError;
        lane.velTarget = u.velTarget;
        lane.erp = u.erp;
        lane.stiffness = u.stiffness;
        lane.damping = u.damping;
        lane.minImpulse = u.solveMin;
        lane.maxImpulse = u.solveMax;
        lane.flags = static_cast<uint16_t>(u.flags | (separation ? kSolveSeparation : 0));
        writeTgsLane(L, l, lane, bt);  // joint rows start from zero (no warm start)
        if (separation) L.length0[l] = glm::dot(row.linear0, rb.separation);
        if (inactive && t >= bt.blockStart[l] && t < bt.blockStart[l] + bt.blockSize[l]) blockKept[l] = false;
    };
    alignas(32) static const double kZeroRow[16] = {};
    for (int t = 0; t < bt.slotCount; ++t) {
        TgsLanes& L = slots[t];
        // A slot of plain hard rows (and padding) four at a time with AVX2 (the same bits), else
        // lane by lane (soft joint rows, settings.correction = soft, take the lanes' path).
        bool plain = p.simd && !p.softJoints;
        for (int l = 0; l < kLanes && plain; ++l) {
            const bool real = t < count[l];
            const Row* r = real ? &rows[l][t] : nullptr;
            if (r && (r->flags & ~kPlainHardFlags)) plain = false;
            in.row[l] = r ? &r->linear0.x : kZeroRow;
            in.real[l] = real ? 1.0 : 0.0;
            in.angular[l] = r && (r->flags & kRowAngular) ? 1.0 : 0.0;
            in.keepBias[l] = r && (r->flags & kRowKeepBias) ? 1.0 : 0.0;
            in.erp[l] =
                !r || (r->flags & kRowVelocityOnly) ? 0.0 : (r->erpOverride >= 0 ? r->erpOverride : p.erp);
        }
        double response[kLanes];
        const int active = plain ? setupTgsRowsAvx2(bt, in, L, response) : -1;
        if (active < 0) {
            for (int l = 0; l < kLanes; ++l) setUpLane(L, l, t);
            continue;
        }
        for (int l = 0; l < kLanes; ++l) {  // computeSetup's report, and what a separation row adds
            if (t >= count[l]) continue;
            const Row& r = rows[l][t];
            const bool on = (active >> l) & 1;
            RowReport& o = reports[l][t];
            o.response = response[l];
            o.minImpulse = r.minImpulse;
            o.maxImpulse = r.maxImpulse;
            o.erp = on ? in.erp[l] : 0.0;
            o.velTarget = on ? r.velocityTarget : 0.0;
            o.flags = static_cast<uint16_t>(
                ((r.flags & kRowAngular) ? kSolveAngular : 0) |
                (on ? ((r.flags & kRowKeepBias) ? kSolveKeepBias : 0) : kSolveInactive));
            if ((r.flags & kRowSeparation) && on) {
                L.kind[l] |= kTgsSeparation;
                bt.separation = 1;
                L.length0[l] = glm::dot(r.linear0, rbs[l]->separation);
            }
            if (!on && t >= bt.blockStart[l] && t < bt.blockStart[l] + bt.blockSize[l]) blockKept[l] = false;
        }
    }
    for (int l = 0; l < kLanes; ++l)
        if (!blockKept[l]) bt.blockSize[l] = 0;
    markBlockSlots(bt);
}

static_assert(kMaxBlockRows == jl::kMaxBlockRows, "one block size");

int findBlock(const Row* rows, int count, int& n) {
    constexpr uint16_t kHardRow = kRowOutputForce | kRowAngular;
    for (int t = 0; t < count; ++t) {
        const int size = rows[t].blockSize;
        if (size < 2 || size > kMaxBlockRows || rows[t].blockIndex != 0) continue;
        bool whole = t + size <= count;
        for (int i = 0; i < size && whole; ++i) {
            const Row& r = rows[t + i];
            whole = r.blockSize == size && r.blockIndex == i && r.solveHint == SolveHint::Equality &&
                    !(r.flags & ~kHardRow) && r.minImpulse == -kInf && r.maxImpulse == kInf;
        }
        if (!whole) break;  // a joint's block is its first one (if it is sound)
        n = size;
        return t;
    }
    n = 0;
    return -1;
}

void setupRowLane(const Row& row, const BodyInfo& i0, const BodyInfo& i1, const Batch& bt, int l,
                  const Params& p, RowLanes& slot, RowReport& rep) {
    Setup u;
    computeSetup(row, i0, i1, bt.linScale0[l], bt.angScale0[l], bt.linScale1[l], bt.angScale1[l], p, false,
                 u);
    report(u, rep);
    storeLane(slot, l, !(u.flags & kSolveInactive), row.linear0, u.angM0, row.linear1, u.angM1, u.constant,
              u.unbiasedConstant, u.vMul, u.impulseMul, u.solveMin, u.solveMax, 0.0, u.response);
}

// The AVX2 set-up (solver/fast/pgs_avx2.cpp) reads rows and body constants as runs of doubles.
static_assert(offsetof(Row, linear0) == 0 && offsetof(Row, angular0) == 3 * sizeof(Real) &&
                  offsetof(Row, linear1) == 6 * sizeof(Real) && offsetof(Row, angular1) == 9 * sizeof(Real) &&
                  offsetof(Row, geometricError) == 12 * sizeof(Real) &&
                  offsetof(Row, velocityTarget) == 13 * sizeof(Real) &&
                  offsetof(Row, minImpulse) == 14 * sizeof(Real) &&
                  offsetof(Row, maxImpulse) == 15 * sizeof(Real),
              "Row must start with J, C, v_T and the bounds as 16 doubles");
static_assert(sizeof(Mat3) == 9 * sizeof(Real) &&
                  offsetof(BodyInfo, wPre) == offsetof(BodyInfo, vPre) + 3 * sizeof(Real) &&
                  offsetof(BodyInfo, vPre) + 8 * sizeof(Real) <= sizeof(BodyInfo),
              "BodyInfo: vPre, wPre adjacent with 2 doubles readable after them");

int slotLayoutFor(const Row& r) {
    if ((r.flags & ~kPlainHardFlags) || std::memcmp(&r.linear0, &r.linear1, sizeof(Vec3)) != 0)
        return kLayoutFull;
    return r.minImpulse == -kInf && r.maxImpulse == kInf ? kLayoutLock : kLayoutHard;
}

bool setupHardSlot(const Row* const rows[kLanes], const BodyInfo* const i0[kLanes],
                   const BodyInfo* const i1[kLanes], const Batch& bt, const Params& p, const SlotOut& out,
                   RowReport* const reports[kLanes]) {
    constexpr uint16_t kPlain = kPlainHardFlags;
    // A padding lane reads a row of zeros: zero response, so it stores what padLane stores (all zeros).
    alignas(32) static const double kZeroRow[16] = {};
    HardRowsIn in;
    for (int l = 0; l < kLanes; ++l) {
        if (!rows[l]) {
            in.row[l] = kZeroRow;
            in.invI0[l] = in.invI1[l] = &i0[l]->sqrtInvInertia[0][0];
            in.pre0[l] = in.pre1[l] = &i0[l]->vPre.x;
            in.erp[l] = in.keepBias[l] = 0.0;
            continue;
        }
        const Row& r = *rows[l];
        if (r.flags & ~kPlain) return false;
        in.row[l] = &r.linear0.x;
        in.invI0[l] = &i0[l]->sqrtInvInertia[0][0];
        in.invI1[l] = &i1[l]->sqrtInvInertia[0][0];
        in.pre0[l] = &i0[l]->vPre.x;
        in.pre1[l] = &i1[l]->vPre.x;
        in.erp[l] = (r.flags & kRowVelocityOnly) ? 0.0 : (r.erpOverride >= 0 ? r.erpOverride : p.erp);
        in.keepBias[l] = (r.flags & kRowKeepBias) ? 1.0 : 0.0;
    }
    double response[kLanes];
    const int active = setupHardRowsAvx2(bt, in, p.dt, out, response);
    if (active < 0) return false;
    for (int l = 0; l < kLanes; ++l) {  // computeSetup's report
        if (!rows[l]) continue;
        const Row& r = *rows[l];
        RowReport& o = *reports[l];
        const bool on = (active >> l) & 1;
        o.response = response[l];
        o.minImpulse = r.minImpulse;
        o.maxImpulse = r.maxImpulse;
        o.erp = on ? in.erp[l] : 0.0;
        o.velTarget = on ? r.velocityTarget : 0.0;
        o.flags =
            static_cast<uint16_t>(((r.flags & kRowAngular) ? kSolveAngular : 0) |
                                  (on ? ((r.flags & kRowKeepBias) ? kSolveKeepBias : 0) : kSolveInactive));
    }
    return true;
}

void storeLane(RowLanes& L, int l, bool active, const Vec3& lin0, const Vec3& angM0, const Vec3& lin1,
               const Vec3& angM1, Real constant, Real unbiasedConstant, Real vMul, Real impulseMul,
               Real minImpulse, Real maxImpulse, Real accum, Real response) {
    // Inactive rows keep zeros (their impulse change is masked to zero; zeros keep NaN out).
    for (int k = 0; k < 3; ++k) {
        L.lin0[k][l] = active ? lin0[k] : 0.0;
        L.ang0[k][l] = active ? angM0[k] : 0.0;
        L.lin1[k][l] = active ? lin1[k] : 0.0;
        L.ang1[k][l] = active ? angM1[k] : 0.0;
    }
    L.constant[l] = constant;
    L.unbiasedConstant[l] = unbiasedConstant;
    L.vMul[l] = vMul;
    L.impulseMul[l] = active ? impulseMul : 0.0;
    L.minImpulse[l] = minImpulse;
    L.maxImpulse[l] = maxImpulse;
    L.accum[l] = accum;
    L.response[l] = active ? response : 0.0;
}

}  // namespace jl::solver
