// Stages 2b and 3b of the step, under settings.pointSolve = tree (solver/tree.h): which joints the
// forest solves, and the forest's own copies of their rows.
// planForest reads the joints' bodies, types, mass scales and broken flags and the solver bodies'
// dynamic flags (data.info, from stage 1); writes jointInForest, which prepJoint reads to mark the
// rows it writes (kRowTree: inactive in the sweeps). buildForestRows reads those rows after
// stage 3 and writes the forest's rows, rowForest and the rows' reports (rowOut); it takes the mark
// off the rows again.
#include "jointlab/joint.h"
#include "world/world_impl.h"

namespace jl {

void World::Impl::planForest(StepContext& step) {
    forestStep = forestSolves(step);
    forest.clear();
    data.forest = nullptr;
    if (!forestStep) return;
    const Scene& scene = step.world.scene_;
    const std::vector<JointState>& joints = step.world.joints_;
    const size_t nj = joints.size();
    forestCandidate.assign(nj, 0);
    for (size_t j = 0; j < nj; ++j) {
        // Couplings (gear, rack, pulley) relate two coordinates, not a point: Gauss–Seidel keeps
        // them. A joint with mass scales other than 1 sees its own M⁻¹, not the bodies' one the
        // forest's KKT system is made of.
        const JointFrames& f = jointFrames[j];
        const bool unitScales = f.invMassScale0 == 1.0 && f.invInertiaScale0 == 1.0 &&
                                f.invMassScale1 == 1.0 && f.invInertiaScale1 == 1.0;
        forestCandidate[j] =
            static_cast<uint8_t>(!joints[j].broken && unitScales &&
                                 !jointTypeInfo(static_cast<int>(scene.joints[j].params.index())).isCoupling);
    }
    solver::tree::selectForest(data.info, jointSolver0, jointSolver1, forestCandidate, jointInForest,
                               forestScratch);
}

void World::Impl::buildForestRows(StepContext& step) {
    if (!forestStep) return;
    const size_t nj = jointInForest.size();
    rowForest.assign(rowCount, -1);
    forest.jointFirst.clear();
    for (size_t j = 0; j < nj; ++j) {
        const RowRange& range = jointRowRange[j];
        if (!jointInForest[j] || range.count == 0) continue;
        forest.jointFirst.push_back(static_cast<int>(forest.rows.size()));
        for (int t = 0; t < range.count; ++t) {
            const size_t k = static_cast<size_t>(range.first + t);
            Row& row = rows[k];
            row.flags = static_cast<uint16_t>(row.flags & ~kRowTree);
            rowForest[k] = static_cast<int>(forest.rows.size());
            forest.rows.emplace_back();
            forest.extra.emplace_back();
            solver::setupRow(row, jointBodies[j], data, step.params, step.tgs, forest.rows.back(),
                             forest.extra.back(), rowOut[k]);
            forest.equality.push_back(static_cast<uint8_t>(solver::tree::isEquality(row)));
        }
    }
    if (forest.jointFirst.empty()) return;
    forest.jointFirst.push_back(static_cast<int>(forest.rows.size()));
    data.forest = &forest;
}

}  // namespace jl
