// JointLab app — dragging a body with the mouse through a soft spring (Box2D's mouse joint,
// MuJoCo's perturbation), applied as an external force before every step.
//
//   F = k·(target − p) − c·v_p,   |F| <= maxForce
// p is the grabbed point on the body, v_p = v + ω × (p − x) its velocity. The force is explicit,
// so the gains are chosen from the smallest effective mass the point can show,
//   1/m_eff = 1/m + |r|²·max_k(1/I_k)   (r = p − x, I the principal inertia),
// k = m_eff·ω², c = 2ζ·m_eff·ω with ω = min(2π·4 Hz, 0.5/dt) and ζ = 0.7: then ω·dt <= 0.5 and
// c·dt/m_eff <= 0.7, and the explicit step stays stable for any body and any time step.
// A spring at one point cannot damp a spin about an axis through that point, so a body let go
// of in mid-swing would spin around the mouse for ever; the drag therefore also damps the body's
// angular momentum at kDragSpinDamping (τ = −rate·I_world·ω, applied as a force couple).
#pragma once

#include <string>

#include "jointlab/input_log.h"
#include "jointlab/world.h"

namespace jl::app {

struct DragSpring {
    int body = -1;  ///< index of the dragged body (re-resolved by name after edits)
    std::string bodyName;
    Vec3 localPoint{0.0};  ///< the grabbed point in the body's frame [m]
    Vec3 target{0.0};      ///< where the mouse holds it, world [m]
    Real stiffness = 0.0;  ///< k [N/m]
    Real damping = 0.0;    ///< c [N·s/m]
    Real maxForce = kInf;  ///< [N]
    Vec3 force{0.0};       ///< force applied in the last step [N]
    Vec3 point{0.0};       ///< the grabbed point in world at the last step [m]
};

inline constexpr Real kDragFrequency = 4.0;          ///< [Hz]
inline constexpr Real kDragDampingRatio = 0.7;       ///< [-]
inline constexpr Real kDragMaxAcceleration = 200.0;  ///< maxForce = this × m [N/kg]
inline constexpr Real kDragSpinDamping = 3.0;        ///< decay rate of the spin while dragged [1/s]

/// A spring grabbing dynamic body `body` at `worldPoint`, its target at that point.
DragSpring makeDragSpring(const World& world, int body, const Vec3& worldPoint);

/// The spring force for the body's current state (clamped to maxForce).
Vec3 dragSpringForce(const DragSpring& spring, const BodyState& state);

/// Applies the force (and the spin damping) for the next step through `log` (InputLog::applyForce:
/// each force is recorded with its step, so the drag replays exactly) and records the spring
/// force in spring.force. Does nothing if the body no longer exists or is not dynamic.
void applyDragSpring(World& world, DragSpring& spring, InputLog& log);

}  // namespace jl::app
