// JointLab editor — re-seating a joint at the bodies' current poses, for restoring a broken joint
// whose bodies drifted apart without snapping them back together.
//
// A joint holds when the geometric errors C of its hard rows are zero (one-sided rows: not
// below their bound). Restored as it was, a joint whose bodies are 1 m apart asks the solver to
// close that metre in one step (α·C/dt), which is an energy spike of megajoules. Re-seating
// instead moves frame B (frame1, on body 1) to where body 1's frame would be if body 1 were moved
// the least that makes every hard row hold: the bodies stay where they are and every row starts
// at C = 0. Free and limited motions keep their values (a hinge's angle stays the angle it has
// now, unless it is beyond a limit, where it is seated at the limit).
//
// How: Gauss-Newton on the joint's own rows (its prep function, joints/), moving a copy of body 1
// by the smallest twist δ = (Δv, Δω) with linear1·Δv + angular1·Δω = C for each hard row (row.h:
// ΔC = −(linear1·Δv + angular1·Δω)), until the rows hold; then frame1' = pose1⁻¹ · moved · frame1.
// Couplings measured from a start pose (gear, rack and pinion) are seated by their offset γ = 0:
// the World measures them again from the current poses (World::resetJointMemory).
#pragma once

#include <string>

#include "jointlab/joint.h"

namespace jl::app {

/// How far a joint is from holding, per unit: the largest violation of its linear hard rows and
/// of its angular ones.
struct HoldGap {
    Real linear = 0.0;   ///< [m]: the anchors apart, along the row's axis
    Real angular = 0.0;  ///< [rad]: the frames turned off the joint's axes
    Real largest() const { return linear > angular ? linear : angular; }
};

/// The re-seated joint and how far it was from holding before.
struct Reseat {
    JointDesc joint;         ///< frames (and a coupling's offset) changed; everything else as given
    Real errorBefore = 0.0;  ///< largest hard-row violation before [m or rad]
    Real errorAfter = 0.0;   ///< the same after re-seating (about 1e-12 when it worked)
    HoldGap gapBefore;       ///< errorBefore per unit, for saying it in metres and radians
};

/// Re-seats `joint` for body 0 at `pose0` and body 1 at `pose1` (identity for the world).
Reseat reseatJoint(const JointDesc& joint, const Transform& pose0, const Transform& pose1, Real dt);

/// The joint's hard rows with the bodies at these poses, measured afresh (angles and coupling
/// coordinates from these poses): the largest violation of each kind.
HoldGap jointHoldGap(const JointDesc& joint, const Transform& pose0, const Transform& pose1, Real dt);

/// The larger of the two [m or rad], where one number is wanted (re-seat's iteration, tests).
Real jointHoldError(const JointDesc& joint, const Transform& pose0, const Transform& pose1, Real dt);

/// The gap in words with its units: "9.83 m apart at its anchor", "0.524 rad (30°) off its axes",
/// both joined by "and", or "where it holds" when neither reaches 5e-4.
std::string holdGapText(const HoldGap& gap);

/// A frame between `from` (t = 0) and `to` (t = 1): positions blended, rotations slerped.
Transform blendFrames(const Transform& from, const Transform& to, Real t);

}  // namespace jl::app
