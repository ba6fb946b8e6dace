// The World's step, as a sequence of named stages (see world.h and docs/solvers.md).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "joints/row_builder.h"
#include "world/world_impl.h"

namespace jl {

namespace {

constexpr Real kContactMargin = 0.02;  // speculative contact distance [m]
constexpr Real kContactSlop = 0.0;     // penetration left uncorrected, so resting contacts do not chatter [m]

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

// [SECTION] step

namespace {

/// Writes a prepared row into lane l of a batched row slot (solver/fast/batch.h); used for contacts,
/// whose set-up adds the warm start and friction bounds (joints: solver::setupRowLane). Inactive
/// rows keep zeros (their impulse change is masked to zero; zeros keep NaN out of the sums).
void writeLane(solver::RowLanes& L, int l, const solver::SolverRow& r) {
    solver::storeLane(L, l, !(r.flags & solver::kSolveInactive), r.lin0, r.angM0, r.lin1, r.angM1, r.constant,
                      r.unbiasedConstant, r.vMul, r.impulseMul, r.minImpulse, r.maxImpulse, r.accum,
                      r.response);
}

void padLane(solver::RowLanes& L, int l) {
    for (int k = 0; k < 3; ++k) L.lin0[k][l] = L.ang0[k][l] = L.lin1[k][l] = L.ang1[k][l] = 0.0;
    L.constant[l] = L.unbiasedConstant[l] = L.vMul[l] = L.impulseMul[l] = 0.0;
    L.minImpulse[l] = L.maxImpulse[l] = L.accum[l] = L.response[l] = 0.0;
}

/// Moves the batches that `late` picks to the end of their window (windows: as colourBatches
/// gives them), keeping the order within the moved and the staying ones; returns the index of
/// the first batch moved, batches.size() if none. `moved` is scratch.
template <class Late>
int moveLateBatchesLast(std::vector<solver::LaneIds>& batches, const std::vector<int>& windows, Late&& late,
                        std::vector<solver::LaneIds>& moved) {
    int first = static_cast<int>(batches.size());
    for (size_t w = 1; w < windows.size(); ++w) {
        int out = windows[w - 1];
        moved.clear();
        for (int b = windows[w - 1]; b < windows[w]; ++b) {
            const solver::LaneIds& ids = batches[static_cast<size_t>(b)];
            if (late(ids))
                moved.push_back(ids);
            else
                batches[static_cast<size_t>(out++)] = ids;
        }
        if (!moved.empty()) first = std::min(first, out);
        std::copy(moved.begin(), moved.end(), batches.begin() + out);
    }
    return first;
}

}  // namespace

void World::Impl::markLockPrepBatches(size_t jointCount) {
    batchLockPrep.assign(jointBatches.size(), uint8_t{solver::kLockPrepNone});
    jointInLockBatch.assign(jointCount, 0);
    for (size_t bi = 0; bi < jointBatches.size(); ++bi) {
        const solver::LaneIds& ids = jointBatches[bi];
        const uint8_t kind =
            ids[0] >= 0 ? jointLockPrep[static_cast<size_t>(ids[0])] : uint8_t{solver::kLockPrepNone};
        int lanes = 0;
        bool same = kind != solver::kLockPrepNone;
        for (const int id : ids)
            if (id >= 0) ++lanes, same = same && jointLockPrep[static_cast<size_t>(id)] == kind;
        if (!same || lanes < 2) continue;
        batchLockPrep[bi] = kind;
        for (const int id : ids)
            if (id >= 0) jointInLockBatch[static_cast<size_t>(id)] = 1;
    }
}

static_assert(sizeof(Transform) == 7 * sizeof(Real) && offsetof(Transform, q) == 3 * sizeof(Real) &&
                  offsetof(Quat, x) == 0 && offsetof(Quat, w) == 3 * sizeof(Real),
              "prepLockBatchAvx2 reads a Transform as p.xyz then q.xyzw");
static_assert(offsetof(Row, maxImpulse) == 15 * sizeof(Real),
              "prepLockBatchAvx2 writes a Row's first 16 doubles");

int World::Impl::lockBatch(size_t bi, int kind, const std::vector<BodyState>& poses, bool rowsToo) {
    static const Transform kIdentity{};
    const solver::Batch& bt = data.batches[bi];
    const int n = solver::kLockPrepRows[kind];
    solver::LockPrepIn in;
    in.kind = kind;
    in.writeRows = rowsToo;
    for (int l = 0; l < solver::kLanes; ++l) {
        const int j = bt.constraint[l];
        const solver::BodyInfo& i0 = data.info[static_cast<size_t>(bt.body0[l])];
        const solver::BodyInfo& i1 = data.info[static_cast<size_t>(bt.body1[l])];
        in.invI0[l] = &i0.sqrtInvInertia[0][0];
        in.invI1[l] = &i1.sqrtInvInertia[0][0];
        in.pre0[l] = &i0.vPre.x;
        in.pre1[l] = &i1.vPre.x;
        if (j < 0) {  // padding: both bodies are the static one
            in.pose0[l] = in.pose1[l] = in.frame0[l] = in.frame1[l] = &kIdentity.p.x;
            continue;
        }
        const size_t ju = static_cast<size_t>(j);
        if (rowsToo)
            for (int t = 0; t < n; ++t)
                in.row[t][l] = &rows[static_cast<size_t>(jointRowRange[ju].first + t)].linear0.x;
        const int b0 = jointBody0[ju], b1 = jointBody1[ju];
        in.pose0[l] = b0 >= 0 ? &poses[static_cast<size_t>(b0)].pose.p.x : &kIdentity.p.x;
        in.pose1[l] = b1 >= 0 ? &poses[static_cast<size_t>(b1)].pose.p.x : &kIdentity.p.x;
        in.frame0[l] = &jointFrames[ju].frame0.p.x;
        in.frame1[l] = &jointFrames[ju].frame1.p.x;
    }
    // (lock batches are only formed when the AVX2 kernel is compiled in and runs)
    solver::LockPrepOut out;
    if (!rowsToo) {
        solver::prepLockBatchAvx2(bt, in, lockErp, lockDt, &data.lockSlots[static_cast<size_t>(bt.firstSlot)],
                                  out);
        int active = 0;
        for (int t = 0; t < n; ++t) active += std::popcount(static_cast<unsigned>(out.active[t]));
        return active;
    }
    // The rows again, from the same inputs: the slots it writes are a copy, thrown away (the
    // solver's hold this step's impulses).
    solver::LockLanes scratch[solver::kMaxLockPrepRows];
    solver::prepLockBatchAvx2(bt, in, lockErp, lockDt, scratch, out);
    // What prepJoint, the joint's prep function and setupHardSlot would have written besides.
    for (int l = 0; l < solver::kLanes; ++l) {
        const int j = bt.constraint[l];
        if (j < 0) continue;
        const size_t ju = static_cast<size_t>(j);
        const int b1 = jointBody1[ju];
        jointX1[ju] = b1 >= 0 ? poses[static_cast<size_t>(b1)].pose.p : Vec3(0.0);
        jointBodies[ju] = jointRowBodies(ju, Vec3(out.r0[0][l], out.r0[1][l], out.r0[2][l]),
                                         Vec3(out.r1[0][l], out.r1[1][l], out.r1[2][l]));
        const int first = jointRowRange[ju].first;
        for (int t = 0; t < n; ++t) {
            // rows 0–2: linear locks; then angular locks about X, Y, Z (fixed) or Y, Z (revolute)
            const bool angular = t >= 3;
            const int axis = solver::kLockPrepFirstAngularAxis[kind] + (t - 3);
            const size_t k = static_cast<size_t>(first + t);
            Row& r = rows[k];  // linear0 to maxImpulse are written
            r.mods.spring.stiffness = 0.0;
            r.mods.spring.damping = 0.0;
            r.flags = angular ? kRowOutputForce | kRowAngular : kRowOutputForce;
            r.solveHint = SolveHint::Equality;
            r.erpOverride = -1.0;
            r.label = angular ? rows::kAngularLockLabels[axis] : rows::kLinearLockLabels[t];
            const bool on = (out.active[t] >> l) & 1;
            RowOut& o = rowOut[k];
            o.response = out.response[t][l];
            o.minImpulse = -kInf;
            o.maxImpulse = kInf;
            o.erp = on ? lockErp : 0.0;
            o.velTarget = 0.0;
            o.flags = static_cast<uint16_t>((angular ? solver::kSolveAngular : 0) |
                                            (on ? 0 : solver::kSolveInactive));
            rowSolver[k] = rowPlace(bt.firstSlot + t, l, solver::kLayoutLock);
        }
    }
    return 0;
}

static_assert(solver::kMaxSweepTasks >= kMaxSolverThreads,
              "a part per solver thread, each with its sweep flag");

void World::Impl::colourJoints(int threads, SolverOrder order) {
    const int nj = static_cast<int>(colouredSkip.size());
    const int keys = solverBodyCount;
    colouredThreads = threads;
    // Parts of at least kMinJointsPerPart joints: a smaller part costs about as much to hand to
    // another core as to solve (docs/solvers.md §7).
    const int live = static_cast<int>(std::count(colouredSkip.begin(), colouredSkip.end(), uint8_t{0}));
    const int parts = std::clamp(live / kMinJointsPerPart, 1, threads);
    // Each part gets a stand-in for the static body (solver body 0, whose zero velocity every
    // batch with a padding lane or a joint to the world loads and stores back): solver body
    // solverBodyCount + t for part t, static like body 0 (setupBatch points the part's batches at
    // it). Parts then share no solver body at all, not even a cache line of zeros.
    data.standIns = parts > 1 ? parts : 0;
    data.bodies.resize(static_cast<size_t>(solverBodyCount + data.standIns));
    data.info.resize(data.bodies.size());
    if (parts == 1) {
        jointGroup.assign(static_cast<size_t>(nj), 0);
        solver::colourBatches(jointKey0.data(), jointKey1.data(), colouredSkip.data(), nj, keys, order,
                              jointBatches, colourScratch, &jointWindows);
        windowGroup.assign(jointWindows.size() - 1, 0);
        data.partStart.clear();
        return;
    }
    // Kinematic bodies count too: no row changes their velocity, but a batch stores back the
    // record of every body it loads, so two parts must not share one.
    partKey0.resize(static_cast<size_t>(nj));
    partKey1.resize(static_cast<size_t>(nj));
    for (size_t j = 0; j < static_cast<size_t>(nj); ++j) {
        partKey0[j] = jointSolver0[j] > 0 ? jointSolver0[j] : -1;
        partKey1[j] = jointSolver1[j] > 0 ? jointSolver1[j] : -1;
    }
    solver::partitionConstraints(partKey0.data(), partKey1.data(), colouredSkip.data(), nj, keys, parts,
                                 jointGroup, colourScratch);
    // TGS integrates each part's bodies in the part's task, right after its sweep: a body of
    // run t is touched only by part t and by joints between parts (which task t has waited for
    // before its batches on their bodies), so it is done with this substep by then. Bodies no joint touches
    // go to task 0. As [begin, end) spans of solver bodies.
    data.integrateSpans.clear();
    data.integrateSpanStart.assign(1, 0);
    for (int t = 0; t < parts; ++t) {
        int begin = -1;
        for (int b = 1; b <= solverBodyCount; ++b) {
            const int run = b < solverBodyCount ? colourScratch.last[static_cast<size_t>(b)] : -3;
            const bool mine = b < solverBodyCount && (run == t || (t == 0 && run < 0));
            if (mine && begin < 0) begin = b;
            if (!mine && begin >= 0) {
                data.integrateSpans.push_back(begin);
                data.integrateSpans.push_back(b);
                begin = -1;
            }
        }
        data.integrateSpanStart.push_back(static_cast<int>(data.integrateSpans.size() / 2));
    }
    // The bodies of the joints between parts. Task 0 sweeps those joints first, then its own
    // part; every other part sweeps the batches that touch none of these bodies meanwhile and
    // waits for task 0 only before the first one that does (solver::sweepParts and
    // sweepPartsTogether). So that it waits as late as possible, such batches go last in each
    // window of their part.
    betweenKey.assign(static_cast<size_t>(keys), 0);
    for (size_t j = 0; j < static_cast<size_t>(nj); ++j)
        if (jointGroup[j] == parts)
            for (const int k : {partKey0[j], partKey1[j]})
                if (k >= 0) betweenKey[static_cast<size_t>(k)] = 1;
    auto late = [&](const solver::LaneIds& ids) {
        for (const int id : ids)
            if (id >= 0)
                for (const int k : {partKey0[static_cast<size_t>(id)], partKey1[static_cast<size_t>(id)]})
                    if (k >= 0 && betweenKey[static_cast<size_t>(k)]) return true;
        return false;
    };
    jointBatches.clear();
    jointWindows.assign(1, 0);
    windowGroup.clear();
    data.partStart.clear();
    data.partWait.clear();
    groupSkip.resize(static_cast<size_t>(nj));
    for (int g = 0; g <= parts;
         ++g) {  // the parts' batches, then those of the joints between them (swept first)
        const int offset = static_cast<int>(jointBatches.size());
        data.partStart.push_back(offset);
        for (size_t j = 0; j < static_cast<size_t>(nj); ++j) groupSkip[j] = jointGroup[j] != g;
        const int colours = solver::colourBatches(jointKey0.data(), jointKey1.data(), groupSkip.data(), nj,
                                                  keys, order, groupBatches, colourScratch, &groupWindows);
        // A part whose ordered colours are thin (fewer than kMinBatchesPerColour batches per
        // colour and window, counting the windows that hold its joints and, in each, the most
        // colours any window has) takes plain greedy colouring if that needs fewer colours.
        // The batches of a colour are independent, so a core works on the next while the first
        // one's chain of dependent row updates completes; with one or two per colour the sweep
        // waits on that chain colour after colour. A chain solved in parts is the case: runs of
        // 8 joints give 8 colours of 6 or 7 joints (the benchmark's 100-link chain, TGS, two
        // threads: 122 → 137 M row-iterations/s). A grid's or the ragdolls' colours hold 4 or
        // more batches and keep the scene order's accuracy (the 16×16 grid of the tests stretches
        // 0.0195 m RMS on two threads in plain colours, 0.0150 m in ordered ones). Scenes of one
        // part (under 64 joints) keep the ordered colours, for which they exist (§6).
        int windows = 0;  // (colourBatches's windows span all joints; most hold none of a part's)
        for (size_t w = 1; w < groupWindows.size(); ++w)
            windows += groupWindows[w] > groupWindows[w - 1] ? 1 : 0;
        if (g < parts &&
            static_cast<int64_t>(groupBatches.size()) < int64_t{kMinBatchesPerColour} * colours * windows) {
            const int plain =
                solver::colourBatches(jointKey0.data(), jointKey1.data(), groupSkip.data(), nj, keys, order,
                                      plainBatches, colourScratch, &plainWindows, 0);
            if (plain < colours) {
                groupBatches.swap(plainBatches);
                groupWindows.swap(plainWindows);
            }
        }
        if (g < parts) {  // part g's first batch that touches a body of the joints between parts
            const int wait = g > 0 ? moveLateBatchesLast(groupBatches, groupWindows, late, lateBatches) : 0;
            data.partWait.push_back(offset + wait);
        }
        jointBatches.insert(jointBatches.end(), groupBatches.begin(), groupBatches.end());
        for (size_t w = 1; w < groupWindows.size(); ++w) {
            jointWindows.push_back(offset + groupWindows[w]);
            windowGroup.push_back(static_cast<uint8_t>(g));
        }
    }
}

void World::Impl::ensureLockRows() {
    if (!lockRowsPending) return;
    lockRowsPending = false;
    const size_t n = std::min(batchLockPrep.size(), jointBatches.size());
    // Each batch writes only its own joints' rows, reports and lever arms: with several parts the
    // threads share the batches.
    const int parts = data.parts();
    auto share = [&](int t) {
        for (size_t bi = n * static_cast<size_t>(t) / static_cast<size_t>(parts);
             bi < n * static_cast<size_t>(t + 1) / static_cast<size_t>(parts); ++bi)
            if (batchLockPrep[bi] != solver::kLockPrepNone) lockBatch(bi, batchLockPrep[bi], lastGood, true);
    };
    if (parts > 1)
        data.pool->run(parts, share);
    else
        share(0);
}

void World::step() {
    Impl& m = *impl_;
    const WorldSettings& s = scene_.settings;
    const Real dt = s.dt;
    const bool tgs = s.solver == SolverType::TGS;
    solver::Params params{dt,
                          std::max(1, s.posIters),
                          std::max(0, s.velIters),
                          s.effectiveBaumgarte(),
                          s.maxLinearSpeed,
                          s.maxAngularSpeed,
                          activeSolverKernel() == SolverKernel::Avx2};

    // The states before the step become lastGood without a copy: the two buffers swap, the step
    // reads `before`, and the write-back writes every body of bodies_.
    if (m.lastGood.size() == bodies_.size())
        std::swap(m.lastGood, bodies_);
    else
        m.lastGood = bodies_;
    const std::vector<BodyState>& before = m.lastGood;

    // 1. external forces and damping -> v_pre; per-step body constants (inertia frozen, F "TGS").
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

    // 2. solve order: joints coloured so that no two of a colour share a dynamic body, cut into
    // batches of 4 (solver/colour.cpp). The colouring only changes when a joint breaks or mends.
    const SolverOrder order = solverOrder();
    const size_t nj = joints_.size();
    bool recolour = !m.coloured || m.colouredOrder != order;
    if (m.brokenChanged)  // a joint broke or was mended or restored since: did any change for good?
        for (size_t j = 0; j < nj && !recolour; ++j)
            recolour = m.colouredSkip[j] != static_cast<uint8_t>(joints_[j].broken);
    m.brokenChanged = false;
    const int threads = std::clamp(s.threads, 1, kMaxSolverThreads);
    recolour = recolour || m.colouredThreads != threads;
    if (recolour) {
        for (size_t j = 0; j < nj; ++j) m.colouredSkip[j] = static_cast<uint8_t>(joints_[j].broken);
        m.colourJoints(threads, order);
        m.coloured = true;
        m.colouredOrder = order;
        m.markLockPrepBatches(nj);
    }
    if (const int parts = data.parts();
        parts > 1) {  // threads: one per part, within the machine's cores (1 core: none)
        const int workers = std::min(parts, solver::WorkerPool::usableCores()) - 1;
        data.pool = &solver::WorkerPool::shared(workers);
    }
    const bool simdSetup = !tgs && params.simd;
    m.lockRowsPending = false;
    m.lockActiveRows = 0;
    m.lockErp = params.erp;
    m.lockDt = params.dt;

    // Prep (PxConstraintShaderTable::solverPrep): joint j writes its rows straight into the row
    // buffer; which bodies and lever arms they act through is stored once per joint.
    m.rowCount = 0;
    for (size_t j = 0; j < nj; ++j)  // broken joints have no rows; prep places the others
        if (m.colouredSkip[j]) m.jointRowRange[j] = {};
    auto prepJoint = [&](size_t j) {
        Impl::RowRange& range = m.jointRowRange[j];
        range.first = static_cast<int>(m.rowCount);
        const JointFrames& f = m.jointFrames[j];
        const int b0 = m.jointBody0[j], b1 = m.jointBody1[j];
        const Transform pose0 = b0 >= 0 ? before[static_cast<size_t>(b0)].pose : Transform{};
        const Transform pose1 = b1 >= 0 ? before[static_cast<size_t>(b1)].pose : Transform{};
        PrepContext ctx = PrepContext::make(pose0, f.frame0, pose1, f.frame1, dt);
        ctx.memory = &m.memory[j];
        RowWriter out{m.reserveRows(kMaxRowsPerJoint), kMaxRowsPerJoint};
        std::visit([&](const auto& params) { prep(params, ctx, out); }, scene_.joints[j].params);
        m.jointX1[j] = pose1.p;
        m.jointBodies[j] = m.jointRowBodies(j, ctx.r0, ctx.r1);
        m.rowCount += static_cast<size_t>(out.count);
        range.count = out.count;
    };

    // Where each constraint's rows are: joints, then ground contacts (one per support point,
    // three rows: normal, friction X, friction Z).
    auto constraintRows = [&](bool contact, int id, int& first, int& count, const solver::RowBodies*& rb) {
        if (contact) {
            const ContactRef& c = m.contacts[static_cast<size_t>(id)];
            first = c.firstRow;
            count = 3;
            rb = &c.rb;
        } else {
            const Impl::RowRange& range = m.jointRowRange[static_cast<size_t>(id)];
            first = range.first;
            count = range.count;
            rb = &m.jointBodies[static_cast<size_t>(id)];
        }
    };
    // Solver set-up of row k, slot t of its constraint (solver/row_setup.cpp), and what telemetry needs.
    auto prepare = [&](size_t k, const solver::RowBodies& rb, bool contact, int t, int contactId,
                       Real normalAccum, solver::SolverRow& sr, solver::SolverRowExtra& sx) {
        RowOut& o = m.rowOut[k];
        solver::setupRow(m.rows[k], rb, data, params, tgs, sr, sx, o);
        if (contact) {
            // Contacts are warm-started from the same body feature's impulses of the last step
            // (joint rows start from zero, as PhysX's joints do). Without it, 4 sweeps over a
            // box's 12 coupled rows leave a residual tangential velocity every step and a resting
            // box creeps.
            const size_t key = static_cast<size_t>(m.contacts[static_cast<size_t>(contactId)].key) * 3;
            const bool inactive = sr.flags & solver::kSolveInactive;
            if (t == 0) {
                // within the row's bounds (kMaxRowVelocityChange): a warm start never carries more
                sr.accum = inactive ? 0.0 : std::clamp(m.contactImpulse[key], sr.minImpulse, sr.maxImpulse);
            } else {
                sr.flags |= solver::kSolveFriction;
                sr.frictionCoef = s.groundFriction;
                sx.erp = 0.0;
                const Real bound = s.groundFriction * normalAccum;
                sr.accum = inactive
                               ? 0.0
                               : std::clamp(m.contactImpulse[key + static_cast<size_t>(t)], -bound, bound);
                o.flags = sr.flags;
                o.erp = 0.0;
            }
        }
    };
    // Joints in a lock-prep batch (Impl::batchLockPrep): the batch's set-up (Impl::lockBatch)
    // writes only their solver slots and their rows are built on request (Impl::ensureLockRows);
    // prep gives the rows their place, in scene order within each part (with several parts, part
    // after part, then the joints between them).
    auto reserveLockRows = [&](size_t j) {
        const int n = solver::kLockPrepRows[m.jointLockPrep[j]];
        m.reserveRows(static_cast<size_t>(n));
        m.jointRowRange[j] = {static_cast<int>(m.rowCount), n};
        m.rowCount += static_cast<size_t>(n);
    };
    // Solver body standing in for the static one in batch bi: body 0 but in a part's batches.
    auto standIn = [&](size_t bi, bool contact) {
        if (contact || data.partStart.empty()) return 0;
        const int b = static_cast<int>(bi), parts = data.parts();
        for (int t = 0; t < parts; ++t)
            if (b < data.partStart[static_cast<size_t>(t) + 1]) return m.solverBodyCount + t;
        return 0;  // the joints between parts
    };
    // Sets up the constraints of a batch in solve order: PGS into the batch's row slots (right
    // after their prep, while the rows are in cache), TGS into its row list, lane after lane.
    size_t slotCursor = 0, hardCursor = 0, lockCursor = 0, tgsCursor = 0, couplingCursor = 0;
    // With several parts, the lock batches' fused prep and set-up (each writes its own slots
    // only) runs after the loop below, the batches split between the threads.
    const bool deferLocks = data.parts() > 1;
    m.deferredLocks.clear();
    auto setupBatch = [&](size_t bi, const solver::LaneIds& ids, bool contact) {
        int counts[solver::kLanes] = {}, firsts[solver::kLanes] = {};
        const solver::RowBodies* rbs[solver::kLanes] = {};
        // PGS with AVX2: a joint batch of several lanes whose rows all fit a compact slot layout
        // (solver/fast/batch.h: LockLanes, HardLanes) is stored that way; its sweeps read fewer bytes.
        const int lockPrep = simdSetup && !contact ? int{m.batchLockPrep[bi]} : int{solver::kLockPrepNone};
        // Each lane's bodies and mass scales: its RowBodies, or for a lock batch (whose jointBodies
        // are filled on request) the joint's own.
        struct LaneBodies {  // (no initialisers: only real lanes are written and read)
            int b0, b1;
            Real massScale0, inertiaScale0, massScale1, inertiaScale1;
        } lanes[solver::kLanes];
        int slots = 0;
        for (int l = 0; l < solver::kLanes; ++l) {
            const int id = ids[static_cast<size_t>(l)];
            if (id < 0) continue;
            const size_t j = static_cast<size_t>(id);
            if (lockPrep) {
                firsts[l] = m.jointRowRange[j].first;
                counts[l] = m.jointRowRange[j].count;
                const JointFrames& f = m.jointFrames[j];
                lanes[l] = {m.jointSolver0[j],  m.jointSolver1[j], f.invMassScale0,
                            f.invInertiaScale0, f.invMassScale1,   f.invInertiaScale1};
            } else {
                constraintRows(contact, id, firsts[l], counts[l], rbs[l]);
                const solver::RowBodies& rb = *rbs[l];
                lanes[l] = {rb.b0,
                            rb.b1,
                            rb.invMassScale0,
                            rb.invInertiaScale0,
                            rb.invMassScale1,
                            rb.invInertiaScale1};
            }
            slots = std::max(slots, counts[l]);
        }
        if (m.rowSolver.size() < m.rowCount) m.rowSolver.resize(std::max(m.rowCount, 2 * m.rowSolver.size()));
        if (m.rowOut.size() < m.rowCount) m.rowOut.resize(std::max(m.rowCount, 2 * m.rowOut.size()));
        solver::Batch& bt = data.batches[bi];
        bt.slotCount = slots;
        bt.contact = contact ? 1 : 0;
        bt.laneCount = 0;
        for (int l = 0; l < solver::kLanes; ++l)
            if (ids[static_cast<size_t>(l)] >= 0) bt.laneCount = l + 1;
        bt.layout = lockPrep ? solver::kLayoutLock : solver::kLayoutFull;
        if (simdSetup && !contact && bt.laneCount > 1 && !lockPrep) {
            int layout = solver::kLayoutLock;
            for (int l = 0; l < solver::kLanes; ++l)
                for (int t = 0; t < counts[l] && layout != solver::kLayoutFull; ++t)
                    layout =
                        std::min(layout, solver::slotLayoutFor(m.rows[static_cast<size_t>(firsts[l] + t)]));
            bt.layout = layout;
        }
        size_t& cursor = bt.layout == solver::kLayoutLock   ? lockCursor
                         : bt.layout == solver::kLayoutHard ? hardCursor
                                                            : slotCursor;
        bt.firstSlot = static_cast<int32_t>(cursor);
        cursor += static_cast<size_t>(slots);
        // The static body of a part's batch is the part's stand-in (colourJoints).
        const int staticBody = standIn(bi, contact);
        for (int l = 0; l < solver::kLanes; ++l) {
            bt.constraint[l] = ids[static_cast<size_t>(l)];
            bt.body0[l] = bt.body1[l] = staticBody;
            bt.linScale0[l] = bt.angScale0[l] = bt.linScale1[l] = bt.angScale1[l] = 0.0;
            bt.frictionCoef[l] = contact ? s.groundFriction : 0.0;
            if (ids[static_cast<size_t>(l)] >= 0) {
                const LaneBodies& lb = lanes[l];
                bt.body0[l] = lb.b0 != 0 ? lb.b0 : staticBody;
                bt.body1[l] = lb.b1 != 0 ? lb.b1 : staticBody;
                solver::bodyScales(data.info[static_cast<size_t>(lb.b0)], lb.massScale0, lb.inertiaScale0,
                                   bt.linScale0[l], bt.angScale0[l]);
                solver::bodyScales(data.info[static_cast<size_t>(lb.b1)], lb.massScale1, lb.inertiaScale1,
                                   bt.linScale1[l], bt.angScale1[l]);
            }
        }
        if (tgs) {
            // TGS: each row set up in full (it keeps what the on-the-fly update of F 66 needs),
            // lane after lane, then packed into the batch's own row slots (solver/fast/tgs.cpp).
            if (data.rows.size() < m.rowCount) {
                data.rows.resize(std::max(m.rowCount, 2 * data.rows.size()));
                data.extra.resize(data.rows.size());
            }
            if (data.tgsSlots.size() < slotCursor)
                data.tgsSlots.resize(std::max(slotCursor, 2 * data.tgsSlots.size()));
            int rowAt[solver::kLanes] = {};
            for (int l = 0; l < solver::kLanes; ++l) {
                const size_t normal = tgsCursor;
                rowAt[l] = static_cast<int>(tgsCursor);
                for (int t = 0; t < counts[l]; ++t, ++tgsCursor) {
                    const size_t k = static_cast<size_t>(firsts[l] + t);
                    solver::SolverRow& sr = data.rows[tgsCursor];
                    prepare(k, *rbs[l], contact, t, ids[static_cast<size_t>(l)],
                            t > 0 ? data.rows[normal].accum : 0.0, sr, data.extra[tgsCursor]);
                    if (contact && t > 0) sr.normalRow = static_cast<int>(normal);
                    m.rowSolver[k] = Impl::rowPlace(bt.firstSlot + t, l, solver::kLayoutFull);
                }
            }
            solver::packTgsBatch(data, bi, rowAt, counts);
            return;
        }
        if (data.slots.size() < slotCursor) data.slots.resize(std::max(slotCursor, 2 * data.slots.size()));
        if (data.hardSlots.size() < hardCursor)
            data.hardSlots.resize(std::max(hardCursor, 2 * data.hardSlots.size()));
        if (data.lockSlots.size() < lockCursor)
            data.lockSlots.resize(std::max(lockCursor, 2 * data.lockSlots.size()));
        // Its rows' couplings (solver/fast/batch.h CouplingLanes), worked out right after its slots,
        // while they are in cache.
        bt.firstCoupling = static_cast<int32_t>(couplingCursor);
        couplingCursor += static_cast<size_t>(solver::couplingCount(slots));
        if (data.couplings.size() < couplingCursor)
            data.couplings.resize(std::max(couplingCursor, 2 * data.couplings.size()));
        if (lockPrep) {  // the slots only (rows: ensureLockRows)
            if (deferLocks)
                m.deferredLocks.push_back(static_cast<int>(bi));
            else
                m.lockActiveRows += m.lockBatch(bi, lockPrep, before, false);
            if (!deferLocks)
                solver::computeBatchCouplings(data, bi, params.simd);  // (deferred: in lockShare)
            return;
        }
        // Slot after slot, lane after lane: each slot's 10 cache lines are written in one go.
        Real normalAccum[solver::kLanes] = {};
        const solver::BodyInfo *info0[solver::kLanes],
            *info1[solver::kLanes];  // padding lanes: the static body
        for (int l = 0; l < solver::kLanes; ++l) {
            info0[l] = &data.info[static_cast<size_t>(bt.body0[l])];
            info1[l] = &data.info[static_cast<size_t>(bt.body1[l])];
        }
        for (int t = 0; t < slots; ++t) {
            const size_t at = static_cast<size_t>(bt.firstSlot + t);
            if (simdSetup && !contact) {
                // Joint rows: a slot of plain hard rows (and padding) is set up at once
                // (solver/fast/pgs_avx2.cpp).
                const Row* rs[solver::kLanes];
                RowOut* reps[solver::kLanes];
                for (int l = 0; l < solver::kLanes; ++l) {
                    const bool real = t < counts[l];
                    rs[l] = real ? m.rows.data() + firsts[l] + t : nullptr;
                    reps[l] = real ? m.rowOut.data() + firsts[l] + t : nullptr;
                }
                solver::SlotOut out;
                if (bt.layout == solver::kLayoutLock)
                    out.lock = &data.lockSlots[at];
                else if (bt.layout == solver::kLayoutHard)
                    out.hard = &data.hardSlots[at];
                else
                    out.full = &data.slots[at];
                if (solver::setupHardSlot(rs, info0, info1, bt, params, out, reps)) {
                    for (int l = 0; l < solver::kLanes; ++l)
                        if (rs[l])
                            m.rowSolver[static_cast<size_t>(firsts[l] + t)] =
                                Impl::rowPlace(static_cast<int>(at), l, bt.layout);
                    continue;
                }
            }
            solver::RowLanes& L = data.slots[at];
            for (int l = 0; l < solver::kLanes; ++l) {
                if (t >= counts[l]) {
                    padLane(L, l);
                    continue;
                }
                const size_t k = static_cast<size_t>(firsts[l] + t);
                m.rowSolver[k] = Impl::rowPlace(bt.firstSlot + t, l, solver::kLayoutFull);
                if (!contact) {
                    solver::setupRowLane(m.rows[k], data.info[static_cast<size_t>(bt.body0[l])],
                                         data.info[static_cast<size_t>(bt.body1[l])], bt, l, params, L,
                                         m.rowOut[k]);
                    continue;
                }
                solver::SolverRow sr;
                solver::SolverRowExtra sx;
                prepare(k, *rbs[l], contact, t, ids[static_cast<size_t>(l)], normalAccum[l], sr, sx);
                if (t == 0) normalAccum[l] = sr.accum;
                writeLane(L, l, sr);
            }
        }
        solver::computeBatchCouplings(data, bi, params.simd);
    };

    // 3. prep and set-up, batch by batch
    const size_t nJointBatches = m.jointBatches.size();
    data.batches.resize(nJointBatches);
    if (tgs) data.tgsArms.resize(nJointBatches);
    // Window after window (solver/colour.cpp): prep its joints in scene order, which streams
    // through the joint descriptions, then set up its batches in solve order from the rows just
    // written (in cache).
    for (size_t w = 0; w + 1 < m.jointWindows.size(); ++w) {
        const int b0 = m.jointWindows[w], b1 = m.jointWindows[w + 1];
        int lo = INT32_MAX, hi = -1;
        for (int bi = b0; bi < b1; ++bi)
            for (int id : m.jointBatches[static_cast<size_t>(bi)])
                if (id >= 0) lo = std::min(lo, id), hi = std::max(hi, id);
        const uint8_t group = m.windowGroup[w];
        for (int j = lo; j <= hi; ++j) {
            if (joints_[static_cast<size_t>(j)].broken || m.jointGroup[static_cast<size_t>(j)] != group)
                continue;
            if (simdSetup && m.jointInLockBatch[static_cast<size_t>(j)])
                reserveLockRows(static_cast<size_t>(j));  // rows written by its batch's set-up
            else
                prepJoint(static_cast<size_t>(j));
        }
        for (int bi = b0; bi < b1; ++bi)
            setupBatch(static_cast<size_t>(bi), m.jointBatches[static_cast<size_t>(bi)], false);
    }
    if (!m.deferredLocks.empty()) {
        const int parts = data.parts();
        int active[kMaxSolverThreads] = {};
        auto lockShare = [&](int t) {
            const int64_t n = static_cast<int64_t>(m.deferredLocks.size());
            for (int64_t k = n * t / parts; k < n * (t + 1) / parts; ++k) {
                const size_t bi = static_cast<size_t>(m.deferredLocks[static_cast<size_t>(k)]);
                active[t] += m.lockBatch(bi, m.batchLockPrep[bi], before, false);
                solver::computeBatchCouplings(data, bi, params.simd);
            }
        };
        data.pool->run(parts, lockShare);
        for (int t = 0; t < parts; ++t) m.lockActiveRows += active[t];
    }
    m.jointRowCount = static_cast<int>(m.rowCount);
    m.lockRowsPending = simdSetup;  // the lock batches' rows: on request (Impl::ensureLockRows)

    // 3b. ground contacts: a normal row (C = height above the plane, impulse >= 0) and two
    // friction rows bounded by ±μ·(normal impulse) per support point below the margin; coloured
    // every step, after the joints.
    m.contacts.clear();
    if (s.groundPlane) {
        for (size_t i = 0; i < bodies_.size(); ++i) {
            if (!isDynamic(scene_.bodies[i])) continue;
            GroundPoint pts[kMaxGroundContacts];
            const int n = groundContactPoints(scene_.bodies[i], before[i].pose, kContactMargin, pts);
            for (int k = 0; k < n; ++k) {
                const Vec3 r0 = pts[k].p - before[i].pose.p;
                m.contacts.push_back(
                    {static_cast<int>(i) * kMaxGroundContacts + pts[k].feature, static_cast<int>(m.rowCount),
                     solver::RowBodies{m.solverIndex[i], 0, 1.0, 1.0, 1.0, 1.0, r0, Vec3(0.0)}});
                Row normal;
                normal.linear0 = Vec3(0, 1, 0);
                normal.angular0 = glm::cross(r0, normal.linear0);
                normal.linear1 = Vec3(0, 1, 0);
                normal.geometricError = pts[k].p.y;
                normal.minImpulse = 0.0;
                normal.flags = static_cast<uint16_t>(normal.geometricError > 0 ? kRowKeepBias : 0);
                if (s.groundRestitution > 0) {
                    normal.flags = kRowRestitution;
                    normal.mods.bounce.restitution = s.groundRestitution;
                    normal.mods.bounce.velocityThreshold = 0.5;
                }
                normal.solveHint = SolveHint::Inequality;
                normal.label = "ground normal";
                m.appendRow() = normal;
                for (int t = 0; t < 2; ++t) {
                    Row f;
                    f.linear0 = t == 0 ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
                    f.angular0 = glm::cross(r0, f.linear0);
                    f.linear1 = f.linear0;
                    f.label = t == 0 ? "ground friction X" : "ground friction Z";
                    m.appendRow() = f;
                }
            }
        }
    }
    m.contactRowCount = static_cast<int>(m.rowCount) - m.jointRowCount;
    const size_t nc = m.contacts.size();
    if (nc > 0) {
        m.contactKeys.resize(nc);
        m.contactNoKey.assign(nc, -1);
        for (size_t c = 0; c < nc; ++c) m.contactKeys[c] = m.contacts[c].rb.b0;
        solver::colourBatches(m.contactKeys.data(), m.contactNoKey.data(), nullptr, static_cast<int>(nc),
                              static_cast<int>(data.bodies.size()), order, m.contactBatches, m.colourScratch);
    } else {
        m.contactBatches.clear();
    }
    data.jointBatchEnd = static_cast<int>(nJointBatches);
    data.batches.resize(nJointBatches + m.contactBatches.size());
    if (tgs) data.tgsArms.resize(data.batches.size());
    for (size_t ci = 0; ci < m.contactBatches.size(); ++ci)
        setupBatch(nJointBatches + ci, m.contactBatches[ci], true);
    if (tgs) {
        data.rowCount = tgsCursor;
    }

    // 5. solve
    if (tgs)
        solver::solveTGS(data, params);
    else
        solver::solvePGS(data, params);
    m.lastStepTgs = tgs;

    // The row results now describe this step (also when it diverges below: they show the rows
    // and impulses that did); computed from these rows and solver bodies when first asked for.
    m.resultsPending = true;
    m.forcesPending = true;
    m.resultsDt = dt;
    m.resultsH = tgs ? dt / params.posIters : dt;

    // Warm-start impulses for the next step (all zero, and left alone, without contacts).
    if (!m.contacts.empty() || m.contactImpulseDirty) {
        std::fill(m.nextContactImpulse.begin(), m.nextContactImpulse.end(), 0.0);
        for (const ContactRef& c : m.contacts)
            for (size_t t = 0; t < 3; ++t)
                m.nextContactImpulse[static_cast<size_t>(c.key) * 3 + t] =
                    m.impulse(static_cast<size_t>(c.firstRow) + t);
        std::swap(m.contactImpulse, m.nextContactImpulse);
        m.contactImpulseDirty = !m.contacts.empty();
    }

    // 6. write back, with the speed caps
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
    if (recoverFromDivergence()) return;
    divergence_ = Divergence{};
    if (stepCount_ < INT64_MAX) ++stepCount_;  // saturates: a state loaded from a file may start anywhere
    time_ += dt;

    // 7. breakage (physx-joints-guide.md "Force Reporting"): the force of each joint that can
    // break, now; every joint's force is worked out when first asked for (ensureJointForces), as
    // are the row results (Impl::ensureResults).
    for (const int bj : m.breakableJoints) {  // ascending, as the break events were always ordered
        const size_t j = static_cast<size_t>(bj);
        JointState& js = joints_[j];
        const JointDesc& d = scene_.joints[j];
        if (js.broken) continue;
        m.jointForce(j, m.jointRowRange[j].first, m.jointRowRange[j].count, js.force, js.torque);
        if (glm::length(js.force) > d.breakForce || glm::length(js.torque) > d.breakTorque) {
            js.broken = true;
            m.brokenChanged = true;
            breakEvents_.push_back({static_cast<int>(j), stepCount_, time_, js.force, js.torque});
        }
    }
}

void World::ensureJointForces() const {
    Impl& m = *impl_;
    if (!m.forcesPending) return;
    m.forcesPending = false;
    m.ensureLockRows();
    // Joints broken before the last step have no rows (force 0); one that broke in it keeps its rows.
    for (size_t j = 0; j < joints_.size() && j < m.jointX1.size(); ++j) {
        JointState& js = joints_[j];
        js.firstRow = m.jointRowRange[j].first;
        js.rowCount = m.jointRowRange[j].count;
        m.jointForce(j, js.firstRow, js.rowCount, js.force, js.torque);
    }
}

void World::Impl::jointForce(size_t j, int firstRow, int count, Vec3& force, Vec3& torque) const {
    if (count == 0) {
        force = torque = Vec3(0.0);
        return;
    }
    // Body 1's centre of mass at the end of the step: its solver body's pose, or (static body,
    // world) the pose it had all step.
    const int s1 = jointSolver1[j];
    const Vec3 x1 = s1 != 0 ? data.info[static_cast<size_t>(s1)].pose.p : jointX1[j];
    const Vec3 anchor1 = x1 + jointBodies[j].r1;
    Vec3 linImpulse(0.0), angImpulse(0.0);
    for (int k = firstRow; k < firstRow + count; ++k) {
        const Row& row = rows[static_cast<size_t>(k)];
        if (!(row.flags & kRowOutputForce)) continue;
        const Real l = impulse(static_cast<size_t>(k));
        // Impulse on body 1 is −λ·(linear1, angular1) about its centre of mass.
        linImpulse -= l * row.linear1;
        angImpulse -= l * row.angular1;
    }
    // Move the torque from body 1's centre of mass to its joint frame origin.
    const Vec3 torqueAtAnchor = angImpulse - glm::cross(anchor1 - x1, linImpulse);
    force = linImpulse / resultsDt;
    torque = torqueAtAnchor / resultsDt;
}

void World::Impl::ensureResults() {
    if (!resultsPending) return;
    resultsPending = false;
    ensureLockRows();
    results.resize(rowCount);
    const Real h = resultsH, dt = resultsDt;
    auto rowResults = [&](size_t first, size_t count, const solver::RowBodies& rb) {
        const solver::Body& a = data.bodies[static_cast<size_t>(rb.b0)];
        const solver::Body& b = data.bodies[static_cast<size_t>(rb.b1)];
        for (size_t k = first; k < first + count; ++k) {
            const Row& row = rows[k];
            const RowOut& o = rowOut[k];
            RowResult& res = results[k];
            const Real accum = impulse(k);
            res.impulse = accum;
            res.geometricError = row.geometricError;
            res.bias = o.erp * row.geometricError / h;
            res.unitResponse = o.response;
            res.active = !(o.flags & solver::kSolveInactive);
            const Real jv = glm::dot(row.linear0, a.linVel) + glm::dot(row.angular0, a.angVel) -
                            glm::dot(row.linear1, b.linVel) - glm::dot(row.angular1, b.angVel);
            const Real lastBias = (o.flags & solver::kSolveKeepBias) ? o.erp * row.geometricError / dt : 0.0;
            res.velocityError = (o.flags & solver::kSolveSpring) ? 0.0 : jv + lastBias - o.velTarget;
            const Real eps = 1e-12 * (1.0 + std::abs(accum));
            res.clamped = (std::isfinite(o.minImpulse) && accum <= o.minImpulse + eps) ||
                          (std::isfinite(o.maxImpulse) && accum >= o.maxImpulse - eps);
        }
    };
    for (const ContactRef& c : contacts) rowResults(static_cast<size_t>(c.firstRow), 3, c.rb);
    // Joints broken before the step have no rows (rowCount 0); one that broke in it keeps its rows.
    for (size_t j = 0; j < jointRowRange.size() && j < jointBodies.size(); ++j)
        if (jointRowRange[j].count > 0)
            rowResults(static_cast<size_t>(jointRowRange[j].first),
                       static_cast<size_t>(jointRowRange[j].count), jointBodies[j]);
}

}  // namespace jl
