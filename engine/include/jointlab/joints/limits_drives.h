// Limits and drives shared by the joint types (physx-joints-guide.md "Limits", "Actuation").
//
// A limit is a pair of inequality rows (impulse >= 0), each emitted when the joint coordinate is
// within `contactDistance` of its bound; a hard limit keeps its bias (so the bound is approached
// smoothly, never crossed) or bounces when the approach is faster than `bounceThreshold`; a soft
// limit (stiffness or damping > 0) acts as a one-sided implicit spring once the bound is passed.
//
// A drive is a soft row (implicit spring, physx-implicit-spring-drives.md eq. 13–24):
//   F = stiffness·(target − x) + damping·(targetVelocity − ẋ), |F| <= forceLimit.
// Drive rows do not report force and do not count towards breakage (joints guide, "Actuation").
#pragma once

#include <string>

#include "jointlab/fields.h"

namespace jl {

/// Lower/upper bounds on one joint coordinate (an angle in rad or a distance in m).
struct LimitPair {
    bool enabled = false;
    Real lower = -kPi / 4;        ///< [rad or m]
    Real upper = kPi / 4;         ///< [rad or m]
    Real contactDistance = 0.05;  ///< the bound's row is active this close to it [rad or m]
    Real restitution = 0.0;       ///< [0, 1]: 1 bounces back at the approach speed
    Real bounceThreshold = 0.5;   ///< approach speed below which there is no bounce [rad/s or m/s]
    Real stiffness = 0.0;         ///< soft limit spring [N·m/rad or N/m]; 0 with damping 0 = hard limit
    Real damping = 0.0;           ///< soft limit damping [N·m·s/rad or N·s/m]

    bool soft() const { return stiffness > 0 || damping > 0; }
    std::string validate(const char* name) const {
        if (enabled && lower > upper)
            return std::string(name) + ".lower: must be <= upper (" + std::to_string(lower) + " > " +
                   std::to_string(upper) + ")";
        return "";
    }
};

/// Field names of one LimitPair inside a joint (the literal names the file format uses).
struct LimitNames {
    const char *enabled, *lower, *upper, *contactDistance, *restitution, *bounceThreshold, *stiffness,
        *damping;
};

/// Visits a LimitPair's fields; `angular` picks the units.
template <class V>
void visitLimit(V& v, const LimitNames& n, LimitPair& l, bool angular) {
    const char* u = angular ? "rad" : "m";
    Field lo = anyReal(u, "lower bound of the joint coordinate");
    Field hi = anyReal(u, "upper bound of the joint coordinate");
    lo.angle = hi.angle = angular;
    Field cd = nonNegative(u, "the bound's row becomes active this close to it");
    cd.angle = angular;
    v(n.enabled, l.enabled, Field{"", 0, 0, "enforce the limit"});
    v(n.lower, l.lower, lo);
    v(n.upper, l.upper, hi);
    v(n.contactDistance, l.contactDistance, cd);
    v(n.restitution, l.restitution, Field{"", 0.0, 1.0, "bounciness at the bound (1 = elastic)"});
    v(n.bounceThreshold, l.bounceThreshold,
      nonNegative(angular ? "rad/s" : "m/s", "no bounce below this approach speed"));
    v(n.stiffness, l.stiffness,
      nonNegative(angular ? "N·m/rad" : "N/m", "soft limit: spring beyond the bound (0 = hard)"));
    v(n.damping, l.damping,
      nonNegative(angular ? "N·m·s/rad" : "N·s/m", "soft limit: damping beyond the bound"));
}

/// Elliptical cone limit on the swing of body 1's joint X axis (spherical joint, D6 swing).
struct ConeLimit {
    bool enabled = false;
    Real yAngle = kPi / 4;        ///< largest rotation about frame A's Y axis [rad]
    Real zAngle = kPi / 4;        ///< largest rotation about frame A's Z axis [rad]
    Real contactDistance = 0.05;  ///< [rad]
    Real restitution = 0.0;
    Real bounceThreshold = 0.5;  ///< [rad/s]
    Real stiffness = 0.0;        ///< soft cone [N·m/rad]
    Real damping = 0.0;          ///< [N·m·s/rad]

    bool soft() const { return stiffness > 0 || damping > 0; }
};

struct ConeNames {
    const char *enabled, *yAngle, *zAngle, *contactDistance, *restitution, *bounceThreshold, *stiffness,
        *damping;
};

template <class V>
void visitCone(V& v, const ConeNames& n, ConeLimit& c) {
    v(n.enabled, c.enabled, Field{"", 0, 0, "enforce the cone limit"});
    v(n.yAngle, c.yAngle, angleField(1e-3, kPi, "largest swing about frame A's Y axis"));
    v(n.zAngle, c.zAngle, angleField(1e-3, kPi, "largest swing about frame A's Z axis"));
    Field cd = nonNegative("rad", "the cone's row becomes active this close to it");
    cd.angle = true;
    v(n.contactDistance, c.contactDistance, cd);
    v(n.restitution, c.restitution, Field{"", 0.0, 1.0, "bounciness at the cone (1 = elastic)"});
    v(n.bounceThreshold, c.bounceThreshold, nonNegative("rad/s", "no bounce below this approach speed"));
    v(n.stiffness, c.stiffness, nonNegative("N·m/rad", "soft cone: spring beyond the cone (0 = hard)"));
    v(n.damping, c.damping, nonNegative("N·m·s/rad", "soft cone: damping beyond the cone"));
}

/// An implicit spring-damper drive on one joint coordinate.
struct Drive {
    bool enabled = false;
    Real stiffness = 0.0;  ///< [N/m or N·m/rad]; [1/s²] for acceleration drives
    Real damping = 0.0;    ///< [N·s/m or N·m·s/rad]; [1/s] for acceleration drives
    Real forceLimit =
        kInf;  ///< largest force/torque the drive applies [N or N·m] (impulse [N·s] if limitIsImpulse)
    bool acceleration = false;    ///< gains act on acceleration: the same motion for any mass
    bool limitIsImpulse = false;  ///< forceLimit is an impulse per step rather than a force
};

struct DriveNames {
    const char *enabled, *stiffness, *damping, *forceLimit, *acceleration, *limitIsImpulse;
};

template <class V>
void visitDrive(V& v, const DriveNames& n, Drive& d, bool angular) {
    v(n.enabled, d.enabled, Field{"", 0, 0, "the drive is on"});
    v(n.stiffness, d.stiffness,
      nonNegative(angular ? "N·m/rad" : "N/m", "spring towards the target (1/s² for acceleration drives)"));
    v(n.damping, d.damping,
      nonNegative(angular ? "N·m·s/rad" : "N·s/m",
                  "damping towards the target velocity (1/s for acceleration drives)"));
    v(n.forceLimit, d.forceLimit,
      positive(angular ? "N·m" : "N", "largest force or torque the drive applies"));
    v(n.acceleration, d.acceleration, Field{"", 0, 0, "gains are accelerations (mass-independent)"});
    v(n.limitIsImpulse, d.limitIsImpulse,
      Field{"", 0, 0, "forceLimit is an impulse per step instead of a force"});
}

}  // namespace jl
