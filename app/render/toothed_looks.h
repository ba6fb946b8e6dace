// JointLab app — how gears and racks look. A body turned by a gear or rack-and-pinion joint is
// drawn as a toothed wheel about that joint's axis (whatever its collision shape; a gear is
// usually a thin box), and a body slid by one as its bar with teeth along the slide axis on the
// side facing its pinion. Teeth counts follow the couplings' ratios (meshing gears of radii R0,
// R1 turn at ratio R1/R0 and have teeth in that ratio; a rack's tooth spacing is its pinion's),
// and the teeth of neighbours interleave where they meet. What couples what comes from the joint
// types' sketches (sketch::Coupling), never from a type's name.
//
// GL-free: computed once per scene (SceneIndex revision) from the scene's descriptions; the
// renderer places the teeth with each body's pose (render/scene_draw.cpp).
#pragma once

#include <vector>

#include "jointlab/scene.h"
#include "session/scene_index.h"

namespace jl::app {

struct ToothedLook {
    enum class Kind { None, Gear, Rack };
    Kind kind = Kind::None;
    /// In the body's frame: the origin on the turning (sliding) axis, X along it; the gear's teeth
    /// lie in the YZ plane, angle 0 along Y growing towards Z.
    Transform frame;
    float pitchRadius = 0.0f;  ///< gear: where the teeth of two gears meet [m]
    float halfWidth = 0.0f;   ///< gear: half its thickness along X; rack: half its width across the teeth [m]
    int teeth = 0;            ///< gear: number of teeth
    float pitch = 0.0f;       ///< distance between teeth along the pitch circle or the rack [m]
    float phase = 0.0f;       ///< gear: angle of tooth 0 [rad]; rack: position of a tooth along X [m]
    float halfLength = 0.0f;  ///< rack: half its length along X [m]
    Vec3 face{0.0, 1.0, 0.0};   ///< rack: outward normal of the toothed side, in `frame` (⟂ X)
    float faceDistance = 0.0f;  ///< rack: from the axis to that side [m]

    /// Tooth height above the pitch line (the module: pitch / π) [m].
    float addendum() const { return pitch / 3.14159265f; }
};

/// One look per body of `scene` (Kind::None for most).
std::vector<ToothedLook> computeToothedLooks(const Scene& scene, const SceneIndex& index);

}  // namespace jl::app
