// The World's step, as a table of contents: each stage is a World::Impl member in the file its
// name suggests (world/stages/), and says at its top what it reads and writes.
//
//   applyBodyForces       stages/body_forces.cpp   gyroscopic term, forces, damping -> v_pre; body constants
//   updateSolveOrder      stages/solve_order.cpp   colouring into batches, parts for the threads
//   planForest            stages/forest_rows.cpp   pointSolve = tree: the joints that form a forest
//   buildJointRows        stages/joint_rows.cpp    each joint's rows (joints/), set up batch by batch
//   buildForestRows       stages/forest_rows.cpp   pointSolve = tree: the forest's own copies of its rows
//   buildContactRows      stages/contact_rows.cpp  ground contact rows, set up likewise
//   solveConstraints      stages/solve.cpp         the reference or the fast kernel: sweeps + integration
//   storeContactImpulses  stages/solve.cpp         warm start for the next step
//   writeBackBodies       stages/write_back.cpp    poses and velocities back into the body states
//   positionPass          stages/position_pass.cpp PGS ngs: joints rebuilt at the new poses, bodies moved
//   projectJoints         stages/projection.cpp    joints with projection on: bodies moved back onto them
//   applyBreakage         stages/breakage.cpp      joint forces against their thresholds
#include <algorithm>
#include <cstdint>

#include "jointlab/correction.h"
#include "world/world_impl.h"

namespace jl {

void World::step() {
    // The longest run (kMaxStepCount, snapshot.h): a World there takes no more steps, so every
    // state it reaches can be saved and read back. (Loaders and the runner refuse to start a run
    // that would pass it; only a World stepped 10^12 times from a saved state gets here.)
    if (stepCount_ >= kMaxStepCount) return;
    Impl& m = *impl_;
    StepContext step = m.beginStep(*this);
    m.applyBodyForces(step);
    m.updateSolveOrder(step);
    m.planForest(step);
    // Under ngs and rattle PGS's joint rows carry no bias: the position pass corrects their error.
    const Real erp = step.params.erp;
    const Correction runs = effectiveCorrection(step.s.solver, step.s.correction);
    if (runs == Correction::Ngs || runs == Correction::Rattle) step.params.erp = 0.0;
    m.buildJointRows(step);
    m.buildForestRows(step);
    step.params.erp = erp;
    m.buildContactRows(step);
    m.solveConstraints(step);
    m.storeContactImpulses();
    m.writeBackBodies(step);
    m.positionPass(step);
    m.projectJoints(step);
    if (recoverFromDivergence()) return;
    divergence_ = Divergence{};
    ++stepCount_;  // at most kMaxStepCount (the check at the top)
    time_ += step.params.dt;
    m.applyBreakage(step);
}

StepContext World::Impl::beginStep(World& w) {
    const WorldSettings& s = w.scene_.settings;
    StepContext step{w, s, solver::Params{}};
    const Correction runs = effectiveCorrection(s.solver, s.correction);  // jointlab/correction.h
    step.tgs = s.solver == SolverType::TGS;
    step.reference = s.kernel == KernelType::Reference;
    step.params = solver::Params{s.dt,
                                 std::max(1, s.posIters),
                                 std::max(0, s.velIters),
                                 s.effectiveBaumgarte(),
                                 s.maxLinearSpeed,
                                 s.maxAngularSpeed,
                                 !step.reference && activeSolverKernel() == SolverKernel::Avx2,
                                 s.pointSolve != PointSolve::Rows,
                                 runs == Correction::Relax || runs == Correction::Soft,
                                 runs == Correction::SplitImpulse,
                                 runs == Correction::Soft,
                                 runs == Correction::Rattle};
    step.simdSetup = !step.tgs && step.params.simd;
    // The states before the step become lastGood without a copy: the two buffers swap, the step
    // reads `before`, and the write-back writes every body of bodies_.
    if (lastGood.size() == w.bodies_.size())
        std::swap(lastGood, w.bodies_);
    else
        lastGood = w.bodies_;
    step.before = &lastGood;
    return step;
}

}  // namespace jl
