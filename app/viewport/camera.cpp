#include "viewport/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <utility>

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

namespace {

/// The screen box of the spheres' outlines (each one's centre and its edges along the view's right
/// and up directions) and whether any of them is behind the camera.
struct ScreenBox {
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    bool behind = false;
};

ScreenBox screenBox(const OrbitCamera& camera, std::span<const glm::vec4> spheres, float width,
                    float height) {
    const ViewportProjection p = ViewportProjection::of(camera, width, height);
    const glm::mat4 v = camera.view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    ScreenBox box;
    for (const glm::vec4& s : spheres) {
        const glm::vec3 c(s);
        for (const glm::vec3& at : {c, c + s.w * right, c - s.w * right, c + s.w * up, c - s.w * up}) {
            glm::vec2 pixel;
            if (!p.toScreen(at, pixel) || glm::length(at - camera.eye()) < camera.distance * 0.01f) {
                box.behind = true;
                continue;
            }
            box.x0 = std::min(box.x0, pixel.x), box.x1 = std::max(box.x1, pixel.x);
            box.y0 = std::min(box.y0, pixel.y), box.y1 = std::max(box.y1, pixel.y);
        }
    }
    return box;
}

/// How far [lo, hi] must move to lie within [areaLo, areaHi] (it is no longer than the area).
float shiftInto(float lo, float hi, float areaLo, float areaHi) {
    constexpr float kSlack = 1.0f;  // [px] past the edge, so that the next look finds it inside
    if (lo < areaLo) return areaLo - lo + kSlack;
    if (hi > areaHi) return areaHi - hi - kSlack;
    return 0.0f;
}

}  // namespace

OrbitCamera keepInArea(const OrbitCamera& camera, std::span<const glm::vec4> spheres, float width,
                       float height, const ViewportArea& area) {
    OrbitCamera c = camera;
    const float areaWidth = area.x1 - area.x0, areaHeight = area.y1 - area.y0;
    if (spheres.empty() || areaWidth < 1.0f || areaHeight < 1.0f) return c;
    constexpr float kTolerance = 0.5f;  // [px]
    // Panning moves points nearer than the target further on screen than points beyond it, so the
    // box is looked at again after each move; a few moves settle it. Past the first 20 the camera
    // also backs off a little each time, which always ends it.
    for (int i = 0; i < 80; ++i) {
        const ScreenBox b = screenBox(c, spheres, width, height);
        if (b.behind) {
            c.distance = std::min(c.distance * 1.5f, kMaxDistance);
            continue;
        }
        if (b.x0 >= area.x0 - kTolerance && b.x1 <= area.x1 + kTolerance && b.y0 >= area.y0 - kTolerance &&
            b.y1 <= area.y1 + kTolerance)
            return c;
        const float grow = std::max((b.x1 - b.x0) / areaWidth, (b.y1 - b.y0) / areaHeight);
        if (grow > 1.0f || i >= 20)
            c.distance = std::min(c.distance * std::clamp(grow * 1.02f, 1.02f, 4.0f), kMaxDistance);
        if (grow > 1.0f) continue;  // smaller first, then into place
        // The scene follows a pan drag: this moves it by (dx, dy) pixels at the target's depth.
        c.pan(shiftInto(b.x0, b.x1, area.x0, area.x1), shiftInto(b.y0, b.y1, area.y0, area.y1), width,
              height);
    }
    return c;
}

void CameraFit::start(const OrbitCamera& scenarioCamera, std::vector<glm::vec4> bodyOutlines) {
    active = true;
    authored = scenarioCamera;
    outlines = std::move(bodyOutlines);
    placed_ = false;
}

void CameraFit::update(OrbitCamera& camera, float width, float height, const ViewportArea& area) {
    if (!active) return;
    const auto same = [](const OrbitCamera& a, const OrbitCamera& b) {
        return a.target == b.target && a.distance == b.distance && a.yaw == b.yaw && a.pitch == b.pitch &&
               a.fovY == b.fovY;
    };
    if (placed_ && !same(camera, applied_)) {
        active = false;  // the person moved it
        return;
    }
    if (placed_ && width == width_ && height == height_ && area.x0 == area_.x0 && area.y0 == area_.y0 &&
        area.x1 == area_.x1 && area.y1 == area_.y1)
        return;
    camera = keepInArea(authored, outlines, width, height, area);
    applied_ = camera;
    placed_ = true;
    width_ = width, height_ = height, area_ = area;
}

}  // namespace jl::app
