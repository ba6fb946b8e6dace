// JointLab engine — which position correction a solver actually runs. Each choice belongs to one
// solver (docs/solvers.md §9); the other solver runs its nearest own one, bit for bit:
//
//   chosen        PGS runs       TGS runs
//   baumgarte     baumgarte      baumgarte
//   relax         baumgarte      relax
//   splitImpulse  splitImpulse   baumgarte
//   soft          baumgarte      soft
//   ngs           ngs            relax
//   rattle        rattle         relax
//
// The step (world/step.cpp, world/stages/position_pass.cpp) decides by this, and the Solver panel
// shows it, so the two cannot disagree.
#pragma once

#include "jointlab/scene.h"

namespace jl {

constexpr Correction effectiveCorrection(SolverType solver, Correction chosen) {
    if (solver == SolverType::TGS) {
        if (chosen == Correction::SplitImpulse) return Correction::Baumgarte;
        if (chosen == Correction::Ngs || chosen == Correction::Rattle) return Correction::Relax;
        return chosen;
    }
    if (chosen == Correction::Relax || chosen == Correction::Soft) return Correction::Baumgarte;
    return chosen;
}

}  // namespace jl
