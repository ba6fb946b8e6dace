// JointLab engine — the World's runtime data (world.cpp: construction, snapshots, queries;
// world/step.cpp: the step). Internal to the engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <glm/gtx/norm.hpp>
#include <vector>

#include "contacts/collide.h"
#include "contacts/ground.h"
#include "jointlab/solver_kernel.h"
#include "jointlab/world.h"
#include "solver/fast/fast.h"
#include "solver/tree.h"

namespace jl {

using RowOut = solver::RowReport;

/// One contact point: its three rows (normal, two friction rows) start at firstRow. A ground
/// contact of a box, sphere or capsule is keyed by body and feature; a body contact (or a ground
/// contact found by the collider) by its place in bodyContacts.
struct ContactRef {
    int key = 0;  ///< body * kMaxGroundContacts + feature (keys the warm start); −1: a body contact
    int firstRow = 0;
    solver::RowBodies rb;
    int stored = -1;           ///< body contacts: index in World::Impl::bodyContacts
    Real friction = 0.0;       ///< Coulomb coefficient of the pair
    int key0 = -1, key1 = -1;  ///< colouring keys: solver indices of dynamic bodies, else −1
};

/// What the step reads of a joint's description every step, copied out of the ~1 KB JointDesc
/// (whose fields sit on six cache lines spread over it) into one dense array: prep streams
/// through it instead of missing the cache on every description. Descriptions never change
/// inside a World, so the copy is made once.
struct JointFrames {
    Transform frame0, frame1;
    Real invMassScale0 = 1.0, invInertiaScale0 = 1.0, invMassScale1 = 1.0, invInertiaScale1 = 1.0;
};

using RowTrace = World::RowTrace;

/// What the stages of one step share: World::step makes it (beginStep) and passes it along.
struct StepContext {
    World& world;
    const WorldSettings& s;
    solver::Params params;
    bool tgs = false;        ///< TGS, else PGS
    bool reference = false;  ///< the reference kernel solves (solver/reference/), else the fast one
    bool simdSetup = false;  ///< PGS with the fast kernel on AVX2: compact slots and lock batches
    const std::vector<BodyState>* before = nullptr;  ///< the bodies' states at the start of the step
    /// Where the next batch's rows go: the fast PGS's slots by layout, the list of rows (TGS and
    /// the reference kernel), the couplings.
    size_t slotCursor = 0, hardCursor = 0, lockCursor = 0, tgsCursor = 0, couplingCursor = 0, blockCursor = 0;
    bool deferLocks = false;  ///< lock batches are set up after the others, on the threads
};

struct World::Impl {
    const Scene* scene = nullptr;      // the World's descriptions (ensureLockRows runs the joints' prep)
    std::vector<MassProperties> mass;  // per scene body
    /// What the step's first stage reads of a body's description, copied out of the ~220-byte
    /// BodyDesc (two cache lines a body) once, as JointFrames is for joints.
    struct BodyStepConsts {
        Vec3 sqrtInvInertiaLocal, sqrtInertiaLocal;  // principal I^-½, I^½
        Real invMass = 0.0;                          // 0 for no mass
        Real linearDamping = 0.0, angularDamping = 0.0;
        bool dynamic = false;
    };
    std::vector<BodyStepConsts> bodyConsts;       // per scene body
    bool externalLoads = false;                   // applyForce was called since the last step
    std::vector<int> solverIndex;                 // scene body -> solver body (0 = static / world)
    std::vector<int> jointBody0, jointBody1;      // scene body index, -1 = world
    std::vector<JointFrames> jointFrames;         // per joint, from its description
    std::vector<int> jointSolver0, jointSolver1;  // solver body index (0 = static / world)
    std::vector<int> jointKey0, jointKey1;        // solver body index if dynamic, else -1 (colouring)
    std::vector<Vec3> extForce, extTorque;        // user forces for the next step (zero unless externalLoads)
    std::vector<JointMemory> memory;              // per joint: angles tracked through full turns
    std::vector<Row> rows;                        // joint rows, then ground contact rows: [0, rowCount)
    size_t rowCount = 0;  // rows in use (the vector only grows: no per-step allocation)
    /// The joints with projection on (JointDesc::projection), in scene order: empty in most scenes.
    struct ProjectedJoint {
        int joint = 0;
        ProjectionLocks locks;
        Real linearTolerance = 0.0, angularTolerance = 0.0;
    };
    std::vector<ProjectedJoint> projectedJoints;
    // The position pass (stages/position_pass.cpp), reused every step: the rows at the start of the
    // step (kMaxRowsPerJoint per joint) and their count, the end projection's impulses.
    std::vector<Row> startRows;
    std::vector<int> startCount;
    std::vector<Real> projectionImpulse;
    std::vector<char> halfKicked;    // rattle: per scene body, gravity in two half kicks this step (or empty)
    std::vector<char> couplingBody;  // rattle: per scene body, on an unbroken coupling (markHalfKicks)
    std::vector<uint8_t> jointProjections;  // per joint: projections in the last step
    struct RowRange {
        int first = 0, count = 0;
    };
    // Per joint: its rows in the last step (count 0 when broken). JointState's firstRow and
    // rowCount are copied from it on request (World::ensureJointForces): the step does not touch
    // the 64-byte JointStates, a megabyte on a large grid.
    std::vector<RowRange> jointRowRange;
    std::vector<solver::RowBodies>
        jointBodies;  // per joint: bodies, mass scales, lever arms of the last prep
    std::vector<ContactRef> contacts;
    std::vector<int> contactKeys, contactKeys1;
    /// Body–body contacts (contacts/collide.h): the collider, this step's points, and the stored
    /// contacts with their impulses (the last step's while rows are built, then this step's).
    std::unique_ptr<Collider> collider;
    std::vector<RawContact> rawContacts;
    std::vector<BodyContactState> bodyContacts, nextBodyContacts;
    std::vector<uint8_t> contactMatched;
    /// Appends the rows of this step's body contacts (stages/contact_rows.cpp).
    void buildBodyContactRows(StepContext& step);
    // Solve order (solver/colour.cpp): joint batches are kept until a joint breaks or mends.
    std::vector<solver::LaneIds> jointBatches, contactBatches;
    std::vector<int> jointWindows;      // first batch of each colouring window, then the batch count
    std::vector<uint8_t> colouredSkip;  // per joint: broken when the colouring was made
    // Joints whose rows are all lock parts (joints/lock_only.h: fixed, spherical without cone,
    // revolute without limit, motor or drive; not breakable) are prepared and set up in one AVX2
    // pass per batch from those parts (solver::prepLockBatchAvx2) when every lane of their batch
    // has the same parts.
    std::vector<uint8_t> jointLockPrep;  // per joint: its lock parts (solver::LockPrepKind), or 0
    std::vector<uint8_t>
        batchLockPrep;  // per joint batch: that kind, if all its lanes (two or more) share it
    std::vector<uint8_t> jointInLockBatch;  // per joint: its batch is such a batch
    bool lockRowsPending = false;           // the last step's lock batches' rows are not written yet
    Real lockErp = 0.0, lockDt = 0.0;       // the α and dt of that step's lock batches
    int lockActiveRows = 0;                 // that step's active rows in lock batches
    bool coloured = false;
    // The parallel solve (WorldSettings::threads, docs/performance.md "Threads"): the joints' groups
    // (solver::partitionConstraints; all 0 with one part), coloured group after group, and the
    // group of each colouring window. data.partStart holds where each group's batches start.
    int colouredThreads = 1;              // WorldSettings::threads when the colouring was made
    int solverBodyCount = 1;              // solver bodies of the scene (static 0, then dynamic and kinematic)
    std::vector<int> partKey0, partKey1;  // per joint: its non-static solver bodies (-1: static/world)
    std::vector<uint8_t> jointGroup, windowGroup;
    std::vector<uint8_t> groupSkip;             // scratch: per joint, not in the group being coloured
    std::vector<solver::LaneIds> groupBatches;  // scratch: one group's batches
    std::vector<int> groupWindows;              // scratch: one group's windows
    std::vector<solver::LaneIds> plainBatches;  // scratch: a part's batches in plain greedy colours
    std::vector<int> plainWindows;              // scratch: their windows
    std::vector<uint8_t> betweenKey;            // scratch: per key, touched by a joint between parts
    std::vector<solver::LaneIds> lateBatches;   // scratch: a window's batches that touch such a key
    /// Colours the joints that are not broken (colouredSkip) into jointBatches and jointWindows,
    /// in as many parts as `threads` allows with at least kMinJointsPerPart joints each, and the
    /// joints between them (world/step.cpp).
    void colourJoints(int threads, SolverOrder order);
    /// With several parts: the solver bodies each part's task integrates (TGS).
    void setIntegrateSpans(int parts);
    /// With several parts: each part's batches, then those of the joints between them.
    void colourParts(int parts, SolverOrder order);
    static constexpr int kMinJointsPerPart = 32;
    /// A part's ordered colours with fewer batches per colour and window than this are swapped
    /// for plain greedy colours when those are fewer (colourJoints).
    static constexpr int kMinBatchesPerColour = 3;
    bool brokenChanged = false;  // a joint's broken flag was set since the last step's colouring check
    SolverOrder colouredOrder = SolverOrder::Coloured;
    solver::ColourScratch colourScratch;
    std::vector<int> rowSolver;        // per row: where the solver holds it (rowPlace: slot, lane, layout)
    std::vector<RowOut> rowOut;        // per row (its `accum` is not used: impulse(k) reads the solver's)
    bool lastStepTgs = false;          // the solver of the last step: where its impulses are
    solver::Params lastParams;         // that step's solver parameters (World::rowEquation)
    bool haveLastParams = false;       // a step has run
    std::vector<RowResult> results;    // per row, filled by ensureResults
    bool resultsPending = false;       // a step ran since `results` was last filled
    bool forcesPending = false;        // a step ran since the joints' force and torque were last filled
    std::vector<int> breakableJoints;  // joints whose break force or torque can be exceeded, ascending
    std::vector<Vec3> jointX1;  // per joint: body 1's centre of mass at the last prep (0 for the world)
    Real resultsDt = 0.0, resultsH = 0.0;  // that step's dt and bias step (dt/posIters for TGS)
    bool resultsBlocks = false;            // that step solved blocks (settings.pointSolve)
    std::vector<Real> contactImpulse;      // warm start: last step's impulses, 3 per (body, feature)
    std::vector<Real> nextContactImpulse;
    bool contactImpulseDirty = false;  // contactImpulse may hold non-zero values
    std::vector<BodyState> lastGood;   // body states before the current step
    int jointRowCount = 0;
    int contactRowCount = 0;
    solver::Data data;

    /// After a colouring: which joint batches the AVX2 set-up prepares itself (prepLockBatchAvx2),
    /// and so which joints prep only reserves rows for (batchLockPrep, jointInLockBatch). A batch
    /// qualifies when its lanes (two or more) are all joints of one solver::LockPrepKind.
    void markLockPrepBatches(size_t jointCount);

    /// Joint j's bodies and mass scales, with lever arms r0 and r1.
    solver::RowBodies jointRowBodies(size_t j, const Vec3& r0, const Vec3& r1) const {
        const JointFrames& f = jointFrames[j];
        return solver::RowBodies{jointSolver0[j],
                                 jointSolver1[j],
                                 f.invMassScale0,
                                 f.invInertiaScale0,
                                 f.invMassScale1,
                                 f.invInertiaScale1,
                                 r0,
                                 r1};
    }

    /// Prep and PGS set-up of lock batch `bi` (of LockPrepKind `kind`: the joints' lock parts) in
    /// one AVX2 pass (solver::prepLockBatchAvx2) from body poses `poses`. With `rowsToo` false (the
    /// step) it writes the batch's lock slots and nothing else; with it true (ensureLockRows) it
    /// runs the joints' prep and setupHardSlot, as the scalar path does, for what that path writes
    /// besides, and leaves the slots alone: the joints' rows, their reports, rowSolver,
    /// jointBodies and jointX1.
    /// Returns the batch's active rows (0 with `rowsToo`). Writes nothing shared: the parallel
    /// solve runs several batches at once.
    int lockBatch(size_t bi, int kind, const std::vector<BodyState>& poses, bool rowsToo);
    std::vector<int> deferredLocks;  // the step's lock batches, set up after the others (several parts)
    /// Writes the rows of the last step's lock batches, if a step ran since they were last
    /// written. The step leaves them out: it needs only the slots, and a Row is 168 bytes (on a
    /// large grid of ball joints the rows were the step's largest write). Running the batch
    /// again from the same inputs (lastGood, data.info, jointFrames, lockErp, lockDt; none change
    /// until the next step) gives the same bits. Everything that reads those rows, their
    /// reports, impulses or lever arms calls it first.
    void ensureLockRows();

    /// Fills `results` (one per row) from the last step's rows, impulses and solver bodies, if a
    /// step ran since they were last filled (world/step.cpp). The World's row-result queries call
    /// it, so a step costs nothing for results nobody reads.
    void ensureResults();
    /// The block fields of the results of one joint's rows [first, first + count) (RowResult::
    /// blockSize, blockIndex, blockK): its block if the last step solved it jointly.
    void blockResults(size_t first, size_t count, const solver::RowBodies& rb);

    /// Force and torque joint j (rows [firstRow, firstRow + count)) applied to body 1 over the
    /// last step, at body 1's joint frame origin (physx-joints-guide.md "Force Reporting").
    void jointForce(size_t j, int firstRow, int count, Vec3& force, Vec3& torque) const;

    /// Where a row lives in the solver (rowSolver): its slot·4 + lane, and the slot layout.
    static int rowPlace(int slot, int lane, int layout) {
        return ((slot * solver::kLanes + lane) << 2) | layout;
    }

    /// The reference kernel's rows live in the list of rows (data.rows), at index i.
    static constexpr int kRowList = 3;
    static_assert(solver::kLayoutFull != kRowList && solver::kLayoutHard != kRowList &&
                  solver::kLayoutLock != kRowList);
    static int rowListPlace(size_t i) { return (static_cast<int>(i) << 2) | kRowList; }

    // settings.pointSolve = tree (solver/tree.h, stages/forest_rows.cpp)
    bool forestStep = false;               // this (or the last) step solved a forest
    std::vector<uint8_t> jointInForest;    // per joint: the forest solves it this step
    std::vector<uint8_t> forestCandidate;  // scratch: per joint, may join the forest
    std::vector<int> forestScratch;
    std::vector<int> rowForest;  // per joint row: its row in forest.rows, else −1
    solver::tree::Forest forest;
    bool colouredForest = false;  // the colouring was made for pointSolve = tree
    /// The step solves a forest: pointSolve = tree, except under correction = soft (TGS's soft
    /// joint rows stay on the sweeps).
    static bool forestSolves(const StepContext& step) {
        return step.s.pointSolve == PointSolve::Tree && !step.params.softJoints;
    }
    bool rowInForest(size_t k) const { return forestStep && k < rowForest.size() && rowForest[k] >= 0; }

    /// Row k's accumulated impulse in the last step, read where the solver left it (no copy per
    /// step: most steps nobody asks).
    Real impulse(size_t k) const {
        if (rowInForest(k)) return forest.rows[static_cast<size_t>(rowForest[k])].accum;
        const int place = rowSolver[k];
        const size_t at = static_cast<size_t>(place >> 2);
        const size_t slot = at / solver::kLanes, lane = at % solver::kLanes;
        switch (place & 3) {
            case solver::kLayoutLock:
                return data.lockSlots[slot].accum[lane];
            case solver::kLayoutHard:
                return data.hardSlots[slot].accum[lane];
            case kRowList:
                return data.rows[at].accum;
            default:
                return lastStepTgs ? data.tgsSlots[slot].accum[lane] : data.slots[slot].accum[lane];
        }
    }

    // [SECTION] the step's stages, in the order World::step calls them (world/step.cpp)
    StepContext beginStep(World& w);
    void applyBodyForces(StepContext& step);   // stages/body_forces.cpp
    void updateSolveOrder(StepContext& step);  // stages/solve_order.cpp
    void planForest(StepContext& step);        // stages/forest_rows.cpp
    void buildForestRows(StepContext& step);   // stages/forest_rows.cpp
    void buildJointRows(StepContext& step);    // stages/joint_rows.cpp
    void buildContactRows(StepContext& step);  // stages/contact_rows.cpp
    void solveConstraints(StepContext& step);  // stages/solve.cpp
    void storeContactImpulses();               // stages/solve.cpp
    void writeBackBodies(StepContext& step);   // stages/write_back.cpp
    void positionPass(StepContext& step);      // stages/position_pass.cpp
    void markHalfKicks(StepContext& step);     // stages/position_pass.cpp (rattle, before the forces)
    void projectJoints(StepContext& step);     // stages/projection.cpp
    void applyBreakage(StepContext& step);     // stages/breakage.cpp

    // [SECTION] what the stages call
    /// Joint j's rows from its prep function (joints/), written straight into the row buffer.
    void prepJoint(StepContext& step, size_t j);
    /// A lock-prep batch's joint: room for its rows, which its batch's set-up writes.
    void reserveLockRows(size_t j);
    /// Where constraint `id`'s rows are: a joint's, or a ground contact's three.
    void constraintRows(bool contact, int id, int& first, int& count, const solver::RowBodies*& rb) const;
    /// The solver body standing in for the static one in batch bi: body 0 but in a part's batches.
    int standIn(size_t bi, bool contact) const;
    /// Row k (slot t of its constraint) set up for the solver (solver/row_setup.cpp), with the
    /// contacts' warm start and friction bounds, and what telemetry keeps (rowOut).
    void prepareRow(StepContext& step, size_t k, const solver::RowBodies& rb, bool contact, int t,
                    int contactId, Real normalAccum, solver::SolverRow& sr, solver::SolverRowExtra& sx);
    /// The lanes of one batch: each lane's rows and bodies.
    struct BatchLanes {
        int counts[solver::kLanes] = {}, firsts[solver::kLanes] = {};
        const solver::RowBodies* rbs[solver::kLanes] = {};
        int lockPrep = 0;
    };
    /// Sets up batch bi's constraints in solve order (world/batch_setup.cpp).
    void setUpBatch(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact);
    void setUpBatchHeader(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact,
                          BatchLanes& bl);
    void setUpRowList(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact,
                      const BatchLanes& bl);
    void setUpSlots(StepContext& step, size_t bi, const solver::LaneIds& ids, bool contact,
                    const BatchLanes& bl);
    bool reserveSlots(StepContext& step, size_t bi, int lockPrep);
    /// Batch bt's lanes' blocks (Batch::blockStart, blockSize) from their rows (solver::findBlock)
    /// or, for a lock batch, their lock parts; none unless the step solves blocks.
    void setBlocks(const StepContext& step, solver::Batch& bt, int lockPrep, const BatchLanes& bl) const;
    /// TGS and the reference kernel: lane l's block (its rows set up from data.rows[first]) kept
    /// only if all its rows are active, and marked on them (SolverRow::blockSize, blockIndex).
    void markBlockRows(solver::Batch& bt, int l, int first);
    /// The row trace (World::setRowTrace): its function, and per row of data.rows its joint (−1:
    /// contact) and index in the joint, filled while the trace is on.
    std::function<void(const RowTrace&)> trace;
    std::vector<int> listRowJoint, listRowIndex;
    std::vector<int> listRowContact;  // contact rows: the index in World::contactRows() (else −1)
    int64_t traceStep = 0;
    bool traceTgs = false;       // the traced step's solver (its bodies hold full velocities)
    std::vector<int> traceBody;  // per solver body: its scene body (−1: static, stand-ins)
    static void traceVisit(void* impl, const solver::RowVisit& v);
    /// Per batch, its first row in data.rows (TGS, reference kernel); then the row count.
    std::vector<int> batchRowStart;
    /// The reference kernel's sweep order (data.sweepSpans) from the batches' row ranges.
    void setReferenceSweep();

    /// Room for `n` more rows at the end; the prep functions write straight into it.
    Row* reserveRows(size_t n) {
        if (rows.size() < rowCount + n) rows.resize(std::max(rows.size() * 2, rowCount + n));
        return rows.data() + rowCount;
    }
    Row& appendRow() {
        Row& r = *reserveRows(1);
        r = Row{};
        ++rowCount;
        return r;
    }
};

inline bool isDynamic(const BodyDesc& b) {
    return b.motion == MotionType::Dynamic;
}

inline Vec3 safeInverse(const Vec3& v) {
    return Vec3(v.x > 0 ? 1.0 / v.x : 0.0, v.y > 0 ? 1.0 / v.y : 0.0, v.z > 0 ? 1.0 / v.z : 0.0);
}

/// The speed cap of the write-back: the solver's (also right when |v|² overflows).
inline Vec3 clampLength(const Vec3& v, Real maxLen) {
    return solver::clampSpeed(v, maxLen);
}

}  // namespace jl
