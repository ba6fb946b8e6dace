// JointLab benchmark — joint errors and energy, computed the same way for every engine from the
// bodies' poses and velocities (the engine only reports its state).
//
//   separation  |anchor1 − anchor0|, the distance between the two joint frame origins [m];
//               for a prismatic joint only the part across the slide axis counts.
//   angular     revolute: the angle between the two hinge axes plus how far the hinge angle is
//               past its limit; spherical with a cone: how far the swing is past the cone;
//               prismatic: the angle of the relative rotation [rad]. Spherical joints without a
//               cone have no angular constraint and are left out of the angular statistics.
//   energy      Σ ½m v² + ½ ωᵀI ω − m g·x + Σ ½k (d − target)² over drive springs [J].
#pragma once

#include <vector>

#include "scene_spec.h"

namespace bench {

struct BodyState {
    Vec3 position{0.0};
    Quat orientation{1.0, 0.0, 0.0, 0.0};
    Vec3 linearVelocity{0.0};
    Vec3 angularVelocity{0.0};  ///< world axes
};

struct ErrorStats {
    Real sepMax = 0, sepRms = 0;  ///< [m]
    Real angMax = 0, angRms = 0;  ///< [rad]
    int angCount = 0;             ///< joints with an angular constraint
    bool finite = true;
};

ErrorStats jointErrors(const SceneSpec& s, const std::vector<BodyState>& st);

Real totalEnergy(const SceneSpec& s, const std::vector<BodyState>& st);

/// The initial state of the scene description.
std::vector<BodyState> initialState(const SceneSpec& s);

}  // namespace bench
