// PGS's position sweeps pipelined: the plan, the copy of the rows, and the write-back
// (solver/fast/pipeline.h explains why the bits do not change; docs/performance.md §3 has the numbers).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "solver/fast/fast.h"

namespace jl::solver {

namespace {

/// The plan is only tried while the batches are at most this full on average (lanes per batch,
/// times 4): fuller batches already give the core independent rows to overlap.
constexpr int kMaxLanesPer4Batches = 12;
/// ... and kept only if it needs at most 3/4 of the batch solves of the plain sweeps.
constexpr int kPipelineGainNum = 3, kPipelineGainDen = 4;
/// Solves between two plan builds, at least (sweepPipelined).
constexpr uint64_t kMinSolvesPerPlan = 8;
/// Visits (joints × sweeps) a plan may hold.
constexpr int64_t kMaxPipelineVisits = int64_t{1} << 16;

/// A body as the plan sees it: a dynamic solver body orders the visits on it; the static body,
/// kinematic bodies and the parts' stand-ins never change velocity, so they order nothing (as in
/// the colouring).
int32_t planKey(const Data& data, int32_t body) {
    return body != 0 && data.info[static_cast<size_t>(body)].dynamic ? body : -1;
}

void buildSignature(const Data& data, std::vector<int32_t>& sig) {
    sig.clear();
    for (int b = 0; b < data.jointBatchEnd; ++b) {
        const Batch& bt = data.batches[static_cast<size_t>(b)];
        sig.push_back(bt.laneCount);
        sig.push_back(bt.slotCount);
        for (int l = 0; l < bt.laneCount; ++l) {
            sig.push_back(bt.constraint[l]);
            sig.push_back(bt.body0[l] ^ (planKey(data, bt.body0[l]) < 0 ? int32_t{-1} : 0));
            sig.push_back(bt.body1[l] ^ (planKey(data, bt.body1[l]) < 0 ? int32_t{-1} : 0));
        }
    }
}

/// Places `count` sweeps of the joints' visits into quads (solver/fast/pipeline.h). Each visit's
/// level is one more than the latest level of the visits before it (in sweep order) on its
/// dynamic bodies: the wave front of the sweeps. Visits are placed level by level (then in sweep
/// order); each goes to the first quad after the last quad holding a visit on one of its
/// dynamic bodies that has a free lane and its row count. A later visit on a body has a higher
/// level, so every body's visits are placed, and sit, in sweep order (in strictly increasing
/// quads), and no quad holds two visits on one body.
///
/// Placed level by level, the quads repeat a few joint sets once the wave is under way (the
/// 10-link chain: 5 quads for every 2 sweeps, the same 5 sets). Each full quad's set becomes a
/// composition; a quad whose joints are all in an existing composition is solved as that one
/// with the other lanes masked (the wave's start and end), so the compositions to lay out each
/// step are few.
void buildPlan(Data& data, Pipeline& pl, int count) {
    pl.joints.clear();
    pl.quads.clear();
    int rows = 0, jointCouplings = 0;
    for (int b = 0; b < data.jointBatchEnd; ++b) {
        const Batch& bt = data.batches[static_cast<size_t>(b)];
        for (int l = 0; l < bt.laneCount; ++l) {
            if (bt.constraint[l] < 0) continue;
            PipeJoint j;
            j.body0 = bt.body0[l];
            j.body1 = bt.body1[l];
            j.firstRow = rows;
            j.firstCoupling = jointCouplings;
            j.batch = b;
            j.lane = l;
            rows += bt.slotCount;
            jointCouplings += paddedCouplings(bt.slotCount);
            pl.joints.push_back(j);
        }
    }
    for (int l = 0; l < kLanes; ++l) pl.laneJoints[static_cast<size_t>(l)].clear();
    for (size_t i = 0; i < pl.joints.size(); ++i)
        pl.laneJoints[static_cast<size_t>(pl.joints[i].lane)].push_back(static_cast<int32_t>(i));
    pl.use = false;
    const int64_t joints = static_cast<int64_t>(pl.joints.size());
    const int64_t batches = data.jointBatchEnd;
    if (joints == 0 || joints * 4 > int64_t{kMaxLanesPer4Batches} * batches ||
        joints * count > kMaxPipelineVisits)
        return;
    for (const PipeJoint& j : pl.joints)
        if (data.batches[static_cast<size_t>(j.batch)].slotCount > kPipeMaxSlots) return;
    // The levels, in sweep order (`last` holds each body's latest level, `lastOfJoint` each
    // joint's: a joint's own visits follow each other too, which matters for a joint with no
    // dynamic body), then the visits sorted by level (stable: sweep order within a level).
    const int32_t nj = static_cast<int32_t>(joints);
    pl.last.assign(data.bodies.size(), -1);
    std::vector<int32_t> lastOfJoint(static_cast<size_t>(nj), -1);
    std::vector<std::pair<int32_t, int32_t>> order;  // (level, visit)
    order.reserve(static_cast<size_t>(nj * count));
    for (int32_t v = 0; v < nj * count; ++v) {
        const int32_t i = v % nj;
        const PipeJoint& j = pl.joints[static_cast<size_t>(i)];
        const int32_t k0 = planKey(data, j.body0), k1 = planKey(data, j.body1);
        int32_t level = lastOfJoint[static_cast<size_t>(i)] + 1;
        if (k0 >= 0) level = std::max(level, pl.last[static_cast<size_t>(k0)] + 1);
        if (k1 >= 0) level = std::max(level, pl.last[static_cast<size_t>(k1)] + 1);
        if (k0 >= 0) pl.last[static_cast<size_t>(k0)] = level;
        if (k1 >= 0) pl.last[static_cast<size_t>(k1)] = level;
        lastOfJoint[static_cast<size_t>(i)] = level;
        order.emplace_back(level, v);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    pl.last.assign(data.bodies.size(), -1);
    lastOfJoint.assign(static_cast<size_t>(nj), -1);  // now each joint's last quad
    // Per row count, the quads with a free lane (ordered: the first one at or after a visit's
    // earliest quad is where it goes).
    std::array<std::set<int32_t>, kMaxBatchSlots + 1> open;
    for (const auto& [level, v] : order) {
        const int32_t i = v % nj;
        const PipeJoint& j = pl.joints[static_cast<size_t>(i)];
        const int slots = data.batches[static_cast<size_t>(j.batch)].slotCount;
        const int32_t k0 = planKey(data, j.body0), k1 = planKey(data, j.body1);
        int32_t first = lastOfJoint[static_cast<size_t>(i)] + 1;
        if (k0 >= 0) first = std::max(first, pl.last[static_cast<size_t>(k0)] + 1);
        if (k1 >= 0) first = std::max(first, pl.last[static_cast<size_t>(k1)] + 1);
        std::set<int32_t>& free = open[static_cast<size_t>(slots)];
        const auto it = free.lower_bound(first);
        int32_t q;
        if (it != free.end()) {
            q = *it;
        } else {
            q = static_cast<int32_t>(pl.quads.size());
            pl.quads.emplace_back();
            pl.quads.back().slotCount = slots;
            free.insert(q);
        }
        PipeQuad& quad = pl.quads[static_cast<size_t>(q)];
        quad.joint[quad.laneCount] = i;
        quad.visit[quad.laneCount] = v;
        ++quad.laneCount;
        if (quad.laneCount == kLanes) free.erase(q);
        if (k0 >= 0) pl.last[static_cast<size_t>(k0)] = q;
        if (k1 >= 0) pl.last[static_cast<size_t>(k1)] = q;
        lastOfJoint[static_cast<size_t>(i)] = q;
    }
    // The compositions: the full quads' joint sets first, then each other quad goes to the first
    // composition holding all its joints, or gets one of its own.
    pl.comps.clear();
    int slots = 0, couplings = 0;
    auto addComp = [&](const PipeQuad& q) {
        Batch& bt = pl.comps.emplace_back();
        bt.firstSlot = slots;
        bt.firstCoupling = couplings;
        couplings += couplingCount(q.slotCount);
        slots += q.slotCount;
        bt.slotCount = q.slotCount;
        bt.laneCount = q.laneCount;
        bt.contact = 0;
        bt.layout = kLayoutFull;
        bt.firstBlock = static_cast<int32_t>(pl.comps.size()) - 1;
        for (int l = 0; l < kLanes; ++l) {
            const int32_t j = l < q.laneCount ? q.joint[l] : -1;
            bt.constraint[l] = j;
            bt.body0[l] = j >= 0 ? pl.joints[static_cast<size_t>(j)].body0 : 0;
            bt.body1[l] = j >= 0 ? pl.joints[static_cast<size_t>(j)].body1 : 0;
        }
    };
    auto laneIn = [](const Batch& bt, int32_t j) {
        for (int l = 0; l < bt.laneCount; ++l)
            if (bt.constraint[l] == j) return l;
        return -1;
    };
    std::map<std::array<int32_t, kLanes + 1>, int32_t> full;  // sorted joints, row count → composition
    // After the joints' impulses in Pipeline::accum: kPipeMaxSlots zeros for padding lanes (which
    // leave them zeros), then kPipeMaxSlots for masked lanes to scribble on.
    const int zeros = rows, scratch = rows + kPipeMaxSlots;
    std::vector<uint8_t> seen;
    for (int pass = 0; pass < 2; ++pass) {
        for (PipeQuad& q : pl.quads) {
            if ((q.laneCount == kLanes) != (pass == 0)) continue;
            int32_t c = -1;
            if (pass == 0) {
                std::array<int32_t, kLanes + 1> key{q.joint[0], q.joint[1], q.joint[2], q.joint[3],
                                                    q.slotCount};
                std::sort(key.begin(), key.begin() + kLanes);
                const auto [it, fresh] = full.emplace(key, static_cast<int32_t>(pl.comps.size()));
                if (fresh) addComp(q);
                c = it->second;
            } else {
                for (size_t k = 0; k < pl.comps.size() && c < 0; ++k) {
                    const Batch& bt = pl.comps[k];
                    bool all = bt.slotCount == q.slotCount;
                    for (int l = 0; l < q.laneCount && all; ++l) all = laneIn(bt, q.joint[l]) >= 0;
                    if (all) c = static_cast<int32_t>(k);
                }
                if (c < 0) {
                    c = static_cast<int32_t>(pl.comps.size());
                    addComp(q);
                }
            }
            // The visits into the composition's lanes.
            const Batch& bt = pl.comps[static_cast<size_t>(c)];
            PipeQuad placed;
            placed.slotCount = q.slotCount;
            placed.laneCount = q.laneCount;
            placed.comp = c;
            for (int l = 0; l < kLanes; ++l) {
                placed.joint[l] = bt.constraint[l];
                placed.accum[l] = bt.constraint[l] >= 0 ? scratch : zeros;
            }
            for (int l = 0; l < q.laneCount; ++l) {
                const int m = laneIn(bt, q.joint[l]);
                placed.visit[m] = q.visit[l];
                placed.accum[m] = pl.joints[static_cast<size_t>(q.joint[l])].firstRow;
                placed.live |= 1 << m;
            }
            placed.masked = q.laneCount < bt.laneCount ? 1 : 0;
            q = placed;
        }
    }
    seen.assign(pl.comps.size(), 0);
    int64_t visits = 0;
    for (PipeQuad& q : pl.quads) {
        q.fresh = seen[static_cast<size_t>(q.comp)] ? 0 : 1;
        seen[static_cast<size_t>(q.comp)] = 1;
        visits += std::popcount(static_cast<uint32_t>(q.live));
    }
    // Every visit in exactly one lane (a quad never holds one joint twice, since a joint's visits
    // are ordered like a body's); if that ever failed, a residual would go unwritten: plain sweeps.
    if (visits != int64_t{nj} * count) return;
    pl.compSlots.resize(static_cast<size_t>(slots));
    pl.compHardSlots.resize(static_cast<size_t>(slots));
    pl.compCouplings.resize(static_cast<size_t>(couplings));
    pl.compBlocks.resize(pl.comps.size());
    pl.accum.assign(static_cast<size_t>(rows + 2 * kPipeMaxSlots), 0.0);
    pl.use = static_cast<int64_t>(pl.quads.size()) * kPipelineGainDen <=
             int64_t{kPipelineGainNum} * count * batches;
    pl.rows.resize(static_cast<size_t>(rows));
    pl.jointCouplings.assign(static_cast<size_t>(jointCouplings), 0.0);
}

/// Quantity q of lane l of a row slot in any layout, expanded to RowLanes (PipeRow's order).
void expandLane(const Data& data, const Batch& bt, int s, int l, PipeRow& out) {
    const size_t at = static_cast<size_t>(bt.firstSlot + s);
    if (bt.layout == kLayoutFull) {
        const double* src = &data.slots[at].lin0[0][0];
        for (int q = 0; q < 20; ++q) out.q[q] = src[q * kLanes + l];
        return;
    }
    // Lock and hard rows: linear1 = linear0 and an impulse multiplier of 1 (the compact kernels
    // add the accumulated impulse itself; 1·accum is the same number).
    auto common = [&](const auto& r) {
        for (int k = 0; k < 3; ++k) {
            out.q[k] = out.q[6 + k] = r.lin[k][l];
            out.q[3 + k] = r.ang0[k][l];
            out.q[9 + k] = r.ang1[k][l];
        }
        out.q[12] = r.constant[l];
        out.q[13] = r.unbiasedConstant[l];
        out.q[14] = r.vMul[l];
        out.q[15] = 1.0;
        out.q[kPipeAccum] = r.accum[l];
        out.q[kPipeResponse] = r.response[l];
    };
    if (bt.layout == kLayoutHard) {
        const HardLanes& r = data.hardSlots[at];
        common(r);
        out.q[16] = r.minImpulse[l];
        out.q[17] = r.maxImpulse[l];
        return;
    }
    const LockLanes& r = data.lockSlots[at];
    common(r);
    // The lock kernel's bounds (solver/fast/pgs_avx2.cpp, newImpulse): ±kMaxRowVelocityChange·(1/r), 1/r =
    // −vMul.
    const double hi = kMaxRowVelocityChange * -r.vMul[l];
    out.q[16] = -hi;
    out.q[17] = hi;
}

/// True if a row can be solved as a hard row (HardLanes): linear1 = linear0 bit for bit, and
/// impulseMul 1 unless the row is inactive.
bool hardRow(const PipeRow& row) {
    return std::memcmp(row.q + 6, row.q, 3 * sizeof(double)) == 0 &&
           (!(row.q[kPipeResponse] > 0.0) || row.q[15] == 1.0);
}

double& accumAt(Data& data, const Batch& bt, int s, int l) {
    const size_t at = static_cast<size_t>(bt.firstSlot + s);
    if (bt.layout == kLayoutLock) return data.lockSlots[at].accum[l];
    if (bt.layout == kLayoutHard) return data.hardSlots[at].accum[l];
    return data.slots[at].accum[l];
}

}  // namespace

void layoutCompScalar(Batch& bt, const PipeSource& src, RowLanes* compSlots, CouplingLanes* compCouplings,
                      BlockLanes* compBlocks) {
    const int n = couplingCount(bt.slotCount);
    for (int l = 0; l < kLanes; ++l) {
        const int32_t j = bt.constraint[l];
        const PipeJoint* J = j >= 0 ? src.joints + j : nullptr;
        const double* scale = J ? J->scale : src.zeroScales;
        bt.linScale0[l] = scale[0];
        bt.angScale0[l] = scale[1];
        bt.linScale1[l] = scale[2];
        bt.angScale1[l] = scale[3];
        bt.blockStart[l] = J ? J->blockStart : int8_t{0};
        bt.blockSize[l] = J ? J->blockSize : int8_t{0};
        const double* gain = J ? J->gain : src.zeroScales;
        for (int g = 0; g < 9; ++g) compBlocks[bt.firstBlock].gain[g][l] = gain[g];
        const PipeRow* rows = J ? src.rows + J->firstRow : src.zeroRows;
        for (int s = 0; s < bt.slotCount; ++s) {
            double* out = &compSlots[bt.firstSlot + s].lin0[0][0];
            for (int k = 0; k < 20; ++k) out[k * kLanes + l] = rows[s].q[k];
        }
        const double* K = J ? src.couplings + J->firstCoupling : src.zeroCouplings;
        for (int k = 0; k < n; ++k) compCouplings[bt.firstCoupling + k].k[l] = K[k];
    }
    markBlockSlots(bt);
}

bool sweepPipelined(Data& data, int count, bool simd, std::vector<Real>& residuals) {
    if (!gPipeline.load(std::memory_order_relaxed) || count < 2 || data.parts() != 1 ||
        static_cast<int>(data.batches.size()) != data.jointBatchEnd || data.jointBatchEnd == 0)
        return false;
    // The cheap test first: batches this full solve as fast as a plan would.
    int64_t lanes = 0;
    for (int b = 0; b < data.jointBatchEnd; ++b) lanes += data.batches[static_cast<size_t>(b)].laneCount;
    if (lanes * 4 > int64_t{kMaxLanesPer4Batches} * data.jointBatchEnd) return false;

    Pipeline& pl = data.pipeline;
    ++pl.solves;
    buildSignature(data, pl.check);
    if (pl.check != pl.signature || pl.sweeps != count) {
        // A scene whose row counts change every few steps (limits coming and going) would
        // rebuild its plan every step, which costs more than it saves: at most one plan per
        // kMinSolvesPerPlan solves, plain sweeps in between.
        if (pl.solves - pl.builtAt < kMinSolvesPerPlan && pl.builtAt > 0) return false;
        pl.signature.swap(pl.check);
        pl.sweeps = count;
        pl.builtAt = pl.solves;
        buildPlan(data, pl, count);
        gPipelinePlansBuilt.fetch_add(1, std::memory_order_relaxed);
        gPipelinePlanQuads.store(static_cast<int>(pl.quads.size()), std::memory_order_relaxed);
        gPipelinePlanComps.store(static_cast<int>(pl.comps.size()), std::memory_order_relaxed);
        gPipelinePlanMasked.store(
            static_cast<int>(std::count_if(pl.quads.begin(), pl.quads.end(),
                                           [](const PipeQuad& q) { return q.masked != 0; })),
            std::memory_order_relaxed);
    }
    if (!pl.use) return false;

    // This step's rows, impulses, couplings and mass scales, joint by joint; the kernels lay out
    // each composition from them before its first quad.
    bool hard = simd;
    for (PipeJoint& j : pl.joints) {
        const Batch& bt = data.batches[static_cast<size_t>(j.batch)];
        const int l = j.lane;
        j.scale[0] = bt.linScale0[l];
        j.scale[1] = bt.angScale0[l];
        j.scale[2] = bt.linScale1[l];
        j.scale[3] = bt.angScale1[l];
        j.blockStart = bt.blockStart[l];
        j.blockSize = bt.blockSize[l];
        for (int g = 0; g < 9; ++g)
            j.gain[g] = j.blockSize > 0 ? data.blocks[static_cast<size_t>(bt.firstBlock)].gain[g][l] : 0.0;
        PipeRow* rows = pl.rows.data() + j.firstRow;
        if (simd && bt.layout == kLayoutFull)
            expandFullAvx2(data.slots.data() + bt.firstSlot, bt.slotCount, l, rows);
        else
            for (int s = 0; s < bt.slotCount; ++s) expandLane(data, bt, s, l, rows[s]);
        for (int s = 0; s < bt.slotCount; ++s) {
            pl.accum[static_cast<size_t>(j.firstRow + s)] = rows[s].q[kPipeAccum];
            hard = hard && hardRow(rows[s]);
        }
        const int n = couplingCount(bt.slotCount);
        const CouplingLanes* in = data.couplings.data() + bt.firstCoupling;
        double* out = pl.jointCouplings.data() + j.firstCoupling;
        for (int k = 0; k < n; ++k) out[k] = in[k].k[l];
    }
    static const PipeRow kZeroRows[kPipeMaxSlots] = {};
    static const double kZeros[paddedCouplings(kPipeMaxSlots)] = {};
    PipeSource src;
    src.hard = hard;
    src.joints = pl.joints.data();
    src.rows = pl.rows.data();
    src.couplings = pl.jointCouplings.data();
    src.zeroRows = kZeroRows;
    src.zeroCouplings = kZeros;
    src.zeroScales = kZeros;
    pl.visitResidual.resize(pl.joints.size() * static_cast<size_t>(count));
    double* bodies = &data.bodies[0].linVel.x;
    const int quads = static_cast<int>(pl.quads.size());
    if (simd)
        sweepQuadsAvx2(pl.quads.data(), quads, pl.comps.data(), pl.compSlots.data(), pl.compHardSlots.data(),
                       pl.compCouplings.data(), pl.compBlocks.data(), src, pl.accum.data(), bodies, true,
                       pl.visitResidual.data());
    else
        sweepQuadsScalar(pl.quads.data(), quads, pl.comps.data(), pl.compSlots.data(),
                         pl.compCouplings.data(), pl.compBlocks.data(), src, pl.accum.data(), bodies, true,
                         pl.visitResidual.data());
    for (const PipeJoint& j : pl.joints) {
        const Batch& bt = data.batches[static_cast<size_t>(j.batch)];
        for (int s = 0; s < bt.slotCount; ++s)
            accumAt(data, bt, s, j.lane) = pl.accum[static_cast<size_t>(j.firstRow + s)];
    }
    gPipelinedSolves.fetch_add(1, std::memory_order_relaxed);
    if (hard) gPipelinedHardSolves.fetch_add(1, std::memory_order_relaxed);
    // Each sweep's residual as the plain sweep sums it: per lane, batch after batch (the joints
    // are in batch order), then the lanes.
    for (int k = 0; k < count; ++k) {
        const double* v = pl.visitResidual.data() + static_cast<size_t>(k) * pl.joints.size();
        double lane[kLanes];
        for (int l = 0; l < kLanes; ++l) {
            double sum = 0.0;
            for (const int32_t i : pl.laneJoints[static_cast<size_t>(l)]) sum = sum + v[i];
            lane[l] = sum;
        }
        residuals.push_back(std::sqrt((lane[0] + lane[1]) + (lane[2] + lane[3])));
    }
    return true;
}

}  // namespace jl::solver
