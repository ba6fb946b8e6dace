#include "metrics.h"

#include <algorithm>
#include <cmath>

namespace bench {

namespace {

Transform bodyPose(const std::vector<BodyState>& st, int body) {
    if (body < 0) return Transform{};
    const BodyState& b = st[static_cast<size_t>(body)];
    return Transform{b.position, b.orientation};
}

/// Angle of a rotation in [0, π].
Real rotationAngle(const Quat& q) {
    return 2.0 * std::acos(std::min(1.0, std::abs(q.w)));
}

Real angleBetween(const Vec3& a, const Vec3& b) {
    return std::acos(std::clamp(glm::dot(a, b), -1.0, 1.0));
}

/// Twist of q about X (swing-twist split), in (−π, π].
Real twistAboutX(const Quat& q) {
    Real t = 2.0 * std::atan2(q.x, q.w);
    if (t > jl::kPi) t -= 2.0 * jl::kPi;
    if (t <= -jl::kPi) t += 2.0 * jl::kPi;
    return t;
}

}  // namespace

ErrorStats jointErrors(const SceneSpec& s, const std::vector<BodyState>& st) {
    ErrorStats e;
    Real sep2 = 0, ang2 = 0;
    for (const JointSpec& j : s.joints) {
        const Transform fa = bodyPose(st, j.body0) * j.frame0;
        const Transform fb = bodyPose(st, j.body1) * j.frame1;
        const Vec3 ax = fa.q * Vec3(1, 0, 0), bx = fb.q * Vec3(1, 0, 0);
        Vec3 d = fb.p - fa.p;
        Real ang = -1.0;  // < 0: no angular constraint
        switch (j.kind) {
            case JointKind::Revolute: {
                ang = angleBetween(ax, bx);
                if (j.limit)
                    ang += std::max(0.0, std::abs(twistAboutX(glm::conjugate(fa.q) * fb.q)) - j.limitAngle);
                break;
            }
            case JointKind::Spherical:
                if (j.cone) ang = std::max(0.0, angleBetween(ax, bx) - j.coneAngle);
                break;
            case JointKind::Prismatic:
                d -= glm::dot(d, ax) * ax;
                ang = rotationAngle(glm::conjugate(fa.q) * fb.q);
                break;
        }
        const Real sep = glm::length(d);
        if (!std::isfinite(sep) || !std::isfinite(ang)) e.finite = false;
        e.sepMax = std::max(e.sepMax, sep);
        sep2 += sep * sep;
        if (ang >= 0) {
            e.angMax = std::max(e.angMax, ang);
            ang2 += ang * ang;
            ++e.angCount;
        }
    }
    e.sepRms = s.joints.empty() ? 0.0 : std::sqrt(sep2 / static_cast<Real>(s.joints.size()));
    e.angRms = e.angCount ? std::sqrt(ang2 / e.angCount) : 0.0;
    return e;
}

Real totalEnergy(const SceneSpec& s, const std::vector<BodyState>& st) {
    Real e = 0;
    for (size_t i = 0; i < s.bodies.size(); ++i) {
        const BodySpec& b = s.bodies[i];
        const BodyState& x = st[i];
        const Vec3 wLocal = glm::conjugate(x.orientation) * x.angularVelocity;
        e += 0.5 * b.mass * glm::dot(x.linearVelocity, x.linearVelocity) +
             0.5 * glm::dot(wLocal, b.inertia * wLocal) - b.mass * glm::dot(s.gravity, x.position);
    }
    for (const JointSpec& j : s.joints) {
        if (!j.drive) continue;
        const Transform fa = bodyPose(st, j.body0) * j.frame0;
        const Transform fb = bodyPose(st, j.body1) * j.frame1;
        const Real d = glm::dot(fb.p - fa.p, fa.q * Vec3(1, 0, 0));
        e += 0.5 * j.stiffness * (d - j.target) * (d - j.target);
    }
    return e;
}

std::vector<BodyState> initialState(const SceneSpec& s) {
    std::vector<BodyState> st(s.bodies.size());
    for (size_t i = 0; i < s.bodies.size(); ++i) {
        const BodySpec& b = s.bodies[i];
        st[i] = {b.position, b.orientation, b.linearVelocity, b.angularVelocity};
    }
    return st;
}

}  // namespace bench
