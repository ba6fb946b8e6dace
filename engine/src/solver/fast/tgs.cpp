// Temporal Gauss-Seidel, as physx-1d-constraint-formulation.md "TGS" and the TGS sections of
// physx-implicit-spring-drives.md.
//
// [SECTION] stages
//   1. bodies start at v_pre in momocity (ω⁽ᵐ⁾ = I^½ω); deltaLin = deltaAng = 0; the rows that
//      are contacts (kSolveSubstep) were listed when packed (Data::warm), each starting at
//      1/posIters of its warm start (solver/soft_contact.h)
//   2. posIters substeps of h = dt/posIters (D 40), each: the substep's forces on every body
//      (applySubstepForces), every contact row's substep impulse again (reapplySubstepImpulses;
//      a soft contact normal solves Box2D v3's soft update, its bounds per substep), one sweep over the
//      rows, then every body integrates its pose by h and accumulates deltaLinDt += v·h,
//      deltaAngDt += ω⁽ᵐ⁾·h. The forces of substep k + 1 are added right after the motion of
//      substep k (those of the first before the loop), in the same pass over the bodies: with the
//      parallel solve each task does it for its own bodies, before the joints between parts meet
//      them again.
//      Relax (Params::relax): after each substep's motion one more sweep as a velocity pass, and
//      the next substep's forces after it (the reference's order; no sweeps fused across parts).
//   3. velIters sweeps with no position bias (keep-bias rows excepted) and springs frozen
//      (D "TGS Velocity Iteration": their delta impulse is zero)
//
// Per row visit (F 66): the lever arms r0, r1 are rotated to the bodies' current orientation,
// κ = κ_base + r × μ is refreshed and premultiplied by I^-½ (inertia held constant over the step),
// the unit response is recomputed from it, the linear Jacobian stays constant, and the geometric
// error is advanced from the start of the step by the bodies' motion:
// C = C0 + μ0·(Δx0 + r0' − r0) + κ_base0·Δθ0 − (same for body 1).
// Because TGS tracks the full velocity v rather than Δv, the constant is recomputed each visit
// without J·v_pre: λ' = −(J⁽ᵐ⁾v⁽ᵐ⁾ + α·C/h − v_T)/r.
// Springs follow D 44: λ_i = x(h·c·v_T − h·k·(C + (dt − i·h)·v_T) − a·v) + λ_{i−1}.
//
// The rows are swept in the batched layout of solver/fast/batch.h (TgsLanes), the same batches as
// PGS: joints of one batch share no dynamic body, so the 4 lanes are independent and the AVX2
// kernel (solver/fast/tgs_avx2.cpp) visits them at once. This file holds the plain C++ kernel, which
// does the same arithmetic lane after lane; the two give the same bits.
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "solver/block.h"
#include "solver/fast/fast.h"
#include "solver/integrate.h"
#include "solver/soft_contact.h"
#include "solver/tree.h"

namespace jl::solver {

// [SECTION] the plain C++ batch kernel

namespace {

inline double dotLane(const double (&j)[3][kLanes], int l, const double* v) {
    return (j[0][l] * v[0] + j[1][l] * v[1]) + j[2][l] * v[2];
}
inline double dot3(const double* a, const double* b) {
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

/// glm::cross's operations, in its order.
inline void cross3(const double* x, const double* y, double* out) {
    out[0] = x[1] * y[2] - y[1] * x[2];
    out[1] = x[2] * y[0] - y[2] * x[0];
    out[2] = x[0] * y[1] - y[0] * x[1];
}

/// q·v as glm computes it for a unit quaternion q = (x, y, z, w): v + 2·(w·(q×v) + q×(q×v)).
inline void rotate(const double* q, const double* v, double* out) {
    double uv[3], uuv[3];
    cross3(q, v, uv);
    cross3(q, uv, uuv);
    for (int k = 0; k < 3; ++k) out[k] = v[k] + ((uv[k] * q[3] + uuv[k]) * 2.0);
}

/// M·v for a column-major 3×3 M, in glm's order: row r = (M[0][r]·x + M[1][r]·y) + M[2][r]·z.
inline void mulMat3(const double* m, const double* v, double* out) {
    for (int r = 0; r < 3; ++r) out[r] = (m[r] * v[0] + m[3 + r] * v[1]) + m[6 + r] * v[2];
}

/// A kTgsSeparation row: its axis along the anchors' current separation d = d0 + Δa1 − Δa0
/// (d0 = length0·μ, the set-up axis), signed as the set-up axis, and its exact error. False
/// (nothing changed) when the anchors are closer than kMinSeparation.
bool turnWithAnchors(double length0, const double* move0, const double* move1, double* lin0, double* lin1,
                     double& error) {
    double d[3];
    for (int k = 0; k < 3; ++k) d[k] = length0 * lin0[k] + (move1[k] - move0[k]);
    const double len = std::sqrt(dot3(d, d));
    if (!(len > kMinSeparation)) return false;
    const double sign = length0 < 0.0 ? -1.0 : 1.0, f = sign / len;
    for (int k = 0; k < 3; ++k) lin0[k] = lin1[k] = f * d[k];
    error = error - (sign * len - length0);
    return true;
}

/// What one lane's visits share: its bodies' motion and lever arms this substep (F 66), I^-½
/// and mass scales (constant over the sweep).
struct LaneNow {
    const double *dA, *dB, *IA, *IB;
    double r0[3], r1[3], d0[3], d1[3];  ///< lever arms now; Δx + (r' − r) per side
    double ls0, as0, ls1, as1;
};
/// The lane's bodies' velocities, updated visit by visit (apart from LaneNow, whose address the
/// block solve takes, and passed to it by value, so that they stay in registers).
struct LaneVelocities {
    double av[3], aw[3], bv[3], bw[3];
};

/// Lane l's row of slot R brought up to date (F 66): its Jacobian, error and unit response.
struct RowNow {
    double lin0[3], lin1[3], angM0[3], angM1[3];
    double error, response, recip;
};
__attribute__((always_inline)) inline RowNow refreshRow(const TgsLanes& R, int l, const LaneNow& n) {
    RowNow w;
    const double base0[3] = {R.baseM0[0][l], R.baseM0[1][l], R.baseM0[2][l]};
    const double base1[3] = {R.baseM1[0][l], R.baseM1[1][l], R.baseM1[2][l]};
    for (int k = 0; k < 3; ++k) w.lin0[k] = R.lin0[k][l], w.lin1[k] = R.lin1[k][l];
    w.error = R.error0[l];
    // kTgsSeparation: the axis follows the anchors, d = d0 + Δa1 − Δa0, μ = ±d/|d|, and
    // C = C0 − (±|d| − length0) exactly (solver/reference/tgs_reference.cpp refresh)
    const bool turned =
        (R.kind[l] & kTgsSeparation) && turnWithAnchors(R.length0[l], n.d0, n.d1, w.lin0, w.lin1, w.error);
    if (R.kind[l] & kTgsAngular) {
        // κ⁽ᵐ⁾·Δθ⁽ᵐ⁾ = κ·∫ω dt (F 62 applied to the integrated momocity)
        for (int k = 0; k < 3; ++k) w.angM0[k] = base0[k], w.angM1[k] = base1[k];
    } else {
        double k0[3], k1[3], c0[3], c1[3];
        cross3(n.r0, w.lin0, c0);
        cross3(n.r1, w.lin1, c1);
        for (int k = 0; k < 3; ++k) k0[k] = R.ang0Base[k][l] + c0[k], k1[k] = R.ang1Base[k][l] + c1[k];
        mulMat3(n.IA, k0, w.angM0);
        mulMat3(n.IB, k1, w.angM1);
        if (!turned) w.error = w.error + (dot3(w.lin0, n.d0) - dot3(w.lin1, n.d1));
    }
    if (!turned) w.error = w.error + (dot3(base0, n.dA + 4) - dot3(base1, n.dB + 4));
    // The unit response follows the refreshed Jacobian: a lever arm that turns towards the
    // row axis can raise r several-fold within one step (a light bob far from its pivot),
    // and an impulse computed with a stale, too small r overshoots by that factor.
    const double linResponse0 = turned ? n.ls0 * dot3(w.lin0, w.lin0) : R.linResponse0[l];
    const double linResponse1 = turned ? n.ls1 * dot3(w.lin1, w.lin1) : R.linResponse1[l];
    w.response =
        ((linResponse0 + n.as0 * dot3(w.angM0, w.angM0)) + linResponse1) + n.as1 * dot3(w.angM1, w.angM1);
    w.recip = w.response > kMinResponse ? 1.0 / w.response : 0.0;
    return w;
}

/// J⁽ᵐ⁾v⁽ᵐ⁾ of the row with the lane's velocities now (F 62).
__attribute__((always_inline)) inline double rowVelocity(const RowNow& w, const LaneVelocities& n) {
    return ((dot3(w.lin0, n.av) + dot3(w.angM0, n.aw)) - dot3(w.lin1, n.bv)) - dot3(w.angM1, n.bw);
}

/// A hard row's position bias b = α·C/h (F 11): none in velocity iterations unless it keeps it.
inline double hardBias(const TgsLanes& R, int l, double error, const TgsSweep& s) {
    if (!s.velocityPass) return R.erp[l] * error / s.h;
    return (R.kind[l] & kTgsKeepBias) ? R.erp[l] * error / s.dt : 0.0;
}

/// The row's new (unclamped) accumulated impulse: the spring update (D 44) or
/// λ' = λ − (v + b − v_T)/r (F 65 with full velocities).
__attribute__((always_inline)) inline double rowImpulse(const TgsLanes& R, int l, const RowNow& w,
                                                        double normalVel, const TgsSweep& s) {
    const double acc = R.accum[l];
    if ((R.kind[l] & kTgsSoftContact) && softContactApplies(w.error))
        return softContactImpulse(acc, normalVel, w.error, w.recip, s.h, !s.velocityPass);
    if (R.kind[l] & kTgsSoftJoint) {  // Box2D v3's soft joint row (solver/soft_contact.h)
        const bool apart = softJointApart(w.error, R.minImpulse[l], R.maxImpulse[l]);
        const double bias = softJointBias(w.error, apart, s.h, !s.velocityPass);
        return softJointImpulse(acc, normalVel, R.velTarget[l], bias, w.recip, s.h,
                                !s.velocityPass && !apart);
    }
    if (!(R.kind[l] & kTgsSpring))
        return acc - w.recip * (normalVel + hardBias(R, l, w.error, s) - R.velTarget[l]);
    const double k = R.stiffness[l], c = R.damping[l], vT = R.velTarget[l];
    const double aa = s.h * (s.h * k + c);                                             // D 13 with ρ for τ
    const double cSub = w.error + (s.dt - static_cast<double>(s.substep) * s.h) * vT;  // D 41
    const double bracket = s.h * c * vT - s.h * k * cSub - aa * normalVel;             // D 44
    const double dl =
        (R.kind[l] & kTgsAccelSpring) ? bracket / (aa + 1.0) * w.recip : bracket / (aa * w.response + 1.0);
    return acc + dl;  // impulse multiplier 1 in TGS
}

/// Lane l's block (solver/block.h) of n rows from slot R: each row brought up to date, K from
/// those Jacobians, and Δλ = K⁻¹·(−(J⁽ᵐ⁾v⁽ᵐ⁾ + b − v_T)) from the velocities now. Writes the rows
/// (rows[i]), their new unclamped impulses (na[i]) and the velocity change each asked for
/// (c[i] = −(J⁽ᵐ⁾v⁽ᵐ⁾ + b − v_T): its residual term, Δλ·r being no such change in a block);
/// returns false for a singular K (the rows are then solved one by one).
bool solveBlock(const TgsLanes* R, int l, int n, const LaneNow& now, LaneVelocities vel, const TgsSweep& s,
                RowNow* rows, double* na, double* c) {
    block::Jacobian<double> j[kMaxBlockRows];
    c[0] = c[1] = c[2] = 0.0;
    for (int i = 0; i < n; ++i) {
        const RowNow& w = rows[i] = refreshRow(R[i], l, now);
        j[i] = {{w.lin0[0], w.lin0[1], w.lin0[2]},
                {w.angM0[0], w.angM0[1], w.angM0[2]},
                {w.lin1[0], w.lin1[1], w.lin1[2]},
                {w.angM1[0], w.angM1[1], w.angM1[2]}};
        const double bias = (R[i].kind[l] & kTgsSoftJoint)
                                ? softJointBias(w.error, false, s.h, !s.velocityPass)
                                : hardBias(R[i], l, w.error, s);
        c[i] = -((rowVelocity(w, vel) + bias) - R[i].velTarget[l]);
    }
    const block::Inverse<double> inv =
        block::invert(block::responseMatrix(j, n, block::Scales<double>{now.ls0, now.as0, now.ls1, now.as1}));
    if (!inv.ok) return false;
    const block::V3<double> dl = block::apply(inv.inv, block::V3<double>{c[0], c[1], c[2]});
    const double blockDl[kMaxBlockRows] = {dl.x, dl.y, dl.z};
    for (int i = 0; i < n; ++i)
        na[i] = (R[i].kind[l] & kTgsSoftJoint)
                    ? softJointBlockImpulse(R[i].accum[l], blockDl[i], s.h, !s.velocityPass)
                    : R[i].accum[l] + blockDl[i];
    return true;
}

/// One batch, lane after lane (padding lanes skipped: they have no active rows).
void solveTgsBatchScalar(const Batch& bt, const TgsArms& arm, TgsLanes* slots, const TgsSweep& s,
                         LaneSums& residual) {
    for (int l = 0; l < bt.laneCount; ++l) {
        double* A = s.vel + 8 * bt.body0[l];
        double* B = s.vel + 8 * bt.body1[l];
        LaneNow now;
        LaneVelocities vel;
        now.dA = s.delta + 8 * bt.body0[l];
        now.dB = s.delta + 8 * bt.body1[l];
        const double* infoA = s.info + static_cast<std::ptrdiff_t>(s.infoStride) * bt.body0[l];
        const double* infoB = s.info + static_cast<std::ptrdiff_t>(s.infoStride) * bt.body1[l];
        now.IA = infoA + s.invIAt;
        now.IB = infoB + s.invIAt;
        for (int k = 0; k < 3; ++k) {
            vel.av[k] = A[k], vel.aw[k] = A[4 + k];
            vel.bv[k] = B[k], vel.bw[k] = B[4 + k];
        }
        now.ls0 = bt.linScale0[l], now.as0 = bt.angScale0[l], now.ls1 = bt.linScale1[l],
        now.as1 = bt.angScale1[l];
        // F 66: the lever arms at the bodies' current orientation, and Δx + (r' − r) per side
        const double r0L[3] = {arm.r0Local[0][l], arm.r0Local[1][l], arm.r0Local[2][l]};
        const double r1L[3] = {arm.r1Local[0][l], arm.r1Local[1][l], arm.r1Local[2][l]};
        rotate(infoA + s.quatAt, r0L, now.r0);
        rotate(infoB + s.quatAt, r1L, now.r1);
        for (int k = 0; k < 3; ++k) {
            now.d0[k] = now.dA[k] + (now.r0[k] - arm.r0[k][l]);
            now.d1[k] = now.dB[k] + (now.r1[k] - arm.r1[k][l]);
        }
        // The lane's block (solver/block.h), solved where it starts: its rows and impulses.
        const int blockStart = bt.blockStart[l], blockEnd = blockStart + bt.blockSize[l];
        RowNow blockRows[kMaxBlockRows];
        double blockNa[kMaxBlockRows], blockAsked[kMaxBlockRows];
        bool blockSolved = false;
        double normalAccum = 0.0;
        for (int t = 0; t < bt.slotCount; ++t) {
            TgsLanes& R = slots[bt.firstSlot + t];
            const int64_t kind = R.kind[l];
            if (!(kind & kTgsActive) || (s.velocityPass && (kind & kTgsSpring))) {
                if (t == 0) normalAccum = R.accum[l];
                continue;
            }
            if (t == blockStart && blockEnd > blockStart)
                blockSolved =
                    solveBlock(&R, l, blockEnd - blockStart, now, vel, s, blockRows, blockNa, blockAsked);
            const bool inBlock = blockSolved && t < blockEnd;
            const RowNow w = inBlock ? blockRows[t - blockStart] : refreshRow(R, l, now);
            double na = inBlock ? blockNa[t - blockStart] : rowImpulse(R, l, w, rowVelocity(w, vel), s);
            double lo = R.minImpulse[l], hi = R.maxImpulse[l];
            if (bt.contact && t > 0) {  // friction: ±μ·(normal impulse)
                hi = bt.frictionCoef[l] * normalAccum;
                lo = -hi;
            }
            na = na < lo ? lo : (na > hi ? hi : na);
            const double dl = na - R.accum[l];
            R.accum[l] = na;
            if (kind & (kTgsSubstep | kTgsSoftJoint)) R.stepImpulse[l] = R.stepImpulse[l] + dl;
            if (t == 0) normalAccum = na;
            const double e0 = dl * now.ls0, f0 = dl * now.as0, e1 = dl * now.ls1, f1 = dl * now.as1;
            for (int k = 0; k < 3; ++k) {
                vel.av[k] = vel.av[k] + e0 * w.lin0[k];
                vel.aw[k] = vel.aw[k] + f0 * w.angM0[k];
                vel.bv[k] = vel.bv[k] - e1 * w.lin1[k];
                vel.bw[k] = vel.bw[k] - f1 * w.angM1[k];
            }
            const double rr = inBlock ? blockAsked[t - blockStart] : dl * w.response;
            residual.v[l] = residual.v[l] + rr * rr;
        }
        storeBodyRecord(A, vel.av, vel.aw);
        storeBodyRecord(B, vel.bv, vel.bw);
    }
}

}  // namespace

void sweepTgsBatchesScalar(const Batch* batches, const TgsArms* arms, int begin, int end, TgsLanes* slots,
                           const TgsSweep& s, LaneSums& residual) {
    for (int i = begin; i < end; ++i) solveTgsBatchScalar(batches[i], arms[i], slots, s, residual);
}

#if !defined(JOINTLAB_HAVE_AVX2_KERNEL)
void sweepTgsBatchesAvx2(const Batch* batches, const TgsArms* arms, int begin, int end, TgsLanes* slots,
                         const TgsSweep& s, LaneSums& residual) {
    sweepTgsBatchesScalar(batches, arms, begin, end, slots, s, residual);
}
int integrateTgsBodiesAvx2(const TgsIntegrate&, int begin, int end, int* left) {
    for (int i = begin; i < end; ++i) *left++ = i;
    return end - begin;
}
#endif

// The kernels read BodyInfo as doubles: the orientation as (x, y, z, w), I^-½ column-major.
static_assert(offsetof(Quat, x) == 0 && offsetof(Quat, w) == 3 * sizeof(Real),
              "glm quaternion stored as x, y, z, w");
static_assert(offsetof(BodyInfo, pose) % sizeof(Real) == 0 && offsetof(Transform, q) % sizeof(Real) == 0 &&
                  offsetof(BodyInfo, sqrtInvInertia) % sizeof(Real) == 0 &&
                  sizeof(BodyInfo) % sizeof(Real) == 0,
              "BodyInfo must be readable as doubles");
static_assert(sizeof(Mat3) == 9 * sizeof(Real), "Mat3 is 9 doubles, column after column");

// [SECTION] the solve

namespace {

/// One substep's motion of solver body i (not the static body 0) by h (solver/integrate.h).
void integrateBody(Data& data, size_t i, const Params& p, Real h) {
    integrateTgsSubstep(data.bodies[i], data.deltas[i], data.info[i], p, h);
}

/// The next substep's forces on solver bodies [begin, end) (solver/integrate.h).
void applyForces(Data& data, Real h, int begin, int end) {
    for (int i = begin; i < end; ++i)
        applySubstepForces(data.bodies[static_cast<size_t>(i)], data.info[static_cast<size_t>(i)], h);
}

/// Solver bodies [begin, end)'s substep, then, if `forces`, the next substep's forces on them;
/// with AVX2, the motion four at a time (integrateTgsBodiesAvx2: the same bits), the bodies it
/// leaves listed in `left` (room for end − begin).
void integrateRange(Data& data, const Params& p, Real h, bool simd, bool forces, int begin, int end,
                    int* left) {
    if (!simd) {
        for (int i = begin; i < end; ++i) integrateBody(data, static_cast<size_t>(i), p, h);
        if (forces) applyForces(data, h, begin, end);
        return;
    }
    TgsIntegrate in;
    in.vel = &data.bodies[0].linVel.x;
    in.delta = &data.deltas[0].deltaLin.x;
    in.info = reinterpret_cast<double*>(data.info.data());
    in.infoStride = static_cast<int>(sizeof(BodyInfo) / sizeof(Real));
    in.posAt = static_cast<int>((offsetof(BodyInfo, pose) + offsetof(Transform, p)) / sizeof(Real));
    in.quatAt = static_cast<int>((offsetof(BodyInfo, pose) + offsetof(Transform, q)) / sizeof(Real));
    in.invIAt = static_cast<int>(offsetof(BodyInfo, sqrtInvInertia) / sizeof(Real));
    in.h = h;
    in.maxLinearSpeed = p.maxLinearSpeed;
    in.maxAngularSpeed = p.maxAngularSpeed;
    const int n = integrateTgsBodiesAvx2(in, begin, end, left);
    for (int k = 0; k < n; ++k) integrateBody(data, static_cast<size_t>(left[k]), p, h);
    if (forces) applyForces(data, h, begin, end);
}

/// Every solver body's substep (not the static body 0 nor the stand-ins), and the next
/// substep's forces if `forces`. One part: one pass. Parallel solve: task t's bodies
/// (Data::integrateSpans), right after its part's sweep (each body's motion is its own, so the
/// same bits as one pass, in any order).
void integrateBodies(Data& data, const Params& p, Real h, bool simd, bool forces) {
    integrateRange(data, p, h, simd, forces, 1, data.movingEnd(), data.integrateLeft.data());
}

void integrateTask(Data& data, const Params& p, Real h, bool simd, bool forces, int t) {
    int* left = data.integrateLeft.data();
    for (int i = data.integrateSpanStart[static_cast<size_t>(t)];
         i < data.integrateSpanStart[static_cast<size_t>(t) + 1]; ++i) {
        const int begin = data.integrateSpans[2 * static_cast<size_t>(i)],
                  end = data.integrateSpans[2 * static_cast<size_t>(i) + 1];
        integrateRange(data, p, h, simd, forces, begin, end, left + begin);
    }
}

/// Every contact row's substep impulse applied again and added to its step's sum
/// (solver.h reapplySubstepImpulse).
void reapplySubstepImpulses(Data& data) {
    for (const WarmStart& w : data.warm) {
        TgsLanes& L = data.tgsSlots[static_cast<size_t>(w.slot)];
        reapplySubstepImpulse(data.rows[w.row], L.accum[w.lane], L.stepImpulse[w.lane], data.bodies);
    }
}

/// f(slot, lane) for every lane of a soft joint row (kTgsSoftJoint), batch after batch.
template <class F>
void forSoftJointLanes(Data& data, F f) {
    for (const Batch& bt : data.batches) {
        if (!bt.softJoints) continue;
        for (int t = 0; t < bt.slotCount; ++t) {
            TgsLanes& L = data.tgsSlots[static_cast<size_t>(bt.firstSlot + t)];
            for (int l = 0; l < bt.laneCount; ++l)
                if (L.kind[l] & kTgsSoftJoint) f(L, l);
        }
    }
}

/// What the kernels need for one sweep: substep `substep` of length h, or a velocity pass.
TgsSweep sweepInput(Data& data, const Params& p, Real h, int substep, bool velocityPass) {
    TgsSweep s;
    s.vel = &data.bodies[0].linVel.x;
    s.delta = &data.deltas[0].deltaLin.x;
    s.info = reinterpret_cast<const double*>(data.info.data());
    s.infoStride = static_cast<int>(sizeof(BodyInfo) / sizeof(Real));
    s.quatAt = static_cast<int>((offsetof(BodyInfo, pose) + offsetof(Transform, q)) / sizeof(Real));
    s.invIAt = static_cast<int>(offsetof(BodyInfo, sqrtInvInertia) / sizeof(Real));
    s.h = h;
    s.dt = p.dt;
    s.substep = substep;
    s.velocityPass = velocityPass;
    return s;
}

/// Sweeps batches [begin, end) with the kernel `simd` picks.
void sweepRange(Data& data, const TgsSweep& s, bool simd, int begin, int end, LaneSums& lanes) {
    if (simd)
        sweepTgsBatchesAvx2(data.batches.data(), data.tgsArms.data(), begin, end, data.tgsSlots.data(), s,
                            lanes);
    else
        sweepTgsBatchesScalar(data.batches.data(), data.tgsArms.data(), begin, end, data.tgsSlots.data(), s,
                              lanes);
}

/// One sweep over every batch (sweepParts); returns the sweep's residual (see Data::residuals).
/// `integrate` (a position substep): the bodies' substep too, after the sweep, and the next
/// substep's forces unless this is the last or a relax sweep follows (Params::relax: the forces
/// come after it, as in the reference); parallel solve: each task's bodies after its part.
Real sweep(Data& data, const Params& p, Real h, int substep, bool velocityPass, bool simd, bool integrate) {
    const TgsSweep s = sweepInput(data, p, h, substep, velocityPass);
    auto sweepRange = [&](int begin, int end, LaneSums& lanes) {
        solver::sweepRange(data, s, simd, begin, end, lanes);
    };
    const bool forces = substep < p.posIters && !p.relax;
    if (data.forest && !data.forest->empty()) {  // settings.pointSolve = tree (solver/tree.h)
        const Real r = sweepParts(data, sweepRange);
        const TgsPass pass{h, p.dt, substep, velocityPass};
        const Real sum = tree::passTgs(data, *data.forest, pass);
        if (integrate) integrateBodies(data, p, h, simd, forces);
        return std::sqrt(r * r + sum);
    }
    if (data.parts() == 1 || !integrate) {
        const Real r = sweepParts(data, sweepRange);
        if (integrate) integrateBodies(data, p, h, simd, forces);
        return r;
    }
    return sweepParts(data, sweepRange, [&](int t) { integrateTask(data, p, h, simd, forces, t); });
}

}  // namespace

void solveTGS(Data& data, const Params& p) {
    const bool simd = p.simd;
    const Real h = p.dt / static_cast<Real>(p.posIters);
    for (size_t i = 0; i < data.bodies.size(); ++i) {
        const BodyInfo& info = data.info[i];
        data.bodies[i] = Body{info.vPre, 0.0, info.sqrtInertia * info.wPre, 0.0};
    }
    data.deltas.assign(data.bodies.size(), BodyDelta{});
    data.integrateLeft.resize(
        static_cast<size_t>(std::max(data.movingEnd(), 1)));  // the integration's leftovers
    applyForces(data, h, 1, data.movingEnd());                // the first substep's forces

    const Real n = static_cast<Real>(p.posIters);
    for (const WarmStart& w : data.warm)  // a contact starts at 1/posIters of its warm start
        data.tgsSlots[static_cast<size_t>(w.slot)].accum[w.lane] = w.impulse / n;

    data.residuals.clear();
    // Parallel solve: every substep in one fork if each part can have a thread of its own (the
    // same bits as a fork per substep, sweepPartsTogether). The contacts' substep impulses go first in
    // each substep, on task 0 before it sweeps the joints between parts and the contacts: with
    // any contact (the only rows that warm-start) no part touches a body before that.
    bool together = false;
    const bool forest = data.forest && !data.forest->empty();
    if (forest) tree::begin(data, *data.forest, true);
    if (data.parts() > 1 && !p.relax && !forest) {
        const int shared = data.partStart[static_cast<size_t>(data.parts())];
        const int all = static_cast<int>(data.batches.size());
        auto range = [&](int k, int begin, int end, LaneSums& lanes) {
            if (begin == shared && end == all) reapplySubstepImpulses(data);
            sweepRange(data, sweepInput(data, p, h, k + 1, false), simd, begin, end, lanes);
        };
        auto after = [&](int k, int t) { integrateTask(data, p, h, simd, k + 1 < p.posIters, t); };
        together = sweepPartsTogether(data, p.posIters, range, after, data.residuals);
    }
    for (int sub = 1; sub <= p.posIters && !together; ++sub) {
        if (p.softJoints) forSoftJointLanes(data, [](TgsLanes& L, int l) { L.accum[l] = 0.0; });
        reapplySubstepImpulses(data);
        data.residuals.push_back(sweep(data, p, h, sub, false, simd, true));
        if (p.relax) {  // the bias's velocity out at the new poses, then the next substep's forces
            sweep(data, p, h, sub, true, simd, false);
            if (sub < p.posIters) applyForces(data, h, 1, data.movingEnd());
        }
    }
    for (int it = 0; it < p.velIters; ++it)
        data.residuals.push_back(sweep(data, p, h, p.posIters, true, simd, false));
    for (const WarmStart& w : data.warm) {  // a contact's impulse: its substeps' sum
        TgsLanes& L = data.tgsSlots[static_cast<size_t>(w.slot)];
        L.accum[w.lane] = L.stepImpulse[w.lane];
    }
    data.warm.clear();  // packTgsBatch lists the next step's
    if (p.softJoints)   // a soft joint row's impulse: its substeps' sum
        forSoftJointLanes(data, [](TgsLanes& L, int l) { L.accum[l] = L.stepImpulse[l]; });

    for (size_t i = 0; i < data.bodies.size(); ++i)
        data.bodies[i].angVel = data.info[i].sqrtInvInertia * data.bodies[i].angVel;
}

}  // namespace jl::solver
