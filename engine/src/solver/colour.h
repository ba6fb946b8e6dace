// JointLab engine — the solve order: greedy colouring into batches of kLanes constraints that
// share no dynamic body, and the split into parts for the parallel solve (solver/colour.cpp).
// Both kernels solve the rows in the order it gives.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "jointlab/solver_kernel.h"
#include "solver/fast/batch.h"

namespace jl::solver {

/// The constraints (joints or contacts) of one batch, −1 for a padding lane.
using LaneIds = std::array<int, kLanes>;

struct ColourScratch {
    std::vector<uint64_t> mask;
    std::vector<int> colour, order, last, start, fill, stamp;
};

/// Colours kept in scene order before the colouring falls back to the smallest free colour.
inline constexpr int kOrderedColours = 8;

/// Constraints coloured together: the solve goes window by window (in index order), colour by
/// colour within a window, so the per-step passes over joints stay local in memory.
inline constexpr int kColourWindow = 256;

/// Greedy colouring (solver/colour.cpp): constraint c touches keys key0[c] and key1[c] (its
/// dynamic solver bodies; < 0 for a body that is never shared). Constraints with skip[c] != 0
/// are left out. Fills `batches` colour by colour with up to kLanes constraints that share no key,
/// in ascending index within a colour; `sequential` puts every constraint in its own batch in
/// index order instead. Returns the number of colours (batches when sequential). `windows`, if
/// given, receives the first batch of each window (solve order: window by window, each window's
/// constraints a contiguous index range), then the batch count. `orderedColours`: how many colours
/// keep the scene order (0: plain smallest-free-colour greedy colouring, as PhysX and Box2D v3).
int colourBatches(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                  SolverOrder mode, std::vector<LaneIds>& batches, ColourScratch& scratch,
                  std::vector<int>* windows = nullptr, int orderedColours = kOrderedColours);

/// Splits constraints into `parts` groups solved side by side for the parallel solve
/// (docs/performance.md "Threads"; solver/colour.cpp). The constraints not skipped are cut, in index
/// order, into `parts` runs of equal size (±1). A dynamic body (key) belongs to the first run
/// that touches it; a constraint on a key that belongs to an earlier run goes to the shared group
/// `parts`, solved before the others, so each key is touched by at most one part. group[c]
/// receives its group, 0..parts, or parts + 1 for a skipped constraint. Depends only on the keys,
/// the skips and `parts`. Afterwards scratch.last[k] holds key k's run (the only part that may
/// touch it), or kNoRun if no constraint does.
void partitionConstraints(const int* key0, const int* key1, const uint8_t* skip, int count, int keyCount,
                          int parts, std::vector<uint8_t>& group, ColourScratch& scratch);
inline constexpr int kNoRun = -1;

}  // namespace jl::solver
