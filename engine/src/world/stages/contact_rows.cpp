// Stage 4 of the step: ground contacts. Per support point below the margin, a normal row
// (C = height above the plane, impulse >= 0) and two friction rows bounded by ±μ·(normal
// impulse); coloured every step, after the joints, and set up like them (world/batch_setup.cpp).
// Reads the poses before the step; writes contacts, rows and the contact batches.
#include <glm/gtx/norm.hpp>

#include "world/world_impl.h"

namespace jl {

namespace {

constexpr Real kContactMargin = 0.02;  // speculative contact distance [m]

}  // namespace

void World::Impl::buildContactRows(StepContext& step) {
    Impl& m = *this;
    solver::Data& data = m.data;
    const WorldSettings& s = step.s;
    const bool tgs = step.tgs;
    const std::vector<BodyState>& before = *step.before;
    const Scene& scene_ = step.world.scene_;
    const std::vector<BodyState>& bodies_ = step.world.bodies_;
    const SolverOrder order = s.rowOrder;
    const size_t nJointBatches = m.jointBatches.size();
    m.contacts.clear();
    if (s.groundPlane) {
        for (size_t i = 0; i < bodies_.size(); ++i) {
            if (!isDynamic(scene_.bodies[i])) continue;
            GroundPoint pts[kMaxGroundContacts];
            const int n = groundContactPoints(scene_.bodies[i], before[i].pose, kContactMargin, pts);
            for (int k = 0; k < n; ++k) {
                const Vec3 r0 = pts[k].p - before[i].pose.p;
                m.contacts.push_back(
                    {static_cast<int>(i) * kMaxGroundContacts + pts[k].feature, static_cast<int>(m.rowCount),
                     solver::RowBodies{m.solverIndex[i], 0, 1.0, 1.0, 1.0, 1.0, r0, Vec3(0.0)}});
                Row normal;
                normal.linear0 = Vec3(0, 1, 0);
                normal.angular0 = glm::cross(r0, normal.linear0);
                normal.linear1 = Vec3(0, 1, 0);
                normal.geometricError = pts[k].p.y;
                normal.minImpulse = 0.0;
                normal.flags = static_cast<uint16_t>(normal.geometricError > 0 ? kRowKeepBias : 0);
                if (s.groundRestitution > 0) {
                    normal.flags = kRowRestitution;
                    normal.mods.bounce.restitution = s.groundRestitution;
                    normal.mods.bounce.velocityThreshold = 0.5;
                }
                normal.solveHint = SolveHint::Inequality;
                normal.label = "ground normal";
                m.appendRow() = normal;
                for (int t = 0; t < 2; ++t) {
                    Row f;
                    f.linear0 = t == 0 ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
                    f.angular0 = glm::cross(r0, f.linear0);
                    f.linear1 = f.linear0;
                    f.label = t == 0 ? "ground friction X" : "ground friction Z";
                    m.appendRow() = f;
                }
            }
        }
    }
    m.contactRowCount = static_cast<int>(m.rowCount) - m.jointRowCount;
    const size_t nc = m.contacts.size();
    if (nc > 0) {
        m.contactKeys.resize(nc);
        m.contactNoKey.assign(nc, -1);
        for (size_t c = 0; c < nc; ++c) m.contactKeys[c] = m.contacts[c].rb.b0;
        solver::colourBatches(m.contactKeys.data(), m.contactNoKey.data(), nullptr, static_cast<int>(nc),
                              static_cast<int>(data.bodies.size()), order, m.contactBatches, m.colourScratch);
    } else {
        m.contactBatches.clear();
    }
    data.jointBatchEnd = static_cast<int>(nJointBatches);
    data.batches.resize(nJointBatches + m.contactBatches.size());
    if (tgs) data.tgsArms.resize(data.batches.size());
    for (size_t ci = 0; ci < m.contactBatches.size(); ++ci)
        m.setUpBatch(step, nJointBatches + ci, m.contactBatches[ci], true);
}

}  // namespace jl
