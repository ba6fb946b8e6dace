// Body–body contact points from Bullet's collision module (BulletCollision + LinearMath): its
// dynamic AABB tree broad phase (btDbvtBroadphase) and its narrow phase (box–box clipping, GJK/EPA
// with multi-point perturbation, polyhedral clipping for hulls, compounds child by child).
//
// Bullet's persistent manifolds are not kept from step to step: every call clears them after
// reading them, so the points of a step depend only on that step's poses. What carries over (the
// accumulated impulses, for warm starting) is JointLab's own list of contacts (WorldSnapshot::
// bodyContacts), which is saved and restored with the rest of the world's state.
#pragma once

#include <memory>
#include <vector>

#include "jointlab/scene.h"
#include "jointlab/snapshot.h"

namespace jl {

/// One contact point of one step between body0 and body1 (scene indices, body0 < body1), or
/// between body0 and the ground plane (body1 = −1: shapes the analytic ground test of
/// contacts/ground.h does not cover: cylinders, hulls, compounds).
struct RawContact {
    int body0 = 0, body1 = -1;
    int feature = 0;             ///< child0 · kMaxChildShapes + child1 (compound children), else 0
    Vec3 point0{0.0};            ///< on body 0's surface, world [m]
    Vec3 point1{0.0};            ///< on body 1's surface (or the ground), world [m]
    Vec3 normal{0.0, 1.0, 0.0};  ///< unit, world, from body 1 towards body 0
    Real distance = 0.0;         ///< separation along the normal [m], < 0 when they overlap
    /// Found at the poses predicted for later in the step (a fast-turning pair, collide()), and
    /// taken back to the start poses.
    bool predicted = false;
};

/// The canonical order of contacts: by body 0, body 1 (the ground first), feature.
inline bool contactPairLess(int a0, int a1, int af, int b0, int b1, int bf) {
    if (a0 != b0) return a0 < b0;
    if (a1 != b1) return a1 < b1;
    return af < bf;
}

class Collider {
public:
    /// Collision shapes and filters for the scene's bodies. Pairs that never collide: two bodies
    /// that are not dynamic; bodies whose collision filters exclude each other; bodies joined by a
    /// joint whose collideConnected is off (PhysX's default).
    explicit Collider(const Scene& scene);
    ~Collider();
    Collider(const Collider&) = delete;
    Collider& operator=(const Collider&) = delete;

    /// This step's contact points at the bodies' `poses` into `out` (cleared first), in the
    /// canonical order (contactPairLess, then Bullet's order within one pair of shapes, which
    /// depends only on the poses). `bodies`: body–body pairs; `ground`: cylinders, hulls and
    /// compounds against the plane y = 0. A pair's points are kept up to its contact distance:
    /// `margin`, or for two dynamic bodies that can close more than that within a step of `dt` at their
    /// velocities in `poses`, that much (speculative contacts that grow with the pair's speed:
    /// |v0 − v1|·dt + (|ω0|·R0 + |ω1|·R1)·dt, R the farthest point of a shape from its body's
    /// origin); a point farther than `margin` is kept only if its approach at those velocities
    /// would close twice its gap within the step. dt = 0: `margin` for every pair. Pairs with the
    /// ground or a body that is not dynamic: `margin`. Two dynamic bodies that turn more than
    /// 5 mm within the step ((|ω0|·R0 + |ω1|·R1)·dt) are also tested at the poses their velocities
    /// predict for the middle and the end of the step; those points (`predicted`, after the pair's
    /// own points) are the same material points at the `poses`, with the normal found there and
    /// the gap along it.
    void collide(const std::vector<BodyState>& poses, bool bodies, bool ground, Real margin,
                 std::vector<RawContact>& out, Real dt = 0.0);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// True for the shapes whose ground contacts contacts/ground.cpp computes (box, sphere, capsule).
inline bool analyticGround(ShapeType s) {
    return s == ShapeType::Box || s == ShapeType::Sphere || s == ShapeType::Capsule;
}

}  // namespace jl
