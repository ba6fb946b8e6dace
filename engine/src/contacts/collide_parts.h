// What the collider's two files share (contacts/collide.cpp: shapes, the broad and narrow phase,
// the points; contacts/predicted_poses.cpp: fast-turning pairs tested again at predicted poses):
// the conversions to Bullet's types, how much every shape is grown, a point as Bullet reports it,
// and how far apart each pair's points are looked for (Reach). Internal to the collider.
#pragma once

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "jointlab/scene.h"
#include "jointlab/snapshot.h"

namespace jl::contacts {

inline btVector3 toBt(const Vec3& v) {
    return btVector3(static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z));
}
inline Vec3 fromBt(const btVector3& v) {
    return Vec3(v.x(), v.y(), v.z());
}
inline btTransform toBt(const Transform& t) {
    const btQuaternion q(static_cast<btScalar>(t.q.x), static_cast<btScalar>(t.q.y),
                         static_cast<btScalar>(t.q.z), static_cast<btScalar>(t.q.w));
    return btTransform(q, toBt(t.p));
}

/// Every shape is handed to Bullet grown by this much on every side (a hull by its margin, which
/// rounds it: the exact Minkowski sum). Bullet's box–box test (ODE's dBoxBox) and the sphere
/// tests find points only where shapes overlap; grown by the contact distance they find the
/// points of shapes up to twice that far apart, and the distances and points are taken back to
/// the real surfaces (collide()). Without it a box resting on a box loses its contacts whenever
/// it lifts a hair, falls back, and the stack jitters.
constexpr Real kGrow = 0.02;

/// How far outside the real surface of `shape` Bullet reports a point of it against `other` [m].
/// Every shape is handed to Bullet grown by kGrow (a hull by its margin), but two polyhedra (boxes,
/// hulls, cylinders as prisms) are clipped face against face on their polyhedral features, and a
/// hull's are its points without the margin (btConvexConvexAlgorithm takes a hull's margin off its
/// GJK distance in that case too; a box's features are its grown box): against a box or a hull,
/// a hull's points lie on its real surface. The ground plane is not grown.
inline Real reportedGrow(const btCollisionShape* shape, const btCollisionShape* other) {
    if (shape->getShapeType() == STATIC_PLANE_PROXYTYPE) return 0.0;
    if (shape->getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE && other->isPolyhedral()) return 0.0;
    return kGrow;
}

/// A point as Bullet reports it: bodies and child shapes a, b, its points on each (grown) shape,
/// the normal from b towards a, the distance between the grown shapes, and how far each point lies
/// outside its real surface (reportedGrow).
struct PointRecord {
    int a, b, ia, ib;
    Vec3 onA, onB, normal;
    Real distance;
    int order;
    int phase = 0;  // 0: found at the step's start poses; k > 0: at those predicted for kPredictAt[k − 1]
    Real growA = kGrow, growB = kGrow;
};

/// A pair's point beyond the base margin is kept when its approach, at the velocities of the step's
/// start, would close this many times its distance within the step: the velocities change within
/// the step (joints, other contacts), and a limb can be whipped into another.
constexpr Real kSpeculativeSlack = 2.0;

/// How far apart the points of each pair are looked for in one collide() call.
struct Reach {
    int ground = 0;            // the ground's user index (the body count)
    std::vector<Real> radius;  // shapeRadius of each body's shape (jointlab/body.h)
    std::vector<uint8_t> dynamic;
    // This call's base distance (collide()'s margin) and step, and the states it started from.
    Real margin = 0.0, dt = 0.0;
    const std::vector<BodyState>* states = nullptr;

    /// The contact distance of the pair (a, b) in this call [m, between the real surfaces]: the
    /// base margin, or, when more, the most the two can close within the step if they keep their
    /// velocities: |v_a − v_b|·dt + (|ω_a|·R_a + |ω_b|·R_b)·dt. With the ground or a body that
    /// is not dynamic: the base. (With a static post it was tried and a pendulum's bob swinging
    /// past the post 5 cm away was disturbed by a row 6.4 cm off and left its closed form by
    /// 3.2 rad, pendulum_hinge.json; why that row acted is not understood yet.)
    Real pairDistance(int a, int b) const {
        if (a == ground || b == ground || dt <= 0.0) return margin;
        if (!dynamic[static_cast<size_t>(a)] || !dynamic[static_cast<size_t>(b)]) return margin;
        const BodyState& x = (*states)[static_cast<size_t>(a)];
        const BodyState& y = (*states)[static_cast<size_t>(b)];
        const Real closing = (glm::length(x.linearVelocity - y.linearVelocity) +
                              glm::length(x.angularVelocity) * radius[static_cast<size_t>(a)] +
                              glm::length(y.angularVelocity) * radius[static_cast<size_t>(b)]) *
                             dt;
        return std::max(margin, closing);
    }
    /// Whether a point of the pair (a, b) farther apart than the base margin is kept: if the two
    /// points, moving as their bodies do now, close the `distance` within the step (with
    /// kSpeculativeSlack to spare). Points the solver's linear model says cannot meet would be rows
    /// that do nothing at best, and at worst stop bodies that were only passing (gear teeth).
    bool mayClose(int a, int b, const Vec3& onA, const Vec3& onB, const Vec3& normal, Real distance) const {
        if (a == ground || b == ground || dt <= 0.0 || distance > pairDistance(a, b)) return false;
        const BodyState& x = (*states)[static_cast<size_t>(a)];
        const BodyState& y = (*states)[static_cast<size_t>(b)];
        const Vec3 va = x.linearVelocity + glm::cross(x.angularVelocity, onA - x.pose.p);
        const Vec3 vb = y.linearVelocity + glm::cross(y.angularVelocity, onB - y.pose.p);
        return -glm::dot(va - vb, normal) * dt * kSpeculativeSlack >= distance;
    }
    /// Whether the pair (a, b) turns so fast that its closest points can slide across its shapes
    /// within the step (predicted_poses.cpp).
    bool turnsFast(int a, int b) const;
    /// Body i's pose at the fraction `t` of the step if it kept its velocities in `states`
    /// (predicted_poses.cpp).
    Transform predicted(int i, Real t) const;
    /// How far body i can move within the step [m] (its AABB grows by it).
    Real motion(size_t i) const {
        if (dt <= 0.0) return 0.0;
        const BodyState& x = (*states)[i];
        return (glm::length(x.linearVelocity) + glm::length(x.angularVelocity) * radius[i]) * dt;
    }
};

/// Tests the pair again at the poses its bodies would reach later in the step, appending the
/// points found there to `points` with their prediction's number (PointRecord::phase); for a pair
/// that Reach::turnsFast. `threshold`: the pair's own distance between the grown shapes.
void testAtPredictedPoses(btBroadphasePair& pair, const btDispatcherInfo& info, const Reach& reach,
                          btScalar threshold, std::vector<PointRecord>& points);

/// A point found at predicted poses (phase > 0), its `onA` and `onB` on the real surfaces there,
/// taken back to the step's start poses: returns its gap there along its normal.
Real toStartPoses(const PointRecord& p, const Reach& reach, Vec3& onA, Vec3& onB);

}  // namespace jl::contacts
