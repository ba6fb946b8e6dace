// JointLab engine — the reference kernel: PGS and TGS as plain loops over the rows of
// solver/solver.h, one row at a time, in the order the world laid them out (State::sweepSpans).
//
// It is the code to read: every line that implements an equation of the seed documents cites it
// (F = physx-1d-constraint-formulation.md, D = physx-implicit-spring-drives.md). It solves the
// same rows as the fast kernel (solver/fast/), set up by the same setupRow, in the same order, so
// the two agree to rounding (tests/engine/kernels_test.cpp). The stepper and the trace of the
// teaching features run this kernel.
#pragma once

#include "solver/solver.h"

namespace jl::solver::reference {

/// PGS (F "PGS Implementation", D "PGS"): position iterations on Δv, one integration, velocity
/// iterations. Afterwards State::bodies hold every body's final velocity (plain ω, not momocity)
/// and State::info its final pose; every row's accum holds its impulse.
void solvePGS(State& state, const Params& p);

/// TGS (F "TGS", D "TGS"): posIters substeps of h = dt/posIters, each a sweep with the rows'
/// errors and lever arms following the bodies, then the bodies' motion over h; then velocity
/// iterations with no position bias and springs frozen. Same results as solvePGS.
void solveTGS(State& state, const Params& p);

}  // namespace jl::solver::reference
