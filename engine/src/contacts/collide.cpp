// Body–body contact points through Bullet's collision module (contacts/collide.h). Bullet works
// in single precision: poses go in as floats and points come out as floats, the same bits for the
// same poses (no threads, no state kept between calls but the broad phase's tree, whose shape
// decides only which pairs are tested, not what a pair's test finds).
#include "contacts/collide.h"

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <glm/gtx/norm.hpp>
#include <map>
#include <tuple>

#include "contacts/collide_parts.h"
#include "jointlab/collision_filter.h"

namespace jl {

using contacts::fromBt;
using contacts::kGrow;
using contacts::PointRecord;
using contacts::Reach;
using contacts::toBt;

namespace {

/// Bullet's rounding margin of boxes and cylinders (their outer size stays exact; edges are
/// rounded by it in GJK tests): its default 4 cm, or a fifth of the smallest half size.
btScalar roundingMargin(Real smallest) {
    return static_cast<btScalar>(std::min(0.04, 0.2 * smallest));
}

/// Sides of the prism a cylinder collides as (its volume and inertia are the round cylinder's).
constexpr int kCylinderSides = 24;

/// One step's points of one pair of shapes in Bullet's order, in the order they were found.
struct Keyed {
    RawContact c;
    int order;
    bool predicted;  // found at predicted poses (reduced apart from the points of the start poses)
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

/// Where Bullet's contact-added callback puts the points of the collide() running on this thread
/// (Bullet's callback is a global function; the list is per thread, so Worlds on several threads
/// do not mix their points).
thread_local std::vector<PointRecord>* tPoints = nullptr;

/// Every point a narrow-phase test adds, before Bullet's manifold merges points closer than its
/// contact threshold (which would leave one point of a small box's face).
bool onContactAdded(btManifoldPoint& cp, const btCollisionObjectWrapper* w0, int, int index0,
                    const btCollisionObjectWrapper* w1, int, int index1) {
    if (!tPoints) return false;
    // (a compound's child comes with its own wrapper: these are the child shapes that met)
    const btCollisionShape* s0 = w0->getCollisionShape();
    const btCollisionShape* s1 = w1->getCollisionShape();
    tPoints->push_back({w0->getCollisionObject()->getUserIndex(), w1->getCollisionObject()->getUserIndex(),
                        std::max(0, index0), std::max(0, index1), fromBt(cp.getPositionWorldOnA()),
                        fromBt(cp.getPositionWorldOnB()), fromBt(cp.m_normalWorldOnB), cp.getDistance(),
                        static_cast<int>(tPoints->size()), 0, contacts::reportedGrow(s0, s1),
                        contacts::reportedGrow(s1, s0)});
    return false;
}

/// Bullet's dispatcher, but every manifold it makes for a pair keeps points up to that pair's own
/// distance (`pairThreshold`, set by nearPair before the pair's test) instead of the global
/// gContactBreakingThreshold: no global is written, and a fast pair reaches farther.
struct PairDispatcher : btCollisionDispatcher {
    using btCollisionDispatcher::btCollisionDispatcher;
    const Reach* reach = nullptr;
    btScalar pairThreshold = 0;
    btPersistentManifold* getNewManifold(const btCollisionObject* b0, const btCollisionObject* b1) override {
        btPersistentManifold* m = btCollisionDispatcher::getNewManifold(b0, b1);
        m->setContactBreakingThreshold(pairThreshold);
        return m;
    }
};

void nearPair(btBroadphasePair& pair, btCollisionDispatcher& dispatcher, const btDispatcherInfo& info);

}  // namespace

struct Collider::Impl {
    using Point = PointRecord;  // a point as Bullet reports it (contacts/collide_parts.h)
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
    PairDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    Filter filter;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;    // every shape, children before their compound
    std::vector<std::unique_ptr<btCollisionObject>> objects;  // per body, then the ground
    int ground = 0;                                           // the ground's user index (the body count)
    std::vector<uint8_t> dynamic, groundByBullet;
    Reach reach;
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

    // One Bullet shape per distinct shape, shared by the bodies that have it: a box's polyhedral
    // features (face clipping) cost ~1 M instructions to build, so a world of 1000 boxes took ~1 G
    // to make (which a jump in the history across an edit pays). A shape holds no state between
    // tests, so sharing it changes no result.
    std::map<std::tuple<int, Real, Real, Real, Real, Real>, btCollisionShape*> primitives;
    std::map<std::vector<Real>, btCollisionShape*> hulls;

    btCollisionShape* primitive(ShapeType type, const Vec3& h, Real r, Real hh) {
        const auto key = std::make_tuple(static_cast<int>(type), h.x, h.y, h.z, r, hh);
        btCollisionShape*& shared = primitives[key];
        if (!shared) shared = makePrimitive(type, h, r, hh);
        return shared;
    }

    btCollisionShape* makePrimitive(ShapeType type, const Vec3& h, Real r, Real hh) {
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
        std::vector<Real> key;
        key.reserve(3 * points.size());
        for (const Vec3& p : points) key.insert(key.end(), {p.x, p.y, p.z});
        btCollisionShape*& shared = hulls[key];
        if (!shared) shared = makeHull(points);
        return shared;
    }

    btCollisionShape* makeHull(const std::vector<Vec3>& points) {
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
            for (const ShapeDesc& c : b.children)  // a hull child is a hull as a body's is, shared alike
                s->addChildShape(toBt(Transform{c.position, glm::normalize(c.orientation)}),
                                 c.shape == ShapeType::Hull
                                     ? hull(c.hullPoints)
                                     : primitive(c.shape, c.halfExtents, c.radius, c.halfHeight));
            return keep(s);
        }
        return primitive(b.shape, b.halfExtents, b.radius, b.halfHeight);
    }
};

namespace {

/// Bullet's narrow phase for one pair from the broad phase (what its default near callback does),
/// with the pair's own contact distance (Reach::pairDistance): its manifolds keep points that far
/// apart. GJK-based tests (capsules, hulls, cylinders, any two different shapes) look that far;
/// Bullet's box–box and sphere–sphere tests and a compound's choice of children look only where
/// the grown shapes overlap, so for them the reach stops at 2·kGrow (4 cm). Raising Bullet's
/// closest-point threshold would let them look farther, but it also changed which points a
/// compound's children gave within the base margin: the contact-driven gears of
/// gears_contact.json turned at -0.57 rad/s instead of -1.58. A slow pair is tested as before.
void nearPair(btBroadphasePair& pair, btCollisionDispatcher& dispatcher, const btDispatcherInfo& info) {
    auto* a = static_cast<btCollisionObject*>(pair.m_pProxy0->m_clientObject);
    auto* b = static_cast<btCollisionObject*>(pair.m_pProxy1->m_clientObject);
    if (!dispatcher.needsCollision(a, b)) return;
    auto& d = static_cast<PairDispatcher&>(dispatcher);
    const Real distance = d.reach->pairDistance(a->getUserIndex(), b->getUserIndex());
    // between the grown shapes (kGrow each; the ground is not grown, and keeps more than it needs)
    d.pairThreshold = static_cast<btScalar>(distance + 2 * kGrow);
    btCollisionObjectWrapper wa(nullptr, a->getCollisionShape(), a, a->getWorldTransform(), -1, -1);
    btCollisionObjectWrapper wb(nullptr, b->getCollisionShape(), b, b->getWorldTransform(), -1, -1);
    if (!pair.m_algorithm)
        pair.m_algorithm = dispatcher.findAlgorithm(&wa, &wb, nullptr, BT_CONTACT_POINT_ALGORITHMS);
    if (!pair.m_algorithm) return;
    // A slow pair's manifolds already have the base distance (made with it, or set back to it
    // after a fast test); a fast pair's are raised to its own for this test only.
    const bool fast = distance > d.reach->margin;
    btManifoldArray manifolds;
    if (fast) {
        pair.m_algorithm->getAllContactManifolds(manifolds);
        for (int k = 0; k < manifolds.size(); ++k) manifolds[k]->setContactBreakingThreshold(d.pairThreshold);
    }
    btManifoldResult result(&wa, &wb);
    pair.m_algorithm->processCollision(&wa, &wb, info, &result);
    if (fast) {
        const btScalar base = static_cast<btScalar>(d.reach->margin + 2 * kGrow);
        manifolds.resize(0);
        pair.m_algorithm->getAllContactManifolds(manifolds);  // with any it made just now
        for (int k = 0; k < manifolds.size(); ++k) manifolds[k]->setContactBreakingThreshold(base);
    }
    // A pair that turns fast is tested again at the poses its bodies would reach later in the
    // step (contacts/predicted_poses.cpp).
    if (tPoints && d.reach->turnsFast(a->getUserIndex(), b->getUserIndex()))
        contacts::testAtPredictedPoses(pair, info, *d.reach, d.pairThreshold, *tPoints);
}

}  // namespace

Collider::Collider(const Scene& scene) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    // Several points per test against the ground plane: the shape is turned a little about the
    // first normal (Bullet's multi-point iterations), so a hull resting on a face gets a patch of
    // points although the manifold starts empty every step. Between bodies, polyhedra (boxes,
    // hulls, cylinders as prisms) are clipped face against face instead, and boxes against boxes
    // by Bullet's box–box test.
    m.config.setPlaneConvexMultipointIterations(3, 3);
    gContactAddedCallback = onContactAdded;
    m.dispatcher.reach = &m.reach;
    m.dispatcher.setNearCallback(nearPair);
    // Bullet's threshold relative to each shape's size off: every manifold gets its pair's own
    // distance (PairDispatcher, nearPair).
    m.dispatcher.setDispatcherFlags(0);

    m.filter.m = &m;
    m.world.getPairCache()->setOverlapFilterCallback(&m.filter);
    const size_t nb = scene.bodies.size();
    m.ground = static_cast<int>(nb);
    m.reach.ground = m.ground;
    m.dynamic.resize(nb);
    m.groundByBullet.resize(nb);
    m.group.resize(nb);
    m.mask.resize(nb);
    for (size_t i = 0; i < nb; ++i) {
        const BodyDesc& b = scene.bodies[i];
        m.dynamic[i] = b.motion == MotionType::Dynamic;
        m.groundByBullet[i] = !analyticGround(b.shape);
        m.reach.dynamic.push_back(m.dynamic[i]);
        m.reach.radius.push_back(
            shapeRadius(b));  // how far a turn of θ moves a point of the body at most (R·θ)
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
                       std::vector<RawContact>& out, Real dt) {
    Impl& m = *impl_;
    out.clear();
    if (!bodies && !ground) return;
    const size_t nb = static_cast<size_t>(m.ground);
    Reach& reach = m.reach;
    if (margin != reach.margin) {  // every manifold to the new base distance (nearPair keeps it)
        for (int k = 0; k < m.dispatcher.getNumManifolds(); ++k)
            m.dispatcher.getManifoldByIndexInternal(k)->setContactBreakingThreshold(
                static_cast<btScalar>(margin + 2 * kGrow));
    }
    reach.margin = margin;
    reach.dt = poses.size() >= nb ? dt : 0.0;
    reach.states = &poses;
    // The broad phase's boxes: each grown shape's, grown again by the base distance between grown
    // shapes (as Bullet's own update does with its threshold) and by how far the body can move
    // within the step, so that a pair that can meet within the step is tested.
    const btScalar base = static_cast<btScalar>(margin + 2 * kGrow);
    for (size_t i = 0; i < nb && i < poses.size(); ++i) {
        btCollisionObject& o = *m.objects[i];
        o.setWorldTransform(toBt(poses[i].pose));
        btVector3 lo, hi;
        o.getCollisionShape()->getAabb(o.getWorldTransform(), lo, hi);
        const btScalar grow = base + static_cast<btScalar>(reach.motion(i));
        const btVector3 g(grow, grow, grow);
        m.broadphase.setAabb(o.getBroadphaseHandle(), lo - g, hi + g, &m.dispatcher);
    }
    std::vector<Impl::Point>& found = m.points;
    found.clear();
    tPoints = &found;
    m.world.computeOverlappingPairs();
    m.dispatcher.dispatchAllCollisionPairs(m.broadphase.getOverlappingPairCache(), m.world.getDispatchInfo(),
                                           &m.dispatcher);
    tPoints = nullptr;
    for (int k = 0; k < m.dispatcher.getNumManifolds(); ++k)
        m.dispatcher.getManifoldByIndexInternal(k)->clearManifold();
    // Each point as body 0 (the lower index) against body 1 (the ground last), on the real surfaces.
    std::vector<Keyed>& keyed = m.keyed;
    keyed.clear();
    for (const Impl::Point& p : found) {
        const bool withGround = p.a == m.ground || p.b == m.ground;
        if (!(withGround ? ground : bodies)) continue;
        // back from the grown shapes to the real surfaces (contacts::reportedGrow)
        const Real growA = p.growA, growB = p.growB;
        Real distance = p.distance + growA + growB;
        Vec3 onA = p.onA + growA * p.normal, onB = p.onB - growB * p.normal;
        if (p.phase > 0) {  // found at predicted poses: back to the start poses, a row like any other
            distance = contacts::toStartPoses(p, reach, onA, onB);
        } else if (distance > margin && !reach.mayClose(p.a, p.b, onA, onB, p.normal, distance)) {
            continue;
        }
        const bool swap = withGround ? p.a == m.ground : p.a > p.b;
        RawContact c;
        c.body0 = swap ? p.b : p.a;
        c.body1 = swap ? p.a : p.b;
        c.point0 = swap ? onB : onA;
        c.point1 = swap ? onA : onB;
        c.normal = swap ? -p.normal : p.normal;
        c.feature = swap ? p.ib * kMaxChildShapes + p.ia : p.ia * kMaxChildShapes + p.ib;
        c.distance = distance;
        c.predicted = p.phase > 0;
        if (c.body1 == m.ground) c.body1 = -1;
        keyed.push_back({c, p.order, p.phase > 0});
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& x, const Keyed& y) {
        if (x.c.body0 != y.c.body0 || x.c.body1 != y.c.body1 || x.c.feature != y.c.feature)
            return contactPairLess(x.c.body0, x.c.body1, x.c.feature, y.c.body0, y.c.body1, y.c.feature);
        if (x.predicted != y.predicted) return y.predicted;
        return x.order < y.order;
    });
    for (size_t first = 0; first < keyed.size();) {
        size_t end = first + 1;
        while (end < keyed.size() && keyed[end].c.body0 == keyed[first].c.body0 &&
               keyed[end].c.body1 == keyed[first].c.body1 && keyed[end].c.feature == keyed[first].c.feature &&
               keyed[end].predicted == keyed[first].predicted)
            ++end;
        reducePatch(keyed.data() + first, end - first, out);
        first = end;
    }
    reach.states = nullptr;
}

}  // namespace jl
