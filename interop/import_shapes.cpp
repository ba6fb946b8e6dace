// A body's geoms as its JointLab shape (interop/import_shapes.h).
#include "interop/import_shapes.h"

#include <algorithm>
#include <cmath>

#include "interop/axes.h"
#include "jointlab/scenario_io.h"

namespace jl::interop {

namespace {

bool nearlyIdentity(const Transform& t) {
    return glm::length(t.p) < 1e-9 && std::abs(std::abs(t.q.w) - 1.0) < 1e-12;
}

Real clampSize(Real x, bool& clamped) {
    const Real y = std::clamp(x, kMinSize, kMaxSize);
    clamped = clamped || y != x;
    return y;
}

/// At most kMaxHullPoints of `points`, chosen farthest-first (the extreme points of the mesh stay).
std::vector<Vec3> hullSample(const std::vector<Vec3>& points) {
    if (points.size() <= static_cast<size_t>(kMaxHullPoints)) return points;
    Vec3 centre(0.0);
    for (const Vec3& p : points) centre += p;
    centre /= static_cast<Real>(points.size());
    std::vector<Real> dist(points.size());
    size_t first = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        dist[i] = glm::length(points[i] - centre);
        if (dist[i] > dist[first]) first = i;
    }
    std::vector<Vec3> out{points[first]};
    for (size_t i = 0; i < points.size(); ++i) dist[i] = glm::length(points[i] - points[first]);
    while (out.size() < static_cast<size_t>(kMaxHullPoints)) {
        const size_t next = static_cast<size_t>(std::max_element(dist.begin(), dist.end()) - dist.begin());
        if (dist[next] <= 0.0) break;
        out.push_back(points[next]);
        for (size_t i = 0; i < points.size(); ++i)
            dist[i] = std::min(dist[i], glm::length(points[i] - points[next]));
    }
    return out;
}

/// Whether `points` (4 to kMaxHullPoints) enclose a volume JointLab accepts (scenario validation).
bool enclosesVolume(const std::vector<Vec3>& points) {
    return points.size() >= 4 && hullProperties(points).volume >= kMinSize * kMinSize * kMinSize;
}

/// The box around `points` (in their frame): half sizes at least kMinSize, and its centre.
void boundingBox(const std::vector<Vec3>& points, Vec3& halfExtents, Vec3& centre) {
    Vec3 lo(kInf), hi(-kInf);
    for (const Vec3& p : points) lo = glm::min(lo, p), hi = glm::max(hi, p);
    halfExtents = glm::max(0.5 * (hi - lo), Vec3(kMinSize));
    centre = points.empty() ? Vec3(0.0) : 0.5 * (hi + lo);
}

/// One mesh geom as a compound's child in the geom's frame `rel` (in the body's frame): the hull
/// of its vertices, thinned to kMaxHullPoints extreme points; a flat mesh its bounding box.
ShapeDesc meshChild(const ImportedGeom& g, const Transform& rel, ImportNotes& notes) {
    ShapeDesc c;
    c.position = rel.p;
    c.orientation = rel.q;
    if (g.points.size() > static_cast<size_t>(kMaxHullPoints))
        notes.add("mesh hulls were thinned to 256 of their extreme points", g.label);
    std::vector<Vec3> points = hullSample(g.points);
    for (Vec3& p : points) p = glm::clamp(p, Vec3(-kMaxSize), Vec3(kMaxSize));
    if (enclosesVolume(points)) {
        c.shape = ShapeType::Hull;
        c.hullPoints = std::move(points);
        return c;
    }
    notes.add("flat meshes (no volume) became their bounding boxes", g.label);
    Vec3 centre;
    boundingBox(g.points, c.halfExtents, centre);
    c.halfExtents = glm::min(c.halfExtents, Vec3(kMaxSize));
    c.position = rel.apply(centre);
    return c;
}

}  // namespace

void makeShapes(BodyDesc& d, const Transform& pose, const std::vector<const ImportedGeom*>& geoms,
                ImportNotes& notes) {
    const Transform inv = pose.inverse();
    bool clamped = false;
    std::vector<ShapeDesc> children;
    std::vector<Vec3> meshPoints;
    bool hasPrimitive = false;
    int meshes = 0;
    for (const ImportedGeom* g : geoms) {
        if (g->kind != ImportedGeom::Kind::Mesh)
            hasPrimitive = true;
        else if (!g->points.empty())
            ++meshes;
    }
    // One mesh alone is the body's hull (its points in the body frame); a mesh beside primitives or
    // other meshes is a hull child of its own (a convex decomposition stays in its pieces).
    const bool oneHull = meshes == 1 && !hasPrimitive;
    for (const ImportedGeom* g : geoms) {
        const Transform rel =
            inv * Transform{toYUp(g->world.p), toYUp(g->world.q)};  // geom frame -> body frame
        if (g->kind == ImportedGeom::Kind::Mesh) {
            if (oneHull)
                for (const Vec3& p : g->points) meshPoints.push_back(rel.apply(p));
            else if (!g->points.empty())
                children.push_back(meshChild(*g, rel, notes));
            continue;
        }
        ShapeDesc c;
        c.position = rel.p;
        c.orientation = rel.q;
        switch (g->kind) {
            case ImportedGeom::Kind::Box:
                c.shape = ShapeType::Box;
                c.halfExtents =
                    Vec3(clampSize(g->halfExtents.x, clamped), clampSize(g->halfExtents.y, clamped),
                         clampSize(g->halfExtents.z, clamped));
                break;
            case ImportedGeom::Kind::Sphere:
                c.shape = ShapeType::Sphere;
                c.radius = clampSize(g->radius, clamped);
                break;
            default: {  // capsule, cylinder: the source's local Z is JointLab's local X
                c.shape = g->kind == ImportedGeom::Kind::Capsule ? ShapeType::Capsule : ShapeType::Cylinder;
                c.radius = clampSize(g->radius, clamped);
                c.halfHeight = std::clamp(g->halfHeight, 0.0, kMaxSize);
                c.orientation = glm::normalize(rel.q * glm::angleAxis(-kPi / 2, Vec3(0, 1, 0)));
                break;
            }
        }
        children.push_back(c);
    }
    if (clamped) notes.add("shape sizes outside JointLab's range [1 mm, 100 m] were clamped", d.name);
    if (oneHull) {
        d.shape = ShapeType::Hull;
        if (meshPoints.size() > static_cast<size_t>(kMaxHullPoints))
            notes.add("mesh hulls were thinned to 256 of their extreme points", d.name);
        d.hullPoints = hullSample(meshPoints);
        for (Vec3& p : d.hullPoints) p = glm::clamp(p, Vec3(-kMaxSize), Vec3(kMaxSize));
        if (enclosesVolume(d.hullPoints)) return;
        // A flat mesh (a plane, a decal): its bounding box instead.
        d.hullPoints.clear();
        notes.add("flat meshes (no volume) became their bounding boxes", d.name);
        ShapeDesc c;
        boundingBox(meshPoints, c.halfExtents, c.position);
        children.push_back(c);
    }
    if (children.empty()) {
        // Nothing to collide or draw: a small sphere that touches no other body stands in.
        d.shape = ShapeType::Sphere;
        d.radius = 0.02;
        d.collisionGroup = d.collisionMask = 0;
        return;
    }
    if (children.size() > static_cast<size_t>(kMaxChildShapes)) {
        notes.add("shapes beyond the 64 a compound body holds", d.name);
        children.resize(static_cast<size_t>(kMaxChildShapes));
    }
    if (children.size() == 1 && nearlyIdentity({children[0].position, children[0].orientation})) {
        const ShapeDesc& c = children[0];
        d.shape = c.shape;
        d.halfExtents = c.halfExtents;
        d.radius = c.radius;
        d.halfHeight = c.halfHeight;
        d.hullPoints = c.hullPoints;
        return;
    }
    d.shape = ShapeType::Compound;
    d.children = std::move(children);
}

}  // namespace jl::interop
