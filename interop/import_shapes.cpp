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

}  // namespace

void makeShapes(BodyDesc& d, const Transform& pose, const std::vector<const ImportedGeom*>& geoms,
                ImportNotes& notes) {
    const Transform inv = pose.inverse();
    bool clamped = false;
    std::vector<ShapeDesc> children;
    std::vector<Vec3> meshPoints;
    bool hasPrimitive = false, hasMesh = false;
    for (const ImportedGeom* g : geoms) (g->kind == ImportedGeom::Kind::Mesh ? hasMesh : hasPrimitive) = true;
    for (const ImportedGeom* g : geoms) {
        const Transform rel =
            inv * Transform{toYUp(g->world.p), toYUp(g->world.q)};  // geom frame -> body frame
        if (g->kind == ImportedGeom::Kind::Mesh) {
            if (!hasPrimitive) {
                for (const Vec3& p : g->points) meshPoints.push_back(rel.apply(p));
                continue;
            }
            // Beside primitives a mesh becomes its bounding box (a compound holds primitives only).
            Vec3 lo(kInf), hi(-kInf);
            for (const Vec3& p : g->points) lo = glm::min(lo, p), hi = glm::max(hi, p);
            if (g->points.empty()) continue;
            ShapeDesc c;
            c.shape = ShapeType::Box;
            const Vec3 h = 0.5 * (hi - lo);
            c.halfExtents = Vec3(clampSize(h.x, clamped), clampSize(h.y, clamped), clampSize(h.z, clamped));
            c.position = rel.apply(0.5 * (hi + lo));
            c.orientation = rel.q;
            children.push_back(c);
            notes.add("meshes on a body with primitive shapes became their bounding boxes", g->label);
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
    if (hasMesh && !hasPrimitive) {
        d.shape = ShapeType::Hull;
        if (meshPoints.size() > static_cast<size_t>(kMaxHullPoints))
            notes.add("mesh hulls were thinned to 256 of their extreme points", d.name);
        d.hullPoints = hullSample(meshPoints);
        for (Vec3& p : d.hullPoints) p = glm::clamp(p, Vec3(-kMaxSize), Vec3(kMaxSize));
        const VolumeProperties vp = volumeProperties(d);
        if (d.hullPoints.size() >= 4 && vp.volume >= kMinSize * kMinSize * kMinSize) return;
        // A flat mesh (a plane, a decal): its bounding box instead.
        Vec3 lo(kInf), hi(-kInf);
        for (const Vec3& p : meshPoints) lo = glm::min(lo, p), hi = glm::max(hi, p);
        d.hullPoints.clear();
        notes.add("flat meshes (no volume) became their bounding boxes", d.name);
        ShapeDesc c;
        c.halfExtents = glm::max(0.5 * (hi - lo), Vec3(kMinSize));
        c.position = meshPoints.empty() ? Vec3(0.0) : 0.5 * (hi + lo);
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
        return;
    }
    d.shape = ShapeType::Compound;
    d.children = std::move(children);
}

}  // namespace jl::interop
