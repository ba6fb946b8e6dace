// JointLab engine — which instruction set the fast kernel uses, and the row orders.
// (The kernel itself, fast or reference, the row order and the point solve are world settings:
// scene.h.)
//
// The PGS sweep has two implementations of the same arithmetic: an AVX2 kernel that solves 4 rows
// of 4 independent joints at once, and a plain C++ kernel that does the same operations lane
// after lane. They give bit-identical results; the plain one runs when the CPU has no AVX2 (the
// AVX2 code is compiled in its own translation unit and chosen at run time) or when asked for.
#pragma once

namespace jl {

enum class SolverKernel {
    Auto,    ///< AVX2 when the CPU supports it (the default)
    Scalar,  ///< always the plain C++ kernel
    Avx2,    ///< reported by activeSolverKernel() when the AVX2 kernel runs
};

/// Process-wide choice for the following steps (tests compare the two; the result is the same bit
/// for bit, so this is not a setting of the scene).
void setSolverKernel(SolverKernel kernel);

/// The kernel the next PGS step will use: Avx2 or Scalar.
SolverKernel activeSolverKernel();

/// The order rows are solved in (both solvers and both kernels): WorldSettings::rowOrder.
enum class SolverOrder {
    Coloured,    ///< the default: joints greedily coloured (no two of a colour share a dynamic
                 ///< body), colour by colour, 4 joints side by side; then ground contacts likewise
    Wavefront,   ///< order-preserving levels: a joint goes one level after the last earlier joint
                 ///< on either of its dynamic bodies, so each body meets its joints in scene
                 ///< order and the result is bit-identical to Sequential
    Sequential,  ///< scene order, one joint at a time (what JointLab did before colouring; slower,
                 ///< kept to measure what the colouring changes)
};

inline constexpr const char* kSolverOrderNames[] = {"coloured", "wavefront", "sequential"};

/// How the solver treats a point constraint: the two or three linear lock rows of a spherical,
/// revolute, fixed, prismatic or D6 joint that share its anchors (Row::blockSize).
enum class PointSolve {
    Rows,  ///< one row after another, as every other row (PhysX's Gauss–Seidel)
    Block,  ///< all of them at once: Δλ = K⁻¹·(−(J·v + b)) with the 3×3 K = J M⁻¹ Jᵀ (Jolt, Box2D v3)
    /// The joints that form a forest (no loop; not couplings): every locked axis solved exactly
    /// after each sweep by a direct solve along the trees, their limits and drives with the trees'
    /// constrained response (solver/tree.h, Baraff 1996); the other joints as Block.
    Tree,
};
inline constexpr const char* kPointSolveNames[] = {"rows", "block", "tree"};
inline constexpr int kPointSolveCount = 3;

}  // namespace jl
