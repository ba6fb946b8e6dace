// The set-up of one batch of the solve order (stages 3 and 4): the rows of its constraints
// (up to 4 joints or contact points that share no dynamic body) prepared for the solver
// (solver/row_setup.cpp, F 21, 63–65). The fast PGS stores them in the batch's row slots
// (solver/fast/batch.h); the reference kernel keeps them as a list of rows in solve order
// (solver/solver.h State::rows). The fast TGS sets its joint batches up straight into its own
// slots (solver::setupTgsJointBatch) and its contacts through the list, then packs them.
#include <algorithm>

#include "world/world_impl.h"

namespace jl {

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

}  // namespace

void World::Impl::constraintRows(bool contact, int id, int& first, int& count,
                                 const solver::RowBodies*& rb) const {
    const Impl& m = *this;
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
}

int World::Impl::standIn(size_t bi, bool contact) const {
    const Impl& m = *this;
    const solver::Data& data = m.data;
    if (contact || data.partStart.empty()) return 0;
    const int b = static_cast<int>(bi), parts = data.parts();
    for (int t = 0; t < parts; ++t)
        if (b < data.partStart[static_cast<size_t>(t) + 1]) return m.solverBodyCount + t;
    return 0;  // the joints between parts
}

void World::Impl::prepareRow(StepContext& step, size_t k, const solver::RowBodies& rb, bool contact, int t,
                             int contactId, Real normalAccum, solver::SolverRow& sr,
                             solver::SolverRowExtra& sx) {
    Impl& m = *this;
    solver::Data& data = m.data;
    RowOut& o = m.rowOut[k];
    solver::setupRow(m.rows[k], rb, data, step.params, step.tgs, sr, sx, o);
    if (contact) {
        // Contacts have their own soft rows (kSolveSoftContact below), not the joints' of `soft`.
        sr.flags &= static_cast<uint16_t>(~solver::kSolveSoftJoint);
        o.flags = sr.flags;
        // Contacts are warm-started from the same body feature's impulses of the last step
        // (joint rows start from zero, as PhysX's joints do). Without it, 4 sweeps over a
        // box's 12 coupled rows leave a residual tangential velocity every step and a resting
        // box creeps.
        // Body contacts: from the stored contact their point continues (contact_rows.cpp), the
        // friction impulse vector projected on this step's friction axes.
        const ContactRef& c = m.contacts[static_cast<size_t>(contactId)];
        Real warm;
        if (c.stored >= 0) {
            const BodyContactState& st = m.nextBodyContacts[static_cast<size_t>(c.stored)];
            warm = t == 0 ? st.normalImpulse : glm::dot(st.frictionImpulse, m.rows[k].linear0);
        } else {
            warm = m.contactImpulse[static_cast<size_t>(c.key) * 3 + static_cast<size_t>(t)];
        }
        const bool inactive = sr.flags & solver::kSolveInactive;
        // TGS: a contact that touches or overlaps at the start of the step rests: its rows work in
        // substep impulses and its normal, unless it bounces, is Box2D v3's soft contact
        // (solver/soft_contact.h). A contact still apart is a speculative row solved over the step
        // as before, without a warm start (it carried nothing): with substep impulses, a gear's
        // tooth that hit another in one substep was pushed off again in each that followed, and
        // the teeth of gears_contact.json slipped twice as often (driven gear -1.07 rad/s, not -1.6).
        if (step.tgs) {
            if (m.rows[static_cast<size_t>(c.firstRow)].geometricError <= 0.0) {
                sr.flags |= solver::kSolveSubstep;
                if (t == 0 && !inactive && !(sr.flags & (solver::kSolveBounce | solver::kSolveSpring)) &&
                    sx.erp > 0.0)
                    sr.flags |= solver::kSolveSoftContact;
                o.flags = sr.flags;
            } else {
                warm = 0.0;
            }
        }
        if (t == 0) {
            // within the row's bounds (kMaxRowVelocityChange): a warm start never carries more
            sr.accum = inactive ? 0.0 : std::clamp(warm, sr.minImpulse, sr.maxImpulse);
        } else {
            sr.flags |= solver::kSolveFriction;
            sr.frictionCoef = c.friction;
            sx.erp = 0.0;
            const Real bound = c.friction * normalAccum;
            sr.accum = inactive ? 0.0 : std::clamp(warm, -bound, bound);
            o.flags = sr.flags;
            o.erp = 0.0;
        }
    }
}

void World::Impl::setUpBatch(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact) {
    BatchLanes lanes;
    setUpBatchHeader(step, bi, ids, contact, lanes);
    if (step.tgs || step.reference) {
        // TGS and the reference kernel: each row set up in full, as a list of rows in solve order
        // (TGS keeps what the on-the-fly update of F 66 needs); the fast TGS's joint batches go
        // straight into the batch's own row slots, its contacts are packed into them
        // (solver/fast/tgs.cpp).
        setUpRowList(step, bi, ids, contact, lanes);
        return;
    }
    setUpSlots(step, bi, ids, contact, lanes);
}

void World::Impl::setUpBatchHeader(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact,
                                   BatchLanes& bl) {
    Impl& m = *this;
    solver::Data& data = m.data;
    const bool simdSetup = step.simdSetup;
    const WorldSettings& s = step.s;
    int* counts = bl.counts;
    int* firsts = bl.firsts;
    const solver::RowBodies** rbs = bl.rbs;
    // PGS with AVX2: a joint batch of several lanes whose rows all fit a compact slot layout
    // (solver/fast/batch.h: LockLanes, HardLanes) is stored that way; its sweeps read fewer bytes.
    bl.lockPrep = simdSetup && !contact ? int{m.batchLockPrep[bi]} : int{solver::kLockPrepNone};
    const int lockPrep = bl.lockPrep;
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
            m.constraintRows(contact, id, firsts[l], counts[l], rbs[l]);
            const solver::RowBodies& rb = *rbs[l];
            lanes[l] = {
                rb.b0, rb.b1, rb.invMassScale0, rb.invInertiaScale0, rb.invMassScale1, rb.invInertiaScale1};
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
    setBlocks(step, bt, lockPrep, bl);
    bt.layout = lockPrep ? solver::kLayoutLock : solver::kLayoutFull;
    if (simdSetup && !contact && bt.laneCount > 1 && !lockPrep) {
        int layout = solver::kLayoutLock;
        for (int l = 0; l < solver::kLanes; ++l)
            for (int t = 0; t < counts[l] && layout != solver::kLayoutFull; ++t)
                layout = std::min(layout, solver::slotLayoutFor(m.rows[static_cast<size_t>(firsts[l] + t)]));
        bt.layout = layout;
    }
    size_t& cursor = bt.layout == solver::kLayoutLock   ? step.lockCursor
                     : bt.layout == solver::kLayoutHard ? step.hardCursor
                                                        : step.slotCursor;
    bt.firstSlot = static_cast<int32_t>(cursor);
    cursor += static_cast<size_t>(slots);
    // The static body of a part's batch is the part's stand-in (colourJoints).
    const int staticBody = m.standIn(bi, contact);
    for (int l = 0; l < solver::kLanes; ++l) {
        bt.constraint[l] = ids[static_cast<size_t>(l)];
        bt.body0[l] = bt.body1[l] = staticBody;
        bt.linScale0[l] = bt.angScale0[l] = bt.linScale1[l] = bt.angScale1[l] = 0.0;
        bt.frictionCoef[l] = contact && ids[static_cast<size_t>(l)] >= 0
                                 ? m.contacts[static_cast<size_t>(ids[static_cast<size_t>(l)])].friction
                                 : (contact ? s.groundFriction : 0.0);
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
}

void World::Impl::setBlocks(const StepContext& step, solver::Batch& bt, int lockPrep,
                            const BatchLanes& bl) const {
    // Each lane's block of rows solved jointly (Row::blockSize): a lock batch's is its point
    // lock's (the rows are not written yet); the set-up may still drop one (inactive rows, a
    // singular K) by setting its size to 0.
    for (int l = 0; l < solver::kLanes; ++l) {
        int n = 0, start = -1;
        if (step.params.blocks && !bt.contact && l < bt.laneCount && bl.counts[l] > 0) {
            if (lockPrep) {
                n = parts::pointBlockSize(static_cast<unsigned>(lockPrep));
                start = n > 0 ? 0 : -1;
            } else {
                start = solver::findBlock(rows.data() + bl.firsts[l], bl.counts[l], n);
            }
        }
        bt.blockStart[l] = static_cast<int8_t>(start < 0 ? 0 : start);
        bt.blockSize[l] = static_cast<int8_t>(n);
    }
    solver::markBlockSlots(bt);
}

void World::Impl::setUpRowList(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact,
                               const BatchLanes& bl) {
    Impl& m = *this;
    solver::Data& data = m.data;
    solver::Batch& bt = data.batches[bi];
    const int* counts = bl.counts;
    const int* firsts = bl.firsts;
    const solver::RowBodies* const* rbs = bl.rbs;
    size_t& tgsCursor = step.tgsCursor;
    if (m.batchRowStart.size() <= bi) m.batchRowStart.resize(bi + 1);
    m.batchRowStart[bi] = static_cast<int>(tgsCursor);
    if (step.reference && m.trace) {  // the row trace names each row by its joint and index
        const size_t end = tgsCursor + static_cast<size_t>(bt.slotCount) * solver::kLanes;
        if (m.listRowJoint.size() < end)
            m.listRowJoint.resize(end), m.listRowIndex.resize(end), m.listRowContact.resize(end);
        size_t at = tgsCursor;
        for (int l = 0; l < solver::kLanes; ++l)
            for (int t = 0; t < counts[l]; ++t, ++at) {
                m.listRowJoint[at] = contact ? -1 : ids[static_cast<size_t>(l)];
                m.listRowIndex[at] = t;
                m.listRowContact[at] = contact ? firsts[l] + t - m.jointRowCount : -1;
            }
    }
    if (!step.reference && !contact) {
        // The fast TGS's joint batches: set up straight into the batch's row slots
        // (solver::setupTgsJointBatch), the list of rows left out (only contacts' warm starts
        // and the reference kernel read it). Their places in it are kept, for the contacts after.
        const Row* first[solver::kLanes];
        RowOut* reports[solver::kLanes];
        for (int l = 0; l < solver::kLanes; ++l) {
            first[l] = m.rows.data() + firsts[l];
            reports[l] = m.rowOut.data() + firsts[l];
            for (int t = 0; t < counts[l]; ++t)
                m.rowSolver[static_cast<size_t>(firsts[l] + t)] =
                    Impl::rowPlace(bt.firstSlot + t, l, solver::kLayoutFull);
            tgsCursor += static_cast<size_t>(counts[l]);
        }
        if (data.tgsSlots.size() < step.slotCursor)
            data.tgsSlots.resize(std::max(step.slotCursor, 2 * data.tgsSlots.size()));
        solver::setupTgsJointBatch(data, bi, first, counts, rbs, step.params, reports);
        return;
    }
    // TGS: each row set up in full (it keeps what the on-the-fly update of F 66 needs),
    // lane after lane, then packed into the batch's own row slots (solver/fast/tgs.cpp).
    if (data.rows.size() < m.rowCount) {
        data.rows.resize(std::max(m.rowCount, 2 * data.rows.size()));
        data.extra.resize(data.rows.size());
    }
    int rowAt[solver::kLanes] = {};
    for (int l = 0; l < solver::kLanes; ++l) {
        const size_t normal = tgsCursor;
        rowAt[l] = static_cast<int>(tgsCursor);
        for (int t = 0; t < counts[l]; ++t, ++tgsCursor) {
            const size_t k = static_cast<size_t>(firsts[l] + t);
            solver::SolverRow& sr = data.rows[tgsCursor];
            m.prepareRow(step, k, *rbs[l], contact, t, ids[static_cast<size_t>(l)],
                         t > 0 ? data.rows[normal].accum : 0.0, sr, data.extra[tgsCursor]);
            if (contact && t > 0) sr.normalRow = static_cast<int>(normal);
            m.rowSolver[k] = step.reference ? Impl::rowListPlace(tgsCursor)
                                            : Impl::rowPlace(bt.firstSlot + t, l, solver::kLayoutFull);
        }
        markBlockRows(bt, l, rowAt[l]);
    }
    solver::markBlockSlots(bt);
    if (step.reference) return;
    if (data.tgsSlots.size() < step.slotCursor)
        data.tgsSlots.resize(std::max(step.slotCursor, 2 * data.tgsSlots.size()));
    solver::packTgsBatch(data, bi, rowAt, counts);
}

void World::Impl::markBlockRows(solver::Batch& bt, int l, int first) {
    // A block is solved jointly only when all of its rows are active (each kernel checks the
    // rest, K, itself); its rows say so in the list of rows.
    const int n = bt.blockSize[l];
    if (n == 0) return;
    solver::SolverRow* r = data.rows.data() + first + bt.blockStart[l];
    for (int i = 0; i < n; ++i)
        if (r[i].flags & solver::kSolveInactive) {
            bt.blockSize[l] = 0;
            return;
        }
    for (int i = 0; i < n; ++i) {
        r[i].blockSize = static_cast<uint8_t>(n);
        r[i].blockIndex = static_cast<uint8_t>(i);
    }
}

/// Room for batch bi's slots and couplings; a lock batch's (lockPrep) set-up runs here, or is
/// deferred to the threads. Returns true when the batch is done.
bool World::Impl::reserveSlots(StepContext& step, size_t bi, int lockPrep) {
    Impl& m = *this;
    solver::Data& data = m.data;
    const solver::Params& params = step.params;
    solver::Batch& bt = data.batches[bi];
    const int slots = bt.slotCount;
    if (data.slots.size() < step.slotCursor)
        data.slots.resize(std::max(step.slotCursor, 2 * data.slots.size()));
    if (data.hardSlots.size() < step.hardCursor)
        data.hardSlots.resize(std::max(step.hardCursor, 2 * data.hardSlots.size()));
    if (data.lockSlots.size() < step.lockCursor)
        data.lockSlots.resize(std::max(step.lockCursor, 2 * data.lockSlots.size()));
    // Its rows' couplings (solver/fast/batch.h CouplingLanes), worked out right after its slots,
    // while they are in cache.
    bt.firstCoupling = static_cast<int32_t>(step.couplingCursor);
    step.couplingCursor += static_cast<size_t>(solver::couplingCount(slots));
    if (data.couplings.size() < step.couplingCursor)
        data.couplings.resize(std::max(step.couplingCursor, 2 * data.couplings.size()));
    // And its blocks' gains (solver/block.h), worked out with the couplings.
    bt.firstBlock = static_cast<int32_t>(step.blockCursor);
    if (solver::hasBlocks(bt)) ++step.blockCursor;
    if (data.blocks.size() < step.blockCursor)
        data.blocks.resize(std::max(step.blockCursor, 2 * data.blocks.size()));
    if (lockPrep) {  // the slots only (rows: ensureLockRows)
        if (step.deferLocks)
            m.deferredLocks.push_back(static_cast<int>(bi));
        else
            m.lockActiveRows += m.lockBatch(bi, lockPrep, *step.before, false);
        if (!step.deferLocks)
            solver::computeBatchCouplings(data, bi, params.simd);  // (deferred: in lockShare)
        return true;
    }
    return false;
}

void World::Impl::setUpSlots(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact,
                             const BatchLanes& bl) {
    Impl& m = *this;
    solver::Data& data = m.data;
    const solver::Params& params = step.params;
    const bool simdSetup = step.simdSetup;
    solver::Batch& bt = data.batches[bi];
    const int* counts = bl.counts;
    const int* firsts = bl.firsts;
    const solver::RowBodies* const* rbs = bl.rbs;
    const int slots = bt.slotCount;
    if (reserveSlots(step, bi, bl.lockPrep)) return;  // a lock batch: its slots are set up already
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
            m.prepareRow(step, k, *rbs[l], contact, t, ids[static_cast<size_t>(l)], normalAccum[l], sr, sx);
            if (t == 0) normalAccum[l] = sr.accum;
            writeLane(L, l, sr);
        }
    }
    solver::computeBatchCouplings(data, bi, params.simd);
}

}  // namespace jl
