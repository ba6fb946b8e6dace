// JointLab benchmark — engine-neutral scene descriptions.
//
// Every benchmark scene is built once, in code, as a SceneSpec: bodies (box or sphere, mass,
// principal inertia, pose, velocity) and joints (revolute, spherical, prismatic) with their
// world anchor and axes. Each engine (JointLab, Bullet, ODE) is built from the same SceneSpec,
// and every error and energy figure is computed by this benchmark from the bodies' poses and
// velocities with the same code (metrics.h), never from an engine's own bookkeeping.
//
// Conventions (as JointLab's): a joint frame's X axis is the hinge axis (revolute), the cone
// axis (spherical) or the slide axis (prismatic). Frames are given in world at the start and
// stored relative to each body's centre of mass.
#pragma once

#include <string>
#include <vector>

#include "jointlab/math.h"

namespace bench {

using jl::Quat;
using jl::Real;
using jl::Transform;
using jl::Vec3;

enum class Shape { Box, Sphere };

struct BodySpec {
    Shape shape = Shape::Box;
    Vec3 halfExtents{0.5, 0.125, 0.125};  ///< box half sizes [m]
    Real radius = 0.25;                   ///< sphere radius [m]
    Real mass = 1.0;                      ///< [kg]
    Vec3 inertia{0.0};  ///< principal moments about the body axes [kg·m²] (filled by finish())
    Vec3 position{0.0};
    Quat orientation{1.0, 0.0, 0.0, 0.0};
    Vec3 linearVelocity{0.0};
    Vec3 angularVelocity{0.0};  ///< world axes [rad/s]
};

enum class JointKind { Revolute, Spherical, Prismatic };

struct JointSpec {
    JointKind kind = JointKind::Revolute;
    int body0 = -1;  ///< index into SceneSpec::bodies, −1 = the world
    int body1 = -1;
    Vec3 anchor{0.0};               ///< world anchor at the start [m]
    Quat axes{1.0, 0.0, 0.0, 0.0};  ///< world joint axes at the start (X = hinge / cone / slide axis)
    Transform frame0, frame1;       ///< local frames (filled by finish())
    // Revolute: symmetric twist limit ±limitAngle about X (symmetric so that each engine's sign
    // convention for the hinge angle does not matter).
    bool limit = false;
    Real limitAngle = 0.0;  ///< [rad]
    // Spherical: circular cone of half angle coneAngle around the frame X axis; twist free.
    bool cone = false;
    Real coneAngle = 0.0;  ///< [rad]
    // Prismatic: spring drive along X, F = stiffness·(target − d) + damping·(0 − ḋ).
    bool drive = false;
    Real stiffness = 0.0;  ///< [N/m]
    Real damping = 0.0;    ///< [N·s/m]
    Real target = 0.0;     ///< [m]
};

struct SceneSpec {
    std::string name;
    std::string description;
    std::vector<BodySpec> bodies;
    std::vector<JointSpec> joints;
    Real dt = 1.0 / 60.0;
    Vec3 gravity{0.0, -9.81, 0.0};
    int timingSteps = 60;  ///< steps timed per iteration count (the median is reported)

    /// Computes inertia from shape and mass and the local joint frames from the world anchors.
    void finish();
};

/// The scene names, in the order of the default run.
std::vector<std::string> sceneNames();
/// Scenes run only when named with --scene.
std::vector<std::string> extraSceneNames();
/// Builds scene `name`; throws std::invalid_argument for an unknown name.
SceneSpec makeScene(const std::string& name);

}  // namespace bench
