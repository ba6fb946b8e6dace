// JointLab app — what the viewport shows (View menu): toggles and the scales of the joint drawing.
#pragma once

namespace jl::app {

inline constexpr float kWeightArrow = 0.5f;  ///< automatic scale: the heaviest body's weight [m]

struct ViewOptions {
    bool showGrid = true;       ///< grid lines on the ground
    bool showAxes = true;       ///< world X (red), Y (green), Z (blue) through the origin
    bool showAxisGizmo = true;  ///< small orientation triad in the viewport corner
    bool showShadowRun = true;  ///< the compare's B, or the ghost of a branch left behind, translucent

    // Joint drawing (render/joint_draw.h).
    bool showJoints = true;        ///< master switch for everything below
    bool showJointFrames = true;   ///< both joint frames as RGB axes (X red, Y green, Z blue)
    bool showAnchors = true;       ///< a marker at each frame origin, and lines to the body centres
    bool showErrors = true;        ///< segment between the two anchors, green → yellow → red by error
    bool showLimits = true;        ///< arcs (twist), cones (swing), segments (linear), distance range
    bool showDriveTargets = true;  ///< where a drive pulls frame B: a dashed ghost frame
    bool showForces = true;        ///< reported force (orange) and torque (cyan) on body 1
    bool showLoad = true;          ///< anchors and connectors coloured by load / break threshold
    bool detailsForSelectedOnly = true;  ///< limits, drive targets and forces only for the selected joint

    // Contact drawing (render/contact_draw.h).
    bool showContacts = false;  ///< contact points, normals and impulse arrows (ground and bodies)

    float frameScale = 0.4f;  ///< axis length of the selected joint's frames [m]; others 60 %
    /// Arrow scales follow the scene: the weight of its heaviest dynamic body is kWeightArrow long
    /// (and that weight times 1 m for torques). Off: the two scales below.
    bool autoArrowScale = true;
    float forceScale = 0.005f;  ///< arrow length per newton [m/N] when not automatic
    float torqueScale = 0.01f;  ///< arrow length per newton metre [m/(N·m)] when not automatic
};

}  // namespace jl::app
