// Stage 2 of the step: the order the rows are solved in. Joints are coloured so that no two
// of a colour share a dynamic body and cut into batches of 4 (solver/colour.cpp), split into
// parts for the parallel solve; the colouring only changes when a joint breaks or mends, or the
// row order or thread count changes. Reads the joints' broken flags and WorldSettings::rowOrder
// and threads; writes jointBatches, jointWindows, the parts (data.partStart) and the pool.
#include <algorithm>

#include "world/world_impl.h"

namespace jl {

namespace {

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

void World::Impl::updateSolveOrder(StepContext& step) {
    Impl& m = *this;
    const WorldSettings& s = step.s;
    const std::vector<JointState>& joints_ = step.world.joints_;
    const SolverOrder order = s.rowOrder;
    const size_t nj = joints_.size();
    bool recolour = !m.coloured || m.colouredOrder != order;
    if (m.brokenChanged)  // a joint broke or was mended or restored since: did any change for good?
        for (size_t j = 0; j < nj && !recolour; ++j)
            recolour = m.colouredSkip[j] != static_cast<uint8_t>(joints_[j].broken);
    m.brokenChanged = false;
    // pointSolve = tree: one part (the forest's pass follows each whole sweep) and no lock batches
    // (their AVX2 set-up writes no rows the forest could take).
    const bool forest = forestSolves(step);
    const int threads = forest ? 1 : std::clamp(s.threads, 1, kMaxSolverThreads);
    recolour = recolour || m.colouredThreads != threads || m.colouredForest != forest;
    if (recolour) {
        for (size_t j = 0; j < nj; ++j) m.colouredSkip[j] = static_cast<uint8_t>(joints_[j].broken);
        m.colourJoints(threads, order);
        m.coloured = true;
        m.colouredOrder = order;
        m.colouredForest = forest;
        m.markLockPrepBatches(nj);
        if (forest) {
            std::fill(m.batchLockPrep.begin(), m.batchLockPrep.end(), uint8_t{solver::kLockPrepNone});
            std::fill(m.jointInLockBatch.begin(), m.jointInLockBatch.end(), uint8_t{0});
        }
    }
    if (const int parts = data.parts();
        parts > 1) {  // threads: one per part, within the machine's cores (1 core: none)
        const int workers = std::min(parts, solver::WorkerPool::usableCores()) - 1;
        data.pool = &solver::WorkerPool::shared(workers);
    }
}

static_assert(solver::kMaxSweepTasks >= kMaxSolverThreads,
              "a part per solver thread, each with its sweep flag");

void World::Impl::colourJoints(int threads, SolverOrder order) {
    const int nj = static_cast<int>(colouredSkip.size());
    const int keys = solverBodyCount;
    colouredThreads = threads;
    // Parts of at least kMinJointsPerPart joints: a smaller part costs about as much to hand to
    // another core as to solve (docs/performance.md §2).
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
    setIntegrateSpans(parts);
    colourParts(parts, order);
}

void World::Impl::setIntegrateSpans(int parts) {
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
}

void World::Impl::colourParts(int parts, SolverOrder order) {
    const int nj = static_cast<int>(colouredSkip.size());
    const int keys = solverBodyCount;
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

}  // namespace jl
