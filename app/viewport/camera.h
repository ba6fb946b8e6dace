// JointLab app — the orbit camera of the 3D viewport.
//
// The camera looks at `target` from `distance` away; `yaw` turns it about +Y and `pitch` lifts it
// above the horizon (the same convention as jl::CameraState in scenario files):
//   eye = target + distance · (cos(pitch)·sin(yaw), sin(pitch), cos(pitch)·cos(yaw))
#pragma once

#include <glm/glm.hpp>
#include <span>
#include <vector>

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

/// A part of a viewport in pixels (origin top-left): [x0, x1) × [y0, y1).
struct ViewportArea {
    float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
};

/// The camera moved as little as it takes for every sphere (xyz its centre, w its radius; 0 for a
/// point) to show inside `area` of a width × height viewport, the part that the tool bar and the
/// timeline leave uncovered: unchanged when they all show there already; else panned (the view's
/// direction stays) and, when they do not fit, moved back along that direction.
OrbitCamera keepInArea(const OrbitCamera& camera, std::span<const glm::vec4> spheres, float width,
                       float height, const ViewportArea& area);

/// The scenario's camera kept clear of the tool bar and the timeline: while it is active, every
/// change of the viewport's size or of what covers it frames the scene again from the scenario's
/// own camera (keepInArea); once the person moves the camera (orbit, pan, zoom, F, a menu), the
/// view is theirs and stays as they left it.
struct CameraFit {
    bool active = false;
    OrbitCamera authored;             ///< the scenario's camera
    std::vector<glm::vec4> outlines;  ///< the bodies as they stood when the scene opened (bodyOutlines)

    /// Starts keeping the scenario's camera clear (a scene opened, Reset camera).
    void start(const OrbitCamera& scenarioCamera, std::vector<glm::vec4> bodyOutlines);
    /// This frame's viewport: `camera` framed again when the viewport or its uncovered area changed;
    /// nothing once `camera` is not the one it set last (the person moved it).
    void update(OrbitCamera& camera, float width, float height, const ViewportArea& area);

private:
    bool placed_ = false;
    OrbitCamera applied_;  ///< the camera it set last
    float width_ = 0.0f, height_ = 0.0f;
    ViewportArea area_;
};

}  // namespace jl::app
