// Greedy graph colouring of constraints into batches of independent constraints (solver/fast/batch.h).
//
// Constraints are coloured in windows of kColourWindow (256) in index order, and solved window by
// window: the per-step passes in solve order (prep, set-up) then stay within a few hundred joint
// descriptions at a time instead of striding over all of them once per colour (for the 100×100
// grid that took the fused prep and set-up from 20 to 12 ms). Later windows only follow earlier
// ones, so windows keep the scene order between them.
//
// Constraints are visited in index order. Each takes the colour right after the latest colour on
// either of its dynamic bodies while that stays below kOrderedColours (8). While every constraint
// gets its colour that way, every body meets its constraints in scene order, as a one-at-a-time
// sweep would, and the result is bit for bit that of the sequential sweep. Past the ordered colours a
// constraint takes the smallest colour neither of its bodies has yet (a 64-bit mask of used colours per
// body), which is where the order, and so the result, changes: a chain is solved in runs of 8 joints, root to
// tip within a run, and the runs side by side. (Plain smallest-free-colour greedy colouring, as PhysX and
// Box2D v3 colour, solves a chain red-black; at 4 PGS iterations that left the showcase's
// 5-joint chain with 2.7 times the joint error of the ordered sweep. 8 ordered colours keep
// short chains, the usual pendulum/ragdoll limb, exactly as before.) Static bodies, the world and
// kinematic bodies are never shared: the solver never changes their velocity (their inverse
// masses are zero in every row), so two constraints on one of them stay independent. This is also
// how PhysX and Box2D v3 treat them. A constraint that finds all 64 colours taken on its bodies
// goes to an overflow list solved one constraint per batch at the end. Everything depends only on
// the constraint order and their bodies: the same scene gives the same colouring on every run.
#include "solver/colour.h"

#include <algorithm>
#include <bit>

namespace jl::solver {

namespace {

/// Order-preserving levels: constraint c goes one level after the last earlier constraint on
/// either of its dynamic bodies, so every body still meets its constraints in index order.
int wavefrontBatches(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                     std::vector<LaneIds>& batches, ColourScratch& scratch) {
    scratch.last.assign(static_cast<size_t>(keyCount), -1);
    scratch.colour.assign(static_cast<size_t>(count), -1);
    int levels = 0;
    for (int c = 0; c < count; ++c) {
        if (skip && skip[c]) continue;
        const int k0 = key0[c], k1 = key1[c];
        int level = 0;
        if (k0 >= 0) level = std::max(level, scratch.last[static_cast<size_t>(k0)] + 1);
        if (k1 >= 0) level = std::max(level, scratch.last[static_cast<size_t>(k1)] + 1);
        if (k0 >= 0) scratch.last[static_cast<size_t>(k0)] = level;
        if (k1 >= 0) scratch.last[static_cast<size_t>(k1)] = level;
        scratch.colour[static_cast<size_t>(c)] = level;
        levels = std::max(levels, level + 1);
    }
    scratch.start.assign(static_cast<size_t>(levels) + 1, 0);
    for (int c = 0; c < count; ++c)
        if (scratch.colour[static_cast<size_t>(c)] >= 0)
            ++scratch.start[static_cast<size_t>(scratch.colour[static_cast<size_t>(c)]) + 1];
    for (int k = 0; k < levels; ++k)
        scratch.start[static_cast<size_t>(k) + 1] += scratch.start[static_cast<size_t>(k)];
    scratch.order.resize(static_cast<size_t>(scratch.start[static_cast<size_t>(levels)]));
    scratch.fill.assign(scratch.start.begin(), scratch.start.end());
    for (int c = 0; c < count; ++c) {
        const int level = scratch.colour[static_cast<size_t>(c)];
        if (level >= 0) scratch.order[static_cast<size_t>(scratch.fill[static_cast<size_t>(level)]++)] = c;
    }
    for (int k = 0; k < levels; ++k)
        for (int i = scratch.start[static_cast<size_t>(k)]; i < scratch.start[static_cast<size_t>(k) + 1];
             i += kLanes) {
            LaneIds ids{-1, -1, -1, -1};
            for (int l = 0; l < kLanes && i + l < scratch.start[static_cast<size_t>(k) + 1]; ++l)
                ids[static_cast<size_t>(l)] = scratch.order[static_cast<size_t>(i + l)];
            batches.push_back(ids);
        }
    return levels;
}

}  // namespace

int colourBatches(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                  SolverOrder mode, std::vector<LaneIds>& batches, ColourScratch& scratch,
                  std::vector<int>* windows, int orderedColours) {
    batches.clear();
    if (windows) windows->assign(1, 0);
    if (mode == SolverOrder::Sequential || mode == SolverOrder::Wavefront) {  // one window
        int n;
        if (mode == SolverOrder::Sequential) {
            for (int c = 0; c < count; ++c)
                if (!skip || !skip[c]) batches.push_back({c, -1, -1, -1});
            n = static_cast<int>(batches.size());
        } else {
            n = wavefrontBatches(key0, key1, skip, count, keyCount, batches, scratch);
        }
        if (windows) windows->push_back(static_cast<int>(batches.size()));
        return n;
    }
    constexpr int kColours = 64;
    const int palette = std::clamp(orderedColours, 0, kColours);
    constexpr int window = kColourWindow;
    // Per key: colours used and the latest colour, valid while stamp == the current window.
    scratch.mask.resize(static_cast<size_t>(keyCount));
    scratch.last.resize(static_cast<size_t>(keyCount));
    scratch.stamp.assign(static_cast<size_t>(keyCount), -1);
    scratch.colour.resize(static_cast<size_t>(window));
    scratch.order.resize(static_cast<size_t>(window));
    int maxColours = 0;
    for (int w0 = 0, wi = 0; w0 < count; w0 += window, ++wi) {
        const int w1 = std::min(count, w0 + window);
        auto fresh = [&](int k) {
            if (scratch.stamp[static_cast<size_t>(k)] != wi) {
                scratch.stamp[static_cast<size_t>(k)] = wi;
                scratch.mask[static_cast<size_t>(k)] = 0;
                scratch.last[static_cast<size_t>(k)] = -1;
            }
        };
        int colourCount[kColours + 1] = {};
        for (int c = w0; c < w1; ++c) {
            int& colourOut = scratch.colour[static_cast<size_t>(c - w0)];
            colourOut = -1;
            if (skip && skip[c]) continue;
            const int k0 = key0[c], k1 = key1[c];
            if (k0 >= 0) fresh(k0);
            if (k1 >= 0) fresh(k1);
            const uint64_t used = (k0 >= 0 ? scratch.mask[static_cast<size_t>(k0)] : 0) |
                                  (k1 >= 0 ? scratch.mask[static_cast<size_t>(k1)] : 0);
            // The colour right after the latest one on its bodies keeps the scene order (the
            // constraint is solved after its predecessors); past the ordered palette, the lowest
            // free colour.
            const int after = std::max(k0 >= 0 ? scratch.last[static_cast<size_t>(k0)] : -1,
                                       k1 >= 0 ? scratch.last[static_cast<size_t>(k1)] : -1) +
                              1;
            int colour;
            if (after < palette && !(used >> after & 1u))
                colour = after;
            else
                colour = used == ~uint64_t{0} ? kColours : std::countr_zero(~used);
            colourOut = colour;
            ++colourCount[colour];
            if (colour < kColours) {
                for (int k : {k0, k1})
                    if (k >= 0) {
                        scratch.mask[static_cast<size_t>(k)] |= uint64_t{1} << colour;
                        scratch.last[static_cast<size_t>(k)] = colour;
                    }
            }
        }
        // Stable counting sort by colour, then cut each colour into batches of kLanes.
        int start[kColours + 2] = {};
        for (int k = 0; k <= kColours; ++k) start[k + 1] = start[k] + colourCount[k];
        int fill[kColours + 1];
        for (int k = 0; k <= kColours; ++k) fill[k] = start[k];
        for (int c = w0; c < w1; ++c) {
            const int colour = scratch.colour[static_cast<size_t>(c - w0)];
            if (colour >= 0) scratch.order[static_cast<size_t>(fill[colour]++)] = c;
        }
        int used = 0;
        for (int k = 0; k <= kColours; ++k) {
            if (colourCount[k] > 0) ++used;
            const int width = k < kColours ? kLanes : 1;  // overflow: one constraint per batch
            for (int i = start[k]; i < start[k + 1]; i += width) {
                LaneIds ids{-1, -1, -1, -1};
                for (int l = 0; l < width && i + l < start[k + 1]; ++l)
                    ids[static_cast<size_t>(l)] = scratch.order[static_cast<size_t>(i + l)];
                batches.push_back(ids);
            }
        }
        maxColours = std::max(maxColours, used);
        if (windows) windows->push_back(static_cast<int>(batches.size()));
    }
    return maxColours;
}

void partitionConstraints(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                          int parts, std::vector<uint8_t>& group, ColourScratch& scratch) {
    const uint8_t skipped = static_cast<uint8_t>(parts + 1), shared = static_cast<uint8_t>(parts);
    group.assign(static_cast<size_t>(count), skipped);
    int64_t live = 0;
    for (int c = 0; c < count; ++c) live += (skip && skip[c]) ? 0 : 1;
    // Per key: the first run that touches it (runs come in index order, so the lowest).
    std::vector<int>& owner = scratch.last;
    owner.assign(static_cast<size_t>(keyCount), kNoRun);
    int64_t seen = 0;
    for (int c = 0; c < count; ++c) {
        if (skip && skip[c]) continue;
        const int run = static_cast<int>(seen * parts / live);
        ++seen;
        group[static_cast<size_t>(c)] = static_cast<uint8_t>(run);
        for (const int k : {key0[c], key1[c]})
            if (k >= 0 && owner[static_cast<size_t>(k)] == kNoRun) owner[static_cast<size_t>(k)] = run;
    }
    // A constraint on a key an earlier run owns is shared; the owner's constraints stay. A cut
    // through a chain then shares one joint, not the two on the body at the cut.
    for (int c = 0; c < count; ++c) {
        const uint8_t run = group[static_cast<size_t>(c)];
        if (run == skipped) continue;
        const int k0 = key0[c], k1 = key1[c];
        if ((k0 >= 0 && owner[static_cast<size_t>(k0)] != run) ||
            (k1 >= 0 && owner[static_cast<size_t>(k1)] != run))
            group[static_cast<size_t>(c)] = shared;
    }
}

}  // namespace jl::solver
