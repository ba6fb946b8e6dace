#include "viewport/drag_spring.h"

#include <algorithm>
#include <cmath>

namespace jl::app {

DragSpring makeDragSpring(const World& world, int body, const Vec3& worldPoint) {
    DragSpring s;
    s.body = body;
    s.bodyName = world.scene().bodies[static_cast<size_t>(body)].name;
    const BodyState& state = world.bodies()[static_cast<size_t>(body)];
    s.localPoint = glm::conjugate(state.pose.q) * (worldPoint - state.pose.p);
    s.target = worldPoint;
    s.point = worldPoint;
    const Real invMass = world.inverseMass(body);
    if (!(invMass > 0.0)) return s;  // not dynamic: no spring
    const Vec3 inertia = world.localInertia(body);
    Real maxInvInertia = 0.0;
    for (int k = 0; k < 3; ++k)
        if (inertia[k] > 0.0) maxInvInertia = std::max(maxInvInertia, 1.0 / inertia[k]);
    const Real r2 = glm::dot(s.localPoint, s.localPoint);
    const Real effectiveMass = 1.0 / (invMass + r2 * maxInvInertia);
    const Real dt = world.scene().settings.dt;
    const Real omega = std::min(2.0 * kPi * kDragFrequency, 0.5 / dt);
    s.stiffness = effectiveMass * omega * omega;
    s.damping = 2.0 * kDragDampingRatio * effectiveMass * omega;
    s.maxForce = kDragMaxAcceleration / invMass;
    return s;
}

Vec3 dragSpringForce(const DragSpring& s, const BodyState& state) {
    const Vec3 r = state.pose.q * s.localPoint;
    const Vec3 p = state.pose.p + r;
    const Vec3 vp = state.linearVelocity + glm::cross(state.angularVelocity, r);
    Vec3 f = s.stiffness * (s.target - p) - s.damping * vp;
    const Real magnitude = glm::length(f);
    if (magnitude > s.maxForce) f *= s.maxForce / magnitude;
    return f;
}

void applyDragSpring(World& world, DragSpring& s, InputLog& log) {
    s.body = world.scene().findBody(s.bodyName);
    s.force = Vec3(0.0);
    if (s.body < 0 || !(world.inverseMass(s.body) > 0.0)) return;
    const BodyState& state = world.bodies()[static_cast<size_t>(s.body)];
    s.point = state.pose.p + state.pose.q * s.localPoint;
    s.force = dragSpringForce(s, state);
    log.applyForce(world, s.body, s.force, s.point);

    // Spin damping τ = −rate·I·ω, as the couple f at x + a and −f at x − a (torque 2a × f = τ for
    // a ⟂ τ and f = τ × a / (2|a|²)). rate·dt < 1 keeps the explicit decay monotonic.
    const Real dt = world.scene().settings.dt;
    const Real rate = std::min(kDragSpinDamping, 0.5 / dt);
    const Quat& q = state.pose.q;
    const Vec3 inertia = world.localInertia(s.body);
    const Vec3 localOmega = glm::conjugate(q) * state.angularVelocity;
    const Vec3 tau = -rate * (q * (inertia * localOmega));
    const Real tauLength = glm::length(tau);
    if (!(tauLength > 0.0)) return;
    const Vec3 t = tau / tauLength;
    const Vec3 helper = std::abs(t.x) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 1, 0);
    const Vec3 a = glm::normalize(glm::cross(t, helper));  // unit, ⟂ τ
    const Vec3 f = glm::cross(tau, a) * 0.5;
    log.applyForce(world, s.body, f, state.pose.p + a);
    log.applyForce(world, s.body, -f, state.pose.p - a);
}

}  // namespace jl::app
