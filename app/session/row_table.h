// JointLab app — what the row tables show (the Rows tab's row inspector and the Inspector's Rows
// section): one entry per row the selected joint produced in the World's last step, with the row
// as the solver saw it and what the solver did with it. No ImGui here, so what the tables list is
// unit-tested (tests/app/row_table_test.cpp); the panels only draw it.
#pragma once

#include <string>
#include <vector>

#include "jointlab/world.h"

namespace jl::app {

/// What the solver made of a row in the step.
enum class RowState {
    Active,   ///< solved, its impulse strictly inside its bounds
    Clamped,  ///< solved, its accumulated impulse sits on a finite bound (it pushes as hard as it may)
    Dropped,  ///< not solved: vanishing unit response
};

struct RowTableEntry {
    int index = 0;             ///< index of the row in its joint for that step
    const Row* row = nullptr;  ///< the row as prepared: label, Jacobian, bounds, target, flags
    RowResult result;          ///< error, bias, accumulated impulse, unit response
    RowState state = RowState::Active;
    int contact = -1;    ///< contact tables: the point's index in World::contactPoints()
    int otherBody = -1;  ///< contact tables: the body on the other side (−1: the ground)
    /// Contact tables, friction rows: their bound μ·λn (the normal row's final impulse), which the
    /// row itself does not hold (its bounds follow the normal row while the solver runs).
    Real frictionBound = 0.0;
    const char* label() const { return row->label; }
    bool angular() const { return (row->flags & kRowAngular) != 0; }
    /// The bounds are drive force limits [N] (the impulse bound is that × dt).
    bool boundsAreForces() const {
        return (row->flags & kRowHasDriveLimit) && (row->flags & kRowDriveLimitsAreForces);
    }
};

/// The rows of `joint` in the world's last step, in the joint's order. Empty when the joint is
/// broken (a broken joint produces no rows) or the world has not stepped yet; the row pointers
/// are valid until the next step.
std::vector<RowTableEntry> rowTable(const World& world, int joint);

/// The contact rows of `body` in the world's last step (3 per point touching it: normal, friction 1,
/// friction 2), in contactPoints() order; index is the row's index in World::contactRows().
/// A friction row is clamped when it sits on ±μ·(its normal row's impulse): the point slides.
std::vector<RowTableEntry> contactRowTable(const World& world, int body);

/// Why rowTable is empty, for the panel to say ("" when it is not).
const char* emptyRowTableReason(const World& world, int joint);

/// Short tags for a row's flags, in a fixed order, separated by spaces ("force ang"); "" for none.
std::string rowFlagTags(uint16_t flags);

/// Rows the solver solved at once (RowResult::blockSize: a point constraint's two or three linear
/// rows), and the block's K = J M⁻¹ Jᵀ at the start of the step: the rows' unit responses on its
/// diagonal, how much each row's velocity moves per unit impulse of another off it.
struct RowBlock {
    int first = 0;  ///< the table index of its first row (the others follow)
    int size = 0;   ///< 2 or 3
    Real K[3][3] = {};
};

/// The blocks among a row table's entries, in order.
std::vector<RowBlock> rowBlocks(const std::vector<RowTableEntry>& table);

/// "┌", "│" or "└" for a row that begins, continues or ends a block, "" for a row on its own: the
/// row inspector's bracket in its block column.
const char* blockBracket(const RowTableEntry& entry);

}  // namespace jl::app
