// D6 joint: each of the six relative motions (X, Y, Z along frame A's axes; twist about X; swing
// about Y and Z) is locked, limited or free, with optional drives (physx-joints-guide.md "D6").
//
//   Linear, per axis a_k of frame A:
//     locked  → C = a_k·(p0 − p1), J = {a_k, r0×a_k, −a_k, −(r1×a_k)}            (eq. 41–43)
//               (the locked axes' rows come before the limits, two or three a block: row.h)
//     limited → the slide coordinate x_k = a_k·(p1 − p0) bounded by linearLimit[k] (lower/upper
//               rows, J as in prismatic.h), or, with distanceLimit enabled, the length of the
//               projection of p1 − p0 onto the limited axes bounded by distanceLimit.upper.
//   Angular, from q = qA⁻¹·qB split as swing·twist:
//     all locked          → three angular locks, C_k = −2·q.vec_k                   (as fixed.h)
//     twist locked        → C = −twist about A's X, J = {0, ax, 0, −ax}
//     twist limited       → twist limit pair, J = {0, −ax, 0, −ax}                   (as revolute.h)
//     swing1 (Y) and swing2 (Z) both locked → the revolute's two hinge rows (C = −a·(ax × bx))
//     one swing locked    → B's X axis kept orthogonal to A's axis of the other swing's motion:
//                           swing1 locked: C = bx·az, J = {0, az×bx, 0, −(az×bx)}
//                           swing2 locked: C = bx·ay, J = {0, ay×bx, 0, −(ay×bx)}
//     both swings limited → elliptical cone (as spherical.h)
//     one swing limited   → that swing angle (β1 = atan2(−bx·az, bx·ax) about ay, or
//                           β2 = atan2(bx·ay, bx·ax) about az) within ±its cone angle.
//   Drives (soft rows, no force reported), targets in frame A:
//     X, Y, Z    → slide coordinates to drivePosition, velocities to driveLinearVelocity
//     twist      → twist angle to the target rotation's twist
//     swing      → swing angles about Y and Z to the target's swing angles
//     SLERP      → used instead of twist/swing when no angular axis is locked: three rows about
//                  A's axes on the rotation vector of driveRotation⁻¹·q (expressed in frame A).
#pragma once

#include <span>
#include <string>

#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/limits_drives.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

enum class D6Motion { Locked, Limited, Free };
inline constexpr const char* kD6MotionNames[] = {"locked", "limited", "free"};

enum D6Axis { kD6X, kD6Y, kD6Z, kD6Twist, kD6Swing1, kD6Swing2 };

struct D6Joint {
    static constexpr JointTypeInfo info{
        .name = "d6",
        .title = "D6 (configurable)",
        .description =
            "Six degrees of freedom — slide along X, Y, Z and rotate about X (twist), Y and Z (swing) of "
            "body 0's joint frame — each locked, limited or free, with drives towards a target pose. "
            "Locked everywhere it is a fixed joint; free twist only makes a hinge; free angles a ball "
            "joint. Presets give the cylindrical, point-on-plane and point-on-line joints.",
        .drawStyle = JointDrawStyle::Configurable,
        .hasLimits = true,
        .hasDrive = true};

    D6Motion motion[6] = {D6Motion::Locked, D6Motion::Locked, D6Motion::Locked,
                          D6Motion::Locked, D6Motion::Locked, D6Motion::Locked};
    LimitPair linearLimit[3] = {
        {false, -0.5, 0.5}, {false, -0.5, 0.5}, {false, -0.5, 0.5}};  ///< [m], per axis
    bool distanceLimitEnabled = false;  ///< limited linear axes share one radial limit instead
    LimitPair distanceLimit{false, 0.0,
                            0.5};  ///< only .upper (the radius) and the bound parameters are used [m]
    LimitPair twistLimit;          ///< [rad]
    ConeLimit swingLimit;          ///< cone angles used for limited swings [rad]
    Drive driveX, driveY, driveZ, driveTwist, driveSwing, driveSlerp;
    Vec3 drivePosition{0.0};                 ///< target position of frame B in frame A [m]
    Quat driveRotation{1.0, 0.0, 0.0, 0.0};  ///< target rotation of frame B in frame A
    Vec3 driveLinearVelocity{0.0};           ///< in frame A [m/s]
    Vec3 driveAngularVelocity{0.0};          ///< in frame A [rad/s]

    template <class V>
    void visit(V& v) {
        static constexpr const char* kMotionKeys[6] = {"motion.x",     "motion.y",      "motion.z",
                                                       "motion.twist", "motion.swing1", "motion.swing2"};
        for (int i = 0; i < 6; ++i)
            v(kMotionKeys[i], EnumField<D6Motion>{motion[i], kD6MotionNames, 3},
              Field{"", 0, 0, "locked, limited or free"});
        visitLimit(v,
                   {"linearLimitX.enabled", "linearLimitX.lower", "linearLimitX.upper",
                    "linearLimitX.contactDistance", "linearLimitX.restitution",
                    "linearLimitX.bounceThreshold", "linearLimitX.stiffness", "linearLimitX.damping"},
                   linearLimit[0], false);
        visitLimit(v,
                   {"linearLimitY.enabled", "linearLimitY.lower", "linearLimitY.upper",
                    "linearLimitY.contactDistance", "linearLimitY.restitution",
                    "linearLimitY.bounceThreshold", "linearLimitY.stiffness", "linearLimitY.damping"},
                   linearLimit[1], false);
        visitLimit(v,
                   {"linearLimitZ.enabled", "linearLimitZ.lower", "linearLimitZ.upper",
                    "linearLimitZ.contactDistance", "linearLimitZ.restitution",
                    "linearLimitZ.bounceThreshold", "linearLimitZ.stiffness", "linearLimitZ.damping"},
                   linearLimit[2], false);
        v("distanceLimitEnabled", distanceLimitEnabled,
          Field{"", 0, 0, "limited linear axes share one radial limit"});
        visitLimit(v,
                   {"distanceLimit.enabled", "distanceLimit.lower", "distanceLimit.upper",
                    "distanceLimit.contactDistance", "distanceLimit.restitution",
                    "distanceLimit.bounceThreshold", "distanceLimit.stiffness", "distanceLimit.damping"},
                   distanceLimit, false);
        visitLimit(v,
                   {"twistLimit.enabled", "twistLimit.lower", "twistLimit.upper",
                    "twistLimit.contactDistance", "twistLimit.restitution", "twistLimit.bounceThreshold",
                    "twistLimit.stiffness", "twistLimit.damping"},
                   twistLimit, true);
        visitCone(v,
                  {"swingLimit.enabled", "swingLimit.yAngle", "swingLimit.zAngle",
                   "swingLimit.contactDistance", "swingLimit.restitution", "swingLimit.bounceThreshold",
                   "swingLimit.stiffness", "swingLimit.damping"},
                  swingLimit);
        visitDrive(v,
                   {"driveX.enabled", "driveX.stiffness", "driveX.damping", "driveX.forceLimit",
                    "driveX.acceleration", "driveX.limitIsImpulse"},
                   driveX, false);
        visitDrive(v,
                   {"driveY.enabled", "driveY.stiffness", "driveY.damping", "driveY.forceLimit",
                    "driveY.acceleration", "driveY.limitIsImpulse"},
                   driveY, false);
        visitDrive(v,
                   {"driveZ.enabled", "driveZ.stiffness", "driveZ.damping", "driveZ.forceLimit",
                    "driveZ.acceleration", "driveZ.limitIsImpulse"},
                   driveZ, false);
        visitDrive(v,
                   {"driveTwist.enabled", "driveTwist.stiffness", "driveTwist.damping",
                    "driveTwist.forceLimit", "driveTwist.acceleration", "driveTwist.limitIsImpulse"},
                   driveTwist, true);
        visitDrive(v,
                   {"driveSwing.enabled", "driveSwing.stiffness", "driveSwing.damping",
                    "driveSwing.forceLimit", "driveSwing.acceleration", "driveSwing.limitIsImpulse"},
                   driveSwing, true);
        visitDrive(v,
                   {"driveSlerp.enabled", "driveSlerp.stiffness", "driveSlerp.damping",
                    "driveSlerp.forceLimit", "driveSlerp.acceleration", "driveSlerp.limitIsImpulse"},
                   driveSlerp, true);
        v("drivePosition", drivePosition, anyReal("m", "target position of frame B in frame A"));
        v("driveRotation", driveRotation,
          Field{"", 0, 0, "target rotation of frame B in frame A (unit quaternion w, x, y, z)"});
        v("driveLinearVelocity", driveLinearVelocity, anyReal("m/s", "target linear velocity in frame A"));
        v("driveAngularVelocity", driveAngularVelocity,
          anyReal("rad/s", "target angular velocity in frame A"));
    }

    std::string validate() const {
        static constexpr const char* kNames[3] = {"linearLimitX", "linearLimitY", "linearLimitZ"};
        for (int k = 0; k < 3; ++k)
            if (std::string e = linearLimit[k].validate(kNames[k]); !e.empty()) return e;
        if (distanceLimitEnabled && !(distanceLimit.upper >= 0.0))  // a radius; lower is not used
            return "distanceLimit.upper: must be >= 0 (the radius of the distance limit), got " +
                   std::to_string(distanceLimit.upper);
        return twistLimit.validate("twistLimit");
    }

    /// Named configurations from the joints guide.
    static D6Joint cylindrical();   ///< X and twist free: slide along and turn about the axis
    static D6Joint pointOnPlane();  ///< Y, Z and all rotations free: the origin stays on A's YZ plane
    static D6Joint pointOnLine();   ///< X and all rotations free: the origin stays on A's X axis
    /// The named configurations above, for the editor (kD6Presets).
    static std::span<const JointPreset<D6Joint>> presets();

    /// The limits of its limited motions and its drive target (joint_sketch.h).
    void sketch(JointSketch& out) const;
};

/// A named D6 configuration (for the editor and the examples).
using D6Preset = JointPreset<D6Joint>;
inline constexpr D6Preset kD6Presets[] = {
    {"cylindrical", &D6Joint::cylindrical},
    {"point-on-plane", &D6Joint::pointOnPlane},
    {"point-on-line", &D6Joint::pointOnLine},
};

inline std::span<const JointPreset<D6Joint>> D6Joint::presets() {
    return kD6Presets;
}

void prep(const D6Joint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
