// JointLab engine — what the two reference kernels' sweeps share (pgs_reference.cpp,
// tgs_reference.cpp): the pass over the rows in solve order, and the start of a block's visit.
// Each kernel keeps its own visit of a row and of a block; these only walk to them.
#pragma once

#include <algorithm>
#include <cmath>

#include "solver/block.h"
#include "solver/solver.h"

namespace jl::solver::reference {

/// One Gauss-Seidel pass over the rows in solve order (State::sweepSpans), from row `first` on:
/// a block of rows (SolverRow::blockSize, set only on blocks whose rows are all active) by
/// visitBlock(k, n), which returns its rows' Σ asked²; every other row that `skip` does not pass
/// over by visitRow(k), which returns the velocity change the row asked for. Returns Σ asked².
template <class Skip, class VisitBlock, class VisitRow>
Real sweepRows(const State& s, int first, Skip skip, VisitBlock visitBlock, VisitRow visitRow) {
    Real sum = 0.0;
    for (size_t span = 0; span + 1 < s.sweepSpans.size(); span += 2)
        for (int k = std::max(s.sweepSpans[span], first); k < s.sweepSpans[span + 1]; ++k) {
            const SolverRow& r = s.rows[static_cast<size_t>(k)];
            if (r.blockSize > 0) {
                sum += visitBlock(static_cast<size_t>(k), r.blockSize);
                k += r.blockSize - 1;
                continue;
            }
            if (skip(r)) continue;
            const Real asked = visitRow(static_cast<size_t>(k));
            sum += asked * asked;
        }
    return sum;
}

/// A block's K = J M⁻¹ Jᵀ and its inverse (solver/block.h).
struct BlockSystem {
    block::Sym3<Real> K;
    block::Inverse<Real> inv;
    Real rowByRow = 0.0;  ///< K singular (!inv.ok): Σ asked² of the rows visited one by one instead
};

/// The start of a visit of the block of rows k … k + n − 1: K from their Jacobians j[0 … n − 1]
/// (row k's mass scales: a block is one joint's rows) and its inverse. A singular K: the rows are
/// visited one by one (visitRow(k_i), returning the velocity change each asked for) and
/// BlockSystem::rowByRow is what the block's visit returns.
template <class VisitRow>
BlockSystem openBlock(const State& s, size_t k, const block::Jacobian<Real>* j, int n, VisitRow visitRow) {
    const SolverRow& r0 = s.rows[k];
    const block::Sym3<Real> K = block::responseMatrix(
        j, n, block::Scales<Real>{r0.linScale0, r0.angScale0, r0.linScale1, r0.angScale1});
    BlockSystem b{K, block::invert(K)};
    if (!b.inv.ok)  // singular: row by row
        for (int i = 0; i < n; ++i) {
            const Real asked = visitRow(k + static_cast<size_t>(i));
            b.rowByRow += asked * asked;
        }
    return b;
}

}  // namespace jl::solver::reference
