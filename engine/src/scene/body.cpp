// Mass properties of the shapes (solid, uniform density). Box, sphere and capsule are centred on
// the centre of mass (closed forms below). Cylinders, hulls and compounds sum their volume's
// inertia tensor about the body origin (which is the body's centre of mass: a hull or a child
// placed off it is the user's statement that the mass centre is there anyway) and keep its
// diagonal: the solver's bodies have principal axes along their frame, so products of inertia of
// an asymmetric hull or compound are dropped (docs/contacts.md "Shapes").
#include "jointlab/body.h"

#include <LinearMath/btConvexHullComputer.h>

namespace jl {

namespace {

/// Inertia tensor per unit density `local` about a frame's origin (the solid's first moment
/// there `moment` = volume × centroid), in a frame turned by q and moved to `t`: about the outer
/// frame's origin. With C = ∫ r rᵀ dV the second moment, I = tr(C)·1 − C, and r = R r' + t gives
/// C = R C' Rᵀ + R m' tᵀ + t (R m')ᵀ + V t tᵀ: the parallel-axis theorem, plus the cross terms of
/// a solid not centred on its own origin (a hull), which vanish for the primitives.
Mat3 placedTensor(const Mat3& local, const Vec3& moment, Real volume, const Quat& q, const Vec3& t) {
    const Mat3 r = glm::mat3_cast(q);
    Mat3 i = r * local * glm::transpose(r);
    const Real tt = glm::dot(t, t);
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) i[a][b] += volume * ((a == b ? tt : 0.0) - t[a] * t[b]);
    const Vec3 m = r * moment;
    if (m != Vec3(0.0)) {
        const Real mt = glm::dot(m, t);
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) i[a][b] += (a == b ? 2.0 * mt : 0.0) - m[a] * t[b] - t[a] * m[b];
    }
    return i;
}

/// Inertia tensor per unit density of a solid with principal moments `d` about its own centroid,
/// turned by q and moved to `c`, about the body origin (parallel-axis theorem).
Mat3 placedInertia(const Vec3& d, Real volume, const Quat& q, const Vec3& c) {
    Mat3 local(0.0);
    local[0][0] = d.x, local[1][1] = d.y, local[2][2] = d.z;
    return placedTensor(local, Vec3(0.0), volume, q, c);
}

/// Volume and principal moments per unit density of a primitive about its centroid.
void primitive(ShapeType shape, const Vec3& h, Real r, Real hh, Real& volume, Vec3& d) {
    switch (shape) {
        case ShapeType::Box:
            volume = 8.0 * h.x * h.y * h.z;
            d = volume / 3.0 * Vec3(h.y * h.y + h.z * h.z, h.x * h.x + h.z * h.z, h.x * h.x + h.y * h.y);
            return;
        case ShapeType::Sphere:
            volume = 4.0 / 3.0 * kPi * r * r * r;
            d = Vec3(0.4 * volume * r * r);
            return;
        case ShapeType::Capsule: {
            const Real vCyl = kPi * r * r * 2.0 * hh, vCaps = 4.0 / 3.0 * kPi * r * r * r;
            volume = vCyl + vCaps;
            const Real perp = vCyl * (0.25 * r * r + (2.0 * hh) * (2.0 * hh) / 12.0) +
                              vCaps * (0.4 * r * r + 0.75 * hh * r + hh * hh);
            d = Vec3(0.5 * vCyl * r * r + 0.4 * vCaps * r * r, perp, perp);
            return;
        }
        case ShapeType::Cylinder: {
            volume = kPi * r * r * 2.0 * hh;
            const Real perp = volume * (0.25 * r * r + (2.0 * hh) * (2.0 * hh) / 12.0);
            d = Vec3(0.5 * volume * r * r, perp, perp);
            return;
        }
        default:
            volume = 0.0;
            d = Vec3(0.0);
    }
}

/// Calls f(a, b, c) for each triangle of the faces of the convex hull of `pts` (Bullet's
/// btConvexHullComputer finds the faces; each face is fanned from its first vertex), counter-
/// clockwise seen from outside. The vertices are the input points themselves, in double precision
/// (Bullet keeps its copies as floats, which put a box's hull volume 7e-8 off the box's).
template <class F>
void forEachHullTriangle(const std::vector<Vec3>& pts, F&& f) {
    if (pts.size() < 4) return;
    std::vector<double> coords;
    coords.reserve(pts.size() * 3);
    for (const Vec3& p : pts) coords.insert(coords.end(), {p.x, p.y, p.z});
    btConvexHullComputer hull;
    hull.compute(coords.data(), 3 * sizeof(double), static_cast<int>(pts.size()), 0, 0);
    auto vertex = [&](int i) { return pts[static_cast<size_t>(hull.original_vertex_index[i])]; };
    for (int face = 0; face < hull.faces.size(); ++face) {
        const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[face]];
        const Vec3 a = vertex(first->getSourceVertex());
        for (const btConvexHullComputer::Edge* e = first->getNextEdgeOfFace();
             e->getTargetVertex() != first->getSourceVertex(); e = e->getNextEdgeOfFace())
            f(a, vertex(e->getSourceVertex()), vertex(e->getTargetVertex()));
    }
}

}  // namespace

/// A hull's volume, centroid and inertia about the origin: its faces fanned into tetrahedra with
/// the origin, each contributing its signed volume and covariance C = det(A)·A·C₀·Aᵀ (C₀ the
/// canonical tetrahedron's, 1/120·(1 + 11ᵀ)).
VolumeProperties hullProperties(const std::vector<Vec3>& pts) {
    VolumeProperties vp;
    Mat3 c0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) c0[i][j] = (i == j ? 2.0 : 1.0) / 120.0;
    Mat3 cov(0.0);
    Vec3 moment(0.0);
    forEachHullTriangle(pts, [&](const Vec3& a, const Vec3& b, const Vec3& c) {
        const Mat3 A(a, b, c);  // columns
        const Real det = glm::determinant(A);
        vp.volume += det / 6.0;
        moment += det / 24.0 * (a + b + c);
        cov += det * (A * c0 * glm::transpose(A));
    });
    if (vp.volume > 0) vp.centroid = moment / vp.volume;
    const Real tr = cov[0][0] + cov[1][1] + cov[2][2];
    vp.inertia = Mat3(tr) - cov;
    return vp;
}

std::vector<Vec3> hullTriangles(const std::vector<Vec3>& pts) {
    std::vector<Vec3> out;
    forEachHullTriangle(pts, [&](const Vec3& a, const Vec3& b, const Vec3& c) {
        out.insert(out.end(), {a, b, c});
    });
    return out;
}

namespace {

/// Volume properties of one shape about its own origin, in its own frame.
VolumeProperties ownProperties(ShapeType shape, const Vec3& h, Real r, Real hh,
                               const std::vector<Vec3>& points) {
    if (shape == ShapeType::Hull) return hullProperties(points);
    VolumeProperties vp;
    Vec3 d;
    primitive(shape, h, r, hh, vp.volume, d);
    vp.inertia = placedInertia(d, vp.volume, Quat(1.0, 0.0, 0.0, 0.0), Vec3(0.0));
    return vp;
}

/// Farthest point of one shape from its own origin [m].
Real ownRadius(ShapeType type, const Vec3& h, Real r, Real hh, const std::vector<Vec3>& points) {
    switch (type) {
        case ShapeType::Box:
            return glm::length(h);
        case ShapeType::Sphere:
            return r;
        case ShapeType::Capsule:
            return hh + r;
        case ShapeType::Cylinder:
            return std::sqrt(hh * hh + r * r);
        case ShapeType::Hull: {
            Real far = 0.0;
            for (const Vec3& p : points) far = std::max(far, glm::length(p));
            return far;
        }
        default:
            return r;
    }
}

}  // namespace

VolumeProperties volumeProperties(const ShapeDesc& c) {
    return ownProperties(c.shape, c.halfExtents, c.radius, c.halfHeight, c.hullPoints);
}

VolumeProperties volumeProperties(const BodyDesc& b) {
    if (b.shape != ShapeType::Compound)
        return ownProperties(b.shape, b.halfExtents, b.radius, b.halfHeight, b.hullPoints);
    // Each child's properties in its frame, placed at its pose (a primitive is centred on its
    // origin; a hull need not be).
    VolumeProperties vp;
    Vec3 moment(0.0);
    for (const ShapeDesc& c : b.children) {
        const VolumeProperties own = volumeProperties(c);
        const Vec3 local = own.volume * own.centroid;
        vp.volume += own.volume;
        moment += own.volume * c.position + glm::mat3_cast(c.orientation) * local;
        vp.inertia += placedTensor(own.inertia, local, own.volume, c.orientation, c.position);
    }
    if (vp.volume > 0) vp.centroid = moment / vp.volume;
    return vp;
}

Real shapeRadius(const ShapeDesc& c) {
    return ownRadius(c.shape, c.halfExtents, c.radius, c.halfHeight, c.hullPoints);
}

Real shapeRadius(const BodyDesc& b) {
    if (b.shape != ShapeType::Compound)
        return ownRadius(b.shape, b.halfExtents, b.radius, b.halfHeight, b.hullPoints);
    Real far = 0.0;
    for (const ShapeDesc& c : b.children) far = std::max(far, glm::length(c.position) + shapeRadius(c));
    return far;
}

Real shapeVolume(const BodyDesc& b) {
    switch (b.shape) {
        case ShapeType::Box:
            return 8.0 * b.halfExtents.x * b.halfExtents.y * b.halfExtents.z;
        case ShapeType::Sphere:
            return 4.0 / 3.0 * kPi * b.radius * b.radius * b.radius;
        case ShapeType::Capsule:
            return kPi * b.radius * b.radius * (2.0 * b.halfHeight) +
                   4.0 / 3.0 * kPi * b.radius * b.radius * b.radius;
        default:
            return volumeProperties(b).volume;
    }
}

MassProperties computeMassProperties(const BodyDesc& b) {
    MassProperties mp;
    const bool closedForm =
        b.shape == ShapeType::Box || b.shape == ShapeType::Sphere || b.shape == ShapeType::Capsule;
    if (b.massMode == MassMode::Mass && hasExplicitInertia(b)) {  // no shape needed (an import's hulls)
        mp.mass = b.mass;
        mp.inertia = b.inertia;
        return mp;
    }
    // Cylinder, hull, compound: their tensor, found once here (a compound of hulls costs a hull
    // computation per child).
    VolumeProperties vp;
    if (!closedForm) vp = volumeProperties(b);
    const Real volume = closedForm ? shapeVolume(b) : vp.volume;
    mp.mass = b.massMode == MassMode::Mass ? b.mass : b.density * volume;
    const Real m = mp.mass;
    switch (b.shape) {
        case ShapeType::Box: {
            // I_x = m (b² + c²) / 12 with full side lengths b, c = m (hy² + hz²) / 3 with half sizes.
            const Vec3 h = b.halfExtents;
            mp.inertia = m / 3.0 * Vec3(h.y * h.y + h.z * h.z, h.x * h.x + h.z * h.z, h.x * h.x + h.y * h.y);
            break;
        }
        case ShapeType::Sphere:
            mp.inertia = Vec3(0.4 * m * b.radius * b.radius);
            break;
        case ShapeType::Capsule: {
            // A cylinder of length 2h along X plus two hemispherical caps, mass split by volume.
            // Caps about the centre, perpendicular axis: m_s (0.4 r² + 0.75 h r + h²) (each cap's
            // centroid sits 3r/8 beyond the cylinder's end; parallel-axis theorem).
            const Real r = b.radius, h = b.halfHeight;
            const Real vCyl = kPi * r * r * 2.0 * h;
            const Real mCyl = volume > 0 ? m * vCyl / volume : 0.0;
            const Real mCaps = m - mCyl;
            const Real axial = 0.5 * mCyl * r * r + 0.4 * mCaps * r * r;
            const Real perp = mCyl * (0.25 * r * r + (2.0 * h) * (2.0 * h) / 12.0) +
                              mCaps * (0.4 * r * r + 0.75 * h * r + h * h);
            mp.inertia = Vec3(axial, perp, perp);
            break;
        }
        default: {
            // Cylinder, hull, compound: the tensor per unit density scaled to the mass, its diagonal.
            const Real rho = vp.volume > 0 ? m / vp.volume : 0.0;
            mp.inertia = rho * Vec3(vp.inertia[0][0], vp.inertia[1][1], vp.inertia[2][2]);
            break;
        }
    }
    return mp;
}

}  // namespace jl
