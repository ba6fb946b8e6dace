// JointLab engine — rigid body descriptions and mass properties.
//
// A body's frame is its centre of mass: shapes are centred on it, so the pose of the body is the
// pose of its centre of mass and joint frames are given relative to it (as PhysX's solverPrep
// receives the body transforms, physx-joints-guide.md "The Solver Preparation Function").
#pragma once

#include <string>

#include "jointlab/fields.h"
#include "jointlab/math.h"

namespace jl {

enum class MotionType { Dynamic, Static, Kinematic };
inline constexpr const char* kMotionTypeNames[] = {"dynamic", "static", "kinematic"};

enum class ShapeType { Box, Sphere, Capsule };
inline constexpr const char* kShapeTypeNames[] = {"box", "sphere", "capsule"};

enum class MassMode { Mass, Density };
inline constexpr const char* kMassModeNames[] = {"mass", "density"};

/// The ranges in which the solver works (docs/reliability.md, "Accepted ranges"). Within them no
/// mass, inertia or unit response J M⁻¹ Jᵀ of a dynamic body comes near a denormal number or the
/// solver's response threshold: inertia lies in [4e-13, 1.3e10] kg·m², a row's response in
/// [7e-11, 3e16], so rows are never dropped for want of response. A mass from density × volume must land in
/// [kMinMass, kMaxMass] too.
inline constexpr Real kMinSize = 1e-3;     ///< smallest half size or radius [m] (1 mm)
inline constexpr Real kMaxSize = 1e2;      ///< largest half size, radius or capsule half height [m] (100 m)
inline constexpr Real kMinMass = 1e-6;     ///< [kg] (1 mg)
inline constexpr Real kMaxMass = 1e6;      ///< [kg] (1000 t)
inline constexpr Real kMinDensity = 1e-3;  ///< [kg/m³] (a thousandth of air)
inline constexpr Real kMaxDensity = 1e5;   ///< [kg/m³] (four times osmium)

/// Everything the user sets about one body. Plain data: what the editor edits and files store.
struct BodyDesc {
    std::string name;                         ///< unique in the scene; joints refer to bodies by name
    MotionType motion = MotionType::Dynamic;  ///< dynamic bodies move under forces; static never move;
                                              ///< kinematic move with their velocity
    ShapeType shape = ShapeType::Box;
    Vec3 halfExtents{0.25, 0.25, 0.25};    ///< box half sizes [m]
    Real radius = 0.25;                    ///< sphere and capsule radius [m]
    Real halfHeight = 0.25;                ///< capsule: half length of the core segment, along local X [m]
    MassMode massMode = MassMode::Mass;    ///< mass given directly, or from density × volume
    Real mass = 1.0;                       ///< [kg], used when massMode == Mass
    Real density = 1000.0;                 ///< [kg/m^3], used when massMode == Density
    Vec3 position{0.0};                    ///< centre of mass in world [m]
    Quat orientation{1.0, 0.0, 0.0, 0.0};  ///< unit quaternion, body to world
    Vec3 linearVelocity{0.0};              ///< [m/s]
    Vec3 angularVelocity{0.0};             ///< world axes [rad/s]
    Real linearDamping = 0.0;              ///< v *= 1/(1 + c·dt) each step [1/s]
    Real angularDamping = 0.0;             ///< ω *= 1/(1 + c·dt) each step [1/s]

    template <class V>
    void visit(V& v) {
        v("name", name, Field{"", 0, 0, "unique name; joints refer to the body by it"});
        v("motion", EnumField<MotionType>{motion, kMotionTypeNames, 3},
          Field{"", 0, 0, "dynamic: moved by forces; static: fixed; kinematic: moves at its set velocity"});
        v("shape", EnumField<ShapeType>{shape, kShapeTypeNames, 3},
          Field{"", 0, 0, "collision and inertia shape"});
        v("halfExtents", halfExtents,
          relevantIf(shape == ShapeType::Box,
                     Field{"m", kMinSize, kMaxSize, "box half sizes along local X, Y, Z"}));
        v("radius", radius,
          relevantIf(shape != ShapeType::Box, Field{"m", kMinSize, kMaxSize, "sphere or capsule radius"}));
        v("halfHeight", halfHeight,
          relevantIf(shape == ShapeType::Capsule,
                     Field{"m", 0.0, kMaxSize, "capsule: half length of the core segment along local X"}));
        v("massMode", EnumField<MassMode>{massMode, kMassModeNames, 2},
          Field{"", 0, 0, "mass: use 'mass'; density: mass = density × shape volume"});
        v("mass", mass,
          relevantIf(massMode == MassMode::Mass,
                     Field{"kg", kMinMass, kMaxMass, "body mass (massMode = mass)"}));
        v("density", density,
          relevantIf(
              massMode == MassMode::Density,
              Field{"kg/m^3", kMinDensity, kMaxDensity,
                    "material density (massMode = density); density × volume must be a mass in range"}));
        v("position", position, anyReal("m", "centre of mass in world coordinates"));
        v("orientation", orientation, Field{"", 0, 0, "unit quaternion (w, x, y, z), body to world"});
        v("linearVelocity", linearVelocity, anyReal("m/s", "initial linear velocity"));
        v("angularVelocity", angularVelocity, anyReal("rad/s", "initial angular velocity, world axes"));
        v("linearDamping", linearDamping, nonNegative("1/s", "linear velocity damping rate"));
        v("angularDamping", angularDamping, nonNegative("1/s", "angular velocity damping rate"));
    }
};

/// Mass and principal inertia (about the centre of mass, in the body frame).
struct MassProperties {
    Real mass = 0.0;    ///< [kg]
    Vec3 inertia{0.0};  ///< principal moments about local X, Y, Z [kg·m^2]
};

/// Volume of the body's shape [m^3].
Real shapeVolume(const BodyDesc& b);

/// Mass and inertia tensor of a solid of the body's shape, from mass or density.
/// Static and kinematic bodies still get their shape's properties (used for display); the solver
/// treats them as infinitely heavy.
MassProperties computeMassProperties(const BodyDesc& b);

}  // namespace jl
