#include "viewport/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace jl::app {

namespace {
constexpr float kMaxPitch = 1.5533f;  // 89°
constexpr float kOrbitRadiansPerPixel = 0.006f;
constexpr float kMinDistance = 0.05f;
constexpr float kMaxDistance = 5000.0f;
}  // namespace

OrbitCamera OrbitCamera::fromState(const CameraState& s) {
    OrbitCamera c;
    c.target = glm::vec3(s.target);
    c.distance = std::clamp(static_cast<float>(s.distance), kMinDistance, kMaxDistance);
    c.yaw = static_cast<float>(s.yaw);
    c.pitch = std::clamp(static_cast<float>(s.pitch), -kMaxPitch, kMaxPitch);
    return c;
}

CameraState OrbitCamera::toState() const {
    CameraState s;
    s.target = Vec3(target);
    s.distance = distance;
    s.yaw = yaw;
    s.pitch = pitch;
    return s;
}

glm::vec3 OrbitCamera::eye() const {
    glm::vec3 offset(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return target + distance * offset;
}

glm::mat4 OrbitCamera::view() const {
    return glm::lookAt(eye(), target, glm::vec3(0, 1, 0));
}

float OrbitCamera::effectiveFovY(float aspect) const {
    aspect = std::max(aspect, 1e-3f);
    if (aspect >= kReferenceAspect) return fovY;
    float widened = 2.0f * std::atan(std::tan(fovY * 0.5f) * kReferenceAspect / aspect);
    return std::min(widened, 2.6f);  // ~150°, beyond that the view is useless anyway
}

glm::mat4 OrbitCamera::projection(float aspect) const {
    float nearPlane = std::max(0.01f, distance * 0.01f);
    float farPlane = distance * 50.0f + 200.0f;
    return glm::perspective(effectiveFovY(aspect), std::max(aspect, 1e-3f), nearPlane, farPlane);
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
    yaw -= dxPixels * kOrbitRadiansPerPixel;
    pitch = std::clamp(pitch + dyPixels * kOrbitRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, float viewportWidthPixels, float viewportHeightPixels) {
    // World size of one pixel at the target's depth.
    const float height = std::max(viewportHeightPixels, 1.0f);
    const float fov = effectiveFovY(viewportWidthPixels / height);
    float metersPerPixel = 2.0f * distance * std::tan(fov * 0.5f) / height;
    glm::mat4 v = view();
    glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    target += (-dxPixels * right + dyPixels * up) * metersPerPixel;
}

void OrbitCamera::zoom(float wheelSteps) {
    distance = std::clamp(distance * std::pow(0.85f, wheelSteps), kMinDistance, kMaxDistance);
}

void OrbitCamera::frame(const glm::vec3& center, float radius) {
    target = center;
    float r = std::max(radius, 0.1f);
    distance = std::clamp(1.15f * r / std::sin(fovY * 0.5f), kMinDistance, kMaxDistance);
}

Ray OrbitCamera::rayThrough(float xPixels, float yPixels, float viewportWidth, float viewportHeight) const {
    float aspect = viewportWidth / std::max(viewportHeight, 1.0f);
    float ndcX = 2.0f * xPixels / std::max(viewportWidth, 1.0f) - 1.0f;
    float ndcY = 1.0f - 2.0f * yPixels / std::max(viewportHeight, 1.0f);
    glm::mat4 inverse = glm::inverse(projection(aspect) * view());
    glm::vec4 nearPoint = inverse * glm::vec4(ndcX, ndcY, -1.0f, 1.0f);
    glm::vec4 farPoint = inverse * glm::vec4(ndcX, ndcY, 1.0f, 1.0f);
    glm::vec3 a = glm::vec3(nearPoint) / nearPoint.w;
    glm::vec3 b = glm::vec3(farPoint) / farPoint.w;
    return {a, glm::normalize(b - a)};
}

ViewportProjection ViewportProjection::of(const OrbitCamera& camera, float width, float height) {
    ViewportProjection p;
    p.camera = camera;
    p.width = std::max(width, 1.0f);
    p.height = std::max(height, 1.0f);
    p.viewProjection = camera.projection(p.width / p.height) * camera.view();
    return p;
}

bool ViewportProjection::toScreen(const glm::vec3& world, glm::vec2& pixel) const {
    const glm::vec4 clip = viewProjection * glm::vec4(world, 1.0f);
    if (clip.w <= 1e-6f) return false;
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    pixel = glm::vec2((ndc.x + 1.0f) * 0.5f * width, (1.0f - ndc.y) * 0.5f * height);
    return true;
}

float ViewportProjection::worldSizeOfPixels(const glm::vec3& at, float pixels) const {
    const float depth = std::max(glm::length(at - camera.eye()), 1e-3f);
    const float fov = camera.effectiveFovY(width / height);
    return pixels * 2.0f * depth * std::tan(fov * 0.5f) / height;
}

}  // namespace jl::app
