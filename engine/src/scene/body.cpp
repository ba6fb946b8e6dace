// Mass properties of the three shapes (solid, uniform density, about the centre of mass).
#include "jointlab/body.h"

namespace jl {

Real shapeVolume(const BodyDesc& b) {
    switch (b.shape) {
        case ShapeType::Box:
            return 8.0 * b.halfExtents.x * b.halfExtents.y * b.halfExtents.z;
        case ShapeType::Sphere:
            return 4.0 / 3.0 * kPi * b.radius * b.radius * b.radius;
        case ShapeType::Capsule:
            return kPi * b.radius * b.radius * (2.0 * b.halfHeight) +
                   4.0 / 3.0 * kPi * b.radius * b.radius * b.radius;
    }
    return 0.0;
}

MassProperties computeMassProperties(const BodyDesc& b) {
    MassProperties mp;
    const Real volume = shapeVolume(b);
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
    }
    return mp;
}

}  // namespace jl
