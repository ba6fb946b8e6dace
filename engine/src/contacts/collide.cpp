// Body–body contact points through Bullet's collision module (contacts/collide.h). Bullet works
// in single precision: poses go in as floats and points come out as floats, the same bits for the
// same poses (no threads, no state kept between calls but the broad phase's tree, whose shape
// decides only which pairs are tested, not what a pair's test finds).
#include "contacts/collide.h"

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <glm/gtx/norm.hpp>

#include "jointlab/collision_filter.h"

namespace jl {

namespace {

btVector3 toBt(const Vec3& v) {
    return btVector3(static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z));
}
Vec3 fromBt(const btVector3& v) {
    return Vec3(v.x(), v.y(), v.z());
}
btTransform toBt(const Transform& t) {
    const btQuaternion q(static_cast<btScalar>(t.q.x), static_cast<btScalar>(t.q.y),
                         static_cast<btScalar>(t.q.z), static_cast<btScalar>(t.q.w));
    return btTransform(q, toBt(t.p));
}

/// Bullet's rounding margin of boxes and cylinders (their outer size stays exact; edges are
/// rounded by it in GJK tests): its default 4 cm, or a fifth of the smallest half size.
btScalar roundingMargin(Real smallest) {
    return static_cast<btScalar>(std::min(0.04, 0.2 * smallest));
}

/// Every shape is handed to Bullet grown by this much on every side (a hull by its margin, which
/// rounds it: the exact Minkowski sum). Bullet's box–box test (ODE's dBoxBox) and the sphere
/// tests find points only where shapes overlap; grown by the contact distance they find the
/// points of shapes up to twice that far apart, and the distances and points are taken back to
/// the real surfaces (collide()). Without it a box resting on a box loses its contacts whenever
/// it lifts a hair, falls back, and the stack jitters.
constexpr Real kGrow = 0.02;

/// Sides of the prism a cylinder collides as (its volume and inertia are the round cylinder's).
constexpr int kCylinderSides = 24;

/// One step's points of one pair of shapes in Bullet's order, in the order they were found.
struct Keyed {
    RawContact c;
    int order;
};

/// At most 4 points of one pair of shapes (a box face clipped against a hull face finds up to 8,
/// a shape on the ground with Bullet's perturbation more, some twice): the deepest, the one
/// farthest from it, the one farthest off the line through those two, and the one farthest from
/// all three (the corners of the contact patch, as Bullet's own manifold reduction keeps).
void reducePatch(const Keyed* p, size_t n, std::vector<RawContact>& out) {
    constexpr Real kSame = 1e-6;  // [m²]: points closer than 1 mm are one point
    size_t pick[4];
    int count = 0;
    size_t deepest = 0;
    for (size_t i = 1; i < n; ++i)
        if (p[i].c.distance < p[deepest].c.distance) deepest = i;
    pick[count++] = deepest;
    for (int round = 1; round < 4; ++round) {
        size_t best = n;
        Real bestScore = kSame;
        for (size_t i = 0; i < n; ++i) {
            const Vec3 x = p[i].c.point0;
            Real score;
            if (round == 2) {  // off the line of the first two
                const Vec3 a = p[pick[0]].c.point0, b = p[pick[1]].c.point0;
                score = glm::length2(glm::cross(x - a, b - a)) / std::max(glm::length2(b - a), kSame);
            } else {  // far from every point kept
                score = kInf;
                for (int k = 0; k < count; ++k)
                    score = std::min(score, glm::length2(x - p[pick[k]].c.point0));
            }
            if (score > bestScore) best = i, bestScore = score;
        }
        if (best == n) break;
        pick[count++] = best;
    }
    for (int a = 1; a < count; ++a)  // in Bullet's order (an insertion sort of at most 4)
        for (int b = a; b > 0 && pick[b - 1] > pick[b]; --b) std::swap(pick[b - 1], pick[b]);
    for (int k = 0; k < count; ++k) out.push_back(p[pick[k]].c);
}

struct PointRecord {
    int a, b, ia, ib;
    Vec3 onA, onB, normal;
    Real distance;
    int order;
};

/// Where Bullet's contact-added callback puts the points of the collide() running on this thread
/// (Bullet's callback is a global function; the list is per thread, so Worlds on several threads
/// do not mix their points).
thread_local std::vector<PointRecord>* tPoints = nullptr;

/// Every point a narrow-phase test adds, before Bullet's manifold merges points closer than its
/// contact threshold (which would leave one point of a small box's face).
bool onContactAdded(btManifoldPoint& cp, const btCollisionObjectWrapper* w0, int, int index0,
                    const btCollisionObjectWrapper* w1, int, int index1) {
    if (!tPoints) return false;
    tPoints->push_back({w0->getCollisionObject()->getUserIndex(), w1->getCollisionObject()->getUserIndex(),
                        std::max(0, index0), std::max(0, index1), fromBt(cp.getPositionWorldOnA()),
                        fromBt(cp.getPositionWorldOnB()), fromBt(cp.m_normalWorldOnB), cp.getDistance(),
                        static_cast<int>(tPoints->size())});
    return false;
}

}  // namespace

struct Collider::Impl {
    /// A point as Bullet reports it: bodies and child shapes a, b, its points on each (grown)
    /// shape, the normal from b towards a, the distance between the grown shapes.
    using Point = PointRecord;
    std::vector<Point> points;
    std::vector<Keyed> keyed;
    struct Filter : btOverlapFilterCallback {
        const Impl* m = nullptr;
        bool needBroadphaseCollision(btBroadphaseProxy* p0, btBroadphaseProxy* p1) const override {
            const auto* a = static_cast<const btCollisionObject*>(p0->m_clientObject);
            const auto* b = static_cast<const btCollisionObject*>(p1->m_clientObject);
            return m->mayCollide(a->getUserIndex(), b->getUserIndex());
        }
    };

    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    Filter filter;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;    // every shape, children before their compound
    std::vector<std::unique_ptr<btCollisionObject>> objects;  // per body, then the ground
    int ground = 0;                                           // the ground's user index (the body count)
    std::vector<uint8_t> dynamic, groundByBullet;
    std::vector<int> group, mask;
    std::vector<std::pair<int, int>> excluded;  // joined pairs (lower index first), sorted

    bool mayCollide(int a, int b) const {
        if (a == ground || b == ground) {
            const int body = a == ground ? b : a;
            return body != ground && dynamic[static_cast<size_t>(body)] &&
                   groundByBullet[static_cast<size_t>(body)];
        }
        const size_t i = static_cast<size_t>(a), j = static_cast<size_t>(b);
        if (!dynamic[i] && !dynamic[j]) return false;
        if ((group[i] & mask[j]) == 0 || (group[j] & mask[i]) == 0) return false;
        return !std::binary_search(excluded.begin(), excluded.end(),
                                   std::make_pair(std::min(a, b), std::max(a, b)));
    }

    btCollisionShape* keep(btCollisionShape* s) {
        shapes.emplace_back(s);
        return s;
    }

    btCollisionShape* primitive(ShapeType type, const Vec3& h, Real r, Real hh) {
        switch (type) {
            case ShapeType::Box: {
                auto* s = new btBoxShape(toBt(h + kGrow));
                s->setMargin(roundingMargin(std::min({h.x, h.y, h.z}) + kGrow));
                s->initializePolyhedralFeatures();  // face clipping against hulls
                return keep(s);
            }
            case ShapeType::Sphere:
                return keep(new btSphereShape(static_cast<btScalar>(r + kGrow)));
            case ShapeType::Capsule:
                return keep(
                    new btCapsuleShapeX(static_cast<btScalar>(r + kGrow), static_cast<btScalar>(2.0 * hh)));
            case ShapeType::Cylinder: {
                // A prism of kCylinderSides sides (its flat faces give whole contact patches by
                // face clipping, where Bullet's round cylinder gives one point per test).
                std::vector<Vec3> pts;
                for (int k = 0; k < kCylinderSides; ++k) {
                    const Real a = 2.0 * kPi * k / kCylinderSides;
                    for (Real x : {-hh, hh}) pts.push_back(Vec3(x, r * std::cos(a), r * std::sin(a)));
                }
                return hull(pts);
            }
            default:
                return keep(new btSphereShape(static_cast<btScalar>(r)));  // not reached (validated)
        }
    }

    btCollisionShape* hull(const std::vector<Vec3>& points) {
        auto* s = new btConvexHullShape();
        for (const Vec3& p : points) s->addPoint(toBt(p), false);
        s->recalcLocalAabb();
        s->setMargin(static_cast<btScalar>(kGrow));  // grown by its margin: the points are the surface
        s->initializePolyhedralFeatures();
        return keep(s);
    }

    btCollisionShape* shapeOf(const BodyDesc& b) {
        if (b.shape == ShapeType::Hull) return hull(b.hullPoints);
        if (b.shape == ShapeType::Compound) {
            auto* s = new btCompoundShape();
            for (const ShapeDesc& c : b.children)
                s->addChildShape(toBt(Transform{c.position, glm::normalize(c.orientation)}),
                                 primitive(c.shape, c.halfExtents, c.radius, c.halfHeight));
            return keep(s);
        }
        return primitive(b.shape, b.halfExtents, b.radius, b.halfHeight);
    }
};

Collider::Collider(const Scene& scene) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    // Several points per test against the ground plane: the shape is turned a little about the
    // first normal (Bullet's multi-point iterations), so a hull resting on a face gets a patch of
    // points although the manifold starts empty every step. Between bodies, polyhedra (boxes,
    // hulls, cylinders as prisms) are clipped face against face instead, and boxes against boxes
    // by Bullet's box–box test.
    m.config.setPlaneConvexMultipointIterations(3, 3);
    gContactAddedCallback = onContactAdded;
    // One contact distance for every pair (gContactBreakingThreshold, 2 cm by default), not one
    // relative to each shape's size.
    m.dispatcher.setDispatcherFlags(0);

    m.filter.m = &m;
    m.world.getPairCache()->setOverlapFilterCallback(&m.filter);
    const size_t nb = scene.bodies.size();
    m.ground = static_cast<int>(nb);
    m.dynamic.resize(nb);
    m.groundByBullet.resize(nb);
    m.group.resize(nb);
    m.mask.resize(nb);
    for (size_t i = 0; i < nb; ++i) {
        const BodyDesc& b = scene.bodies[i];
        m.dynamic[i] = b.motion == MotionType::Dynamic;
        m.groundByBullet[i] = !analyticGround(b.shape);
        m.group[i] = b.collisionGroup;
        m.mask[i] = b.collisionMask;
    }
    m.excluded = jointExcludedPairs(scene);  // joined bodies (jointlab/collision_filter.h)
    for (size_t i = 0; i <= nb; ++i) {
        auto obj = std::make_unique<btCollisionObject>();
        obj->setCollisionShape(i < nb ? m.shapeOf(scene.bodies[i])
                                      : m.keep(new btStaticPlaneShape(btVector3(0, 1, 0), 0)));
        obj->setUserIndex(static_cast<int>(i));
        obj->setActivationState(DISABLE_DEACTIVATION);
        obj->setCollisionFlags(obj->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
        if (i < nb)
            obj->setWorldTransform(toBt(Transform{scene.bodies[i].position, scene.bodies[i].orientation}));
        m.objects.push_back(std::move(obj));
    }
    // Into the broad phase in a scrambled (but fixed) order: its tree puts each new leaf beside the
    // nearest one and is rebalanced only as steps go by, so bodies added in the order they lie in
    // (a chain along x) made a tree as deep as the bodies and the inserts quadratic: 20,000 chain
    // links took 38 s to add. Each proxy still gets the id it had when they were added in index
    // order (Bullet numbers them ++m_gid, and orders a pair's two shapes by it, which decides the
    // rounding of its points), so the order decides only the tree's shape and the order pairs are
    // found in, and the points are sorted by body below.
    std::vector<std::pair<uint32_t, size_t>> order(nb + 1);
    for (size_t i = 0; i <= nb; ++i) order[i] = {static_cast<uint32_t>(i) * 2654435761u, i};  // Knuth's hash
    std::sort(order.begin(), order.end());
    for (const auto& [key, i] : order) {
        m.broadphase.m_gid = static_cast<int>(i);  // the proxy's id: i + 1
        m.world.addCollisionObject(m.objects[i].get());
    }
}

Collider::~Collider() {
    // Drop the broad phase's pairs first, each in O(1) from the end of the cache's array: removing an
    // object scans every pair for its proxy, and with the ground's pair against every body that
    // made closing a 20,000-body scene take 45 s (quadratic in the bodies).
    Impl& m = *impl_;
    btOverlappingPairCache* cache = m.world.getPairCache();
    for (int k = cache->getNumOverlappingPairs(); k-- > 0;) {
        const btBroadphasePair& p = cache->getOverlappingPairArray()[k];
        cache->removeOverlappingPair(p.m_pProxy0, p.m_pProxy1, &m.dispatcher);
    }
    for (auto& o : m.objects) m.world.removeCollisionObject(o.get());
}

void Collider::collide(const std::vector<BodyState>& poses, bool bodies, bool ground, Real margin,
                       std::vector<RawContact>& out) {
    Impl& m = *impl_;
    out.clear();
    if (!bodies && !ground) return;
    const size_t nb = static_cast<size_t>(m.ground);
    for (size_t i = 0; i < nb && i < poses.size(); ++i) m.objects[i]->setWorldTransform(toBt(poses[i].pose));
    // Bullet keeps points up to this far apart: the contact distance between the grown shapes.
    gContactBreakingThreshold = static_cast<btScalar>(margin + 2 * kGrow);
    std::vector<Impl::Point>& found = m.points;
    found.clear();
    tPoints = &found;
    m.world.performDiscreteCollisionDetection();
    tPoints = nullptr;
    for (int k = 0; k < m.dispatcher.getNumManifolds(); ++k)
        m.dispatcher.getManifoldByIndexInternal(k)->clearManifold();
    // Each point as body 0 (the lower index) against body 1 (the ground last), on the real surfaces.
    std::vector<Keyed>& keyed = m.keyed;
    keyed.clear();
    for (const Impl::Point& p : found) {
        const bool withGround = p.a == m.ground || p.b == m.ground;
        if (!(withGround ? ground : bodies)) continue;
        // back from the grown shapes (kGrow) to the real surfaces; the ground is not grown
        const Real growA = p.a == m.ground ? 0.0 : kGrow, growB = p.b == m.ground ? 0.0 : kGrow;
        const Real distance = p.distance + growA + growB;
        if (distance > margin) continue;
        const Vec3 onA = p.onA + growA * p.normal, onB = p.onB - growB * p.normal;
        const bool swap = withGround ? p.a == m.ground : p.a > p.b;
        RawContact c;
        c.body0 = swap ? p.b : p.a;
        c.body1 = swap ? p.a : p.b;
        c.point0 = swap ? onB : onA;
        c.point1 = swap ? onA : onB;
        c.normal = swap ? -p.normal : p.normal;
        c.feature = swap ? p.ib * kMaxChildShapes + p.ia : p.ia * kMaxChildShapes + p.ib;
        c.distance = distance;
        if (c.body1 == m.ground) c.body1 = -1;
        keyed.push_back({c, p.order});
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& x, const Keyed& y) {
        if (x.c.body0 != y.c.body0 || x.c.body1 != y.c.body1 || x.c.feature != y.c.feature)
            return contactPairLess(x.c.body0, x.c.body1, x.c.feature, y.c.body0, y.c.body1, y.c.feature);
        return x.order < y.order;
    });
    for (size_t first = 0; first < keyed.size();) {
        size_t end = first + 1;
        while (end < keyed.size() && keyed[end].c.body0 == keyed[first].c.body0 &&
               keyed[end].c.body1 == keyed[first].c.body1 && keyed[end].c.feature == keyed[first].c.feature)
            ++end;
        reducePatch(keyed.data() + first, end - first, out);
        first = end;
    }
}

}  // namespace jl
