// JointLab engine — a direct solve along joint trees (WorldSettings::pointSolve = tree,
// docs/solvers.md "Limits across a light body"). Both kernels call it after each of their sweeps;
// it is the one copy of this maths.
//
// Gauss–Seidel moves momentum across a body only as fast as its rows trade it, and a body with
// little inertia trades little per visit: a limit on a light body holding a heavy one needs
// hundreds of sweeps. Here the joints whose graph is a forest (bodies are nodes, joints edges,
// every static or kinematic body the ground; a joint that closes a loop stays on Gauss–Seidel) are
// taken out of the sweep, and after every sweep:
//
//  1. their EQUALITY rows (hard, unbounded: the locked axes) are solved exactly, all at once: the
//     KKT system of the forest in momocity coordinates (solver.h),
//
//         [ M   J_eᵀ ] [  Δv ]   [ 0 ]        M = diag(m·E, E) per body (momocity: I^½ω has unit
//         [ J_e  0   ] [ −Δλ ] = [ c ]        inertia), c_i = −(J_i·v + b_i − v_T,i)
//
//     is sparse like the forest (a body node and a joint node per body and joint); eliminated from
//     the leaves to the roots it factors without fill-in, in O(n) (Baraff 1996, "Linear-time
//     dynamics using Lagrange multipliers"): D_i = H_ii − Σ_children H_ciᵀ D_c⁻¹ H_ci,
//     L_i = D_i⁻¹ H_i,parent; solve forward (x_p −= L_iᵀ x_i), diagonal (x_i = D_i⁻¹ x_i), backward
//     (x_i −= L_i x_p);
//  0. before that, their springs (drives, soft limits: rows with a stiffness or damping) are
//     visited plainly, as a sweep would, and step 1 spreads their impulse over the forest (as it
//     does the contacts'). A spring's impulse is bounded by its softness, so it needs no exact
//     response, and an exact one costs O(n) per visit (below): the flag model's 340 joint springs
//     in one tree made a step 75 times as dear. A component whose limits times equality rows
//     exceed kMaxResponseEntries has its limits visited plainly too (the cost of step 2 grows as
//     their product);
//  2. their other rows (limits) are visited one by one with the forest's
//     constrained response K_eff = J·P·Jᵀ, P = M⁻¹ − M⁻¹J_eᵀ(J_e M⁻¹ J_eᵀ)⁻¹J_e M⁻¹, and their
//     impulse applied through P: the plain impulse, plus μ·Δλ on the equality rows, with
//     μ = −(J_e M⁻¹ J_eᵀ)⁻¹J_e M⁻¹Jᵀ. One KKT solve per such row gives both (the body part of the
//     solution of H·y = [Jᵀ; 0] is P·Jᵀ, its joint part −μ); PGS once per step, TGS with the
//     factor whenever the bodies have moved, once per substep (the lever arms turn with the
//     bodies, F 66). So a limit on a light body holds after one pass, and the equality rows stay
//     exact.
//
// A forest whose factor fails (a joint's rows dependent) solves its rows one by one instead, as
// the sweep would have.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jointlab/row.h"
#include "solver/solver.h"
#include "solver/tgs_row.h"

namespace jl::solver::tree {

/// Most μ entries (limits × equality rows) a component may hold for step 2 (2 MB of them); past it
/// the component's limits are visited plainly.
inline constexpr size_t kMaxResponseEntries = size_t{1} << 18;

/// A joint's rows that step 1 solves: hard, unbounded both ways, no spring or bias mode of its own
/// (the rows findBlock takes into a block).
bool isEquality(const Row& row);

/// Which candidate joints form a forest: joint j joins solver bodies b0[j] and b1[j]; those not
/// `dynamic` are the ground. Visited in order, a candidate is taken unless it closes a loop (its
/// two ends already joined, through other joints or the ground) or joins the ground to itself.
/// `taken[j]` is set for the taken ones. `scratch` is reused.
void selectForest(const std::vector<BodyInfo>& info, const std::vector<int>& b0, const std::vector<int>& b1,
                  const std::vector<uint8_t>& candidate, std::vector<uint8_t>& taken,
                  std::vector<int>& scratch);

/// One node of the KKT system: a body (6 momocity coordinates) or a joint (its equality rows).
struct Node {
    int parent = -1;  ///< index in Forest::nodes, −1 for a root
    int body = -1;    ///< a body node's solver body
    int joint = -1;   ///< a joint node's forest joint
    int n = 0;        ///< its size: 6, or the joint's equality rows
    int firstEq = 0;  ///< a joint node: its first entry in Forest::eq
};

/// The rows the forest owns and what solving them needs. The world fills rows, extra, equality and
/// jointFirst every step; begin() builds the rest.
struct Forest {
    // --- from the world
    std::vector<SolverRow> rows;  ///< the forest joints' rows, joint after joint (set up by setupRow)
    std::vector<SolverRowExtra> extra;
    std::vector<uint8_t> equality;  ///< per row: isEquality
    std::vector<int> jointFirst;    ///< joint j's rows are [jointFirst[j], jointFirst[j + 1])
    // --- built by begin() and factor()
    std::vector<Node> nodes;          ///< component after component, each root first (BFS order)
    std::vector<int> compNodes;       ///< component c's nodes are [compNodes[c], compNodes[c + 1])
    std::vector<int> compEq;          ///< its equality rows are eq[compEq[c] … compEq[c + 1])
    std::vector<int> eq;              ///< the equality rows (indices in rows), node after node
    std::vector<int> other;           ///< the other active hard rows (limits), visited with K_eff
    std::vector<int> plain;           ///< the active springs, and limits past the budget, visited plainly
    std::vector<int> otherComp;       ///< their component
    std::vector<Real> otherK;         ///< their K_eff (≤ 0: held entirely by the equality rows: skipped)
    std::vector<int> otherMu;         ///< where their μ starts in mu (compEq's length of it)
    std::vector<Real> mu;             ///< μ of every other row
    std::vector<Fresh> fresh;         ///< per row: this pass's Jacobian, error and response
    std::vector<Real> dinv, lmat, x;  ///< per node: D⁻¹ (6×6), L (6×6), the solve's vector (6)
    std::vector<int> bodyNode;        ///< per solver body: its node, or −1
    std::vector<int> scratch;
    std::array<std::vector<int>, 7> graph;  ///< begin()'s scratch (kept: no allocation per step)
    std::vector<Real> asked;                ///< per equality row: the velocity change it asks for this pass
    std::vector<Real> saved;   ///< split impulse: the rows' impulses before the pseudo-velocity sweeps
    bool factored = false;     ///< the factor succeeded; else the rows are visited one by one
    bool factoredTgs = false;  ///< TGS: fresh holds the rows the last factor was made from

    bool empty() const { return jointFirst.size() < 2; }
    int jointCount() const { return empty() ? 0 : static_cast<int>(jointFirst.size()) - 1; }
    /// Drops the world's rows (a step with no forest).
    void clear();
};

/// At the start of a solve: the KKT graph from the rows' bodies, and for PGS (`tgs` false), whose
/// Jacobians stay over the step, the factor and the other rows' responses.
void begin(const State& s, Forest& f, bool tgs);

/// PGS: one pass after a sweep (biased: the position iterations' constants). Returns the sum of
/// squares of the velocity changes its rows asked for (as a sweep's residual terms).
Real passPgs(State& s, Forest& f, bool biased);

/// TGS: one pass after a sweep of `pass`, with the rows brought up to date (F 66) and factored
/// again if the bodies moved since the last factor. Returns as passPgs.
Real passTgs(State& s, Forest& f, const TgsPass& pass);

/// Split impulse: the rows' impulses kept, and put back.
void saveImpulses(Forest& f);
void restoreImpulses(Forest& f);

}  // namespace jl::solver::tree
