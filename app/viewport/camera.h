// JointLab app — the orbit camera of the 3D viewport.
//
// The camera looks at `target` from `distance` away; `yaw` turns it about +Y and `pitch` lifts it
// above the horizon (the same convention as jl::CameraState in scenario files):
//   eye = target + distance · (cos(pitch)·sin(yaw), sin(pitch), cos(pitch)·cos(yaw))
#pragma once

#include <glm/glm.hpp>

#include "jointlab/scene.h"

namespace jl::app {

struct Ray {
    glm::vec3 origin;
    glm::vec3 direction;  ///< unit length
};

struct OrbitCamera {
    glm::vec3 target{0.0f, 1.0f, 0.0f};  ///< orbit centre [m]
    float distance = 8.0f;               ///< [m]
    float yaw = 0.6f;                    ///< [rad] about +Y
    float pitch = 0.35f;                 ///< [rad] above the horizon, kept within ±89°
    float fovY = 0.7854f;                ///< vertical field of view [rad] (45°) of a 5:4 or wider viewport

    /// Viewports narrower than 5:4 widen the vertical field of view so that they still show
    /// the same horizontal extent (a scenario's camera then frames the same scene whatever the
    /// panels leave of the window).
    static constexpr float kReferenceAspect = 1.25f;
    float effectiveFovY(float aspect) const;

    static OrbitCamera fromState(const CameraState& s);
    CameraState toState() const;

    glm::vec3 eye() const;
    glm::mat4 view() const;
    /// Perspective projection; near and far planes follow the orbit distance.
    glm::mat4 projection(float aspect) const;

    /// Turns the camera by mouse motion in pixels (right drag).
    void orbit(float dxPixels, float dyPixels);
    /// Moves the target in the view plane so the point under the mouse follows it (middle drag).
    void pan(float dxPixels, float dyPixels, float viewportWidthPixels, float viewportHeightPixels);
    /// Wheel steps: positive moves closer. Each step scales the distance by 0.85.
    void zoom(float wheelSteps);
    /// Looks at a sphere (centre, radius) so it fills about the viewport's height.
    void frame(const glm::vec3& center, float radius);

    /// The ray through a viewport point (pixels, origin top-left) for picking.
    Ray rayThrough(float xPixels, float yPixels, float viewportWidth, float viewportHeight) const;
};

/// The camera seen through a viewport of a given size: world points to viewport pixels (origin
/// top-left) and back, for picking joint anchors and gizmo handles in screen space.
struct ViewportProjection {
    OrbitCamera camera;
    float width = 1.0f, height = 1.0f;  ///< viewport size [pixels]
    float pixelScale = 1.0f;  ///< UI scale: on-screen sizes given in pixels (the gizmo) grow with it
    glm::mat4 viewProjection{1.0f};

    static ViewportProjection of(const OrbitCamera& camera, float width, float height);
    /// The pixel showing `world`; false when the point is behind the camera.
    bool toScreen(const glm::vec3& world, glm::vec2& pixel) const;
    Ray ray(const glm::vec2& pixel) const { return camera.rayThrough(pixel.x, pixel.y, width, height); }
    /// World length that looks `pixels` long at distance of `at` (constant-size gizmos).
    float worldSizeOfPixels(const glm::vec3& at, float pixels) const;
};

}  // namespace jl::app
