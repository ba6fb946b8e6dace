// Orbit camera: eye position convention, framing, picking rays, pan under the mouse.
#include "viewport/camera.h"

#include <gtest/gtest.h>

#include <cmath>

namespace jl::app {
namespace {

TEST(OrbitCamera, EyeFollowsTheScenarioConvention) {
    OrbitCamera c;
    c.target = glm::vec3(1, 2, 3);
    c.distance = 10.0f;
    c.yaw = 0.0f;
    c.pitch = 0.0f;
    glm::vec3 e = c.eye();  // yaw 0, pitch 0: on +Z of the target
    EXPECT_NEAR(e.x, 1.0f, 1e-5f);
    EXPECT_NEAR(e.y, 2.0f, 1e-5f);
    EXPECT_NEAR(e.z, 13.0f, 1e-5f);
    c.pitch = 1.5707963f * 0.5f;  // 45° up
    EXPECT_NEAR(c.eye().y - 2.0f, 10.0f * std::sin(0.785398f), 1e-4f);
}

TEST(OrbitCamera, StateRoundTrip) {
    CameraState s;
    s.target = Vec3(0.5, 1.5, -2.0);
    s.distance = 7.0;
    s.yaw = -0.4;
    s.pitch = 0.6;
    CameraState back = OrbitCamera::fromState(s).toState();
    EXPECT_NEAR(back.target.z, -2.0, 1e-6);
    EXPECT_NEAR(back.distance, 7.0, 1e-6);
    EXPECT_NEAR(back.yaw, -0.4, 1e-6);
    EXPECT_NEAR(back.pitch, 0.6, 1e-6);
}

TEST(OrbitCamera, PitchStaysBelowTheVertical) {
    OrbitCamera c;
    c.orbit(0.0f, 1e6f);
    EXPECT_LT(c.pitch, 1.5708f);
    c.orbit(0.0f, -1e6f);
    EXPECT_GT(c.pitch, -1.5708f);
}

TEST(OrbitCamera, CentreRayHitsTheTarget) {
    OrbitCamera c;
    c.target = glm::vec3(0.3f, 1.0f, -0.2f);
    Ray r = c.rayThrough(400.0f, 300.0f, 800.0f, 600.0f);
    glm::vec3 toTarget = glm::normalize(c.target - r.origin);
    EXPECT_GT(glm::dot(toTarget, r.direction), 0.99999f);
}

TEST(OrbitCamera, FramedSphereFitsTheView) {
    OrbitCamera c;
    c.frame(glm::vec3(2, 0, 0), 1.5f);
    EXPECT_EQ(c.target, glm::vec3(2, 0, 0));
    // The sphere's angular radius is within half the vertical field of view.
    EXPECT_LE(std::asin(1.5f / c.distance), c.fovY * 0.5f);
}

TEST(OrbitCamera, PanMovesTheTargetOneToOneUnderTheMouse) {
    OrbitCamera c;
    c.yaw = 0.0f;
    c.pitch = 0.0f;
    c.distance = 10.0f;
    const glm::vec3 before = c.target;
    c.pan(100.0f, 0.0f, 1000.0f, 500.0f);  // 100 px to the right, 2:1 viewport (no widening)
    const float metersPerPixel = 2.0f * 10.0f * std::tan(c.fovY * 0.5f) / 500.0f;
    EXPECT_NEAR(c.target.x - before.x, -100.0f * metersPerPixel, 1e-4f);  // camera right is +X at yaw 0
}

TEST(OrbitCamera, NarrowViewportsKeepTheHorizontalExtent) {
    OrbitCamera c;
    const float wide = OrbitCamera::kReferenceAspect;
    EXPECT_FLOAT_EQ(c.effectiveFovY(wide * 1.5f), c.fovY);
    const float narrow = 0.8f;
    const float halfWidthNarrow = std::tan(c.effectiveFovY(narrow) * 0.5f) * narrow;
    const float halfWidthReference = std::tan(c.fovY * 0.5f) * wide;
    EXPECT_NEAR(halfWidthNarrow, halfWidthReference, 1e-5f);
}

}  // namespace
}  // namespace jl::app

namespace jl::app {
namespace {

/// The pixel (top-left origin) where a world point appears, the inverse of rayThrough.
glm::vec2 project(const OrbitCamera& c, const glm::vec3& p, float w, float h) {
    glm::vec4 clip = c.projection(w / h) * c.view() * glm::vec4(p, 1.0f);
    glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return {(ndc.x + 1.0f) * 0.5f * w, (1.0f - ndc.y) * 0.5f * h};
}

TEST(OrbitCamera, RayThroughAProjectedPointPassesThroughIt) {
    OrbitCamera c;
    c.target = glm::vec3(0.0f, 1.6f, 0.0f);
    c.distance = 9.5f;
    c.yaw = 0.3f;
    c.pitch = 0.28f;
    for (float aspectWidth : {400.0f, 800.0f, 1600.0f}) {  // narrow viewports widen the field of view
        const glm::vec3 point(-0.9f, 1.1f, 0.2f);
        glm::vec2 px = project(c, point, aspectWidth, 800.0f);
        Ray r = c.rayThrough(px.x, px.y, aspectWidth, 800.0f);
        glm::vec3 toPoint = point - r.origin;
        float along = glm::dot(toPoint, r.direction);
        EXPECT_LT(glm::length(toPoint - along * r.direction), 1e-3f) << aspectWidth;
    }
}

}  // namespace
}  // namespace jl::app
