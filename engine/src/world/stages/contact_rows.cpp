// Stage 4 of the step: contacts. Per contact point a normal row (C = separation, impulse >= 0,
// restitution above a bounce threshold) and two friction rows bounded by ±μ·(normal impulse)
// (Coulomb's cone approximated by a box, as PhysX does); coloured every step, after the joints,
// and set up like them (world/batch_setup.cpp). Boxes, spheres and capsules meet the ground
// plane analytically (contacts/ground.cpp); every other contact comes from the collider
// (contacts/collide.h) and is warm-started from the matching stored contact of the last step.
// Reads the poses before the step; writes contacts, rows and the contact batches.
#include <glm/gtx/norm.hpp>

#include "world/world_impl.h"

namespace jl {

namespace {

constexpr Real kContactMargin = 0.02;   // speculative contact distance [m]
constexpr Real kBounceThreshold = 0.5;  // approach speed above which a contact bounces [m/s]
/// A point of this step continues a stored point of the last step (same bodies and child shapes)
/// when its point on body 0, in body 0's frame, is within this distance [m].
constexpr Real kMatchDistance = 0.02;

/// Two unit tangents of the unit normal n, from n alone (so the same normal gives the same
/// friction axes in every step and after a save).
void tangents(const Vec3& n, Vec3& t1, Vec3& t2) {
    const Vec3 a = std::abs(n.x) < 0.57735 ? Vec3(1, 0, 0) : Vec3(0, 1, 0);
    t1 = glm::normalize(glm::cross(n, a));
    t2 = glm::cross(n, t1);
}

/// PGS, between bodies: Box2D v3's soft contact. A contact that touches or overlaps (C ≤ 0)
/// pushes as a stiff, heavily damped implicit spring (an acceleration spring: its gains are
/// scaled by the row's effective mass, so every contact has the same 30 Hz and damping ratio 10
/// whatever the masses), not as a hard row with a Baumgarte bias. A hard row keeps every impulse
/// the warm start and the sweeps leave in it; in a stack, whose contacts above and below each box
/// can share the load in many ways, that left-over load grew from step to step until the boxes
/// rocked and the stack fell (10 boxes, 8 iterations: a box 3.8 m away after 10 s; soft: 1 mm).
/// The spring's implicit update lets a little of the accumulated impulse go every visit (D 44),
/// so the shared load settles, at the cost of an overlap of g/ω² = 0.28 mm per box's weight.
/// An approaching contact (C > 0) stays a hard speculative row, a bouncing one (restitution)
/// stays hard, and the ground's contacts stay hard (a box on the ground stands still with them).
/// TGS softens its contacts differently, ground ones too: Box2D v3's soft step, with impulses per
/// substep (world/batch_setup.cpp prepareRow, solver/soft_contact.h).
constexpr Real kContactHertz = 30.0;
constexpr Real kContactDampingRatio = 10.0;
void softenContact(Row& normal) {
    const Real w = 2.0 * kPi * kContactHertz;
    normal.flags = kRowSpring | kRowAccelerationSpring;
    normal.mods.spring.stiffness = w * w;
    normal.mods.spring.damping = 2.0 * kContactDampingRatio * w;
    normal.erpOverride = -1.0;
}

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
            if (!isDynamic(scene_.bodies[i]) || !analyticGround(scene_.bodies[i].shape)) continue;
            GroundPoint pts[kMaxGroundContacts];
            const int n = groundContactPoints(scene_.bodies[i], before[i].pose, kContactMargin, pts);
            for (int k = 0; k < n; ++k) {
                const Vec3 r0 = pts[k].p - before[i].pose.p;
                ContactRef c{static_cast<int>(i) * kMaxGroundContacts + pts[k].feature,
                             static_cast<int>(m.rowCount),
                             solver::RowBodies{m.solverIndex[i], 0, 1.0, 1.0, 1.0, 1.0, r0, Vec3(0.0)}};
                c.friction = s.groundFriction;
                c.key0 = m.solverIndex[i];
                m.contacts.push_back(c);
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
                    normal.mods.bounce.velocityThreshold = kBounceThreshold;
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
    m.buildBodyContactRows(step);
    m.contactRowCount = static_cast<int>(m.rowCount) - m.jointRowCount;
    const size_t nc = m.contacts.size();
    if (nc > 0) {
        m.contactKeys.resize(nc);
        m.contactKeys1.resize(nc);
        for (size_t c = 0; c < nc; ++c) {
            m.contactKeys[c] = m.contacts[c].key0;
            m.contactKeys1[c] = m.contacts[c].key1;
        }
        solver::colourBatches(m.contactKeys.data(), m.contactKeys1.data(), nullptr, static_cast<int>(nc),
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

void World::Impl::buildBodyContactRows(StepContext& step) {
    Impl& m = *this;
    const WorldSettings& s = step.s;
    const bool tgs = step.tgs;
    const std::vector<BodyState>& before = *step.before;
    const Scene& scene = step.world.scene_;
    m.nextBodyContacts.clear();
    if (!m.collider) return;
    m.collider->collide(before, s.bodyCollisions, s.groundPlane, kContactMargin, m.rawContacts, s.dt);
    // The last step's stored contacts are in the same canonical order: each pair's are found by
    // binary search, and each stored point continues at most one new point.
    const std::vector<BodyContactState>& last = m.bodyContacts;
    m.contactMatched.assign(last.size(), 0);
    auto keyOf = [&](int i) {
        const size_t b = static_cast<size_t>(i);
        return scene.bodies[b].motion == MotionType::Dynamic ? m.solverIndex[b] : -1;
    };
    for (const RawContact& rc : m.rawContacts) {
        const size_t i0 = static_cast<size_t>(rc.body0);
        const Transform& pose0 = before[i0].pose;
        const Vec3 local0 = glm::conjugate(pose0.q) * (rc.point0 - pose0.p);
        BodyContactState st{rc.body0, rc.body1, rc.feature, local0, 0.0, Vec3(0.0)};
        auto it = std::lower_bound(
            last.begin(), last.end(), st, [](const BodyContactState& a, const BodyContactState& b) {
                return contactPairLess(a.body0, a.body1, a.feature, b.body0, b.body1, b.feature);
            });
        size_t best = last.size();
        Real bestD2 = kMatchDistance * kMatchDistance;
        for (;
             it != last.end() && it->body0 == st.body0 && it->body1 == st.body1 && it->feature == st.feature;
             ++it) {
            const size_t k = static_cast<size_t>(it - last.begin());
            const Real d2 = glm::length2(it->local0 - local0);
            if (!m.contactMatched[k] && d2 < bestD2) best = k, bestD2 = d2;
        }
        if (best < last.size()) {
            m.contactMatched[best] = 1;
            st.normalImpulse = last[best].normalImpulse;
            st.frictionImpulse = last[best].frictionImpulse;
        }
        const bool ground = rc.body1 < 0;
        const Vec3 r0 = rc.point0 - pose0.p;
        const Vec3 r1 = ground ? Vec3(0.0) : rc.point1 - before[static_cast<size_t>(rc.body1)].pose.p;
        ContactRef c{
            -1, static_cast<int>(m.rowCount),
            solver::RowBodies{m.solverIndex[i0], ground ? 0 : m.solverIndex[static_cast<size_t>(rc.body1)],
                              1.0, 1.0, 1.0, 1.0, r0, r1}};
        c.stored = static_cast<int>(m.nextBodyContacts.size());
        c.friction = ground ? s.groundFriction : s.bodyFriction;
        c.key0 = keyOf(rc.body0);
        c.key1 = ground ? -1 : keyOf(rc.body1);
        m.contacts.push_back(c);
        m.nextBodyContacts.push_back(st);
        const Vec3 n = rc.normal;
        Row normal;
        normal.linear0 = n;
        normal.angular0 = glm::cross(r0, n);
        normal.linear1 = n;
        normal.angular1 = glm::cross(r1, n);
        normal.geometricError = rc.distance;
        normal.minImpulse = 0.0;
        const Real e = ground ? s.groundRestitution : s.bodyRestitution;
        // A speculative contact bounces only if the bodies, approaching as they move now, close
        // the gap within this step; otherwise the bounce would happen up to the contact distance
        // early and send the body back from there (a ball dropped from 1 m would rise 4 % too high).
        const Vec3 v0 = before[i0].linearVelocity + glm::cross(before[i0].angularVelocity, r0);
        const Vec3 v1 = ground ? Vec3(0.0)
                               : before[static_cast<size_t>(rc.body1)].linearVelocity +
                                     glm::cross(before[static_cast<size_t>(rc.body1)].angularVelocity, r1);
        const bool closes = rc.distance <= 0 || -glm::dot(v0 - v1, n) * s.dt >= rc.distance;
        // A gap may close in full within the step (as PhysX's speculative contacts): α = 1 for it,
        // the bias C/h shrinking with C in TGS's substeps, so that a stack's contacts track their
        // gaps tightly. With restitution the approach speed must survive to the impact: the row
        // then lets the bodies approach at up to C/dt as a velocity target instead, which TGS's
        // shrinking C does not lower (the bias would brake the ball before it arrives).
        if (normal.geometricError > 0) {
            if (e > 0) {
                normal.flags = 0;
                normal.velocityTarget = -normal.geometricError / s.dt;
                normal.erpOverride = 0.0;
            } else {
                normal.erpOverride = 1.0;
                // A point found at a fast-turning pair's predicted poses (contacts/collide.h) is
                // where the bodies may meet later in the step: its row keeps its bias C/dt in the
                // velocity and relax passes too (as a gap to the ground does), so that it stops
                // only an approach beyond its gap. Without it those passes stopped every approach
                // at such points: the contact-driven gear of gears_contact.json turned at
                // -0.85 rad/s instead of -1.58, and ragdoll_steps.json's ragdoll stuck on a step.
                if (rc.predicted) normal.flags = kRowKeepBias;
            }
        }
        if (e > 0 && closes) {
            normal.flags = kRowRestitution;
            normal.mods.bounce.restitution = e;
            normal.mods.bounce.velocityThreshold = kBounceThreshold;
            normal.erpOverride = -1.0;
        }
        if (!tgs && normal.geometricError <= 0 && !(normal.flags & kRowRestitution)) softenContact(normal);
        normal.solveHint = SolveHint::Inequality;
        normal.label = ground ? "ground normal" : "contact normal";
        m.appendRow() = normal;
        Vec3 t[2];
        tangents(n, t[0], t[1]);
        for (int k = 0; k < 2; ++k) {
            Row f;
            f.linear0 = t[k];
            f.angular0 = glm::cross(r0, t[k]);
            f.linear1 = t[k];
            f.angular1 = glm::cross(r1, t[k]);
            f.label = k == 0 ? (ground ? "ground friction 1" : "contact friction 1")
                             : (ground ? "ground friction 2" : "contact friction 2");
            m.appendRow() = f;
        }
    }
}

}  // namespace jl
