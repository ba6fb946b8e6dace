// TGS's packing (solver/fast/fast.h): a batch's rows written into its TGS row slots and lever arms,
// lane by lane, from the prepared rows (packTgsBatch, contacts and any row the joints' fused set-up
// does not take) or from one row as both set-ups describe it (writeTgsLane, clearTgsLane; the fused
// joint set-up in solver/row_setup.cpp calls them too). The solve that reads the slots is in
// solver/fast/tgs.cpp.
#include <cstddef>

#include "solver/fast/fast.h"

namespace jl::solver {

void clearTgsLane(TgsLanes& L, int l) {
    for (int k = 0; k < 3; ++k)
        L.lin0[k][l] = L.lin1[k][l] = L.ang0Base[k][l] = L.ang1Base[k][l] = L.baseM0[k][l] = L.baseM1[k][l] =
            0.0;
    L.linResponse0[l] = L.linResponse1[l] = 0.0;
    L.error0[l] = L.velTarget[l] = L.erp[l] = L.stiffness[l] = L.damping[l] = 0.0;
    L.minImpulse[l] = L.maxImpulse[l] = L.accum[l] = L.length0[l] = L.stepImpulse[l] = 0.0;
    L.kind[l] = 0;
}

int64_t writeTgsLane(TgsLanes& L, int l, const TgsLaneRow& row, Batch& bt) {
    for (int c = 0; c < 3; ++c) {
        L.lin0[c][l] = row.lin0[c];
        L.lin1[c][l] = row.lin1[c];
        L.ang0Base[c][l] = row.ang0Base[c];
        L.ang1Base[c][l] = row.ang1Base[c];
        L.baseM0[c][l] = row.baseM0[c];
        L.baseM1[c][l] = row.baseM1[c];
    }
    L.linResponse0[l] = bt.linScale0[l] * glm::dot(row.lin0, row.lin0);
    L.linResponse1[l] = bt.linScale1[l] * glm::dot(row.lin1, row.lin1);
    L.error0[l] = row.error0;
    L.velTarget[l] = row.velTarget;
    L.erp[l] = row.erp;
    L.stiffness[l] = row.stiffness;
    L.damping[l] = row.damping;
    L.minImpulse[l] = row.minImpulse;
    L.maxImpulse[l] = row.maxImpulse;
    L.accum[l] = L.stepImpulse[l] = L.length0[l] = 0.0;
    const uint16_t f = row.flags;
    int64_t kind = (f & kSolveInactive) ? int64_t{0} : int64_t{kTgsActive};
    if (f & kSolveAngular) kind |= kTgsAngular;
    if (f & kSolveSpring) kind |= kTgsSpring;
    if (f & kSolveAccelSpring) kind |= kTgsAccelSpring;
    if (f & kSolveKeepBias) kind |= kTgsKeepBias;
    if (f & kSolveSubstep) kind |= kTgsSubstep;
    if (f & kSolveSoftContact) kind |= kTgsSoftContact;
    if (f & kSolveSoftJoint) {
        kind |= kTgsSoftJoint;
        bt.softJoints = 1;
    }
    if (f & kSolveSeparation) {
        kind |= kTgsSeparation;
        bt.separation = 1;
    }
    L.kind[l] = kind;
    return kind;
}

void packTgsBatch(Data& data, size_t bi, const int first[kLanes], const int count[kLanes]) {
    Batch& bt = data.batches[bi];
    bt.separation = bt.softJoints = 0;
    TgsArms& arm = data.tgsArms[bi];
    for (int l = 0; l < kLanes; ++l) {
        const SolverRowExtra* x = count[l] > 0 ? &data.extra[static_cast<size_t>(first[l])] : nullptr;
        const Vec3 r0L = x ? x->r0Local : Vec3(0.0), r1L = x ? x->r1Local : Vec3(0.0);
        const Vec3 r0 = x ? x->r0 : Vec3(0.0), r1 = x ? x->r1 : Vec3(0.0);
        writeTgsArm(arm, l, r0L, r1L, r0, r1, data.info[static_cast<size_t>(bt.body0[l])].sqrtInvInertia,
                    data.info[static_cast<size_t>(bt.body1[l])].sqrtInvInertia);
    }
    for (int t = 0; t < bt.slotCount; ++t) {
        TgsLanes& L = data.tgsSlots[static_cast<size_t>(bt.firstSlot + t)];
        for (int l = 0; l < kLanes; ++l) {
            if (t >= count[l]) {  // padding: never solved
                clearTgsLane(L, l);
                continue;
            }
            const size_t k = static_cast<size_t>(first[l] + t);
            const SolverRow& r = data.rows[k];
            const SolverRowExtra& x = data.extra[k];
            const bool angular = r.flags & kSolveAngular;
            // Angular rows keep their set-up Jacobian; linear rows' error uses I^-½·κ_base, which is
            // constant over the step (inertia frozen), so it is worked out once here.
            TgsLaneRow lane;
            lane.lin0 = r.lin0;
            lane.lin1 = r.lin1;
            lane.ang0Base = x.ang0Base;
            lane.ang1Base = x.ang1Base;
            lane.baseM0 =
                angular ? r.angM0 : data.info[static_cast<size_t>(r.b0)].sqrtInvInertia * x.ang0Base;
            lane.baseM1 =
                angular ? r.angM1 : data.info[static_cast<size_t>(r.b1)].sqrtInvInertia * x.ang1Base;
            lane.error0 = x.error0;
            lane.velTarget = x.velTarget;
            lane.erp = x.erp;
            lane.stiffness = x.stiffness;
            lane.damping = x.damping;
            lane.minImpulse = r.minImpulse;
            lane.maxImpulse = r.maxImpulse;
            lane.flags = r.flags;
            writeTgsLane(L, l, lane, bt);
            // a contact's impulses are set when the solve starts (solveTGS)
            if (r.flags & kSolveSubstep) data.warm.push_back(WarmStart{k, r.accum, bt.firstSlot + t, l});
            L.length0[l] = x.length0;
        }
    }
}

}  // namespace jl::solver
