// JointLab app — the move/rotate gizmo for the selected body or joint frame.
//
// Three handles along the world axes, drawn at a constant size on screen: arrows (move mode) or
// rings (rotate mode). A left drag on an arrow moves the object along that axis, to the point of
// the axis nearest to the mouse ray; a drag on a ring turns it about that axis by the angle the
// mouse sweeps around the centre, in the ring's plane. Holding Ctrl snaps to 5 cm / 15°.
// GL-free: geometry, hit testing and drag maths here; the App draws with DebugDraw.
#pragma once

#include <optional>

#include "jointlab/math.h"
#include "render/debug_draw.h"
#include "viewport/camera.h"

namespace jl::app {

enum class GizmoMode { Move, Rotate };

inline constexpr float kGizmoPixels = 90.0f;       ///< handle length on screen
inline constexpr float kGizmoTolerance = 8.0f;     ///< pick distance to a handle [pixels]
inline constexpr float kGizmoRingFraction = 0.8f;  ///< ring radius / handle length
inline constexpr Real kSnapDistance = 0.05;        ///< [m]
inline constexpr Real kSnapAngle = kPi / 12.0;     ///< 15°

/// The handles' colours: X pink, Y lime, Z violet, drawn with a dark outline. Not the red, green
/// and blue of the joint frames' axes (DebugDraw::frame), so that a gizmo on a joint frame is told
/// apart from the frame it moves; the handle under the mouse turns white.
inline constexpr Color kGizmoColors[3] = {
    {1.00f, 0.40f, 0.70f, 1.0f}, {0.72f, 1.00f, 0.25f, 1.0f}, {0.62f, 0.52f, 1.00f, 1.0f}};
inline constexpr Color kGizmoHot{1.0f, 1.0f, 1.0f, 1.0f};

/// World length of the gizmo's handles at `origin`, so they look kGizmoPixels long.
float gizmoSize(const ViewportProjection& view, const glm::vec3& origin);

/// The handle (0 = X, 1 = Y, 2 = Z) under `mouse`, or -1.
int hitGizmo(const ViewportProjection& view, GizmoMode mode, const glm::vec3& origin, const glm::vec2& mouse);

/// A drag in progress.
struct GizmoDrag {
    GizmoMode mode = GizmoMode::Move;
    int axis = 0;
    Transform start;      ///< the object's pose when the drag began
    Vec3 origin{0.0};     ///< gizmo centre when the drag began
    Real startParam = 0;  ///< Move: position along the axis where the mouse grabbed it
    Vec3 startVector{0};  ///< Rotate: from the centre to the grab point, in the ring's plane
};

/// Starts a drag of `axis` for an object at `pose` with the gizmo at `origin`; nothing when the
/// axis is seen end-on (moving) or edge-on (rotating) and the mouse cannot say where it goes.
std::optional<GizmoDrag> beginGizmoDrag(GizmoMode mode, int axis, const Transform& pose, const Vec3& origin,
                                        const Ray& mouseRay);

/// The object's pose for the mouse ray now. A rotation turns about the gizmo origin.
Transform updateGizmoDrag(const GizmoDrag& drag, const Ray& mouseRay, bool snap);

/// Draws the handles on the overlay layer; `hot` (or -1) is highlighted.
void drawGizmo(DebugDraw& lines, GizmoMode mode, const glm::vec3& origin, float size, int hot);

}  // namespace jl::app
