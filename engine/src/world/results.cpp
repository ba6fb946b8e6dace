// What the last step did, worked out when first asked for: each row's result (impulse, error,
// bias, velocity error, clamped) and each joint's force and torque. A step costs nothing for
// results nobody reads.
#include <cmath>

#include "solver/block.h"
#include "world/world_impl.h"

namespace jl {

void World::ensureJointForces() const {
    Impl& m = *impl_;
    if (!m.forcesPending) return;
    m.forcesPending = false;
    m.ensureLockRows();
    // Joints broken before the last step have no rows (force 0); one that broke in it keeps its rows.
    for (size_t j = 0; j < joints_.size() && j < m.jointX1.size(); ++j) {
        JointState& js = joints_[j];
        js.firstRow = m.jointRowRange[j].first;
        js.rowCount = m.jointRowRange[j].count;
        m.jointForce(j, js.firstRow, js.rowCount, js.force, js.torque);
    }
}

void World::Impl::blockResults(size_t first, size_t count, const solver::RowBodies& rb) {
    int n = 0;
    const int start = solver::findBlock(rows.data() + first, static_cast<int>(count), n);
    // (a joint the forest solved, pointSolve = tree, had no block: solver/tree.h)
    if (!resultsBlocks || start < 0 || rowInForest(first)) return;
    // The kernels' decision from the same bits: every row active and K regular (solver/block.h).
    const size_t at = first + static_cast<size_t>(start);
    const solver::BodyInfo& i0 = data.info[static_cast<size_t>(rb.b0)];
    const solver::BodyInfo& i1 = data.info[static_cast<size_t>(rb.b1)];
    solver::block::Jacobian<Real> j[kMaxBlockRows];
    for (int i = 0; i < n; ++i) {
        if (rowOut[at + static_cast<size_t>(i)].flags & solver::kSolveInactive) return;
        const Row& r = rows[at + static_cast<size_t>(i)];
        const Vec3 angM0 = i0.sqrtInvInertia * r.angular0, angM1 = i1.sqrtInvInertia * r.angular1;
        j[i] = {{r.linear0.x, r.linear0.y, r.linear0.z},
                {angM0.x, angM0.y, angM0.z},
                {r.linear1.x, r.linear1.y, r.linear1.z},
                {angM1.x, angM1.y, angM1.z}};
    }
    solver::block::Scales<Real> m;
    solver::bodyScales(i0, rb.invMassScale0, rb.invInertiaScale0, m.lin0, m.ang0);
    solver::bodyScales(i1, rb.invMassScale1, rb.invInertiaScale1, m.lin1, m.ang1);
    const solver::block::Sym3<Real> K = solver::block::responseMatrix(j, n, m);
    if (!solver::block::invert(K).ok) return;
    const Real rowsOfK[3][3] = {{K.m00, K.m01, K.m02}, {K.m01, K.m11, K.m12}, {K.m02, K.m12, K.m22}};
    for (int i = 0; i < n; ++i) {
        RowResult& res = results[at + static_cast<size_t>(i)];
        res.blockSize = n;
        res.blockIndex = i;
        for (int c = 0; c < 3; ++c) res.blockK[c] = c < n ? rowsOfK[i][c] : 0.0;
    }
}

void World::Impl::ensureResults() {
    if (!resultsPending) return;
    resultsPending = false;
    ensureLockRows();
    results.resize(rowCount);
    const Real h = resultsH, dt = resultsDt;
    auto rowResults = [&](size_t first, size_t count, const solver::RowBodies& rb) {
        const solver::Body& a = data.bodies[static_cast<size_t>(rb.b0)];
        const solver::Body& b = data.bodies[static_cast<size_t>(rb.b1)];
        for (size_t k = first; k < first + count; ++k) {
            const Row& row = rows[k];
            const RowOut& o = rowOut[k];
            RowResult& res = results[k];
            const Real accum = impulse(k);
            res.impulse = accum;
            res.geometricError = row.geometricError;
            res.bias = o.erp * row.geometricError / h;
            res.unitResponse = o.response;
            res.active = !(o.flags & solver::kSolveInactive);
            const Real jv = glm::dot(row.linear0, a.linVel) + glm::dot(row.angular0, a.angVel) -
                            glm::dot(row.linear1, b.linVel) - glm::dot(row.angular1, b.angVel);
            const Real lastBias = (o.flags & solver::kSolveKeepBias) ? o.erp * row.geometricError / dt : 0.0;
            res.velocityError = (o.flags & solver::kSolveSpring) ? 0.0 : jv + lastBias - o.velTarget;
            const Real eps = 1e-12 * (1.0 + std::abs(accum));
            res.clamped = (std::isfinite(o.minImpulse) && accum <= o.minImpulse + eps) ||
                          (std::isfinite(o.maxImpulse) && accum >= o.maxImpulse - eps);
            res.blockSize = res.blockIndex = 0;
            res.blockK[0] = res.blockK[1] = res.blockK[2] = 0.0;
        }
    };
    for (const ContactRef& c : contacts) {
        const size_t f = static_cast<size_t>(c.firstRow);
        rowResults(f, 3, c.rb);
        // Friction rows are bounded by ±μ·(the normal row's final impulse), not by the bounds
        // their set-up saw (those of the warm start): clamped = sliding.
        const Real bound = c.friction * impulse(f);
        for (size_t k = f + 1; k < f + 3; ++k)
            results[k].clamped = bound > 0.0 && std::abs(impulse(k)) >= bound * (1.0 - 1e-9);
    }
    // Joints broken before the step have no rows (rowCount 0); one that broke in it keeps its rows.
    for (size_t j = 0; j < jointRowRange.size() && j < jointBodies.size(); ++j)
        if (jointRowRange[j].count > 0) {
            const size_t first = static_cast<size_t>(jointRowRange[j].first),
                         count = static_cast<size_t>(jointRowRange[j].count);
            rowResults(first, count, jointBodies[j]);
            blockResults(first, count, jointBodies[j]);
        }
}

}  // namespace jl
