// JointLab engine — rigid body descriptions and mass properties.
//
// A body's frame is its centre of mass: shapes are centred on it, so the pose of the body is the
// pose of its centre of mass and joint frames are given relative to it (as PhysX's solverPrep
// receives the body transforms, physx-joints-guide.md "The Solver Preparation Function").
#pragma once

#include <string>
#include <vector>

#include "jointlab/fields.h"
#include "jointlab/math.h"

namespace jl {

enum class MotionType { Dynamic, Static, Kinematic };
inline constexpr const char* kMotionTypeNames[] = {"dynamic", "static", "kinematic"};

/// Box, sphere and capsule are solved against the ground analytically (contacts/ground.cpp); every
/// shape collides with the other bodies through Bullet's collision module (contacts/collide.cpp).
/// Cylinder and capsule lie along local X. A hull is the convex hull of BodyDesc::hullPoints; a
/// compound is BodyDesc::children, each a primitive or a hull (ShapeDesc::hullPoints) at a local pose.
enum class ShapeType { Box, Sphere, Capsule, Cylinder, Hull, Compound };
inline constexpr const char* kShapeTypeNames[] = {"box", "sphere", "capsule", "cylinder", "hull", "compound"};
inline constexpr int kShapeTypeCount = 6;
/// Shapes a compound's child may have (box, sphere, capsule, cylinder, hull: the first five names).
inline constexpr int kChildShapeTypeCount = 5;
/// Most points of a hull and most children of a compound (a file cannot make a body unbounded).
inline constexpr int kMaxHullPoints = 256;
inline constexpr int kMaxChildShapes = 64;

enum class MassMode { Mass, Density };
inline constexpr const char* kMassModeNames[] = {"mass", "density"};

/// The ranges in which the solver works (docs/reliability.md, "Accepted ranges"). Within them no
/// mass, inertia or unit response J M⁻¹ Jᵀ of a dynamic body comes near a denormal number or the
/// solver's response threshold: inertia lies in [4e-13, 1.3e10] kg·m², a row's response in
/// [7e-11, 3e16], so rows are never dropped for want of response. A mass from density × volume must land in
/// [kMinMass, kMaxMass] too.
inline constexpr Real kMinSize = 1e-3;      ///< smallest half size or radius [m] (1 mm)
inline constexpr Real kMaxSize = 1e2;       ///< largest half size, radius or capsule half height [m] (100 m)
inline constexpr Real kMinMass = 1e-6;      ///< [kg] (1 mg)
inline constexpr Real kMaxMass = 1e6;       ///< [kg] (1000 t)
inline constexpr Real kMinDensity = 1e-3;   ///< [kg/m³] (a thousandth of air)
inline constexpr Real kMaxDensity = 1e5;    ///< [kg/m³] (four times osmium)
inline constexpr Real kMinInertia = 1e-12;  ///< smallest explicit principal moment [kg·m²]
inline constexpr Real kMaxInertia = 1e10;   ///< largest explicit principal moment [kg·m²]

/// One child of a compound body: a box, sphere, capsule, cylinder or hull at a pose in the body's
/// frame.
struct ShapeDesc {
    ShapeType shape = ShapeType::Box;
    Vec3 halfExtents{0.1, 0.1, 0.1};       ///< box half sizes [m]
    Real radius = 0.1;                     ///< sphere, capsule and cylinder radius [m]
    Real halfHeight = 0.1;                 ///< capsule core / cylinder half length along local X [m]
    std::vector<Vec3> hullPoints;          ///< hull: points in the child's frame [m] ("hullPoints" in files)
    Vec3 position{0.0};                    ///< in the body's frame [m]
    Quat orientation{1.0, 0.0, 0.0, 0.0};  ///< child to body

    template <class V>
    void visit(V& v) {
        v("shape", EnumField<ShapeType>{shape, kShapeTypeNames, kChildShapeTypeCount},
          Field{"", 0, 0, "box, sphere, capsule, cylinder or hull (the convex hull of hullPoints)"});
        v("halfExtents", halfExtents,
          relevantIf(shape == ShapeType::Box,
                     Field{"m", kMinSize, kMaxSize, "box half sizes along local X, Y, Z"}));
        v("radius", radius,
          relevantIf(
              shape == ShapeType::Sphere || shape == ShapeType::Capsule || shape == ShapeType::Cylinder,
              Field{"m", kMinSize, kMaxSize, "sphere, capsule or cylinder radius"}));
        v("halfHeight", halfHeight,
          relevantIf(shape == ShapeType::Capsule || shape == ShapeType::Cylinder,
                     Field{"m", 0.0, kMaxSize, "capsule core / cylinder half length along local X"}));
        v("position", position, Field{"m", -kMaxSize, kMaxSize, "position in the body's frame"});
        v("orientation", orientation, Field{"", 0, 0, "unit quaternion (w, x, y, z), child to body"});
    }
};

/// Everything the user sets about one body. Plain data: what the editor edits and files store.
struct BodyDesc {
    std::string name;                         ///< unique in the scene; joints refer to bodies by name
    MotionType motion = MotionType::Dynamic;  ///< dynamic bodies move under forces; static never move;
                                              ///< kinematic move with their velocity
    ShapeType shape = ShapeType::Box;
    Vec3 halfExtents{0.25, 0.25, 0.25};  ///< box half sizes [m]
    Real radius = 0.25;                  ///< sphere and capsule radius [m]
    Real halfHeight = 0.25;              ///< capsule core / cylinder: half length along local X [m]
    std::vector<Vec3> hullPoints;        ///< hull: points in the body frame [m] ("hullPoints" in files)
    std::vector<ShapeDesc> children;     ///< compound: its shapes ("children" in files)
    /// Principal moments of inertia about local X, Y, Z [kg·m²] ("inertia" in files, written when
    /// set); all zero: the shape's, from its mass. Set by imports (MJCF, URDF), whose inertia is
    /// measured, not a uniform solid of the collision shape. Used with massMode = mass only.
    Vec3 inertia{0.0};
    /// Collision filter (PhysX's simulation filter): bodies A and B touch when
    /// (A.group & B.mask) != 0 and (B.group & A.mask) != 0.
    int collisionGroup = 1;
    int collisionMask = 0xFFFF;
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
        v("shape", EnumField<ShapeType>{shape, kShapeTypeNames, kShapeTypeCount},
          Field{"", 0, 0,
                "collision and inertia shape (hull: the convex hull of hullPoints; compound: its children)"});
        v("halfExtents", halfExtents,
          relevantIf(shape == ShapeType::Box,
                     Field{"m", kMinSize, kMaxSize, "box half sizes along local X, Y, Z"}));
        v("radius", radius,
          relevantIf(
              shape == ShapeType::Sphere || shape == ShapeType::Capsule || shape == ShapeType::Cylinder,
              Field{"m", kMinSize, kMaxSize, "sphere, capsule or cylinder radius"}));
        v("halfHeight", halfHeight,
          relevantIf(shape == ShapeType::Capsule || shape == ShapeType::Cylinder,
                     Field{"m", 0.0, kMaxSize, "capsule core / cylinder: half length along local X"}));
        v("collisionGroup", collisionGroup,
          Field{"", 0, 0xFFFF, "collision filter: the groups (bits) this body belongs to"});
        v("collisionMask", collisionMask,
          Field{"", 0, 0xFFFF, "collision filter: the groups (bits) this body collides with"});
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

/// Volume of the body's shape [m^3] (compound: the sum of its children's, overlaps counted twice).
Real shapeVolume(const BodyDesc& b);

/// Volume, centroid and inertia tensor per unit density about the body origin of one primitive
/// or a hull (body frame). Used for the mass properties and the validation of hulls.
struct VolumeProperties {
    Real volume = 0.0;
    Vec3 centroid{0.0};
    Mat3 inertia{0.0};  ///< ∫ (|r|² 1 − r rᵀ) dV about the body origin
};
VolumeProperties volumeProperties(const BodyDesc& b);
/// The same for a compound's child, in the child's own frame (about its origin).
VolumeProperties volumeProperties(const ShapeDesc& c);
/// The same for the convex hull of `points` (zero volume for fewer than 4 points or a flat set).
VolumeProperties hullProperties(const std::vector<Vec3>& points);

/// Farthest any point of the body's shape lies from its origin [m] (compound: over its children
/// at their poses), and of a child's shape from the child's own origin.
Real shapeRadius(const BodyDesc& b);
Real shapeRadius(const ShapeDesc& c);

/// The faces of the convex hull of `points` as triangles (3 vertices each, counter-clockwise
/// seen from outside); empty for fewer than 4 points or no volume. For drawing hulls.
std::vector<Vec3> hullTriangles(const std::vector<Vec3>& points);

/// Bodies A and B pass each other's collision filter (BodyDesc::collisionGroup, collisionMask).
inline bool filtersCollide(const BodyDesc& a, const BodyDesc& b) {
    return (a.collisionGroup & b.collisionMask) != 0 && (b.collisionGroup & a.collisionMask) != 0;
}

/// The body uses explicit principal moments (BodyDesc::inertia) instead of its shape's: they are
/// set and its mass is given (with density, mass and inertia both come from the shape, and the
/// moments are neither used nor saved: switching an imported body to density is how to drop them).
inline bool hasExplicitInertia(const BodyDesc& b) {
    return b.massMode == MassMode::Mass && (b.inertia.x != 0.0 || b.inertia.y != 0.0 || b.inertia.z != 0.0);
}

/// Mass and inertia tensor of a solid of the body's shape, from mass or density (or the body's
/// explicit principal moments, when it has them).
/// Static and kinematic bodies still get their shape's properties (used for display); the solver
/// treats them as infinitely heavy.
MassProperties computeMassProperties(const BodyDesc& b);

}  // namespace jl
