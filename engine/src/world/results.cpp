// What the last step did, worked out when first asked for: each row's result (impulse, error,
// bias, velocity error, clamped) and each joint's force and torque. A step costs nothing for
// results nobody reads.
#include <cmath>

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
        }
    };
    for (const ContactRef& c : contacts) rowResults(static_cast<size_t>(c.firstRow), 3, c.rb);
    // Joints broken before the step have no rows (rowCount 0); one that broke in it keeps its rows.
    for (size_t j = 0; j < jointRowRange.size() && j < jointBodies.size(); ++j)
        if (jointRowRange[j].count > 0)
            rowResults(static_cast<size_t>(jointRowRange[j].first),
                       static_cast<size_t>(jointRowRange[j].count), jointBodies[j]);
}

}  // namespace jl
