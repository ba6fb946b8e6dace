// Fast-turning pairs tested again at predicted poses (docs/contacts.md, "Fast pairs"): between two
// turning capsules the closest points slide by up to 10 cm and the normal turns by 40° within a
// 60 Hz step, and a row that holds at the start's closest point lets them meet elsewhere. A pair
// whose bodies turn fast (Reach::turnsFast) is tested again at the poses its bodies would reach in
// the middle and at the end of the step (kPredictAt), and the points found there are taken back to
// the start poses (toStartPoses), where they become rows like any other (contacts/collide.h).
#include <glm/gtx/norm.hpp>

#include "contacts/collide_parts.h"

namespace jl::contacts {

namespace {

/// A pair whose bodies turn through more than this fraction of the base contact distance within
/// a step ((|ω_a|·R_a + |ω_b|·R_b)·dt > 0.25 · 2 cm = 5 mm) is tested again at its predicted poses
/// (Reach::turnsFast). A ragdoll thrown and spun 150 ways (60 Hz, 3 s, in a first version of the
/// test RagdollLimbsStayApartInMostThrows): runs in which unjoined limbs overlapped by more than
/// 2 cm, TGS / PGS, 74 / 55 with no second test; with it (the rows of predicted points without
/// their bias in the velocity passes) at a threshold of 2 cm per step 16 / 12, of 1 cm 12 / 3, of
/// 5 mm 9 / 5, and only 5 mm kept the test's thrown ragdoll within 2 cm.
constexpr Real kTurnFraction = 0.25;

/// The fractions of the step at whose predicted poses a fast-turning pair is tested again: the
/// middle and the end. Of 150 runs of the test as it is (81 / 59 over 2 cm with no second test),
/// with every speculative body row keeping its bias: the end alone 24 / 14, the middle and the end
/// 14 / 8, thirds 16 / 10; with only these rows keeping it, as now, the middle and the end 16 / 10
/// (docs/contacts.md, "Fast pairs").
constexpr Real kPredictAt[] = {0.5, 1.0};
constexpr int kPredictions = static_cast<int>(sizeof(kPredictAt) / sizeof(kPredictAt[0]));

}  // namespace

/// Whether the pair (a, b) turns so fast that its closest points can slide across its shapes
/// within the step: two dynamic bodies with (|ω_a|·R_a + |ω_b|·R_b)·dt above kTurnFraction of
/// the base margin. Its points are then also looked for at its predicted poses (nearPair).
bool Reach::turnsFast(int a, int b) const {
    if (a == ground || b == ground || dt <= 0.0) return false;
    if (!dynamic[static_cast<size_t>(a)] || !dynamic[static_cast<size_t>(b)]) return false;
    const BodyState& x = (*states)[static_cast<size_t>(a)];
    const BodyState& y = (*states)[static_cast<size_t>(b)];
    const Real turn = (glm::length(x.angularVelocity) * radius[static_cast<size_t>(a)] +
                       glm::length(y.angularVelocity) * radius[static_cast<size_t>(b)]) *
                      dt;
    return turn > kTurnFraction * margin;
}

/// Body i's pose at the fraction `t` of the step if it kept its velocities in `states` (the
/// turn exact, about the centre of mass).
Transform Reach::predicted(int i, Real t) const {
    const BodyState& x = (*states)[static_cast<size_t>(i)];
    Transform out = x.pose;
    out.p += x.linearVelocity * (t * dt);
    const Real rate = glm::length(x.angularVelocity);
    if (rate > 0.0)
        out.q = glm::normalize(glm::angleAxis(rate * t * dt, x.angularVelocity / rate) * x.pose.q);
    return out;
}

/// The pair is tested at each of kPredictAt's poses in turn; the points Bullet's contact-added
/// callback appends to `points` during a test are marked with its number. Each test starts from
/// empty manifolds (what the last one found is recorded already) and keeps points out to the
/// pair's own distance; afterwards the bodies are put back at their start poses and the pair's
/// manifolds emptied and set back to the base distance.
void testAtPredictedPoses(btBroadphasePair& pair, const btDispatcherInfo& info, const Reach& reach,
                          btScalar threshold, std::vector<PointRecord>& points) {
    auto* a = static_cast<btCollisionObject*>(pair.m_pProxy0->m_clientObject);
    auto* b = static_cast<btCollisionObject*>(pair.m_pProxy1->m_clientObject);
    const int ia = a->getUserIndex(), ib = b->getUserIndex();
    const btTransform startA = a->getWorldTransform(), startB = b->getWorldTransform();
    btManifoldArray manifolds;
    auto resetManifolds = [&](btScalar to) {
        manifolds.resize(0);
        pair.m_algorithm->getAllContactManifolds(manifolds);
        for (int k = 0; k < manifolds.size(); ++k) {
            manifolds[k]->clearManifold();
            manifolds[k]->setContactBreakingThreshold(to);
        }
    };
    for (int k = 0; k < kPredictions; ++k) {
        resetManifolds(threshold);
        a->setWorldTransform(toBt(reach.predicted(ia, kPredictAt[k])));
        b->setWorldTransform(toBt(reach.predicted(ib, kPredictAt[k])));
        btCollisionObjectWrapper pa(nullptr, a->getCollisionShape(), a, a->getWorldTransform(), -1, -1);
        btCollisionObjectWrapper pb(nullptr, b->getCollisionShape(), b, b->getWorldTransform(), -1, -1);
        const size_t first = points.size();
        btManifoldResult predictedResult(&pa, &pb);
        pair.m_algorithm->processCollision(&pa, &pb, info, &predictedResult);
        for (size_t i = first; i < points.size(); ++i) points[i].phase = k + 1;
    }
    a->setWorldTransform(startA);
    b->setWorldTransform(startB);
    resetManifolds(static_cast<btScalar>(reach.margin + 2 * kGrow));
}

/// Found at the poses predicted for kPredictAt[phase − 1]: the same material points of each body
/// at the step's start poses, with the normal found there and the gap between the two points
/// along it, C = n·(x_a − x_b): a row like any other, in the step's start configuration. A
/// speculative row (C > 0) lets the bodies approach by C at those points and stops the rest; it
/// does nothing if they do not come.
Real toStartPoses(const PointRecord& p, const Reach& reach, Vec3& onA, Vec3& onB) {
    const std::vector<BodyState>& poses = *reach.states;
    const Real t = kPredictAt[p.phase - 1];
    onA = poses[static_cast<size_t>(p.a)].pose.apply(reach.predicted(p.a, t).inverse().apply(onA));
    onB = poses[static_cast<size_t>(p.b)].pose.apply(reach.predicted(p.b, t).inverse().apply(onB));
    return glm::dot(p.normal, onA - onB);
}

}  // namespace jl::contacts
